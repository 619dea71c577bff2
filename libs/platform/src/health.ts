import { Controller, Get, HttpCode, Injectable, ServiceUnavailableException } from '@nestjs/common';

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

  @Get('readyz')
  async ready() {
    const report = await this.readiness.report();
    if (!report.ready) throw new ServiceUnavailableException({ status: 'not ready', checks: report.checks });
    return { status: 'ready', checks: report.checks };
  }
}
