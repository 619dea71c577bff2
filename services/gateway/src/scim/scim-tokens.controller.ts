import { Body, Controller, Delete, Get, Inject, Param, Post, Req } from '@nestjs/common';
import type { CommandMap } from '@lws/contracts';
import type { RpcClient } from '@lws/messaging';
import { PositiveIntPipe } from '../common/access';
import { RPC } from '../common/rpc';
import { Roles, type AuthedRequest } from '../common/session.guard';
import { parseInput } from '../common/validation';
import { createScimTokenSchema } from './scim-tokens.schema';

type TokenView = CommandMap['identity.scim_token.list.v1']['reply']['tokens'][number];

/** A token as the superadmin's screen shows it: never the token itself after its creation. */
function browserToken(t: TokenView) {
  return {
    id: t.id,
    name: t.name,
    prefix: t.prefix,
    createdAt: t.createdAt,
    lastUsedAt: t.lastUsedAt ?? null,
    revokedAt: t.revokedAt ?? null,
  };
}

/** The provisioning clients' bearer tokens (SCIM), managed by the superadmin (docs/sso-scim.md). */
@Controller('api/system/scim-tokens')
export class ScimTokensController {
  constructor(@Inject(RPC) private readonly rpc: RpcClient) {}

  @Get()
  @Roles('superadmin')
  async list() {
    const { tokens } = await this.rpc.send('identity.scim_token.list.v1', {});
    return { tokens: tokens.map(browserToken) };
  }

  /** 201 with the secret, shown this once: LWS keeps only its hash. */
  @Post()
  @Roles('superadmin')
  async create(@Body() body: unknown, @Req() req: AuthedRequest) {
    const { name } = parseInput(createScimTokenSchema, body);
    const { token, secret } = await this.rpc.send('identity.scim_token.create.v1', { name, actorId: req.session!.userId });
    return { token: browserToken(token), secret };
  }

  @Delete(':id')
  @Roles('superadmin')
  revoke(@Param('id', new PositiveIntPipe('id', 'Invalid token ID')) id: number, @Req() req: AuthedRequest) {
    return this.rpc.send('identity.scim_token.revoke.v1', { id, actorId: req.session!.userId });
  }
}
