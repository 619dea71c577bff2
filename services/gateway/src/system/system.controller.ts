import { Controller, Get, Inject } from '@nestjs/common';
import type { CommandPattern } from '@lws/contracts';
import type { RpcClient } from '@lws/messaging';
import { RPC } from '../common/rpc';
import { Roles } from '../common/session.guard';

export const BACKEND_SERVICES = ['identity', 'locations', 'shifts', 'escalation', 'notifications', 'audit'] as const;

/** Asks every service over the bus whether it is ready. */
export async function serviceStatus(rpc: RpcClient, timeoutMs = 2000) {
  const entries = await Promise.all(
    BACKEND_SERVICES.map(async (service) => {
      try {
        const reply = (await rpc.send(`${service}.system.ping.v1` as CommandPattern, {} as never, { timeoutMs })) as { ready: boolean };
        return [service, reply.ready ? 'ready' : 'not ready'] as const;
      } catch {
        return [service, 'unreachable'] as const;
      }
    }),
  );
  return Object.fromEntries(entries) as Record<(typeof BACKEND_SERVICES)[number], string>;
}

@Controller('api/system')
export class SystemController {
  constructor(@Inject(RPC) private readonly rpc: RpcClient) {}

  @Get('status')
  @Roles('superadmin')
  async status() {
    const services = await serviceStatus(this.rpc);
    return { services, allReady: Object.values(services).every((s) => s === 'ready') };
  }
}
