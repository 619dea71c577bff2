import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { and, eq, sql } from 'drizzle-orm';
import type { CommandMap } from '@lws/contracts';
import { RpcError } from '@lws/messaging';
import { CLOCK, UnitOfWork, type Clock } from '@lws/platform';
import { nextCheckInAt } from '@lws/rules';
import { checkIns, workerState } from '../db/schema';
import { WorkerStateRepository } from '../workers/worker-state.repository';
import { checkInView, latestCheckInOf, workerView } from '../workers/worker-view';

type Record_ = CommandMap['shifts.checkin.record.v1'];

/** A second press within this window is the same check-in (a double tap, a retried request). */
export const DUPLICATE_WINDOW_MS = 5000;
export const NOT_ON_SHIFT = 'You are not on shift';

@Injectable()
export class CheckInsService {
  constructor(
    private readonly workers: WorkerStateRepository,
    @Inject(UnitOfWork) private readonly uow: UnitOfWork,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /**
   * Records "I'm safe" and moves the deadline to one interval after now. Late and early
   * check-ins count alike (a late one stops the escalation); the client's window is a UI rule.
   * The worker's row is locked first, so concurrent submits are answered one after the other and
   * the second finds the first.
   */
  async record(req: Record_['request']): Promise<Record_['reply']> {
    return this.uow.run(async (tx, emit) => {
      const state = await this.workers.lock(tx, req.userId);
      if (req.idempotencyKey !== undefined) {
        const [earlier] = await tx
          .select()
          .from(checkIns)
          .where(and(eq(checkIns.userId, req.userId), eq(checkIns.idempotencyKey, req.idempotencyKey)));
        if (earlier && state) return { checkIn: checkInView(earlier), worker: workerView(state), duplicate: true };
      }
      if (!state?.onShift || !state.currentShiftId || !state.location) throw new RpcError(409, NOT_ON_SHIFT, { code: 'not_on_shift' });
      const now = this.clock();
      const latest = latestCheckInOf(state);
      const sinceLatest = state.latestCheckInAt ? now.getTime() - state.latestCheckInAt.getTime() : Infinity;
      if (latest && sinceLatest >= 0 && sinceLatest < DUPLICATE_WINDOW_MS) {
        return { checkIn: latest, worker: workerView(state), duplicate: true };
      }
      const id = randomUUID();
      const location = req.location?.trim() || state.location;
      const due = nextCheckInAt(now, state.checkInInterval);
      // The check-in and the worker's new deadline in one hand-written statement, like lock(): every check-in runs it.
      const updated = (await tx.execute(sql`
        with recorded as (
          insert into ${checkIns} (id, user_id, shift_id, location, checked_in_at, next_check_in_at, idempotency_key, lat, lng, accuracy_m)
          values (${id}, ${req.userId}, ${state.currentShiftId}, ${location}, ${now.toISOString()}::timestamptz,
                  ${due.toISOString()}::timestamptz, ${req.idempotencyKey ?? null},
                  ${req.position?.lat ?? null}::double precision, ${req.position?.lng ?? null}::double precision, ${req.position?.accuracyM ?? null}::double precision)
        )
        update ${workerState}
        set latest_check_in_id = ${id}, latest_check_in_at = ${now.toISOString()}::timestamptz,
            latest_check_in_location = ${location}, next_check_in_at = ${due.toISOString()}::timestamptz,
            version = version + 1, changed_at = now()
        where user_id = ${req.userId}
        returning version`)) as unknown as { rows: { version: number }[] };
      const workerVersion = updated.rows[0].version;
      const row = { ...state, latestCheckInId: id, latestCheckInAt: now, latestCheckInLocation: location, nextCheckInAt: due, version: workerVersion };
      await emit('shifts.checkin.recorded.v1', {
        checkInId: id,
        shiftId: state.currentShiftId,
        userId: req.userId,
        location,
        checkedInAt: now.toISOString(),
        nextCheckInAt: due.toISOString(),
        workerVersion,
        ...(req.position ? { position: req.position } : {}),
      });
      return { checkIn: checkInView({ id, checkedInAt: now, location, nextCheckInAt: due }), worker: workerView(row), duplicate: false };
    });
  }

  /** The latest check-in of the current shift; none off shift or before the first. */
  async latest(userId: number) {
    const state = await this.workers.find(userId);
    const latest = state ? latestCheckInOf(state) : undefined;
    return latest ? { checkIn: latest } : {};
  }
}
