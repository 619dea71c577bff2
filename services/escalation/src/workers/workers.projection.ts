import { Inject, Injectable } from '@nestjs/common';
import { and, eq, inArray, isNotNull, isNull, lt, lte, sql } from 'drizzle-orm';
import type { EventMap } from '@lws/contracts';
import { profileUpdate } from '@lws/messaging';
import { CLOCK, pgArray, type Clock, type Emit, type OnCallSchedule, type Tx } from '@lws/platform';
import { alarms, deadlines, endedShifts, teams, workerContacts, workers, type WorkerRow } from '../db/schema';
import { AlarmsService } from '../alarms/alarms.service';
import { CheckinRequestsService } from '../checkin-requests/checkin-requests.service';
import { CheckinsService } from '../deadlines/checkins.service';
import { firstStep } from '../deadlines/checkin-steps';
import { checkinKey, DeadlinesRepository, type DeadlineSpec } from '../deadlines/deadlines.repository';

/**
 * A versioned profile event's team and away time (absent on those events: none). An event from
 * before versions says nothing of either.
 */
function teamAndAway(e: { version?: number; teamId?: number; awayUntil?: string; language?: string }): {
  teamId?: number | null;
  awayUntil?: Date | null;
  language?: string;
} {
  return {
    ...(e.version ? { teamId: e.teamId ?? null, awayUntil: e.awayUntil ? new Date(e.awayUntil) : null } : {}),
    // Events from before languages carry none: the language held stays.
    ...(e.language ? { language: e.language } : {}),
  };
}

/** The shift and deadline shifts holds for a worker, as reconciliation repairs them (repairDeadline). */
export interface DeadlineRepair {
  userId: number;
  shiftId: string;
  location: string | null;
  nextCheckInAt: Date;
  asOf: Date;
  version: number;
  latestCheckInAt?: Date;
}

/** A shift shifts says has ended, as reconciliation repairs it (repairShiftEnded). */
export interface ShiftEndRepair {
  userId: number;
  shiftId: string;
  endedAt: Date;
  reason: string;
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
    private readonly deadlines: DeadlinesRepository,
    private readonly alarms: AlarmsService,
    private readonly requests: CheckinRequestsService,
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

  /** userUpdated() of many versioned events (each of a different user) in one statement: reconciliation's repairs. */
  async userUpdatedMany(tx: Tx, events: readonly (EventMap['identity.user.updated.v1'] & { version: number })[]): Promise<void> {
    if (events.length === 0) return;
    const rows = events.map((e) => {
      const { version, changes } = profileUpdate(e);
      const { teamId, awayUntil, language } = teamAndAway(e);
      return {
        user_id: e.userId,
        name: changes.name,
        phone: changes.phone,
        role: changes.role,
        team_id: teamId,
        away_until: awayUntil,
        language: language ?? null,
        version,
      };
    });
    await tx.execute(sql`
      insert into ${workers} as w (user_id, name, phone, role, team_id, away_until, language, profile_version)
      select u.user_id, u.name, u.phone, u.role, u.team_id, u.away_until, u.language, u.version
      from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as u(user_id int, name text, phone text, role text, team_id int, away_until timestamptz, language text, version int)
      on conflict (user_id) do update set name = excluded.name, phone = excluded.phone, role = excluded.role, team_id = excluded.team_id,
        away_until = excluded.away_until, language = coalesce(excluded.language, w.language), profile_version = excluded.profile_version
      where w.profile_version <= excluded.profile_version and w.deleted_at is null`);
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
      onCallSchedule: t.onCallSchedule !== undefined ? (JSON.parse(t.onCallSchedule) as OnCallSchedule) : null,
      visitTypes: (t.visitTypes ?? []).map((v) => ({
        id: v.id,
        escalationPolicy: v.escalationPolicy !== undefined ? (JSON.parse(v.escalationPolicy) as unknown) : null,
      })),
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
    const gone = await tx
      .update(teams)
      .set({ deletedAt: this.clock() })
      .where(and(eq(teams.id, teamId), isNull(teams.deletedAt)))
      .returning({ id: teams.id });
    return gone.length > 0;
  }

  /**
   * The user is gone: nobody waits for their check-ins, the team's monitors are told if they were
   * on shift, and open alarms go on escalating for monitors to resolve.
   */
  async userDeleted(tx: Tx, emit: Emit, e: EventMap['identity.user.deleted.v1']): Promise<void> {
    const now = this.clock();
    const worker = await this.lockWorker(tx, e.userId);
    if (worker?.onShift && worker.shiftId) {
      await this.endShift(tx, worker.userId, worker.shiftId, now, 'user_deleted');
      // Before the row forgets them: the notice names the worker.
      await this.alarms.closedOnShift(tx, emit, worker.userId, 'deleted');
    }
    await tx
      .update(workers)
      .set({
        deletedAt: now,
        onShift: false,
        shiftId: null,
        nextCheckInAt: null,
        phone: null,
        primaryContact: null,
        secondaryContact: null,
      })
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

  /** settingsChanged() of many events (each of a different user) in one statement: reconciliation's repairs. */
  async settingsChangedMany(tx: Tx, events: readonly EventMap['identity.settings.changed.v1'][]): Promise<void> {
    if (events.length === 0) return;
    const rows = events.map((e) => ({
      user_id: e.userId,
      check_in_interval: e.checkInInterval,
      primary_contact: e.primaryContact ?? null,
      secondary_contact: e.secondaryContact ?? null,
      version: e.version ?? 0,
    }));
    await tx.execute(sql`
      insert into ${workers} as w (user_id, check_in_interval, primary_contact, secondary_contact, settings_version)
      select u.user_id, u.check_in_interval, u.primary_contact, u.secondary_contact, u.version
      from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as u(user_id int, check_in_interval int, primary_contact text, secondary_contact text, version int)
      on conflict (user_id) do update set check_in_interval = excluded.check_in_interval, primary_contact = excluded.primary_contact,
        secondary_contact = excluded.secondary_contact, settings_version = excluded.settings_version
      where w.settings_version <= excluded.settings_version and w.deleted_at is null`);
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

  /**
   * contactChanged() of many events (each of a different contact) in two statements, the changes
   * then the deletions: reconciliation's repairs.
   */
  async contactChangedMany(tx: Tx, events: readonly EventMap['identity.contact.changed.v1'][]): Promise<void> {
    const current = events
      .filter((e) => e.change !== 'deleted')
      .map((e) => ({
        contact_id: e.contactId,
        user_id: e.userId,
        name: e.name ?? null,
        phone: e.phone ?? null,
        relation: e.relation ?? null,
        version: e.version ?? 0,
      }));
    const gone = events
      .filter((e) => e.change === 'deleted')
      .map((e) => ({ contact_id: e.contactId, user_id: e.userId, version: e.version ?? 0 }));
    if (current.length > 0) {
      await tx.execute(sql`
        insert into ${workerContacts} as c (contact_id, user_id, name, phone, relation, version)
        select u.contact_id, u.user_id, u.name, u.phone, u.relation, u.version
        from jsonb_to_recordset(${JSON.stringify(current)}::jsonb) as u(contact_id int, user_id int, name text, phone text, relation text, version int)
        on conflict (contact_id) do update set name = excluded.name, phone = excluded.phone, relation = excluded.relation, version = excluded.version
        where not c.deleted and c.version <= excluded.version`);
    }
    if (gone.length > 0) {
      await tx.execute(sql`
        insert into ${workerContacts} as c (contact_id, user_id, deleted, version)
        select u.contact_id, u.user_id, true, u.version
        from jsonb_to_recordset(${JSON.stringify(gone)}::jsonb) as u(contact_id int, user_id int, version int)
        on conflict (contact_id) do update set deleted = true, name = null, phone = null, relation = null, version = greatest(c.version, excluded.version)`);
    }
  }

  // ---- shifts ----

  // The shift handlers answer whether they wrote something due now: the caller wakes the
  // scheduler once the transaction has committed, so its pass sees the row.

  async shiftStarted(tx: Tx, e: EventMap['shifts.shift.started.v1']): Promise<DueNow> {
    const set = await this.setDeadline(
      tx,
      e.userId,
      e.shiftId,
      e.location,
      new Date(e.nextCheckInAt),
      new Date(e.startedAt),
      e.workerVersion,
    );
    // A new shift: its own "where I'll be", no visit, and no position until one of its check-ins has one.
    if (set.applied)
      await tx
        .update(workers)
        .set({ shiftNote: e.note ?? null, lastPosition: null, visit: null })
        .where(eq(workers.userId, e.userId));
    return set.dueNow;
  }

  /** A timed visit began: its end is the deadline when sooner, and an alarm on it is the visit's. */
  async visitStarted(tx: Tx, e: EventMap['shifts.visit.started.v1']): Promise<DueNow> {
    const set = await this.setDeadline(
      tx,
      e.userId,
      e.shiftId,
      null,
      new Date(e.nextCheckInAt),
      new Date(e.visit.startedAt),
      e.workerVersion,
    );
    if (set.applied) await tx.update(workers).set({ visit: e.visit }).where(eq(workers.userId, e.userId));
    return set.dueNow;
  }

  /** The visit is over (the check-in that ended it moves the deadline on its own event). */
  async visitEnded(tx: Tx, e: EventMap['shifts.visit.ended.v1']): Promise<DueNow> {
    await this.heardVersion(tx, e.userId, e.workerVersion);
    await tx
      .update(workers)
      .set({ visit: null })
      .where(and(eq(workers.userId, e.userId), sql`${workers.visit}->>'id' = ${e.visitId}`));
    return false;
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
    // Any check-in made after a monitor asked answers the request, even one older than the deadline escalation holds.
    await this.requests.checkedIn(tx, emit, e.userId, checkedInAt);
    return set.dueNow;
  }

  /** A superadmin moved the deadline: a new deadline, without a check-in. */
  async deadlineChanged(tx: Tx, e: EventMap['shifts.deadline.changed.v1']): Promise<DueNow> {
    const set = await this.setDeadline(tx, e.userId, e.shiftId, null, new Date(e.nextCheckInAt), new Date(e.changedAt), e.workerVersion);
    // "+15 min" on a visit whose end was the deadline moved the visit's end with it.
    if (set.applied && e.visitEndsAt)
      await tx
        .update(workers)
        .set({ visit: sql`jsonb_set(${workers.visit}, '{endsAt}', to_jsonb(${e.visitEndsAt}::text))` })
        .where(and(eq(workers.userId, e.userId), isNotNull(workers.visit)));
    return set.dueNow;
  }

  async shiftEnded(tx: Tx, emit: Emit, e: EventMap['shifts.shift.ended.v1']): Promise<DueNow> {
    const ended = await this.shiftEndedAt(tx, e.userId, e.shiftId, new Date(e.endedAt), e.reason, e.workerVersion);
    if (ended && e.reason === 'deactivated') await this.alarms.closedOnShift(tx, emit, e.userId, 'deactivated');
    await this.requests.shiftEnded(tx, emit, e.userId, new Date(e.endedAt));
    return false;
  }

  /** Answers whether it ended the worker's current shift. */
  private async shiftEndedAt(
    tx: Tx,
    userId: number,
    shiftId: string,
    endedAt: Date,
    reason: string,
    version: number | undefined,
  ): Promise<boolean> {
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
    return (await this.emergencyHeard(tx, emit, e)) === 'opened';
  }

  /**
   * What an emergency became: `opened` its own alarm, `joined` the worker's emergency alarm still
   * escalating (a second press), or was `known` already (the same event heard twice).
   */
  async emergencyHeard(tx: Tx, emit: Emit, e: EventMap['shifts.emergency.raised.v1']): Promise<'opened' | 'joined' | 'known'> {
    // Never skipped for its version: an emergency is an emergency whenever it arrives.
    await this.heardVersion(tx, e.userId, e.workerVersion);
    const now = this.clock();
    if (!e.duress) {
      const joined = await this.alarms.joinPress(tx, emit, {
        emergencyId: e.emergencyId,
        userId: e.userId,
        raisedAt: new Date(e.raisedAt),
        now,
      });
      if (joined) return joined;
    }
    const opened = await this.alarms.open(tx, emit, {
      kind: 'emergency',
      userId: e.userId,
      // Escalation's own clock: the steps run from when escalation heard, never skipped as "already late".
      now,
      location: e.location ?? null,
      shiftId: e.shiftId ?? null,
      emergencyId: e.emergencyId,
      raisedAt: new Date(e.raisedAt),
      ...(e.duress ? { duress: true } : {}),
      ...(e.visit ? { visit: e.visit } : {}),
    });
    // Its first steps are written with it, not a scheduler pass later; if they fail, the pass runs them.
    if (!opened) return 'known';
    await this.alarms.startNow(tx, emit, opened);
    return 'opened';
  }

  // ---- repairs ----
  // Reconciliation found the owner (shifts) holding something this copy lacks: the same rules as
  // the events, given what the owner holds now, for one worker or for many together (the *Many
  // forms: a lost change can touch thousands). A repair applies at the owner's version or newer
  // (an event of that version may have been lost while a later one arrived); one older than
  // what this copy holds is left alone, as an event would be.

  /** The owner's shift and deadline; a check-in newer than the deadline this copy had stops a missed alarm, as the check-in would have. */
  async repairDeadline(tx: Tx, emit: Emit, o: DeadlineRepair): Promise<{ applied: boolean; dueNow: DueNow }> {
    const set = await this.setDeadline(tx, o.userId, o.shiftId, o.location, o.nextCheckInAt, o.asOf, o.version, { repair: true });
    if (set.applied && checkedInSince(o, set.previousAsOf)) {
      // When the lost check-in reached shifts is not known, and its own time may be a device's word:
      // it counts as arriving now, when escalation learnt of it.
      await this.alarms.lateCheckIn(tx, emit, o.userId, { receivedAt: this.clock() });
    }
    return set;
  }

  /**
   * repairDeadline() for many workers (each once) in a few statements: their rows locked in one,
   * the deadlines that replace theirs written in two; only a worker with a missed check-in alarm
   * still running has its late check-in heard one by one.
   */
  async repairDeadlineMany(tx: Tx, emit: Emit, repairs: readonly DeadlineRepair[]): Promise<{ applied: boolean; dueNow: DueNow }[]> {
    if (repairs.length === 0) return [];
    const locked = await this.lockForDeadlines(tx, repairs);
    const absent = repairs.filter((o) => !locked.has(o.userId));
    if (absent.length > 0) {
      await tx.execute(
        sql`insert into ${workers} (user_id) select unnest(${pgArray(absent.map((o) => o.userId))}::int[]) on conflict do nothing`,
      );
      for (const [userId, worker] of await this.lockForDeadlines(tx, absent)) locked.set(userId, worker);
    }
    const moved = repairs.filter((o) => {
      const worker = locked.get(o.userId);
      return !!worker && replacesDeadline(worker, o.asOf, o.version, true);
    });
    const set = new Map<number, { applied: true; dueNow: DueNow }>();
    if (moved.length > 0) {
      const rows = moved.map((o) => ({
        user_id: o.userId,
        shift_id: o.shiftId,
        location: o.location,
        due: o.nextCheckInAt.toISOString(),
        as_of: o.asOf.toISOString(),
        version: o.version,
      }));
      await tx.execute(sql`
        update ${workers} as w set on_shift = true, shift_id = u.shift_id, location = coalesce(u.location, w.location),
          next_check_in_at = u.due, deadline_as_of = u.as_of, shifts_version = greatest(w.shifts_version, u.version)
        from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as u(user_id int, shift_id uuid, location text, due timestamptz, as_of timestamptz, version int)
        where w.user_id = u.user_id`);
      const now = this.clock();
      const specs = moved.map((o) => checkinDeadline(o.userId, o.shiftId, o.nextCheckInAt, now));
      await this.deadlines.putMany(tx, specs);
      for (const d of specs) set.set(d.userId, { applied: true, dueNow: d.dueAt.getTime() <= now.getTime() });
      const checkedIn = moved.filter((o) => checkedInSince(o, heldAsOf(locked.get(o.userId)!, o.shiftId)));
      for (const userId of await this.withRunningMissed(
        tx,
        checkedIn.map((o) => o.userId),
      )) {
        await this.alarms.lateCheckIn(tx, emit, userId, { receivedAt: this.clock() });
      }
    }
    return repairs.map((o) => set.get(o.userId) ?? { applied: false, dueNow: false });
  }

  /** The owner says the shift ended; answers whether it was this copy's current shift. */
  repairShiftEnded(tx: Tx, o: ShiftEndRepair): Promise<boolean> {
    return this.shiftEndedAt(tx, o.userId, o.shiftId, o.endedAt, o.reason, undefined);
  }

  /**
   * repairShiftEnded() for many workers (each once) in a few statements; only a worker with a
   * missed check-in alarm still running has it stopped one by one.
   */
  async repairShiftEndedMany(tx: Tx, ends: readonly ShiftEndRepair[]): Promise<boolean[]> {
    if (ends.length === 0) return [];
    const ids = pgArray(ends.map((o) => o.userId));
    const rows = ends.map((o) => ({ shift_id: o.shiftId, user_id: o.userId, ended_at: o.endedAt.toISOString() }));
    await tx.execute(sql`
      insert into ${endedShifts} (shift_id, user_id, ended_at)
      select u.shift_id, u.user_id, u.ended_at from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as u(shift_id uuid, user_id int, ended_at timestamptz)
      on conflict do nothing`);
    await tx.execute(sql`insert into ${workers} (user_id) select unnest(${ids}::int[]) on conflict do nothing`);
    const { rows: held } = (await tx.execute(
      sql`select user_id, on_shift, shift_id from ${workers} where user_id = any(${ids}::int[]) order by user_id for update`,
    )) as unknown as { rows: { user_id: number; on_shift: boolean; shift_id: string | null }[] };
    const worker = new Map(held.map((w) => [w.user_id, w]));
    // As shiftEndedAt(): the end of an older shift must not end the current one.
    const ending = ends.filter((o) => {
      const shiftId = worker.get(o.userId)?.shift_id;
      return !shiftId || shiftId === o.shiftId;
    });
    if (ending.length > 0) {
      const userIds = ending.map((o) => o.userId);
      await tx.delete(deadlines).where(inArray(deadlines.jobKey, userIds.map(checkinKey)));
      await tx.execute(sql`
        update ${workers} set on_shift = false, shift_id = null, next_check_in_at = null, deadline_as_of = null
        where user_id = any(${pgArray(userIds)}::int[])`);
      const running = await this.withRunningMissed(tx, userIds);
      for (const o of ending) if (running.has(o.userId)) await this.alarms.shiftEnded(tx, o.userId, o.reason);
    }
    const ended = new Set(ending);
    return ends.map((o) => ended.has(o) && !!worker.get(o.userId)?.on_shift);
  }

  /**
   * Of these workers, those with a missed check-in alarm whose steps still run: the only ones
   * AlarmsService.lateCheckIn() and shiftEnded() change (AlarmsRepository.activeMissed), asked
   * for all of them in one statement.
   */
  private async withRunningMissed(tx: Tx, userIds: readonly number[]): Promise<Set<number>> {
    if (userIds.length === 0) return new Set();
    const { rows } = (await tx.execute(sql`
      select distinct user_id from ${alarms}
      where user_id = any(${pgArray(userIds)}::int[]) and kind = 'missed_check_in' and state <> 'resolved' and steps_stopped_reason is null`)) as unknown as {
      rows: { user_id: number }[];
    };
    return new Set(rows.map((r) => r.user_id));
  }

  private async endShift(tx: Tx, userId: number, shiftId: string, endedAt: Date, reason: string): Promise<void> {
    await tx.insert(endedShifts).values({ shiftId, userId, endedAt }).onConflictDoNothing();
    await this.checkins.cancel(tx, userId);
    await tx
      .update(workers)
      .set({ onShift: false, shiftId: null, nextCheckInAt: null, deadlineAsOf: null, visit: null })
      .where(eq(workers.userId, userId));
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

  /** Applies a deadline unless a newer one is already in place or the shift has ended (replacesDeadline). */
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
    if (!worker || !replacesDeadline(worker, asOf, version, !!opts.repair)) return skipped;
    await tx.execute(sql`
      update ${workers} set on_shift = true, shift_id = ${shiftId}, location = ${location ?? worker.location},
        next_check_in_at = ${due.toISOString()}::timestamptz, deadline_as_of = ${asOf.toISOString()}::timestamptz,
        shifts_version = ${Math.max(worker.shiftsVersion, version ?? 0)}
      where user_id = ${userId}`);
    const now = this.clock();
    const at = await this.checkins.schedule(tx, userId, shiftId, due, now);
    return { applied: true, dueNow: at.getTime() <= now.getTime(), previousAsOf: heldAsOf(worker, shiftId) };
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
    return rows[0] && lockedWorker(rows[0]);
  }

  /** lockForDeadline() of many workers (each once) in one statement, in user id order; a worker without a row is left out. */
  private async lockForDeadlines(tx: Tx, repairs: readonly { userId: number; shiftId: string }[]): Promise<Map<number, LockedWorker>> {
    const { rows } = (await tx.execute(sql`
      select w.user_id, w.on_shift, w.shift_id, w.location, w.deadline_as_of, w.deleted_at, w.shifts_version,
        exists (select 1 from ${endedShifts} e where e.shift_id = u.shift_id) as ended
      from jsonb_to_recordset(${JSON.stringify(repairs.map((o) => ({ user_id: o.userId, shift_id: o.shiftId })))}::jsonb) as u(user_id int, shift_id uuid)
      join ${workers} w on w.user_id = u.user_id
      order by w.user_id
      for update of w`)) as unknown as { rows: (RawLockedWorker & { user_id: number })[] };
    return new Map(rows.map((r) => [r.user_id, lockedWorker(r)]));
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

function lockedWorker(r: RawLockedWorker): LockedWorker {
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

/**
 * Whether a deadline set at `asOf` (shifts' `version` of the worker) replaces the one the locked
 * worker has: never once the shift has ended or the user is gone. Newer is shifts' version when
 * both sides have one (the order shifts committed the changes in, whatever its replicas' clocks
 * said); otherwise the instant it was set at. Shift and check-in events come through separate
 * consumers, so an old shift's late check-in can arrive after the next shift started: whichever
 * shift it names, a deadline set before the one in place never replaces it. A repair applies at the
 * version held too (an event of that version may have been lost while a later one arrived).
 */
function replacesDeadline(worker: LockedWorker, asOf: Date, version: number | undefined, repair: boolean): boolean {
  if (worker.ended || worker.deletedAt) return false;
  if (version && worker.shiftsVersion > 0) return repair ? worker.shiftsVersion <= version : worker.shiftsVersion < version;
  return !(worker.onShift && worker.deadlineAsOf && worker.deadlineAsOf.getTime() > asOf.getTime());
}

/** When the deadline the worker had for this shift was set (null: none for it). */
const heldAsOf = (worker: LockedWorker, shiftId: string) => (worker.onShift && worker.shiftId === shiftId ? worker.deadlineAsOf : null);

/** Whether the owner's latest check-in is newer than the deadline this copy had: then the repair stands for a lost check-in. */
const checkedInSince = (o: DeadlineRepair, previousAsOf: Date | null | undefined) =>
  !!o.latestCheckInAt && (!previousAsOf || o.latestCheckInAt.getTime() > previousAsOf.getTime());

/** The `checkin:<userId>` deadline for `due`, from its first step still ahead of `now`, as CheckinsService.schedule() writes it. */
function checkinDeadline(userId: number, shiftId: string, due: Date, now: Date): DeadlineSpec {
  const first = firstStep(due, now);
  return {
    jobKey: checkinKey(userId),
    kind: 'checkin',
    userId,
    step: first.step,
    dueAt: first.at,
    payload: { dueAt: due.toISOString(), shiftId },
  };
}
