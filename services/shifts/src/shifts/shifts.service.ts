import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { and, eq, isNull } from 'drizzle-orm';
import type { WorkerStateView } from '@lws/contracts';
import { RpcError } from '@lws/messaging';
import { CLOCK, CONFIG, UnitOfWork, type Clock, type Emit, type Tx } from '@lws/platform';
import type { ShiftsConfig } from '../config';
import { DEFAULT_CHECK_IN_INTERVAL_MINUTES, nextCheckInAt } from '@lws/rules';
import { shifts, type EndReason, type WorkerStateRow } from '../db/schema';
import { EmergenciesService } from '../emergencies/emergencies.service';
import { LocationsRepository } from '../projections/locations.repository';
import { VisitsRepository } from '../workers/visits.repository';
import { OFF_SHIFT, WorkerStateRepository } from '../workers/worker-state.repository';
import { unknownWorkerView, workerView } from '../workers/worker-view';

export const LOCATION_NOT_AVAILABLE = 'Location is not available';

@Injectable()
export class ShiftsService {
  constructor(
    private readonly workers: WorkerStateRepository,
    private readonly visits: VisitsRepository,
    private readonly locations: LocationsRepository,
    private readonly emergencies: EmergenciesService,
    @Inject(UnitOfWork) private readonly uow: UnitOfWork,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(CONFIG) private readonly config: ShiftsConfig,
  ) {}

  /**
   * Starts a shift at an active location; the first check-in falls due one interval after the
   * start. Starting while on shift answers the current shift unchanged, so a double submit
   * cannot open a second shift. `startedBy`: a superadmin who started it for the worker.
   */
  async start(userId: number, location: string, note?: string, startedBy?: number): Promise<WorkerStateView> {
    return this.uow.run(async (tx, emit) => {
      const state = await this.workers.lockOrCreate(tx, userId);
      if (state.onShift) return workerView(state);
      const name = await this.locations.findActiveByName(tx, location);
      if (!name) throw new RpcError(400, LOCATION_NOT_AVAILABLE, { field: 'location', code: 'location_not_available' });
      const now = this.clock();
      const shiftId = randomUUID();
      const due = nextCheckInAt(now, state.checkInInterval);
      await tx.insert(shifts).values({ id: shiftId, userId, location: name, startedAt: now, note: note ?? null });
      const changes = {
        ...OFF_SHIFT,
        onShift: true,
        currentShiftId: shiftId,
        location: name,
        shiftStartedAt: now,
        nextCheckInAt: due,
        shiftNote: note ?? null,
        // The shift keeps the allowance it started with, whatever the configuration becomes.
        extensionsLeft: this.config.SHIFT_EXTENSION_MINUTES > 0 ? this.config.SHIFT_EXTENSIONS : 0,
        extensionMinutesLeft: this.config.SHIFT_EXTENSIONS > 0 ? this.config.SHIFT_EXTENSION_MINUTES : 0,
      };
      const workerVersion = await this.workers.update(tx, userId, changes);
      const row = { ...state, ...changes, version: workerVersion };
      await emit('shifts.shift.started.v1', {
        shiftId,
        userId,
        location: name,
        startedAt: now.toISOString(),
        nextCheckInAt: due.toISOString(),
        workerVersion,
        ...(note ? { note } : {}),
        ...(startedBy !== undefined && startedBy !== userId ? { startedBy } : {}),
      });
      return workerView(row);
    });
  }

  /** The worker's own clock-out (the gateway verified the PIN). Off shift: the state as it is. */
  async end(userId: number, duress = false): Promise<WorkerStateView> {
    return this.uow.run(async (tx, emit) => {
      // The duress PIN: the silent emergency is raised while they are still on shift, where they are.
      if (duress) await this.emergencies.raiseIn(tx, emit, userId, true);
      const state = await this.workers.lock(tx, userId);
      if (!state) return unknownWorkerView(userId, DEFAULT_CHECK_IN_INTERVAL_MINUTES);
      return workerView(await this.endLocked(tx, emit, state, userId, 'worker'));
    });
  }

  /** A superadmin clocks a worker out. Off shift (or unknown to shifts): the state as it is. */
  async forceEnd(userId: number, endedBy: number): Promise<WorkerStateView> {
    return this.uow.run(async (tx, emit) => {
      const state = await this.workers.lock(tx, userId);
      if (!state) return unknownWorkerView(userId, DEFAULT_CHECK_IN_INTERVAL_MINUTES);
      return workerView(await this.endLocked(tx, emit, state, endedBy, 'forced'));
    });
  }

  /** Ends the shift of a worker whose row the caller has locked, announcing who and why; a visit under way ends with it. */
  async endLocked(tx: Tx, emit: Emit, locked: WorkerStateRow, endedBy: number, reason: EndReason): Promise<WorkerStateRow> {
    if (!locked.onShift || !locked.currentShiftId) return locked;
    const state = await this.visits.closeIn(tx, emit, locked, 'shift_ended');
    if (!state.currentShiftId) return state;
    const now = this.clock();
    await tx
      .update(shifts)
      .set({ endedAt: now, endedBy, endReason: reason })
      .where(and(eq(shifts.id, state.currentShiftId), isNull(shifts.endedAt)));
    const workerVersion = await this.workers.update(tx, state.userId, OFF_SHIFT);
    const row = { ...state, ...OFF_SHIFT, version: workerVersion };
    await emit('shifts.shift.ended.v1', {
      shiftId: state.currentShiftId,
      userId: state.userId,
      endedAt: now.toISOString(),
      endedBy,
      reason,
      ...(state.location ? { location: state.location } : {}),
      workerVersion,
    });
    return row;
  }
}
