import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { Chores, CLOCK, LOGGER, UnitOfWork, type Clock, type Logger } from '@lws/platform';
import { SETTINGS, type EscalationSettings } from '../config';
import { alarms, deadlines, workers } from '../db/schema';
import { Notifier } from '../alarms/notifier';
import { londonTime, workerLabel } from '../alarms/messages';
import { CheckinsService } from './checkins.service';
import { checkinKey } from './deadlines.repository';
import { Scheduler } from './scheduler';

const AUDIT_LOCK = 'lws-escalation-auditor';

/**
 * The safety net under the scheduler: every on-shift worker must have a check-in deadline row or
 * a missed-check-in alarm for their current deadline (whatever its state: a resolved one was
 * handled). Anyone without is repaired (a deadline
 * already passed is missed at once) and an operator hears of it through a system alert.
 */
@Injectable()
export class Auditor implements OnApplicationBootstrap {
  constructor(
    private readonly checkins: CheckinsService,
    private readonly notifier: Notifier,
    private readonly scheduler: Scheduler,
    @Inject(UnitOfWork) private readonly uow: UnitOfWork,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(SETTINGS) private readonly settings: EscalationSettings,
    private readonly chores: Chores,
  ) {}

  onApplicationBootstrap(): void {
    this.chores.every('deadline-audit', this.settings.auditIntervalMs, () => this.audit());
  }

  /** Returns the user ids it repaired. One replica audits at a time (a transaction-scoped advisory lock). */
  async audit(): Promise<number[]> {
    const repaired = await this.uow.run(async (tx, emit) => {
      const locked = await tx.execute(sql`select pg_try_advisory_xact_lock(hashtext(${AUDIT_LOCK})) as ok`);
      if (!(locked.rows[0] as { ok: boolean } | undefined)?.ok) return [];
      const now = this.clock();
      const orphans = await tx
        .select()
        .from(workers)
        .where(
          and(
            eq(workers.onShift, true),
            isNull(workers.deletedAt),
            sql`not exists (select 1 from ${deadlines} d where d.job_key = 'checkin:' || ${workers.userId})`,
            // Only an alarm for the current deadline stands in for its row: an older one still open
            // says nothing about whether anyone watches the deadline the worker has now.
            sql`not exists (select 1 from ${alarms} a where a.user_id = ${workers.userId} and a.kind = 'missed_check_in'
                  and a.due_at = ${workers.nextCheckInAt})`,
          ),
        )
        .for('update', { skipLocked: true });
      const done: number[] = [];
      for (const w of orphans) {
        if (!w.nextCheckInAt || !w.shiftId) continue;
        // A consumer may have written the deadline since the query; put() would only move it again.
        const [exists] = await tx
          .select({ k: deadlines.jobKey })
          .from(deadlines)
          .where(eq(deadlines.jobKey, checkinKey(w.userId)));
        if (exists) continue;
        await this.checkins.schedule(tx, w.userId, w.shiftId, w.nextCheckInAt, now);
        const passed = w.nextCheckInAt.getTime() <= now.getTime();
        await this.notifier.systemAlert(
          emit,
          'deadline_repaired',
          `${workerLabel(w.name, w.userId)} was on shift with no check-in deadline being watched; the deadline (${londonTime(w.nextCheckInAt)}) was ${passed ? 'already passed: a missed check-in alarm opens now' : 'scheduled again'}`,
          now,
          w.userId,
        );
        done.push(w.userId);
      }
      return done;
    });
    if (repaired.length) {
      this.logger.warn({ userIds: repaired }, 'auditor repaired check-in deadlines');
      this.scheduler.wake();
    }
    return repaired;
  }
}
