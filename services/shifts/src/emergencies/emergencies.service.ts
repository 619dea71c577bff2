import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { CommandMap } from '@lws/contracts';
import { CLOCK, UnitOfWork, type Clock } from '@lws/platform';
import { emergencies } from '../db/schema';
import { WorkerStateRepository } from '../workers/worker-state.repository';
import { workerView } from '../workers/worker-view';

type Raise = CommandMap['shifts.emergency.raise.v1'];

@Injectable()
export class EmergenciesService {
  constructor(
    private readonly workers: WorkerStateRepository,
    @Inject(UnitOfWork) private readonly uow: UnitOfWork,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /**
   * Every press raises: a worker in danger pressing twice must never be answered "already done",
   * and escalation decides what a second emergency of an open alarm means. On shift or not.
   */
  async raise(userId: number): Promise<Raise['reply']> {
    return this.uow.run(async (tx, emit) => {
      const state = await this.workers.lockOrCreate(tx, userId);
      const now = this.clock();
      const id = randomUUID();
      const shiftId = state.onShift ? (state.currentShiftId ?? undefined) : undefined;
      const location = state.onShift ? (state.location ?? undefined) : undefined;
      await tx.insert(emergencies).values({ id, userId, shiftId: shiftId ?? null, location: location ?? null, raisedAt: now });
      await emit('shifts.emergency.raised.v1', {
        emergencyId: id,
        userId,
        ...(shiftId ? { shiftId } : {}),
        ...(location ? { location } : {}),
        raisedAt: now.toISOString(),
      });
      return { emergencyId: id, raisedAt: now.toISOString(), worker: workerView(state) };
    });
  }
}
