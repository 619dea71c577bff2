import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { and, eq } from 'drizzle-orm';
import type { CommandMap, WorkerStateView } from '@lws/contracts';
import { RpcError } from '@lws/messaging';
import { CLOCK, UnitOfWork, type Clock } from '@lws/platform';
import { nextCheckInAt } from '@lws/rules';
import { NOT_ON_SHIFT, CheckInsService } from '../check-ins/check-ins.service';
import { visits, type CurrentVisit } from '../db/schema';
import { EmergenciesService } from '../emergencies/emergencies.service';
import { WorkerStateRepository } from '../workers/worker-state.repository';
import { VisitsRepository } from '../workers/visits.repository';
import { workerView } from '../workers/worker-view';
import { VisitNotes } from './visit-notes';

type Start = CommandMap['shifts.visit.start.v1'];
type Reveal = CommandMap['shifts.visit.reveal_note.v1'];

export const NO_VISIT = 'You are not on a visit';
export const VISIT_NOT_FOUND = 'Visit not found';
export const NO_NOTE = 'This visit has no note';
export const NOTE_DELETED = "This visit's note was deleted 30 days after the shift ended";
export const NOTE_UNREADABLE = "The note cannot be opened: the shifts service's SECRETS_KEY is missing or changed";

/**
 * Timed visits: a risky part of a shift with its own timer (its end is the worker's deadline when
 * it comes first) and a sealed note, opened only for someone handling the visit's alarm.
 */
@Injectable()
export class VisitsService {
  constructor(
    private readonly workers: WorkerStateRepository,
    private readonly visits: VisitsRepository,
    private readonly checkIns: CheckInsService,
    private readonly emergencies: EmergenciesService,
    private readonly notes: VisitNotes,
    @Inject(UnitOfWork) private readonly uow: UnitOfWork,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /**
   * Starts a visit of `minutes`: its end becomes the deadline when sooner than the regular one (an
   * overdue deadline stays overdue). Starting while one is on answers the state unchanged.
   */
  async start(req: Start['request']): Promise<WorkerStateView> {
    // Sealed before the transaction: a missing key refuses without touching anything.
    const sealedNote = req.note ? this.notes.seal(req.note) : null;
    return this.uow.run(async (tx, emit) => {
      const state = await this.workers.lock(tx, req.userId);
      if (!state?.onShift || !state.currentShiftId || !state.nextCheckInAt) throw new RpcError(409, NOT_ON_SHIFT, { code: 'not_on_shift' });
      if (state.visit) return workerView(state);
      const now = this.clock();
      const endsAt = new Date(now.getTime() + req.minutes * 60_000);
      const type = req.visitType;
      const visit: CurrentVisit = {
        id: randomUUID(),
        where: req.where,
        startedAt: now.toISOString(),
        endsAt: endsAt.toISOString(),
        hasNote: sealedNote !== null,
        ...(type ? { typeId: type.id, typeName: type.name } : {}),
        ...(type?.checkInInterval !== undefined ? { checkInInterval: type.checkInInterval } : {}),
        ...(type?.smsToo ? { smsToo: true } : {}),
      };
      await tx.insert(visits).values({
        id: visit.id,
        userId: req.userId,
        shiftId: state.currentShiftId,
        where: req.where,
        startedAt: now,
        endsAt,
        sealedNote,
      });
      // The first of: the regular deadline, the visit's end, and the type's interval from now.
      const soonest = Math.min(
        state.nextCheckInAt.getTime(),
        endsAt.getTime(),
        visit.checkInInterval !== undefined ? nextCheckInAt(now, visit.checkInInterval).getTime() : Number.POSITIVE_INFINITY,
      );
      const due = new Date(soonest);
      const workerVersion = await this.workers.update(tx, req.userId, { visit, nextCheckInAt: due });
      await emit('shifts.visit.started.v1', {
        shiftId: state.currentShiftId,
        userId: req.userId,
        visit,
        nextCheckInAt: due.toISOString(),
        workerVersion,
      });
      return workerView({ ...state, visit, nextCheckInAt: due, version: workerVersion });
    });
  }

  /**
   * The worker ends the visit with their PIN: the visit closes and a check-in is recorded on the
   * regular interval (after the visit's timer ran out, that check-in stops its alarm as any late
   * one does). The duress PIN ends it the same way, after a silent duress emergency of the visit,
   * raised in the same transaction and kept even when there is no visit to end.
   */
  async end(userId: number, duress = false): Promise<WorkerStateView> {
    const outcome = await this.uow.run(async (tx, emit) => {
      if (duress) await this.emergencies.raiseIn(tx, emit, userId, true);
      const state = await this.workers.lock(tx, userId);
      if (!state?.onShift) return { refused: new RpcError(409, NOT_ON_SHIFT, { code: 'not_on_shift' }) };
      if (!state.visit) return { refused: new RpcError(409, NO_VISIT, { code: 'no_visit' }) };
      await this.visits.closeIn(tx, emit, state, 'worker');
      const { worker } = await this.checkIns.recordIn(tx, emit, { userId }, true);
      return { worker };
    });
    if ('refused' in outcome) throw outcome.refused;
    return outcome.worker;
  }

  /** The visit's note, opened for someone handling its alarm (the gateway checked that); every reveal is announced. */
  async revealNote(req: Reveal['request']): Promise<Reveal['reply']> {
    return this.uow.run(async (tx, emit) => {
      const [visit] = await tx
        .select({ sealedNote: visits.sealedNote, purgedAt: visits.purgedAt })
        .from(visits)
        .where(and(eq(visits.id, req.visitId), eq(visits.userId, req.userId)));
      if (!visit) throw new RpcError(404, VISIT_NOT_FOUND, { code: 'visit_not_found' });
      if (visit.purgedAt) throw new RpcError(410, NOTE_DELETED, { code: 'note_deleted' });
      if (!visit.sealedNote) throw new RpcError(404, NO_NOTE, { code: 'no_note' });
      const note = this.notes.open(visit.sealedNote);
      if (note === undefined) throw new RpcError(409, NOTE_UNREADABLE, { code: 'note_unreadable' });
      await emit('shifts.visit.note_revealed.v1', {
        visitId: req.visitId,
        userId: req.userId,
        alarmId: req.alarmId,
        byUserId: req.byUserId,
        ...(req.viaToken ? { viaToken: req.viaToken } : {}),
        revealedAt: this.clock().toISOString(),
      });
      return { note };
    });
  }
}
