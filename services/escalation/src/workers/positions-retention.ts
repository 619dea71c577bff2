import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { sql } from 'drizzle-orm';
import { Chores, CONFIG, DB, LOGGER, PeriodicPurge, POSITION_RETENTION_DAYS, type Db, type Logger } from '@lws/platform';
import type { EscalationConfig } from '../config';
import { alarms, endedShifts, workers } from '../db/schema';

/**
 * Escalation's copies of device positions (a worker's last one, and the one an alarm keeps) are
 * deleted 30 days after the shift they were taken in ended, as shifts deletes its own.
 */
@Injectable()
export class PositionsRetention implements OnApplicationBootstrap {
  private readonly purge: PeriodicPurge;

  constructor(
    @Inject(DB) db: Db,
    @Inject(CONFIG) config: EscalationConfig,
    @Inject(LOGGER) logger: Logger,
    private readonly chores: Chores,
  ) {
    const expired = (position: unknown) => sql`exists (
      select 1 from ${endedShifts} e
      where e.shift_id = (${position}->>'shiftId')::uuid and e.ended_at < now() - make_interval(days => ${POSITION_RETENTION_DAYS}))`;
    this.purge = new PeriodicPurge({
      service: 'escalation',
      what: 'positions',
      chore: 'positions-purge',
      intervalMs: config.POSITIONS_PURGE_INTERVAL_SECONDS * 1000,
      logger,
      purge: async () => {
        const { rows } = (await db.execute(sql`
          with w as (
            update ${workers} set last_position = null
            where last_position is not null and ${expired(sql`${workers.lastPosition}`)}
            returning 1),
          a as (
            update ${alarms} set last_position = null
            where last_position is not null and ${expired(sql`${alarms.lastPosition}`)}
            returning 1)
          select (select count(*) from w)::int + (select count(*) from a)::int as n`)) as unknown as { rows: { n: number }[] };
        return Number(rows[0]?.n ?? 0);
      },
    });
  }

  onApplicationBootstrap(): void {
    this.purge.start(this.chores);
  }
}
