import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import type { CommandMap } from '@lws/contracts';
import { Command } from '@lws/messaging';
import { ApiTokensService } from './api-tokens.service';

type Req<P extends keyof CommandMap> = CommandMap[P]['request'];

@Controller()
export class ApiTokensController {
  constructor(private readonly tokens: ApiTokensService) {}

  @Command('identity.api_token.list.v1')
  list(@Payload() req: Req<'identity.api_token.list.v1'>) {
    return this.tokens.list(req.actorId);
  }

  @Command('identity.api_token.create.v1')
  create(@Payload() req: Req<'identity.api_token.create.v1'>) {
    return this.tokens.create(req);
  }

  @Command('identity.api_token.revoke.v1')
  revoke(@Payload() req: Req<'identity.api_token.revoke.v1'>) {
    return this.tokens.revoke(req);
  }

  @Command('identity.api_token.authenticate.v1')
  authenticate(@Payload() req: Req<'identity.api_token.authenticate.v1'>) {
    return this.tokens.authenticate(req.token);
  }
}
