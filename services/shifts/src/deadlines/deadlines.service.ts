import { Inject, Injectable } from '@nestjs/common';
import type { CommandMap } from '@lws/contracts';
import { RpcError } from '@lws/messaging';
import { CLOCK, UnitOfWork, type Clock } from '@lws/platform';
import { NOT_ON_SHIFT } from '../check-ins/check-ins.service';
import { VisitsRepository } from '../workers/visits.repository';
import { WorkerStateRepository } from '../workers/worker-state.repository';
import { workerView } from '../workers/worker-view';
import { requestedDeadline } from './deadline';

type SetDeadline = CommandMap['shifts.deadline.set.v1'];
type Extend = CommandMap['shifts.deadline.extend.v1'];

/** Also when extensions are turned off (SHIFT_EXTENSIONS=0): the shift started with none. */
export const EXTENSIONS_USED = 'This shift has no extensions left. Check in instead.';
export const EXTENSION_MINUTES_USED = 'That would pass the extra time this shift allows. Check in instead.';
export const EXTEND_OVERDUE = 'Your check-in is already overdue. Check in instead.';

@Injectable()
export class DeadlinesService {
  constructor(
    private readonly workers: WorkerStateRepository,
    private readonly visits: VisitsRepository,
    @Inject(UnitOfWork) private readonly uow: UnitOfWork,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /**
   * A superadmin's test tool moves an on-shift worker's next check-in without a check-in. The
   * row is locked like a check-in locks it, so a check-in racing the change lands before or after
   * it, never in between; the dashboards read the same column, so they show the moved deadline.
   */
  async set(req: SetDeadline['request']): Promise<SetDeadline['reply']> {
    return this.uow.run(async (tx, emit) => {
      const state = await this.workers.lock(tx, req.userId);
      const now = this.clock();
      const due = requestedDeadline(req, now);
      if (!state?.onShift || !state.currentShiftId) throw new RpcError(409, NOT_ON_SHIFT, { code: 'not_on_shift' });
      const workerVersion = await this.workers.update(tx, req.userId, { nextCheckInAt: due });
      await emit('shifts.deadline.changed.v1', {
        workerVersion,
        shiftId: state.currentShiftId,
        userId: req.userId,
        nextCheckInAt: due.toISOString(),
        reason: req.mode === 'top_of_next_hour' ? 'reset' : 'simulated',
        byUserId: req.byUserId,
        changedAt: now.toISOString(),
      });
      return { worker: workerView({ ...state, nextCheckInAt: due }) };
    });
  }

  /**
   * "+15 min": the worker's current deadline moves on by the minutes asked, within what
   * the shift has left. Only a deadline still ahead can move: once it has passed, the alarm is the
   * worker's answer, and a check-in (not more time) stops it. Escalation hears of the new deadline
   * as of any other move; monitors see it in the activity log. On a visit whose end is the
   * deadline, the visit's timer moves with it; a regular deadline before the visit's end moves no
   * later than that end.
   */
  async extend(req: Extend['request']): Promise<Extend['reply']> {
    return this.uow.run(async (tx, emit) => {
      const state = await this.workers.lock(tx, req.userId);
      if (!state?.onShift || !state.currentShiftId || !state.nextCheckInAt) throw new RpcError(409, NOT_ON_SHIFT, { code: 'not_on_shift' });
      const now = this.clock();
      if (state.nextCheckInAt.getTime() <= now.getTime()) throw new RpcError(409, EXTEND_OVERDUE, { code: 'overdue' });
      if (state.extensionsLeft === 0) throw new RpcError(409, EXTENSIONS_USED, { code: 'extensions_used' });
      if (state.extensionMinutesLeft < req.minutes) throw new RpcError(409, EXTENSION_MINUTES_USED, { code: 'extension_minutes_used' });
      const asked = state.nextCheckInAt.getTime() + req.minutes * 60_000;
      const visitEnds = state.visit ? Date.parse(state.visit.endsAt) : undefined;
      // The visit's end is the deadline: it moves with it. A regular deadline before it moves no later than it.
      const movesVisit = visitEnds === state.nextCheckInAt.getTime();
      const due = new Date(!movesVisit && visitEnds !== undefined && visitEnds > now.getTime() ? Math.min(asked, visitEnds) : asked);
      const movedVisit = movesVisit && state.visit ? { ...state.visit, endsAt: due.toISOString() } : undefined;
      if (movedVisit) await this.visits.moveEnd(tx, movedVisit.id, due);
      const changes = {
        nextCheckInAt: due,
        extensionsLeft: state.extensionsLeft - 1,
        extensionMinutesLeft: state.extensionMinutesLeft - req.minutes,
        ...(movedVisit ? { visit: movedVisit } : {}),
      };
      const workerVersion = await this.workers.update(tx, req.userId, changes);
      await emit('shifts.deadline.changed.v1', {
        workerVersion,
        shiftId: state.currentShiftId,
        userId: req.userId,
        nextCheckInAt: due.toISOString(),
        reason: 'extended',
        byUserId: req.userId,
        changedAt: now.toISOString(),
        extendedMinutes: req.minutes,
        ...(movedVisit ? { visitEndsAt: movedVisit.endsAt } : {}),
      });
      return { worker: workerView({ ...state, ...changes }) };
    });
  }
}
