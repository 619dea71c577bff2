import { Body, Controller, Delete, Get, Inject, Param, Post, Req } from '@nestjs/common';
import type { CommandMap } from '@lws/contracts';
import type { RpcClient } from '@lws/messaging';
import { createApiTokenSchema } from '@lws/schemas';
import { PositiveIntPipe } from '../common/access';
import { RPC } from '../common/rpc';
import { Roles, type AuthedRequest } from '../common/session.guard';
import { parseInput } from '../common/validation';

type TokenView = CommandMap['identity.api_token.list.v1']['reply']['tokens'][number];

/** A token as its screens show it: never the token itself after its creation. */
export function browserApiToken(t: TokenView) {
  return {
    id: t.id,
    name: t.name,
    prefix: t.prefix,
    last4: t.last4,
    scopes: t.scopes,
    createdBy: t.createdBy,
    createdByName: t.createdByName,
    createdAt: t.createdAt,
    expiresAt: t.expiresAt,
    lastUsedAt: t.lastUsedAt ?? null,
    useCount: t.useCount,
    revokedAt: t.revokedAt ?? null,
  };
}

/**
 * Machines' API tokens (docs/api-tokens.md). An admin makes tokens that act as them, within their
 * teams; the superadmin sees and revokes everyone's. Only people manage tokens: no token can make
 * or revoke one (no @TokenScope here).
 */
@Controller('api/api-tokens')
@Roles('admin', 'superadmin')
export class ApiTokensController {
  constructor(@Inject(RPC) private readonly rpc: RpcClient) {}

  @Get()
  async list(@Req() req: AuthedRequest) {
    const { tokens } = await this.rpc.send('identity.api_token.list.v1', { actorId: req.session!.userId });
    return { tokens: tokens.map(browserApiToken) };
  }

  /** 201 with the secret, shown this once: LWS keeps only its hash. */
  @Post()
  async create(@Body() body: unknown, @Req() req: AuthedRequest) {
    const input = parseInput(createApiTokenSchema, body);
    const { token, secret } = await this.rpc.send('identity.api_token.create.v1', { ...input, actorId: req.session!.userId });
    return { token: browserApiToken(token), secret };
  }

  @Delete(':id')
  revoke(@Param('id', new PositiveIntPipe('id', 'Invalid token ID')) id: number, @Req() req: AuthedRequest) {
    return this.rpc.send('identity.api_token.revoke.v1', { id, actorId: req.session!.userId });
  }
}
