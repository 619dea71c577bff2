import { Inject, Injectable } from '@nestjs/common';
import { and, eq, isNull } from 'drizzle-orm';
import { CLOCK, type Clock, type Emit, type Tx } from '@lws/platform';
import { visits, type VisitEndReason, type WorkerStateRow } from '../db/schema';
import { WorkerStateRepository } from './worker-state.repository';

/**
 * A timed visit's end as the worker's deadline: the regular deadline, or the visit's end when that
 * comes first and has not passed yet. A visit whose end has passed no longer sets a deadline (the
 * check-in that finds it so closes it).
 */
export function visitDeadline(regular: Date, visit: WorkerStateRow['visit'], now: Date): Date {
  if (!visit) return regular;
  const endsAt = Date.parse(visit.endsAt);
  return endsAt > now.getTime() && endsAt < regular.getTime() ? new Date(endsAt) : regular;
}

/** Whether the worker's visit ran out before `at`. */
export const visitOverran = (visit: WorkerStateRow['visit'], at: Date): boolean =>
  visit !== null && Date.parse(visit.endsAt) <= at.getTime();

/** The visit rows every shift change may touch: closing the one under way, moving its end. */
@Injectable()
export class VisitsRepository {
  constructor(
    private readonly workers: WorkerStateRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /**
   * Ends the worker's visit inside the caller's transaction (their row locked), announcing why;
   * answers the state without it. No visit: the state as it is.
   */
  async closeIn(tx: Tx, emit: Emit, state: WorkerStateRow, reason: VisitEndReason): Promise<WorkerStateRow> {
    if (!state.visit || !state.currentShiftId) return state;
    const now = this.clock();
    await tx
      .update(visits)
      .set({ endedAt: now, endReason: reason })
      .where(and(eq(visits.id, state.visit.id), isNull(visits.endedAt)));
    const workerVersion = await this.workers.update(tx, state.userId, { visit: null });
    await emit('shifts.visit.ended.v1', {
      visitId: state.visit.id,
      shiftId: state.currentShiftId,
      userId: state.userId,
      endedAt: now.toISOString(),
      reason,
      workerVersion,
    });
    return { ...state, visit: null, version: workerVersion };
  }

  /** "+15 min" on a visit: its timer moves with the deadline. */
  async moveEnd(tx: Tx, visitId: string, endsAt: Date): Promise<void> {
    await tx.update(visits).set({ endsAt }).where(eq(visits.id, visitId));
  }
}
