import { Inject, Injectable } from '@nestjs/common';
import type { CommandMap } from '@lws/contracts';
import { RpcError } from '@lws/messaging';
import { CLOCK, UnitOfWork, type Clock } from '@lws/platform';
import { NOT_ON_SHIFT } from '../check-ins/check-ins.service';
import { WorkerStateRepository } from '../workers/worker-state.repository';
import { workerView } from '../workers/worker-view';
import { requestedDeadline } from './deadline';

type SetDeadline = CommandMap['shifts.deadline.set.v1'];

@Injectable()
export class DeadlinesService {
  constructor(
    private readonly workers: WorkerStateRepository,
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
}
