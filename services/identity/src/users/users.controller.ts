import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import type { CommandMap } from '@lws/contracts';
import { Command } from '@lws/messaging';
import { UsersService } from './users.service';
import { DeactivationService } from './deactivation.service';

@Controller()
export class UsersController {
  constructor(
    private readonly users: UsersService,
    private readonly deactivation: DeactivationService,
  ) {}

  @Command('identity.user.get.v1')
  async get(@Payload() req: CommandMap['identity.user.get.v1']['request']) {
    return { user: await this.users.get(req.userId) };
  }

  @Command('identity.user.create.v1')
  create(@Payload() req: CommandMap['identity.user.create.v1']['request']) {
    return this.users.create(req);
  }

  @Command('identity.user.list.v1')
  list(@Payload() req: CommandMap['identity.user.list.v1']['request']) {
    return this.users.list(req);
  }

  @Command('identity.user.update_profile.v1')
  updateProfile(@Payload() req: CommandMap['identity.user.update_profile.v1']['request']) {
    return this.users.updateProfile(req);
  }

  @Command('identity.user.delete.v1')
  delete(@Payload() req: CommandMap['identity.user.delete.v1']['request']) {
    return this.users.delete(req);
  }

  @Command('identity.user.set_active.v1')
  setActive(@Payload() req: CommandMap['identity.user.set_active.v1']['request']) {
    return this.deactivation.setActiveBy(req);
  }
}
