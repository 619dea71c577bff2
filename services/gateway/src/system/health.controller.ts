import { Controller, Get, HttpCode, Res } from '@nestjs/common';
import type { Response } from 'express';
import { HealthController, Readiness } from '@lws/platform';
import { Public } from '../common/session.guard';

/**
 * The platform's probes, open to anonymous callers: a load balancer or kubelet has no session.
 * Readiness covers the gateway's own dependencies (Redis sessions, the NATS connection); whether
 * the services behind it are ready is each service's own probe.
 */
@Controller()
export class GatewayHealthController {
  private readonly health: HealthController;

  constructor(readiness: Readiness) {
    this.health = new HealthController(readiness);
  }

  @Public()
  @Get('healthz')
  @HttpCode(200)
  live() {
    return this.health.live();
  }

  @Public()
  @Get('readyz')
  ready(@Res({ passthrough: true }) res: Response) {
    return this.health.ready(res);
  }
}
