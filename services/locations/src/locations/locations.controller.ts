import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import type { CommandMap } from '@lws/contracts';
import { Command } from '@lws/messaging';
import { LocationsService } from './locations.service';

type Req<P extends keyof CommandMap> = CommandMap[P]['request'];

@Controller()
export class LocationsController {
  constructor(private readonly locations: LocationsService) {}

  @Command('locations.location.list.v1')
  list(@Payload() req: Req<'locations.location.list.v1'>) {
    return this.locations.list(req);
  }

  @Command('locations.location.create.v1')
  create(@Payload() req: Req<'locations.location.create.v1'>) {
    return this.locations.create(req);
  }

  @Command('locations.location.update.v1')
  update(@Payload() req: Req<'locations.location.update.v1'>) {
    return this.locations.update(req);
  }

  @Command('locations.location.delete.v1')
  delete(@Payload() req: Req<'locations.location.delete.v1'>) {
    return this.locations.delete(req);
  }
}
