import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { sql } from 'drizzle-orm';
import { CLOCK, DB, metrics, oncePerScrape, priorityLabel, type Clock, type Db } from '@lws/platform';
import { ALARM_KINDS, alarms, deadlines, PRIORITIES } from '../db/schema';
import { SERVICE_NAME } from '../config';

type Row = { kind: string; open: number; unacked: number; oldest_open: number | null; oldest_unacked: number | null };

/**
 * Open and unacknowledged alarms, by kind, read from the alarms table when Prometheus scrapes: an
 * alarm nobody owns for ten minutes pages someone (charts/lws alert LwsAlarmUnacknowledged). Also
 * the scheduler's queue: deadlines due and not fired, by priority.
 */
@Injectable()
export class AlarmMetrics implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly unsample: (() => void)[] = [];

  constructor(
    @Inject(DB) private readonly db: Db,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  onApplicationBootstrap(): void {
    const each = (set: (kind: string, row: Row | undefined) => void) => async () => {
      const rows = await this.read();
      for (const kind of ALARM_KINDS)
        set(
          kind,
          rows.find((r) => r.kind === kind),
        );
    };
    const service = SERVICE_NAME;
    this.unsample.push(
      metrics.alarmsOpen.sample(async (g) => each((kind, r) => g.set({ service, kind }, r?.open ?? 0))()),
      metrics.alarmsUnacknowledged.sample(async (g) => each((kind, r) => g.set({ service, kind }, r?.unacked ?? 0))()),
      metrics.alarmOldestOpenAge.sample(async (g) => each((kind, r) => g.set({ service, kind }, Math.max(0, r?.oldest_open ?? 0)))()),
      metrics.alarmOldestUnacknowledgedAge.sample(async (g) =>
        each((kind, r) => g.set({ service, kind }, Math.max(0, r?.oldest_unacked ?? 0)))(),
      ),
      metrics.chainQueued.sample(async (g) => {
        const due = await this.dueDeadlines();
        for (const priority of PRIORITIES)
          g.set({ service, stage: 'scheduler', priority: priorityLabel(priority) }, due.get(priority) ?? 0);
      }),
    );
  }

  /** Deadlines due and not fired yet, by priority: the scheduler's queue (one index range per priority). */
  private readonly dueDeadlines = oncePerScrape(async () => {
    const now = this.clock().toISOString();
    const result = await this.db.execute(
      sql`select priority, count(*)::int as n from ${deadlines} where due_at <= ${now}::timestamptz group by priority`,
    );
    return new Map((result as unknown as { rows: { priority: number; n: number }[] }).rows.map((r) => [r.priority, r.n]));
  });

  onApplicationShutdown(): void {
    for (const remove of this.unsample.splice(0)) remove();
  }

  /** One statement for the four gauges of a scrape. Ages are on the service's clock, as the alarms' times are. */
  private readonly read = oncePerScrape(async () => {
    const now = this.clock().toISOString();
    const result = await this.db.execute(
      sql`select kind, count(*)::int as open,
            count(*) filter (where acknowledged_at is null)::int as unacked,
            extract(epoch from ${now}::timestamptz - min(opened_at))::float8 as oldest_open,
            extract(epoch from ${now}::timestamptz - min(opened_at) filter (where acknowledged_at is null))::float8 as oldest_unacked
          from ${alarms} where state <> 'resolved' group by kind`,
    );
    return (result as unknown as { rows: Row[] }).rows;
  });
}
