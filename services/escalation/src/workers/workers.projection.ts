import { Inject, Injectable } from '@nestjs/common';
import { and, eq, isNull, lt, lte, sql } from 'drizzle-orm';
import type { EventMap } from '@lws/contracts';
import { profileUpdate } from '@lws/messaging';
import { CLOCK, type Clock, type Emit, type Tx } from '@lws/platform';
import { endedShifts, teams, workerContacts, workers, type WorkerRow } from '../db/schema';
import { AlarmsService } from '../alarms/alarms.service';
import { CheckinsService } from '../deadlines/checkins.service';

/**
 * A versioned profile event's team and away time (absent on those events: none). An event from
 * before versions says nothing of either.
 */
function teamAndAway(e: { version?: number; teamId?: number; awayUntil?: string }) {
  return e.version ? { teamId: e.teamId ?? null, awayUntil: e.awayUntil ? new Date(e.awayUntil) : null } : {};
}

/** Whether a handler wrote a deadline step that is due at once. */
export type DueNow = boolean;

/**
 * Escalation's copy of who is on shift, when each worker is due, and who to call. Subjects are
 * not ordered with each other, so each handler works whatever arrived before it: a shift that
 * ended stays ended, and a deadline is only ever replaced by one set at a later instant.
 */
@Injectable()
export class WorkersProjection {
  constructor(
    private readonly checkins: CheckinsService,
    private readonly alarms: AlarmsService,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  // ---- identity ----
  // identity raises one version per user with every change and each event carries it: an aspect
  // (profile, settings, a contact) is replaced only by an event at least as new as the one it holds,
  // so an older event delivered late never undoes a newer one. Events from before versions carry
  // none (0) and apply only to what no versioned event has set. A deleted user stays deleted.

  async userCreated(tx: Tx, e: EventMap['identity.user.created.v1']): Promise<void> {
    const version = e.version ?? 0;
    const profile = { name: e.name, phone: e.phone ?? null, role: e.role, profileVersion: version, ...teamAndAway(e) };
    await tx
      .insert(workers)
      .values({ userId: e.userId, ...profile })
      .onConflictDoUpdate({
        target: workers.userId,
        set: e.version
          ? profile
          : {
              // Unversioned: an update can only postdate the creation, so what it set is newer.
              name: sql`coalesce(${workers.name}, excluded.name)`,
              phone: sql`coalesce(${workers.phone}, excluded.phone)`,
              role: sql`coalesce(${workers.role}, excluded.role)`,
            },
        where: and(lte(workers.profileVersion, version), isNull(workers.deletedAt)),
      });
  }

  async userUpdated(tx: Tx, e: EventMap['identity.user.updated.v1']): Promise<void> {
    const { version, changes: profile } = profileUpdate(e);
    const changes = { ...profile, ...teamAndAway(e) };
    await tx
      .insert(workers)
      .values({ userId: e.userId, ...changes, profileVersion: version })
      .onConflictDoUpdate({
        target: workers.userId,
        set: { ...changes, profileVersion: version },
        where: and(lte(workers.profileVersion, version), isNull(workers.deletedAt)),
      });
  }

  /** A team as identity now has it; an older version delivered late changes nothing. */
  async teamChanged(tx: Tx, e: EventMap['identity.team.changed.v1']): Promise<void> {
    await this.teamAsOf(tx, e.team, e.change === 'deleted');
  }

  /** A team at its version (or gone), from its event or from reconciliation; an older version changes nothing. */
  async teamAsOf(tx: Tx, t: EventMap['identity.team.changed.v1']['team'], deleted: boolean): Promise<void> {
    const row = {
      name: t.name,
      monitors: t.monitors.map((m) => ({ userId: m.userId, ...(m.deputyUserId !== undefined ? { deputyUserId: m.deputyUserId } : {}) })),
      escalationPolicy: t.escalationPolicy !== undefined ? (JSON.parse(t.escalationPolicy) as unknown) : null,
      emergencyNumbers: t.emergencyNumbers,
      voiceReminder: t.voiceReminder === true,
      version: t.version,
      deletedAt: deleted ? this.clock() : null,
    };
    await tx
      .insert(teams)
      .values({ id: t.id, ...row })
      .onConflictDoUpdate({ target: teams.id, set: row, where: lt(teams.version, t.version) });
  }

  /** A team identity no longer has (its deletion event was lost): true when the copy still had it. */
  async teamGone(tx: Tx, teamId: number): Promise<boolean> {
    const gone = await tx.update(teams).set({ deletedAt: this.clock() }).where(and(eq(teams.id, teamId), isNull(teams.deletedAt))).returning({ id: teams.id });
    return gone.length > 0;
  }

  /** The user is gone: nobody waits for their check-ins; open alarms stay for monitors to resolve. */
  async userDeleted(tx: Tx, e: EventMap['identity.user.deleted.v1']): Promise<void> {
    const now = this.clock();
    const worker = await this.lockWorker(tx, e.userId);
    if (worker?.onShift && worker.shiftId) await this.endShift(tx, worker.userId, worker.shiftId, now, 'user_deleted');
    await tx
      .update(workers)
      .set({ deletedAt: now, onShift: false, shiftId: null, nextCheckInAt: null, phone: null, primaryContact: null, secondaryContact: null })
      .where(eq(workers.userId, e.userId));
    await tx.delete(workerContacts).where(eq(workerContacts.userId, e.userId));
  }

  async settingsChanged(tx: Tx, e: EventMap['identity.settings.changed.v1']): Promise<void> {
    const version = e.version ?? 0;
    const set = {
      checkInInterval: e.checkInInterval,
      primaryContact: e.primaryContact ?? null,
      secondaryContact: e.secondaryContact ?? null,
      settingsVersion: version,
    };
    await tx
      .insert(workers)
      .values({ userId: e.userId, ...set })
      .onConflictDoUpdate({ target: workers.userId, set, where: and(lte(workers.settingsVersion, version), isNull(workers.deletedAt)) });
  }

  async contactChanged(tx: Tx, e: EventMap['identity.contact.changed.v1']): Promise<void> {
    const version = e.version ?? 0;
    if (e.change === 'deleted') {
      // A contact id is never reused: its deletion is final whatever arrives after it.
      await tx
        .insert(workerContacts)
        .values({ contactId: e.contactId, userId: e.userId, deleted: true, version })
        .onConflictDoUpdate({
          target: workerContacts.contactId,
          set: { deleted: true, name: null, phone: null, relation: null, version: sql`greatest(${workerContacts.version}, ${version})` },
        });
      return;
    }
    const set = { name: e.name ?? null, phone: e.phone ?? null, relation: e.relation ?? null, version };
    await tx
      .insert(workerContacts)
      .values({ contactId: e.contactId, userId: e.userId, ...set })
      .onConflictDoUpdate({
        target: workerContacts.contactId,
        set,
        where: and(eq(workerContacts.deleted, false), lte(workerContacts.version, version)),
      });
  }

  // ---- shifts ----

  // The shift handlers answer whether they wrote something due now: the caller wakes the
  // scheduler once the transaction has committed, so its pass sees the row.

  async shiftStarted(tx: Tx, e: EventMap['shifts.shift.started.v1']): Promise<DueNow> {
    const set = await this.setDeadline(tx, e.userId, e.shiftId, e.location, new Date(e.nextCheckInAt), new Date(e.startedAt), e.workerVersion);
    // A new shift: its own "where I'll be", and no position until one of its check-ins has one.
    if (set.applied) await tx.update(workers).set({ shiftNote: e.note ?? null, lastPosition: null }).where(eq(workers.userId, e.userId));
    return set.dueNow;
  }

  /** Moves the deadline; a check-in while a missed-check-in alarm is open stops that alarm's steps. */
  async checkInRecorded(tx: Tx, emit: Emit, e: EventMap['shifts.checkin.recorded.v1']): Promise<DueNow> {
    const checkedInAt = new Date(e.checkedInAt);
    const set = await this.setDeadline(tx, e.userId, e.shiftId, e.location, new Date(e.nextCheckInAt), checkedInAt, e.workerVersion);
    if (set.applied && e.position) {
      const lastPosition = { ...e.position, at: e.checkedInAt, shiftId: e.shiftId };
      await tx.update(workers).set({ lastPosition }).where(eq(workers.userId, e.userId));
    }
    // Kept offline, a check-in counts from when the device says it was made; it reached shifts at receivedAt.
    const heard = e.receivedAt ? { receivedAt: new Date(e.receivedAt), madeAt: checkedInAt } : { receivedAt: checkedInAt };
    if (set.applied) await this.alarms.lateCheckIn(tx, emit, e.userId, heard);
    return set.dueNow;
  }

  /** A superadmin moved the deadline: a new deadline, without a check-in. */
  async deadlineChanged(tx: Tx, e: EventMap['shifts.deadline.changed.v1']): Promise<DueNow> {
    const set = await this.setDeadline(tx, e.userId, e.shiftId, null, new Date(e.nextCheckInAt), new Date(e.changedAt), e.workerVersion);
    return set.dueNow;
  }

  async shiftEnded(tx: Tx, e: EventMap['shifts.shift.ended.v1']): Promise<DueNow> {
    await this.shiftEndedAt(tx, e.userId, e.shiftId, new Date(e.endedAt), e.reason, e.workerVersion);
    return false;
  }

  /** Answers whether it ended the worker's current shift. */
  private async shiftEndedAt(tx: Tx, userId: number, shiftId: string, endedAt: Date, reason: string, version: number | undefined): Promise<boolean> {
    await tx.insert(endedShifts).values({ shiftId, userId, endedAt }).onConflictDoNothing();
    await tx.insert(workers).values({ userId }).onConflictDoNothing();
    const worker = await this.lockWorker(tx, userId);
    await this.heardVersion(tx, userId, version);
    // The end of an older shift (delivered late) must not end the current one. The end of the
    // current one always applies, whatever version came first: an ended shift never resumes.
    if (worker?.shiftId && worker.shiftId !== shiftId) return false;
    await this.endShift(tx, userId, shiftId, endedAt, reason);
    return !!worker?.onShift;
  }

  async emergencyRaised(tx: Tx, emit: Emit, e: EventMap['shifts.emergency.raised.v1']): Promise<DueNow> {
    // Never skipped for its version: an emergency is an emergency whenever it arrives.
    await this.heardVersion(tx, e.userId, e.workerVersion);
    const opened = await this.alarms.open(tx, emit, {
      kind: 'emergency',
      userId: e.userId,
      // Escalation's own clock: the steps run from when escalation heard, never skipped as "already late".
      now: this.clock(),
      location: e.location ?? null,
      shiftId: e.shiftId ?? null,
      emergencyId: e.emergencyId,
      raisedAt: new Date(e.raisedAt),
      ...(e.duress ? { duress: true } : {}),
    });
    // Its first steps are written with it, not a scheduler pass later; if they fail, the pass runs them.
    if (opened) await this.alarms.startNow(tx, emit, opened);
    return !!opened;
  }

  // ---- repairs ----
  // Reconciliation found the owner (shifts) holding something this copy lacks: the same paths as
  // the events, given what the owner holds now. A repair applies at the owner's version or newer
  // (an event of that version may have been lost while a later one arrived); one older than
  // what this copy holds is left alone, as an event would be.

  /** The owner's shift and deadline; a check-in newer than the deadline this copy had stops a missed alarm, as the check-in would have. */
  async repairDeadline(
    tx: Tx,
    emit: Emit,
    o: { userId: number; shiftId: string; location: string | null; nextCheckInAt: Date; asOf: Date; version: number; latestCheckInAt?: Date },
  ): Promise<{ applied: boolean; dueNow: DueNow }> {
    const set = await this.setDeadline(tx, o.userId, o.shiftId, o.location, o.nextCheckInAt, o.asOf, o.version, { repair: true });
    if (set.applied && o.latestCheckInAt && (!set.previousAsOf || o.latestCheckInAt.getTime() > set.previousAsOf.getTime())) {
      // When the lost check-in reached shifts is not known, and its own time may be a device's word:
      // it counts as arriving now, when escalation learnt of it.
      await this.alarms.lateCheckIn(tx, emit, o.userId, { receivedAt: this.clock() });
    }
    return set;
  }

  /** The owner says the shift ended; answers whether it was this copy's current shift. */
  repairShiftEnded(tx: Tx, o: { userId: number; shiftId: string; endedAt: Date; reason: string }): Promise<boolean> {
    return this.shiftEndedAt(tx, o.userId, o.shiftId, o.endedAt, o.reason, undefined);
  }

  private async endShift(tx: Tx, userId: number, shiftId: string, endedAt: Date, reason: string): Promise<void> {
    await tx.insert(endedShifts).values({ shiftId, userId, endedAt }).onConflictDoNothing();
    await this.checkins.cancel(tx, userId);
    await tx.update(workers).set({ onShift: false, shiftId: null, nextCheckInAt: null, deadlineAsOf: null }).where(eq(workers.userId, userId));
    await this.alarms.shiftEnded(tx, userId, reason);
  }

  /** Keeps the newest shifts version heard of the worker. */
  private async heardVersion(tx: Tx, userId: number, version: number | undefined): Promise<void> {
    if (!version) return;
    await tx
      .update(workers)
      .set({ shiftsVersion: sql`greatest(${workers.shiftsVersion}, ${version})` })
      .where(eq(workers.userId, userId));
  }

  /**
   * Applies a deadline unless a newer one is already in place or the shift has ended. Newer is
   * shifts' version of the worker when both sides have one (the order shifts committed the changes
   * in, whatever its replicas' clocks said); otherwise the instant it was set at (`asOf`).
   */
  private async setDeadline(
    tx: Tx,
    userId: number,
    shiftId: string,
    location: string | null,
    due: Date,
    asOf: Date,
    version: number | undefined,
    opts: { repair?: boolean } = {},
  ): Promise<{ applied: boolean; dueNow: DueNow; previousAsOf?: Date | null }> {
    const skipped = { applied: false, dueNow: false };
    let worker = await this.lockForDeadline(tx, userId, shiftId);
    if (!worker) {
      await tx.execute(sql`insert into ${workers} (user_id) values (${userId}) on conflict do nothing`);
      worker = await this.lockForDeadline(tx, userId, shiftId);
    }
    if (!worker || worker.ended || worker.deletedAt) return skipped;
    // Shift and check-in events come through separate consumers, so an old shift's late check-in can arrive after
    // the next shift started: whichever shift it names, a deadline set before the one in place never replaces it.
    if (version && worker.shiftsVersion > 0) {
      if (opts.repair ? worker.shiftsVersion > version : worker.shiftsVersion >= version) return skipped;
    } else if (worker.onShift && worker.deadlineAsOf && worker.deadlineAsOf.getTime() > asOf.getTime()) {
      return skipped;
    }
    await tx.execute(sql`
      update ${workers} set on_shift = true, shift_id = ${shiftId}, location = ${location ?? worker.location},
        next_check_in_at = ${due.toISOString()}::timestamptz, deadline_as_of = ${asOf.toISOString()}::timestamptz,
        shifts_version = ${Math.max(worker.shiftsVersion, version ?? 0)}
      where user_id = ${userId}`);
    const now = this.clock();
    const at = await this.checkins.schedule(tx, userId, shiftId, due, now);
    return { applied: true, dueNow: at.getTime() <= now.getTime(), previousAsOf: worker.onShift && worker.shiftId === shiftId ? worker.deadlineAsOf : null };
  }

  /**
   * Locks the worker's row and says whether the shift has ended, in one hand-written statement:
   * every shift event, check-in and repair runs it, and drizzle's query builder costs about fifty
   * times a template's CPU (bench/checkin, bench/reconcile).
   */
  private async lockForDeadline(tx: Tx, userId: number, shiftId: string): Promise<LockedWorker | undefined> {
    const { rows } = (await tx.execute(sql`
      select w.on_shift, w.shift_id, w.location, w.deadline_as_of, w.deleted_at, w.shifts_version,
        exists (select 1 from ${endedShifts} e where e.shift_id = ${shiftId}) as ended
      from ${workers} w where w.user_id = ${userId} for update of w`)) as unknown as { rows: RawLockedWorker[] };
    const r = rows[0];
    if (!r) return undefined;
    return {
      onShift: r.on_shift,
      shiftId: r.shift_id,
      location: r.location,
      deadlineAsOf: toDate(r.deadline_as_of),
      deletedAt: toDate(r.deleted_at),
      shiftsVersion: r.shifts_version,
      ended: r.ended,
    };
  }

  private async lockWorker(tx: Tx, userId: number): Promise<WorkerRow | undefined> {
    const [row] = await tx.select().from(workers).where(eq(workers.userId, userId)).for('update');
    return row;
  }
}

interface RawLockedWorker {
  on_shift: boolean;
  shift_id: string | null;
  location: string | null;
  deadline_as_of: Date | string | null;
  deleted_at: Date | string | null;
  shifts_version: number;
  ended: boolean;
}

interface LockedWorker {
  onShift: boolean;
  shiftId: string | null;
  location: string | null;
  deadlineAsOf: Date | null;
  deletedAt: Date | null;
  shiftsVersion: number;
  ended: boolean;
}

const toDate = (v: Date | string | null) => (v === null || v instanceof Date ? v : new Date(v));
