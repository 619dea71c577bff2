import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import type { CommandMap } from '@lws/contracts';
import { Command } from '@lws/messaging';
import { AuthService } from './auth.service';

@Controller()
export class AuthController {
  constructor(private readonly auth: AuthService) {}

  @Command('identity.auth.verify_password.v1')
  async verifyPassword(@Payload() req: CommandMap['identity.auth.verify_password.v1']['request']) {
    return { user: await this.auth.verifyPassword(req.username, req.password) };
  }
}
