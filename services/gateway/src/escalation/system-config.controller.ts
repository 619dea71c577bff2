import { Controller, Get, Inject } from '@nestjs/common';
import type { RpcClient } from '@lws/messaging';
import { RPC } from '../common/rpc';
import { Roles } from '../common/session.guard';

export const EMERGENCY_NUMBER_KEYS = ['EMERGENCY_NUMBER_1', 'EMERGENCY_NUMBER_2', 'EMERGENCY_NUMBER_3'] as const;

/**
 * System Config of the spec, read-only: the emergency numbers and call timeout come from the
 * deployment's configuration (decisions.md), so there is deliberately no route that writes them.
 */
@Controller('api/system-config')
export class SystemConfigController {
  constructor(@Inject(RPC) private readonly rpc: RpcClient) {}

  @Get()
  @Roles('superadmin')
  async get() {
    const config = await this.rpc.send('escalation.config.get.v1', {});
    return [
      ...EMERGENCY_NUMBER_KEYS.map((key, i) => ({ key, value: config.emergencyNumbers[i] ?? '' })),
      { key: 'EMERGENCY_CALL_TIMEOUT', value: String(config.callTimeoutSeconds) },
    ];
  }
}
