import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { sql } from 'drizzle-orm';
import { Chores, CONFIG, DB, LOGGER, PeriodicPurge, POSITION_RETENTION_DAYS, type Db, type Logger } from '@lws/platform';
import type { ShiftsConfig } from '../config';
import { checkIns, shifts, visits } from '../db/schema';

/**
 * Check-ins' device positions, and visits' addresses and sealed notes, are deleted 30 days after
 * their shift ended; the check-ins and visits stay.
 */
@Injectable()
export class PositionsRetention implements OnApplicationBootstrap {
  private readonly purge: PeriodicPurge;

  constructor(
    @Inject(DB) db: Db,
    @Inject(CONFIG) config: ShiftsConfig,
    @Inject(LOGGER) logger: Logger,
    private readonly chores: Chores,
  ) {
    this.purge = new PeriodicPurge({
      service: 'shifts',
      what: 'check-in positions and visit notes',
      chore: 'positions-purge',
      intervalMs: config.POSITIONS_PURGE_INTERVAL_SECONDS * 1000,
      logger,
      purge: async () => {
        const { rows } = (await db.execute(sql`
          with purged as (
            update ${checkIns} c set lat = null, lng = null, accuracy_m = null
            from ${shifts} s
            where c.shift_id = s.id and c.lat is not null
              and s.ended_at < now() - make_interval(days => ${POSITION_RETENTION_DAYS})
            returning 1),
          visits_purged as (
            update ${visits} v set "where" = null, sealed_note = null, purged_at = now()
            from ${shifts} s
            where v.shift_id = s.id and v.purged_at is null
              and s.ended_at < now() - make_interval(days => ${POSITION_RETENTION_DAYS})
            returning 1)
          select ((select count(*) from purged) + (select count(*) from visits_purged))::int as n`)) as unknown as {
          rows: { n: number }[];
        };
        return Number(rows[0]?.n ?? 0);
      },
    });
  }

  onApplicationBootstrap(): void {
    this.purge.start(this.chores);
  }
}
