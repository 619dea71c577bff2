import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import type { CommandMap } from '@lws/contracts';
import { Command } from '@lws/messaging';
import { ScimService } from './scim.service';
import { ScimTokensService } from './scim-tokens.service';

type Req<P extends keyof CommandMap> = CommandMap[P]['request'];

@Controller()
export class ScimController {
  constructor(
    private readonly scim: ScimService,
    private readonly tokens: ScimTokensService,
  ) {}

  @Command('identity.scim.request.v1')
  request(@Payload() req: Req<'identity.scim.request.v1'>) {
    return this.scim.handle(req);
  }

  @Command('identity.scim_token.list.v1')
  listTokens() {
    return this.tokens.list();
  }

  @Command('identity.scim_token.create.v1')
  createToken(@Payload() req: Req<'identity.scim_token.create.v1'>) {
    return this.tokens.create(req.name, req.actorId);
  }

  @Command('identity.scim_token.revoke.v1')
  revokeToken(@Payload() req: Req<'identity.scim_token.revoke.v1'>) {
    return this.tokens.revoke(req.id, req.actorId);
  }
}
