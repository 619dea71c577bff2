import { Inject, Injectable } from '@nestjs/common';
import { and, eq, isNotNull, sql } from 'drizzle-orm';
import type { EventMap } from '@lws/contracts';
import { RpcError } from '@lws/messaging';
import { CLOCK, DB, pgArray, UnitOfWork, type Clock, type Db, type Emit, type Tx } from '@lws/platform';
import { teams, userSettings, users } from '../db/schema';
import { ASSUMED_INTERVAL, intervalNotAllowed, nearestAllowedInterval } from './check-in-policy';

type SettingsChanged = EventMap['identity.settings.changed.v1'];

export interface CheckInPolicy {
  name: string;
  defaultInterval: number;
  allowedIntervals: number[];
  /** What the other services hold for its workers without an own interval (null: none told, 60). */
  defaultHeard: number | null;
}

/** The default a worker without an own interval followed before the change: what the other services hold for them. */
export type DefaultBefore = (userId: number) => number;

/**
 * A team's check-in policy, held on every path: a worker's own interval must be one the team
 * allows, and a worker without one follows the team's default. Identity publishes the interval that
 * applies (identity.settings.changed.v1, without contacts for a worker who saved no settings), so
 * shifts and escalation schedule from it knowing nothing of teams.
 */
@Injectable()
export class TeamIntervals {
  constructor(
    @Inject(DB) private readonly db: Db,
    @Inject(UnitOfWork) private readonly uow: UnitOfWork,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /**
   * A team's policy. `share` holds it until the transaction ends, so a policy change waits for a
   * worker joining the team (and that worker is then among the members it brings within).
   */
  async policy(tx: Tx, teamId: number, share = false): Promise<CheckInPolicy | undefined> {
    const query = tx
      .select({
        name: teams.name,
        defaultInterval: teams.defaultInterval,
        allowedIntervals: teams.allowedIntervals,
        defaultHeard: teams.defaultHeard,
      })
      .from(teams)
      .where(eq(teams.id, teamId));
    const [row] = share ? await query.for('share') : await query;
    return row;
  }

  /** A 400 naming checkInInterval when the worker's team does not allow the interval; admins have no team and any interval. */
  async checkAllowed(tx: Tx, teamId: number | null, interval: number): Promise<void> {
    if (teamId === null) return;
    const policy = await this.policy(tx, teamId);
    if (policy && !policy.allowedIntervals.includes(interval)) {
      throw new RpcError(400, intervalNotAllowed(policy.name, policy.allowedIntervals), { field: 'checkInInterval' });
    }
  }

  /** The interval that applies to each user: their own, else their team's default, else the one every copy assumes. */
  async effective(userIds: number[], db: Db | Tx = this.db): Promise<Map<number, number>> {
    if (userIds.length === 0) return new Map();
    const rows = await db
      .select({ id: users.id, own: userSettings.checkInInterval, teamDefault: teams.defaultInterval })
      .from(users)
      .leftJoin(userSettings, eq(userSettings.userId, users.id))
      .leftJoin(teams, eq(teams.id, users.teamId))
      .where(sql`${users.id} = any(${pgArray(userIds)}::int[])`);
    return new Map(rows.map((r) => [r.id, r.own ?? r.teamDefault ?? ASSUMED_INTERVAL]));
  }

  /**
   * Brings workers within their team's policy after it changed, they moved or they were created: an
   * own interval the team does not allow becomes the nearest it does (see nearestAllowedInterval); a
   * worker without one follows the team's default, which the other services hear when it differs
   * from `defaultBefore`. The deadline already set stands: shifts applies a new interval from the
   * next check-in. Each worker changed is raised a version and heard at it; answers how many.
   */
  async bringWithin(tx: Tx, emit: Emit, userIds: number[], defaultBefore: DefaultBefore): Promise<number> {
    if (userIds.length === 0) return 0;
    const ids = pgArray([...new Set(userIds)].sort((a, b) => a - b));
    // Locked first and read after, so settings saved while this waited are the ones read.
    const workers = await tx
      .select({ id: users.id, teamId: users.teamId })
      .from(users)
      .where(and(sql`${users.id} = any(${ids}::int[])`, eq(users.role, 'worker'), isNotNull(users.teamId)))
      .orderBy(users.id)
      .for('update');
    if (workers.length === 0) return 0;
    const settings = new Map(
      (
        await tx
          .select()
          .from(userSettings)
          .where(sql`${userSettings.userId} = any(${pgArray(workers.map((w) => w.id))}::int[])`)
      ).map((s) => [s.userId, s]),
    );
    const policies = new Map<number, CheckInPolicy>();
    for (const teamId of new Set(workers.map((w) => w.teamId!))) {
      const policy = await this.policy(tx, teamId);
      if (policy) policies.set(teamId, policy);
    }

    const adjusted: { user_id: number; interval: number }[] = [];
    const heard = new Map<number, Omit<SettingsChanged, 'version'>>();
    for (const w of workers) {
      const policy = policies.get(w.teamId!);
      if (!policy) continue;
      const own = settings.get(w.id);
      if (own) {
        if (policy.allowedIntervals.includes(own.checkInInterval)) continue;
        const interval = nearestAllowedInterval(own.checkInInterval, policy.allowedIntervals);
        adjusted.push({ user_id: w.id, interval });
        heard.set(w.id, {
          userId: w.id,
          checkInInterval: interval,
          primaryContact: own.primaryContact,
          ...(own.secondaryContact ? { secondaryContact: own.secondaryContact } : {}),
        });
      } else if (policy.defaultInterval !== defaultBefore(w.id)) {
        heard.set(w.id, { userId: w.id, checkInInterval: policy.defaultInterval });
      }
    }
    if (heard.size === 0) return 0;

    const now = this.clock();
    if (adjusted.length > 0) {
      await tx.execute(sql`
        update ${userSettings} s set check_in_interval = v.interval, updated_at = ${now}
        from jsonb_to_recordset(${JSON.stringify(adjusted)}::jsonb) as v(user_id int, interval int)
        where s.user_id = v.user_id`);
    }
    const versions = await tx
      .update(users)
      .set({ version: sql`${users.version} + 1`, versionChangedAt: now, updatedAt: now })
      .where(sql`${users.id} = any(${pgArray([...heard.keys()])}::int[])`)
      .returning({ id: users.id, version: users.version });
    await emit.many(
      versions.map((v) => ({ subject: 'identity.settings.changed.v1' as const, data: { ...heard.get(v.id)!, version: v.version } })),
    );
    return heard.size;
  }

  /**
   * Brings a team's workers within its policy (the team row locked by the caller), after its policy
   * changed or at start: workers without an own interval are told the default unless it is the one
   * they were last told, which the team then records as told.
   */
  async bringTeamWithin(tx: Tx, emit: Emit, teamId: number): Promise<number> {
    const policy = await this.policy(tx, teamId);
    if (!policy) return 0;
    const members = await tx.select({ id: users.id }).from(users).where(eq(users.teamId, teamId));
    const heard = policy.defaultHeard ?? ASSUMED_INTERVAL;
    const brought = await this.bringWithin(
      tx,
      emit,
      members.map((m) => m.id),
      () => heard,
    );
    if (policy.defaultHeard !== policy.defaultInterval)
      await tx.update(teams).set({ defaultHeard: policy.defaultInterval }).where(eq(teams.id, teamId));
    return brought;
  }

  /**
   * At start: workers whose own interval their team does not allow (saved before the policy was
   * enforced) are brought within it, as a policy change would; and the workers without one of a
   * team whose default the other services were never told (a team from before the policy was
   * enforced, whose default is not 60) are told it, once. Nothing to do once done.
   */
  async bringAllWithin(): Promise<number> {
    const outside = await this.db
      .select({ id: users.id })
      .from(users)
      .innerJoin(userSettings, eq(userSettings.userId, users.id))
      .innerJoin(teams, eq(teams.id, users.teamId))
      .where(and(eq(users.role, 'worker'), sql`not (${userSettings.checkInInterval} = any(${teams.allowedIntervals}))`));
    // Each has an own interval, compared with the policy alone: the default before is never asked.
    let brought =
      outside.length === 0
        ? 0
        : await this.uow.run((tx, emit) =>
            this.bringWithin(
              tx,
              emit,
              outside.map((o) => o.id),
              () => Number.NaN,
            ),
          );
    const untold = await this.db
      .select({ id: teams.id })
      .from(teams)
      .where(sql`${teams.defaultHeard} is distinct from ${teams.defaultInterval}`);
    for (const { id } of untold) {
      brought += await this.uow.run(async (tx, emit) => {
        // Locked as a policy change locks it, so the two never tell the workers different defaults.
        await tx.select({ id: teams.id }).from(teams).where(eq(teams.id, id)).for('update');
        return this.bringTeamWithin(tx, emit, id);
      });
    }
    return brought;
  }
}
