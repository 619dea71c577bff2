import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { and, eq, sql } from 'drizzle-orm';
import type { CommandMap } from '@lws/contracts';
import { RpcError } from '@lws/messaging';
import { CLOCK, UnitOfWork, type Clock, type Emit, type Tx } from '@lws/platform';
import { nextCheckInAt } from '@lws/rules';
import { checkIns, workerState } from '../db/schema';
import { EmergenciesService } from '../emergencies/emergencies.service';
import { visitDeadline, visitOverran, VisitsRepository } from '../workers/visits.repository';
import { WorkerStateRepository } from '../workers/worker-state.repository';
import { checkInView, latestCheckInOf, workerView } from '../workers/worker-view';

type Record_ = CommandMap['shifts.checkin.record.v1'];

/** A second press within this window is the same check-in (a double tap, a retried request). */
export const DUPLICATE_WINDOW_MS = 5000;
export const NOT_ON_SHIFT = 'You are not on shift';

const LONDON = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/London', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });

export const checkInTooOld = (madeAt: Date) =>
  `This check-in was made at ${LONDON.format(madeAt)} and the next one is already due: it cannot say you are safe now. Please check in again.`;

/**
 * When a check-in counts from: the moment the worker made it, for one the worker app
 * kept while offline, within what the server knows. Never later than its arrival (a phone's clock
 * running fast gains nothing) and never before the shift began.
 */
function madeAt(claimed: string | undefined, received: Date, shiftStartedAt: Date | null): Date {
  if (claimed === undefined) return received;
  const at = Math.min(Date.parse(claimed), received.getTime());
  return new Date(shiftStartedAt ? Math.max(at, shiftStartedAt.getTime()) : at);
}

@Injectable()
export class CheckInsService {
  constructor(
    private readonly workers: WorkerStateRepository,
    private readonly emergencies: EmergenciesService,
    private readonly visits: VisitsRepository,
    @Inject(UnitOfWork) private readonly uow: UnitOfWork,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /**
   * Records "I'm safe" and moves the deadline to one interval after now (after the moment it was
   * made, for one the worker app kept offline: it never buys time it did not cover). Late and early
   * check-ins count alike (a late one stops the escalation); the client's window is a UI rule.
   * The worker's row is locked first, so concurrent submits are answered one after the other and
   * the second finds the first. `duress`: a silent duress emergency is raised in the same
   * transaction, and kept even when the check-in is refused (the worker is told as for the PIN).
   */
  async record(req: Record_['request']): Promise<Record_['reply']> {
    const outcome = await this.uow.run(async (tx, emit) => {
      if (!req.duress) return { reply: await this.recordIn(tx, emit, req) };
      // The duress PIN: the silent emergency commits whatever becomes of the check-in itself.
      await this.emergencies.raiseIn(tx, emit, req.userId, true);
      try {
        return { reply: await this.recordIn(tx, emit, req) };
      } catch (err) {
        if (err instanceof RpcError) return { refused: err };
        throw err;
      }
    });
    if ('refused' in outcome) throw outcome.refused;
    return outcome.reply;
  }

  /**
   * record() inside the caller's transaction. `fresh`: a check-in of its own even right after
   * another (the end of a visit, which must bring the regular interval back).
   */
  async recordIn(tx: Tx, emit: Emit, req: Record_['request'], fresh = false): Promise<Record_['reply']> {
    let state = await this.workers.lock(tx, req.userId);
    if (req.idempotencyKey !== undefined) {
      const [earlier] = await tx
        .select()
        .from(checkIns)
        .where(and(eq(checkIns.userId, req.userId), eq(checkIns.idempotencyKey, req.idempotencyKey)));
      if (earlier && state) return { checkIn: checkInView(earlier), worker: workerView(state), duplicate: true };
    }
    if (!state?.onShift || !state.currentShiftId || !state.location) throw new RpcError(409, NOT_ON_SHIFT, { code: 'not_on_shift' });
    const shiftId = state.currentShiftId;
    const received = this.clock();
    const latest = latestCheckInOf(state);
    const sinceLatest = state.latestCheckInAt ? received.getTime() - state.latestCheckInAt.getTime() : Infinity;
    if (!fresh && latest && sinceLatest >= 0 && sinceLatest < DUPLICATE_WINDOW_MS) {
      return { checkIn: latest, worker: workerView(state), duplicate: true };
    }
    const checkedInAt = madeAt(req.madeAt, received, state.shiftStartedAt);
    // A kept check-in overtaken by a newer one (a text, a second device) tells nothing new.
    if (req.madeAt !== undefined && latest && state.latestCheckInAt && checkedInAt.getTime() <= state.latestCheckInAt.getTime()) {
      return { checkIn: latest, worker: workerView(state), duplicate: true };
    }
    const id = randomUUID();
    const location = req.location?.trim() || state.location;
    // During a visit, check-ins follow its type's interval, and its end is the deadline when it
    // comes first; a check-in after its timer ran out closes it, and the regular interval is back.
    const overran = visitOverran(state.visit, received);
    const visit = overran ? null : state.visit;
    const due = visitDeadline(nextCheckInAt(checkedInAt, visit?.checkInInterval ?? state.checkInInterval), visit, received);
    if (due.getTime() <= received.getTime()) {
      throw new RpcError(409, checkInTooOld(checkedInAt), { code: 'check_in_too_old' });
    }
    // Only once nothing can refuse the check-in: a refused duress check-in commits its emergency, and nothing else.
    if (overran) state = await this.visits.closeIn(tx, emit, state, 'check_in');
    // The check-in and the worker's new deadline in one hand-written statement, like lock(): every check-in runs it.
    const updated = (await tx.execute(sql`
      with recorded as (
        insert into ${checkIns} (id, user_id, shift_id, location, checked_in_at, next_check_in_at, idempotency_key, lat, lng, accuracy_m)
        values (${id}, ${req.userId}, ${shiftId}, ${location}, ${checkedInAt.toISOString()}::timestamptz,
                ${due.toISOString()}::timestamptz, ${req.idempotencyKey ?? null},
                ${req.position?.lat ?? null}::double precision, ${req.position?.lng ?? null}::double precision, ${req.position?.accuracyM ?? null}::double precision)
      )
      update ${workerState}
      set latest_check_in_id = ${id}, latest_check_in_at = ${checkedInAt.toISOString()}::timestamptz,
          latest_check_in_location = ${location}, next_check_in_at = ${due.toISOString()}::timestamptz,
          version = version + 1, changed_at = now()
      where user_id = ${req.userId}
      returning version`)) as unknown as { rows: { version: number }[] };
    const workerVersion = updated.rows[0].version;
    const row = {
      ...state,
      latestCheckInId: id,
      latestCheckInAt: checkedInAt,
      latestCheckInLocation: location,
      nextCheckInAt: due,
      version: workerVersion,
    };
    await emit('shifts.checkin.recorded.v1', {
      checkInId: id,
      shiftId,
      userId: req.userId,
      location,
      checkedInAt: checkedInAt.toISOString(),
      nextCheckInAt: due.toISOString(),
      workerVersion,
      ...(req.position ? { position: req.position } : {}),
      // Counted from the device's moment: escalation records it against an open alarm by its arrival.
      ...(checkedInAt.getTime() !== received.getTime() ? { receivedAt: received.toISOString() } : {}),
    });
    return { checkIn: checkInView({ id, checkedInAt, location, nextCheckInAt: due }), worker: workerView(row), duplicate: false };
  }

  /** The latest check-in of the current shift; none off shift or before the first. */
  async latest(userId: number) {
    const state = await this.workers.find(userId);
    const latest = state ? latestCheckInOf(state) : undefined;
    return latest ? { checkIn: latest } : {};
  }
}
