import type { SchedulerRegistry } from '@nestjs/schedule';
import type { Logger } from './logger';
import { metrics } from './metrics';
import { OutageLog } from './outage-log';

export interface ChoreOptions {
  /** Run once at once as well (a purge at start-up), not only after the first period. */
  runNow?: boolean;
}

/**
 * A service's periodic chores (pruning, purging, auditing, sweeping), kept in Nest's scheduler
 * registry by name (`@nestjs/schedule`), so one place lists them and stops them. Each
 * runs one round at a time (a slow round is never overlapped by the next), logs a failure once per
 * outage and retries at its next period, and counts its rounds and their duration
 * (`lws_chore_runs_total`, `lws_chore_duration_seconds`). Stopping waits for a round under way.
 * The deadline scheduler is not a chore: it keeps its own loop, driven by the database.
 */
export class Chores {
  private readonly running = new Map<string, Promise<void>>();
  private readonly names = new Set<string>();

  constructor(
    private readonly service: string,
    private readonly registry: SchedulerRegistry,
    private readonly logger: Logger,
  ) {}

  every(name: string, periodMs: number, chore: () => Promise<unknown>, { runNow = false }: ChoreOptions = {}): void {
    const outage = new OutageLog(this.logger.child({ chore: name }), name);
    const round = () => {
      if (this.running.has(name)) return;
      const labels = { service: this.service, chore: name };
      const end = metrics.choreDuration.startTimer(labels);
      const run = chore()
        .then(() => {
          outage.succeeded();
          metrics.choreRuns.inc({ ...labels, outcome: 'ok' });
        })
        .catch((err: unknown) => {
          outage.failed(err);
          metrics.choreRuns.inc({ ...labels, outcome: 'failed' });
        })
        .finally(() => {
          end();
          this.running.delete(name);
        });
      this.running.set(name, run);
    };
    const timer = setInterval(round, periodMs);
    timer.unref();
    this.registry.addInterval(`${this.service}:${name}`, timer);
    this.names.add(name);
    if (runNow) round();
  }

  /** Stops every chore and waits for the rounds under way. */
  async stop(): Promise<void> {
    for (const name of this.names) this.registry.deleteInterval(`${this.service}:${name}`);
    this.names.clear();
    await Promise.all(this.running.values());
  }
}
