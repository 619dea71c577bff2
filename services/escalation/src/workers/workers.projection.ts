import { Inject, Injectable } from '@nestjs/common';
import { and, eq, sql } from 'drizzle-orm';
import type { EventMap } from '@lws/contracts';
import { CLOCK, type Clock, type Emit, type Tx } from '@lws/platform';
import { endedShifts, workerContacts, workers, type WorkerRow } from '../db/schema';
import { AlarmsService } from '../alarms/alarms.service';
import { CheckinsService } from '../deadlines/checkins.service';

/**
 * Escalation's copy of who is on shift, when each worker is due, and who to call. Subjects are
 * not ordered with each other, so each handler works whatever arrived before it: a shift that
 * ended stays ended, and a deadline is only ever replaced by one set at a later instant.
 */
@Injectable()
export class WorkersProjection {
  /** Set after a handler wrote a deadline that is due now; the module wakes the scheduler after commit. */
  dueNow = false;

  constructor(
    private readonly checkins: CheckinsService,
    private readonly alarms: AlarmsService,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  // ---- identity ----

  async userCreated(tx: Tx, e: EventMap['identity.user.created.v1']): Promise<void> {
    await tx
      .insert(workers)
      .values({ userId: e.userId, name: e.name, phone: e.phone ?? null, role: e.role })
      .onConflictDoUpdate({
        target: workers.userId,
        // An update can only postdate the creation: what it set is newer than these values.
        set: {
          name: sql`coalesce(${workers.name}, excluded.name)`,
          phone: sql`coalesce(${workers.phone}, excluded.phone)`,
          role: sql`coalesce(${workers.role}, excluded.role)`,
        },
      });
  }

  async userUpdated(tx: Tx, e: EventMap['identity.user.updated.v1']): Promise<void> {
    const changes = {
      ...(e.name !== undefined ? { name: e.name } : {}),
      ...(e.phone !== undefined ? { phone: e.phone } : {}),
      ...(e.role !== undefined ? { role: e.role } : {}),
    };
    const insert = tx.insert(workers).values({ userId: e.userId, ...changes });
    if (Object.keys(changes).length === 0) await insert.onConflictDoNothing();
    else await insert.onConflictDoUpdate({ target: workers.userId, set: changes });
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
    const set = { checkInInterval: e.checkInInterval, primaryContact: e.primaryContact ?? null, secondaryContact: e.secondaryContact ?? null };
    await tx.insert(workers).values({ userId: e.userId, ...set }).onConflictDoUpdate({ target: workers.userId, set });
  }

  async contactChanged(tx: Tx, e: EventMap['identity.contact.changed.v1']): Promise<void> {
    if (e.change === 'deleted') {
      await tx
        .insert(workerContacts)
        .values({ contactId: e.contactId, userId: e.userId, deleted: true })
        .onConflictDoUpdate({ target: workerContacts.contactId, set: { deleted: true, name: null, phone: null, relation: null } });
      return;
    }
    const set = { name: e.name ?? null, phone: e.phone ?? null, relation: e.relation ?? null };
    await tx
      .insert(workerContacts)
      .values({ contactId: e.contactId, userId: e.userId, ...set })
      .onConflictDoUpdate({ target: workerContacts.contactId, set, where: eq(workerContacts.deleted, false) });
  }

  // ---- shifts ----

  async shiftStarted(tx: Tx, e: EventMap['shifts.shift.started.v1']): Promise<void> {
    await this.setDeadline(tx, e.userId, e.shiftId, e.location, new Date(e.nextCheckInAt), new Date(e.startedAt));
  }

  /** Moves the deadline; a check-in while a missed-check-in alarm is open stops that alarm's steps. */
  async checkInRecorded(tx: Tx, emit: Emit, e: EventMap['shifts.checkin.recorded.v1']): Promise<void> {
    const checkedInAt = new Date(e.checkedInAt);
    const applied = await this.setDeadline(tx, e.userId, e.shiftId, e.location, new Date(e.nextCheckInAt), checkedInAt);
    if (applied) await this.alarms.lateCheckIn(tx, emit, e.userId, checkedInAt);
  }

  /** A superadmin moved the deadline: a new deadline, without a check-in. */
  async deadlineChanged(tx: Tx, e: EventMap['shifts.deadline.changed.v1']): Promise<void> {
    await this.setDeadline(tx, e.userId, e.shiftId, null, new Date(e.nextCheckInAt), new Date(e.changedAt));
  }

  async shiftEnded(tx: Tx, e: EventMap['shifts.shift.ended.v1']): Promise<void> {
    await tx.insert(endedShifts).values({ shiftId: e.shiftId, userId: e.userId, endedAt: new Date(e.endedAt) }).onConflictDoNothing();
    await tx.insert(workers).values({ userId: e.userId }).onConflictDoNothing();
    const worker = await this.lockWorker(tx, e.userId);
    // The end of an older shift (delivered late) must not end the current one.
    if (worker?.shiftId && worker.shiftId !== e.shiftId) return;
    await this.endShift(tx, e.userId, e.shiftId, new Date(e.endedAt), e.reason);
  }

  async emergencyRaised(tx: Tx, emit: Emit, e: EventMap['shifts.emergency.raised.v1']): Promise<void> {
    const opened = await this.alarms.open(tx, emit, {
      kind: 'emergency',
      userId: e.userId,
      // Escalation's own clock: the steps run from when escalation heard, never skipped as "already late".
      now: this.clock(),
      location: e.location ?? null,
      shiftId: e.shiftId ?? null,
      emergencyId: e.emergencyId,
    });
    if (opened) this.dueNow = true;
  }

  private async endShift(tx: Tx, userId: number, shiftId: string, endedAt: Date, reason: string): Promise<void> {
    await tx.insert(endedShifts).values({ shiftId, userId, endedAt }).onConflictDoNothing();
    await this.checkins.cancel(tx, userId);
    await tx.update(workers).set({ onShift: false, shiftId: null, nextCheckInAt: null, deadlineAsOf: null }).where(eq(workers.userId, userId));
    await this.alarms.shiftEnded(tx, userId, reason);
  }

  /** Applies a deadline set at instant `asOf` unless a later one is already in place or the shift has ended. */
  private async setDeadline(tx: Tx, userId: number, shiftId: string, location: string | null, due: Date, asOf: Date): Promise<boolean> {
    const [ended] = await tx.select({ id: endedShifts.shiftId }).from(endedShifts).where(eq(endedShifts.shiftId, shiftId));
    if (ended) return false;
    await tx.insert(workers).values({ userId }).onConflictDoNothing();
    const worker = await this.lockWorker(tx, userId);
    if (!worker || worker.deletedAt) return false;
    // Shift and check-in events come through separate consumers, so an old shift's late check-in can arrive after
    // the next shift started: whichever shift it names, a deadline set earlier than the one in place never replaces it.
    if (worker.onShift && worker.deadlineAsOf && worker.deadlineAsOf.getTime() > asOf.getTime()) return false;
    await tx
      .update(workers)
      .set({ onShift: true, shiftId, location: location ?? worker.location, nextCheckInAt: due, deadlineAsOf: asOf })
      .where(and(eq(workers.userId, userId)));
    const now = this.clock();
    const at = await this.checkins.schedule(tx, userId, shiftId, due, now);
    if (at.getTime() <= now.getTime()) this.dueNow = true;
    return true;
  }

  private async lockWorker(tx: Tx, userId: number): Promise<WorkerRow | undefined> {
    const [row] = await tx.select().from(workers).where(eq(workers.userId, userId)).for('update');
    return row;
  }
}
