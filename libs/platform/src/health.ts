import { Controller, Get, HttpCode, Injectable, Res } from '@nestjs/common';
import type { Response } from 'express';
import { metricsText } from './metrics';

export type ReadinessCheck = () => Promise<void>;

/** Named checks that must all pass before the service takes traffic. */
@Injectable()
export class Readiness {
  private readonly checks = new Map<string, ReadinessCheck>();
  private started = false;

  add(name: string, check: ReadinessCheck): void {
    this.checks.set(name, check);
  }

  markStarted(): void {
    this.started = true;
  }

  async report(): Promise<{ ready: boolean; checks: Record<string, string> }> {
    const checks: Record<string, string> = { started: this.started ? 'ok' : 'starting' };
    let ready = this.started;
    for (const [name, check] of this.checks) {
      try {
        await withTimeout(check(), 2000);
        checks[name] = 'ok';
      } catch (err) {
        ready = false;
        checks[name] = err instanceof Error ? err.message : 'failed';
      }
    }
    return { ready, checks };
  }
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
    p.then(
      (v) => {
        clearTimeout(t);
        resolve(v);
      },
      (e) => {
        clearTimeout(t);
        reject(e);
      },
    );
  });
}

@Controller()
export class HealthController {
  constructor(private readonly readiness: Readiness) {}

  /** Liveness: the process answers. Dependencies are readiness, not liveness. */
  @Get('healthz')
  @HttpCode(200)
  live() {
    return { status: 'ok' };
  }

  /** 503 when a check fails; the body names each check either way (an exception filter must not reshape it). */
  @Get('readyz')
  async ready(@Res({ passthrough: true }) res: Response) {
    const report = await this.readiness.report();
    res.status(report.ready ? 200 : 503);
    return { status: report.ready ? 'ready' : 'not ready', checks: report.checks };
  }
}

/** Prometheus scrapes this on the health port, never on a public one. */
@Controller()
export class MetricsController {
  @Get('metrics')
  async metrics(@Res() res: Response): Promise<void> {
    const { contentType, body } = await metricsText();
    res.setHeader('Content-Type', contentType);
    res.send(body);
  }
}
