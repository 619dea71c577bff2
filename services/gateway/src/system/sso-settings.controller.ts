import { Body, Controller, Get, Inject, Put, Req } from '@nestjs/common';
import type { RpcClient } from '@lws/messaging';
import { ssoUris } from '../auth/sso.controller';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config';
import { RPC } from '../common/rpc';
import { Roles, type AuthedRequest } from '../common/session.guard';
import { parseInput } from '../common/validation';
import { ssoSettingsSchema } from './sso-settings.schema';

/** The superadmin's single sign-on settings; the client secret is written, never read back. */
@Controller('api/system/sso')
export class SsoSettingsController {
  constructor(
    @Inject(RPC) private readonly rpc: RpcClient,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  @Get()
  @Roles('superadmin')
  async get(@Req() req: AuthedRequest) {
    return { ...(await this.rpc.send('identity.sso.get_settings.v1', {})), ...ssoUris(this.config, req) };
  }

  @Put()
  @Roles('superadmin')
  async put(@Body() body: unknown, @Req() req: AuthedRequest) {
    const input = parseInput(ssoSettingsSchema, body);
    const view = await this.rpc.send('identity.sso.set_settings.v1', { ...input, actorId: req.session!.userId });
    return { ...view, ...ssoUris(this.config, req) };
  }
}
