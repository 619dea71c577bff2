import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import type { CommandMap } from '@lws/contracts';
import { Command } from '@lws/messaging';
import { EmergenciesService } from './emergencies.service';

@Controller()
export class EmergenciesController {
  constructor(private readonly emergencies: EmergenciesService) {}

  @Command('shifts.emergency.raise.v1')
  raise(@Payload() req: CommandMap['shifts.emergency.raise.v1']['request']) {
    return this.emergencies.raise(req.userId, req.duress === true);
  }
}
