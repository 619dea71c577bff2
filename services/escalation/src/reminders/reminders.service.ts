import { Inject, Injectable } from '@nestjs/common';
import { and, asc, count, eq, isNull } from 'drizzle-orm';
import type { CommandMap } from '@lws/contracts';
import { CLOCK, DB, type Clock, type Db } from '@lws/platform';
import { SETTINGS, type EscalationSettings } from '../config';
import { ownsNothing } from '../alarms/alarm-scope';
import { workers } from '../db/schema';
import { Scheduler } from '../deadlines/scheduler';

type Request<P extends keyof CommandMap> = CommandMap[P]['request'];
type Reply<P extends keyof CommandMap> = CommandMap[P]['reply'];

const STATUS_LIMIT = 1000;

@Injectable()
export class RemindersService {
  constructor(
    private readonly scheduler: Scheduler,
    @Inject(DB) private readonly db: Db,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(SETTINGS) private readonly settings: EscalationSettings,
  ) {}

  /** Every on-shift worker (the first 1000 by next check-in) and whether a reminder is due. */
  async status(): Promise<Reply<'escalation.reminder.status.v1'>> {
    const onShift = and(eq(workers.onShift, true), isNull(workers.deletedAt));
    const now = this.clock();
    const [rows, [total]] = await Promise.all([
      this.db.select().from(workers).where(onShift).orderBy(asc(workers.nextCheckInAt), asc(workers.userId)).limit(STATUS_LIMIT),
      this.db.select({ n: count() }).from(workers).where(onShift),
    ]);
    return {
      reminderSystemActive: this.scheduler.active(),
      activeWorkers: total?.n ?? 0,
      now: now.toISOString(),
      workers: rows.map((w) => {
        const minutesUntil = w.nextCheckInAt ? (w.nextCheckInAt.getTime() - now.getTime()) / 60_000 : undefined;
        return {
          userId: w.userId,
          ...(w.name ? { name: w.name } : {}),
          ...(w.phone ? { phone: w.phone } : {}),
          ...(w.nextCheckInAt ? { nextCheckInAt: w.nextCheckInAt.toISOString() } : {}),
          ...(minutesUntil !== undefined ? { minutesUntil: Math.round(minutesUntil * 100) / 100 } : {}),
          due_5min: minutesUntil !== undefined && minutesUntil > 0 && minutesUntil <= 5,
          due_2min: minutesUntil !== undefined && minutesUntil > 0 && minutesUntil <= 2,
        };
      }),
    };
  }

  /** Runs what is due now: every deadline, or with a scope only an admin's (their workers' check-ins and their alarms' steps). */
  async processDue(req: Request<'escalation.deadline.process_due.v1'>): Promise<Reply<'escalation.deadline.process_due.v1'>> {
    if (ownsNothing(req)) return { processed: 0, results: [] };
    const results = await this.scheduler.pass(req);
    return { processed: results.length, results: results.map((r) => ({ userId: r.userId, status: r.status })) };
  }

  config(): Reply<'escalation.config.get.v1'> {
    const p = this.settings.policy;
    return {
      emergencyNumbers: p.emergencyNumbers,
      callTimeoutSeconds: p.callTimeoutSeconds,
      acknowledgeWithinSeconds: p.ackTimeoutSeconds,
      reminderMinutes: [5, 2],
    };
  }
}
