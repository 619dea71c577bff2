import type { Logger } from './logger';
import { metrics } from './metrics';
import { OutageLog } from './outage-log';

/** Personal data kept for a while and then deleted (issue 13: device positions, 30 days after the shift ends). */
export const POSITION_RETENTION_DAYS = 30;

/**
 * Runs a deletion at start-up and then every `intervalMs`: one round at a time, a failed round
 * logged once per outage (and counted) and tried again at the next, what it deleted counted.
 */
export class PeriodicPurge {
  private timer?: NodeJS.Timeout;
  private running?: Promise<unknown>;
  private readonly outage: OutageLog;

  constructor(
    private readonly o: { service: string; what: string; intervalMs: number; logger: Logger; purge: () => Promise<number> },
  ) {
    this.outage = new OutageLog(o.logger, `purging ${o.what}`);
  }

  start(): void {
    this.round();
    this.timer = setInterval(() => this.round(), this.o.intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  private round(): void {
    if (this.running) return;
    const { service, what } = this.o;
    this.running = this.o
      .purge()
      .then((deleted) => {
        this.outage.succeeded();
        metrics.purgeRounds.inc({ service, what, outcome: 'ok' });
        if (deleted > 0) {
          metrics.purged.inc({ service, what }, deleted);
          this.o.logger.info({ deleted }, `deleted ${deleted} ${what} past their retention`);
        }
      })
      .catch((err: unknown) => {
        metrics.purgeRounds.inc({ service, what, outcome: 'failed' });
        this.outage.failed(err);
      })
      .finally(() => (this.running = undefined));
  }
}
