import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { CommandMap } from '@lws/contracts';
import { urgency } from '@lws/messaging';
import { CLOCK, UnitOfWork, type Clock, type Emit, type Tx } from '@lws/platform';
import { nextCheckInAt } from '@lws/rules';
import { checkIns, emergencies, type WorkerStateRow } from '../db/schema';
import { WorkerStateRepository, type WorkerStateFields } from '../workers/worker-state.repository';
import { workerView } from '../workers/worker-view';

type Raise = CommandMap['shifts.emergency.raise.v1'];

/** Where an emergency is raised: the shift and its place, or neither off shift. */
const onShiftAt = (state: WorkerStateRow) =>
  state.onShift
    ? { shiftId: state.currentShiftId ?? undefined, location: state.location ?? undefined }
    : { shiftId: undefined, location: undefined };

/** The check-in row an emergency records: not the worker saying "I'm safe". */
export const EMERGENCY_RESET_STATUS = 'emergency_reset';

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
   * `duress` (the worker's duress PIN): raised silently, and the worker's check-in timer
   * is left as it was, so nothing on their screen changes because of it.
   */
  async raise(userId: number, duress = false): Promise<Raise['reply']> {
    // Bulk work in this process waits meanwhile (Urgency); its event goes out as it commits.
    return urgency.during(() =>
      this.uow.run(async (tx, emit) => {
        const { emergencyId, raisedAt, state } = await this.raiseIn(tx, emit, userId, duress);
        const { shiftId, location } = onShiftAt(state);
        const after = shiftId && location && !duress ? await this.resetTimer(tx, emit, state, shiftId, location, raisedAt) : state;
        return { emergencyId, raisedAt: raisedAt.toISOString(), worker: workerView(after) };
      }),
    );
  }

  /**
   * Records an emergency inside the caller's transaction (locking the worker's row first), so a
   * PIN step taken with the duress PIN raises it in the same transaction as the step itself: the
   * answer takes the same path as the PIN's, and the alarm cannot be lost between two calls.
   */
  async raiseIn(
    tx: Tx,
    emit: Emit,
    userId: number,
    duress: boolean,
  ): Promise<{ emergencyId: string; raisedAt: Date; state: WorkerStateRow }> {
    const state = await this.workers.lockOrCreate(tx, userId);
    const now = this.clock();
    const id = randomUUID();
    const { shiftId, location } = onShiftAt(state);
    // During a timed visit the emergency is the visit's: its alarm may reveal the sealed note.
    const visit = state.onShift ? state.visit : null;
    await tx
      .insert(emergencies)
      .values({ id, userId, shiftId: shiftId ?? null, visitId: visit?.id ?? null, location: location ?? null, raisedAt: now, duress });
    // An emergency changes the worker's state as escalation sees it: it raises their version too.
    const workerVersion = await this.workers.update(tx, userId, {});
    await emit('shifts.emergency.raised.v1', {
      emergencyId: id,
      userId,
      ...(shiftId ? { shiftId } : {}),
      ...(location ? { location } : {}),
      raisedAt: now.toISOString(),
      workerVersion,
      ...(duress ? { duress } : {}),
      ...(visit ? { visit } : {}),
    });
    return { emergencyId: id, raisedAt: now, state: { ...state, version: workerVersion } };
  }

  /**
   * The spec's client checks in by itself after an emergency, to reset its timer; the emergency
   * button has no PIN, so the server does it, as a check-in of its own kind. Escalation never lets
   * a check-in stop an emergency alarm, so the reset only spares a worker whose emergency is being
   * handled a second alarm for the check-in they could not make.
   */
  private async resetTimer(
    tx: Tx,
    emit: Emit,
    state: WorkerStateRow,
    shiftId: string,
    location: string,
    now: Date,
  ): Promise<WorkerStateRow> {
    const checkInId = randomUUID();
    const due = nextCheckInAt(now, state.checkInInterval);
    await tx.insert(checkIns).values({
      id: checkInId,
      userId: state.userId,
      shiftId,
      location,
      checkedInAt: now,
      nextCheckInAt: due,
      status: EMERGENCY_RESET_STATUS,
    });
    const changes: WorkerStateFields = {
      latestCheckInId: checkInId,
      latestCheckInAt: now,
      latestCheckInLocation: location,
      nextCheckInAt: due,
    };
    const workerVersion = await this.workers.update(tx, state.userId, changes);
    await emit('shifts.checkin.recorded.v1', {
      checkInId,
      shiftId,
      userId: state.userId,
      location,
      checkedInAt: now.toISOString(),
      nextCheckInAt: due.toISOString(),
      workerVersion,
    });
    return { ...state, ...changes, version: workerVersion };
  }
}
