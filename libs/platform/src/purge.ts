import type { Logger } from './logger';
import type { Chores } from './chores';
import { metrics } from './metrics';

/** Personal data kept for a while and then deleted: device positions, 30 days after the shift ends. */
export const POSITION_RETENTION_DAYS = 30;

/**
 * A deletion run as a chore: at start-up and then every `intervalMs`, one round at a time; a
 * failed round is counted and retried at the next, what it deleted is counted.
 */
export class PeriodicPurge {
  constructor(
    private readonly o: { service: string; what: string; chore: string; intervalMs: number; logger: Logger; purge: () => Promise<number> },
  ) {}

  start(chores: Chores): void {
    chores.every(this.o.chore, this.o.intervalMs, () => this.round(), { runNow: true });
  }

  private async round(): Promise<void> {
    const { service, what } = this.o;
    try {
      const deleted = await this.o.purge();
      metrics.purgeRounds.inc({ service, what, outcome: 'ok' });
      if (deleted > 0) {
        metrics.purged.inc({ service, what }, deleted);
        this.o.logger.info({ deleted }, `deleted ${deleted} ${what} past their retention`);
      }
    } catch (err) {
      metrics.purgeRounds.inc({ service, what, outcome: 'failed' });
      throw err;
    }
  }
}
