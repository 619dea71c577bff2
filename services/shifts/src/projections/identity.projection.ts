import { Inject, Injectable } from '@nestjs/common';
import { eq, lte, sql } from 'drizzle-orm';
import type { EventMap } from '@lws/contracts';
import { profileUpdate } from '@lws/messaging';
import { CLOCK, type Clock, type Emit, type Tx } from '@lws/platform';
import { checkIns, deletedUsers, emergencies, shifts, workerState } from '../db/schema';
import { ShiftsService } from '../shifts/shifts.service';
import { WorkerStateRepository } from '../workers/worker-state.repository';

/**
 * Keeps worker_state's copy of what identity knows (name, username, phone, role, check-in
 * interval). Each subject is delivered in order, but the subjects are not ordered with each
 * other, and a redelivered or replayed event can come after a newer one: rows are created by
 * whichever event comes first, each aspect (profile, settings) is replaced only by an event at
 * least as new as identity's version it holds (events from before versions carry none and apply
 * only where no versioned event has), and a deleted user stays deleted.
 */
@Injectable()
export class IdentityProjection {
  constructor(
    private readonly workers: WorkerStateRepository,
    private readonly shifts: ShiftsService,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async userCreated(tx: Tx, e: EventMap['identity.user.created.v1']): Promise<void> {
    const version = e.version ?? 0;
    const newer = sql`${workerState.identityProfileVersion} <= ${version}`;
    const values = { name: e.name, username: e.username, phone: e.phone ?? null, role: e.role };
    await tx
      .insert(workerState)
      .values({ userId: e.userId, ...values, identityProfileVersion: version })
      .onConflictDoUpdate({
        target: workerState.userId,
        set: e.version
          ? {
              name: sql`case when ${newer} then excluded.name else ${workerState.name} end`,
              // Usernames never change: the creation fills it in even after a newer update landed.
              username: sql`coalesce(${workerState.username}, excluded.username)`,
              phone: sql`case when ${newer} then excluded.phone else ${workerState.phone} end`,
              role: sql`case when ${newer} then excluded.role else ${workerState.role} end`,
              identityProfileVersion: sql`greatest(${workerState.identityProfileVersion}, ${version})`,
            }
          : {
              // Unversioned: an update can only postdate the creation, so what it set is newer.
              name: sql`coalesce(${workerState.name}, excluded.name)`,
              username: sql`coalesce(${workerState.username}, excluded.username)`,
              phone: sql`coalesce(${workerState.phone}, excluded.phone)`,
              role: sql`coalesce(${workerState.role}, excluded.role)`,
            },
      });
    await this.discardIfDeleted(tx, e.userId);
  }

  async userUpdated(tx: Tx, e: EventMap['identity.user.updated.v1']): Promise<void> {
    const { version, changes } = profileUpdate(e);
    await tx
      .insert(workerState)
      .values({ userId: e.userId, ...changes, identityProfileVersion: version })
      .onConflictDoUpdate({
        target: workerState.userId,
        set: { ...changes, identityProfileVersion: version },
        where: lte(workerState.identityProfileVersion, version),
      });
    await this.discardIfDeleted(tx, e.userId);
  }

  /** The new interval counts from the next check-in or shift start; the deadline already set stands. */
  async settingsChanged(tx: Tx, e: EventMap['identity.settings.changed.v1']): Promise<void> {
    const version = e.version ?? 0;
    const set = { checkInInterval: e.checkInInterval, identitySettingsVersion: version };
    await tx
      .insert(workerState)
      .values({ userId: e.userId, ...set })
      .onConflictDoUpdate({ target: workerState.userId, set, where: lte(workerState.identitySettingsVersion, version) });
    await this.discardIfDeleted(tx, e.userId);
  }

  /**
   * Ends a shift in progress (reason user_deleted, so escalation stops watching), then purges
   * the user's shifts, check-ins, emergencies and state, keeping only the deletion marker.
   */
  async userDeleted(tx: Tx, emit: Emit, e: EventMap['identity.user.deleted.v1']): Promise<void> {
    await tx.insert(deletedUsers).values({ userId: e.userId, deletedAt: this.clock() }).onConflictDoNothing();
    // Holding the key makes a start-shift racing this deletion wait, then see the marker.
    await tx.insert(workerState).values({ userId: e.userId }).onConflictDoNothing();
    const state = await this.workers.lock(tx, e.userId);
    if (state?.onShift) await this.shifts.endLocked(tx, emit, state, e.deletedBy, 'user_deleted');
    await tx.delete(checkIns).where(eq(checkIns.userId, e.userId));
    await tx.delete(emergencies).where(eq(emergencies.userId, e.userId));
    await tx.delete(shifts).where(eq(shifts.userId, e.userId));
    await tx.delete(workerState).where(eq(workerState.userId, e.userId));
  }

  /**
   * A deactivated worker cannot check in any more: their shift ends (reason deactivated), so
   * escalation stops waiting for check-ins and tells the team's monitors, while an open alarm
   * stays open and goes on escalating until a monitor resolves it.
   */
  async userDeactivated(tx: Tx, emit: Emit, e: EventMap['identity.user.deactivated.v1']): Promise<void> {
    const state = await this.workers.lock(tx, e.userId);
    if (state?.onShift) await this.shifts.endLocked(tx, emit, state, e.byUserId, 'deactivated');
  }

  /** Written first, checked second: a deletion committing meanwhile is seen by the check. */
  private async discardIfDeleted(tx: Tx, userId: number): Promise<void> {
    if (await this.workers.isDeleted(tx, userId)) await tx.delete(workerState).where(eq(workerState.userId, userId));
  }
}
