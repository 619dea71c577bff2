import { Inject, Injectable } from '@nestjs/common';
import { and, asc, count, eq, inArray, ne, sql } from 'drizzle-orm';
import type { CommandMap, EventMap } from '@lws/contracts';
import { RpcError } from '@lws/messaging';
import { CLOCK, DB, isUniqueViolation, policyOverrideSchema, UnitOfWork, type Clock, type Db, type Emit, type Tx } from '@lws/platform';
import { teams, users, type TeamMonitorEntry, type TeamRow, type VisitTypeEntry } from '../db/schema';
import { userUpdatedEvent } from '../users/user-view';
import { ASSUMED_INTERVAL } from './check-in-policy';
import { TeamIntervals } from './team-intervals';
import { keepTeamPeople, rotaPeople, teamPeople } from './rota';

type Reply<P extends keyof CommandMap> = CommandMap[P]['reply'];
type Request<P extends keyof CommandMap> = CommandMap[P]['request'];
type TeamChanged = EventMap['identity.team.changed.v1'];
type TeamView = TeamChanged['team'];
type TeamFields = Request<'identity.team.create.v1'>['fields'];

export const TEAM_NOT_FOUND = 'Team not found';
export const TEAM_NAME_TAKEN = 'A team with this name already exists';
export const DEPUTY_CANNOT_CREATE_ADMINS =
  "You only deputise for your teams: only a team's monitor or the superadmin creates administrators";
export const NO_TEAM_FOR_NEW_ADMIN = "You monitor no team: only a team's monitor or the superadmin creates administrators";

/**
 * Teams: identity owns them, as it owns the accounts in them. Each change raises the
 * team's version and publishes the whole team (identity.team.changed.v1) in the change's
 * transaction, for the services that route alarms and scope what admins see.
 */
@Injectable()
export class TeamsService {
  constructor(
    @Inject(DB) private readonly db: Db,
    @Inject(UnitOfWork) private readonly uow: UnitOfWork,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly intervals: TeamIntervals,
  ) {}

  async list(req: Request<'identity.team.list.v1'>): Promise<Reply<'identity.team.list.v1'>> {
    const mine = req.monitoredBy === undefined ? undefined : await this.monitoredBy(req.monitoredBy);
    const visible =
      mine === undefined
        ? await this.db.select().from(teams).orderBy(asc(teams.name), asc(teams.id))
        : mine.length === 0
          ? []
          : await this.db.select().from(teams).where(inArray(teams.id, mine)).orderBy(asc(teams.name), asc(teams.id));
    const counts = await this.memberCounts(
      this.db,
      visible.map((t) => t.id),
    );
    return { teams: visible.map((t) => view(t, counts.get(t.id) ?? 0)) };
  }

  async get(req: Request<'identity.team.get.v1'>): Promise<Reply<'identity.team.get.v1'>> {
    const [row] = await this.db.select().from(teams).where(eq(teams.id, req.teamId));
    if (!row) throw new RpcError(404, TEAM_NOT_FOUND, { field: 'id' });
    return { team: view(row, (await this.memberCounts(this.db, [row.id])).get(row.id) ?? 0) };
  }

  async create(req: Request<'identity.team.create.v1'>): Promise<Reply<'identity.team.create.v1'>> {
    return this.uow.run(async (tx, emit) => {
      const values = await this.checked(tx, req.fields);
      const [row] = await tx
        .insert(teams)
        .values({ ...values, announced: true, defaultHeard: values.defaultInterval, createdAt: this.clock(), updatedAt: this.clock() })
        .onConflictDoNothing()
        .returning();
      if (!row) throw new RpcError(409, TEAM_NAME_TAKEN, { field: 'name' });
      return { team: await this.changed(tx, emit, 'created', row, req.actorId) };
    });
  }

  async update(req: Request<'identity.team.update.v1'>): Promise<Reply<'identity.team.update.v1'>> {
    return this.uow.run(async (tx, emit) => {
      const [current] = await tx.select().from(teams).where(eq(teams.id, req.teamId)).for('update');
      if (!current) throw new RpcError(404, TEAM_NOT_FOUND, { field: 'id' });
      const values = await this.checked(tx, req.fields);
      const staying = teamPeople(values.monitors);
      const onRota = [...rotaPeople(current.onCallSchedule)].find((id) => !staying.has(id));
      if (onRota !== undefined) {
        throw new RpcError(400, 'A monitor or deputy taken off the team is still on its on-call rota: take them off the rota first', {
          field: 'monitors',
        });
      }
      const [clash] = await tx
        .select({ id: teams.id })
        .from(teams)
        .where(and(ne(teams.id, req.teamId), sql`lower(${teams.name}) = lower(${values.name})`));
      if (clash) throw new RpcError(409, TEAM_NAME_TAKEN, { field: 'name' });
      // Another rename to the same name may commit between the check and the write: the index says so.
      const [row] = await tx
        .update(teams)
        .set({ ...values, version: sql`${teams.version} + 1`, updatedAt: this.clock() })
        .where(eq(teams.id, req.teamId))
        .returning()
        .catch((err: unknown) => {
          if (isUniqueViolation(err, TEAM_NAME_INDEX)) throw new RpcError(409, TEAM_NAME_TAKEN, { field: 'name' });
          throw err;
        });
      const policyChanged =
        current.defaultInterval !== row.defaultInterval || current.allowedIntervals.join() !== row.allowedIntervals.join();
      if (policyChanged) await this.intervals.bringTeamWithin(tx, emit, row.id);
      return { team: await this.changed(tx, emit, 'updated', row, req.actorId) };
    });
  }

  /** A team with workers cannot go: 409 naming how many (move them first). */
  async delete(req: Request<'identity.team.delete.v1'>): Promise<Reply<'identity.team.delete.v1'>> {
    return this.uow.run(async (tx, emit) => {
      await this.deleteIn(tx, emit, req.teamId, req.actorId);
      return { ok: true };
    });
  }

  /** delete() inside the caller's transaction; `directory` names the provisioning client that asked. */
  async deleteIn(tx: Tx, emit: Emit, teamId: number, actorId: number, directory?: string): Promise<void> {
    const [current] = await tx.select().from(teams).where(eq(teams.id, teamId)).for('update');
    if (!current) throw new RpcError(404, TEAM_NOT_FOUND, { field: 'id' });
    const members = (await this.memberCounts(tx, [current.id])).get(current.id) ?? 0;
    if (members > 0) {
      throw new RpcError(
        409,
        `This team has ${members} worker${members === 1 ? '' : 's'}: move ${members === 1 ? 'them' : 'them all'} to another team first`,
        { code: 'team_has_members' },
      );
    }
    await tx.delete(teams).where(eq(teams.id, current.id));
    await this.changed(tx, emit, 'deleted', { ...current, version: current.version + 1 }, actorId, { directory });
  }

  /**
   * A team the organisation's directory brings (a SCIM group): the organisation's check-in policy,
   * no locations and no monitors yet. 409 for a name another team has (in any case).
   */
  async createForDirectory(tx: Tx, emit: Emit, fields: { name: string; externalId?: string }, actorId: number, directory: string) {
    const [row] = await tx
      .insert(teams)
      .values({
        name: fields.name,
        externalId: fields.externalId ?? null,
        announced: true,
        defaultHeard: ASSUMED_INTERVAL,
        defaultInterval: ASSUMED_INTERVAL,
        createdAt: this.clock(),
        updatedAt: this.clock(),
      })
      .onConflictDoNothing()
      .returning();
    if (!row) throw new RpcError(409, TEAM_NAME_TAKEN, { field: 'name' });
    await this.changed(tx, emit, 'created', row, actorId, { directory });
    return row;
  }

  /** The directory renames a team or changes its own id for it; a team whose fields stay as they are is not touched. */
  async updateForDirectory(
    tx: Tx,
    emit: Emit,
    teamId: number,
    fields: { name: string; externalId: string | null },
    actorId: number,
    directory: string,
  ): Promise<void> {
    const [current] = await tx.select().from(teams).where(eq(teams.id, teamId)).for('update');
    if (!current) throw new RpcError(404, TEAM_NOT_FOUND, { field: 'id' });
    if (current.name === fields.name && current.externalId === fields.externalId) return;
    const [clash] = await tx
      .select({ id: teams.id })
      .from(teams)
      .where(and(ne(teams.id, teamId), sql`lower(${teams.name}) = lower(${fields.name})`));
    if (clash) throw new RpcError(409, TEAM_NAME_TAKEN, { field: 'name' });
    const [row] = await tx
      .update(teams)
      .set({ name: fields.name, externalId: fields.externalId, version: sql`${teams.version} + 1`, updatedAt: this.clock() })
      .where(eq(teams.id, teamId))
      .returning()
      .catch((err: unknown) => {
        if (isUniqueViolation(err, TEAM_NAME_INDEX)) throw new RpcError(409, TEAM_NAME_TAKEN, { field: 'name' });
        throw err;
      });
    await this.changed(tx, emit, 'updated', row, actorId, { directory });
  }

  async members(req: Request<'identity.team.members.v1'>): Promise<Reply<'identity.team.members.v1'>> {
    const [team] = await this.db.select({ id: teams.id }).from(teams).where(eq(teams.id, req.teamId));
    if (!team) throw new RpcError(404, TEAM_NOT_FOUND, { field: 'id' });
    const rows = await this.db
      .select({ userId: users.id, username: users.username, name: users.name })
      .from(users)
      .where(eq(users.teamId, req.teamId))
      .orderBy(asc(users.name), asc(users.id));
    return { members: rows };
  }

  /**
   * Moves a worker to another team; the user's version is raised like any other change to them, and
   * the other services hear the whole profile with its new team (identity.user.updated.v1). The new
   * team's check-in policy applies to them from then on, as a policy change would.
   */
  async setUserTeam(req: Request<'identity.user.set_team.v1'>): Promise<Reply<'identity.user.set_team.v1'>> {
    return this.uow.run(async (tx, emit) => {
      await this.moveWorkerIn(tx, emit, req.userId, req.teamId);
      return { teamId: req.teamId };
    });
  }

  /** setUserTeam() inside the caller's transaction; `directory` names the provisioning client that moved them. */
  async moveWorkerIn(tx: Tx, emit: Emit, userId: number, teamId: number, directory?: string): Promise<void> {
    const team = await this.intervals.policy(tx, teamId, true);
    if (!team) throw new RpcError(400, TEAM_NOT_FOUND, { field: 'teamId' });
    const [user] = await tx
      .select({ id: users.id, role: users.role, teamId: users.teamId })
      .from(users)
      .where(eq(users.id, userId))
      .for('update');
    if (!user) throw new RpcError(404, 'User not found', { field: 'userId' });
    if (user.role !== 'worker') throw new RpcError(400, 'Only workers belong to a team', { field: 'teamId' });
    if (user.teamId === teamId) return;
    const before = user.teamId === null ? undefined : await this.intervals.policy(tx, user.teamId);
    const heardBefore = before?.defaultHeard ?? ASSUMED_INTERVAL;
    const [moved] = await tx
      .update(users)
      .set({ teamId, version: sql`${users.version} + 1`, versionChangedAt: this.clock(), updatedAt: this.clock() })
      .where(eq(users.id, userId))
      .returning();
    await emit('identity.user.updated.v1', { ...userUpdatedEvent(moved), movedToTeam: team.name, ...(directory ? { directory } : {}) });
    await this.intervals.bringWithin(tx, emit, [moved.id], () => heardBefore);
  }

  /**
   * Tells the other services of every team they have not heard of: the "Default" team a migration
   * made (no event was written for it), so escalation's copy holds its monitors and policy.
   */
  async announceUnheard(): Promise<number> {
    return this.uow.run(async (tx, emit) => {
      const rows = await tx
        .select()
        .from(teams)
        .where(eq(teams.announced, false))
        .orderBy(asc(teams.id))
        .for('update', { skipLocked: true });
      if (rows.length === 0) return 0;
      const [by] = await tx.select({ id: users.id }).from(users).where(eq(users.role, 'superadmin')).orderBy(asc(users.id)).limit(1);
      if (!by) return 0;
      for (const row of rows) await this.changed(tx, emit, 'created', row, by.id);
      // Told now: a change as fresh as any other, which the other services' reconciliation leaves to its event.
      await tx
        .update(teams)
        .set({ announced: true, updatedAt: this.clock() })
        .where(
          inArray(
            teams.id,
            rows.map((r) => r.id),
          ),
        );
      return rows.length;
    });
  }

  /** The ids of the teams an admin monitors or deputises for. */
  async monitoredBy(adminId: number): Promise<number[]> {
    const rows = await this.db.select({ id: teams.id }).from(teams).where(monitoredOrDeputised(adminId));
    return rows.map((r) => r.id);
  }

  /**
   * An admin away until a time, or back (no time): while away, their deputy takes their place as a
   * monitor of each team they monitor. Other services hear it as a profile change at a new version.
   */
  async setAway(req: Request<'identity.user.set_away.v1'>): Promise<Reply<'identity.user.set_away.v1'>> {
    const now = this.clock();
    const until = req.until !== undefined ? new Date(req.until) : null;
    if (until && until.getTime() <= now.getTime()) throw new RpcError(400, 'Choose a time in the future', { field: 'until' });
    if (until && until.getTime() > now.getTime() + MAX_AWAY_MS) throw new RpcError(400, 'Away for at most 90 days', { field: 'until' });
    return this.uow.run(async (tx, emit) => {
      const [user] = await tx
        .select({ role: users.role, awayUntil: users.awayUntil })
        .from(users)
        .where(eq(users.id, req.userId))
        .for('update');
      if (!user) throw new RpcError(404, 'User not found', { field: 'userId' });
      if (user.role !== 'admin') throw new RpcError(400, 'Only admins monitor teams', { field: 'userId' });
      if ((user.awayUntil?.getTime() ?? null) === (until?.getTime() ?? null)) return until ? { awayUntil: until.toISOString() } : {};
      const [row] = await tx
        .update(users)
        .set({ awayUntil: until, version: sql`${users.version} + 1`, versionChangedAt: now, updatedAt: now })
        .where(eq(users.id, req.userId))
        .returning();
      await emit('identity.user.updated.v1', userUpdatedEvent(row));
      return until ? { awayUntil: until.toISOString() } : {};
    });
  }

  /** What an admin may see (identity.team.scope.v1): `all` when they cover every team. */
  async scope(adminId: number, withMembers = true): Promise<Reply<'identity.team.scope.v1'>> {
    const [teamIds, [{ n: total }]] = await Promise.all([this.monitoredBy(adminId), this.db.select({ n: count() }).from(teams)]);
    if (teamIds.length > 0 && teamIds.length === Number(total)) return { all: true, teamIds, userIds: [] };
    const members =
      teamIds.length === 0 || !withMembers
        ? []
        : await this.db.select({ id: users.id }).from(users).where(inArray(users.teamId, teamIds)).orderBy(asc(users.id));
    return { all: false, teamIds, userIds: members.map((m) => m.id) };
  }

  async exists(tx: Tx, teamId: number): Promise<boolean> {
    return (await tx.select({ id: teams.id }).from(teams).where(eq(teams.id, teamId))).length === 1;
  }

  /** The team a new worker joins when none is named: the oldest (an upgraded deployment's "Default"). */
  async defaultTeamId(tx: Tx): Promise<number | undefined> {
    const [row] = await tx.select({ id: teams.id }).from(teams).orderBy(asc(teams.id)).limit(1);
    return row?.id;
  }

  /**
   * A new admin of a one-team deployment monitors that team, so a single-team deployment keeps
   * "every admin sees every worker" as it grows. With several teams the superadmin chooses.
   */
  async adoptNewAdmin(tx: Tx, emit: Emit, adminId: number, actorId: number): Promise<void> {
    const rows = await tx.select().from(teams).limit(2).for('update');
    if (rows.length !== 1 || rows[0].monitors.some((m) => m.userId === adminId)) return;
    const [row] = await tx
      .update(teams)
      .set({ monitors: [...rows[0].monitors, { userId: adminId }], version: sql`${teams.version} + 1`, updatedAt: this.clock() })
      .where(eq(teams.id, rows[0].id))
      .returning();
    await this.changed(tx, emit, 'updated', row, actorId);
  }

  /**
   * A new admin an admin created joins the monitors of every team the creator monitors, after the
   * present ones. Never a team the creator only deputises for: a deputy stands in for a monitor
   * and must not mint monitors who outlast their own place. 403 when the creator monitors no team.
   */
  async shareMonitoring(tx: Tx, emit: Emit, creatorId: number, adminId: number): Promise<void> {
    const rows = await tx.select({ id: teams.id }).from(teams).where(monitoring(creatorId)).orderBy(asc(teams.id));
    if (rows.length === 0) {
      const deputises = (await tx.select({ id: teams.id }).from(teams).where(monitoredOrDeputised(creatorId)).limit(1)).length > 0;
      throw new RpcError(403, deputises ? DEPUTY_CANNOT_CREATE_ADMINS : NO_TEAM_FOR_NEW_ADMIN, {
        code: deputises ? 'deputy_only' : 'no_team',
      });
    }
    for (const { id } of rows) await this.appendMonitors(tx, emit, id, [adminId], creatorId);
  }

  /**
   * The superadmin's new administrator joins the monitors of the teams chosen, after the present
   * ones, in id order (the order every multi-team change locks them in). 400 naming
   * `monitorTeamIds.N` for a team that does not exist: nothing is written then.
   */
  async addMonitorTo(tx: Tx, emit: Emit, teamIds: readonly number[], adminId: number, actorId: number): Promise<void> {
    const unique = [...new Set(teamIds)].sort((a, b) => a - b);
    const found = new Set((await tx.select({ id: teams.id }).from(teams).where(inArray(teams.id, unique))).map((r) => r.id));
    const missing = teamIds.findIndex((id) => !found.has(id));
    if (missing >= 0) throw new RpcError(400, TEAM_NOT_FOUND, { field: `monitorTeamIds.${missing}` });
    for (const id of unique) await this.appendMonitors(tx, emit, id, [adminId], actorId);
  }

  /**
   * A new location joins these teams after their present locations (an admin's new location joins
   * the teams they look after); a team already listing it is left as it is. Teams are locked in id
   * order, as every multi-team change here takes them.
   */
  async addLocation(req: Request<'identity.team.add_location.v1'>): Promise<Reply<'identity.team.add_location.v1'>> {
    const teamIds = [...new Set(req.teamIds)].sort((a, b) => a - b);
    return this.uow.run(async (tx, emit) => {
      const rows =
        teamIds.length === 0 ? [] : await tx.select().from(teams).where(inArray(teams.id, teamIds)).orderBy(asc(teams.id)).for('update');
      const found = new Set(rows.map((r) => r.id));
      const missing = req.teamIds.findIndex((id) => !found.has(id));
      if (missing >= 0) throw new RpcError(400, TEAM_NOT_FOUND, { field: `teamIds.${missing}` });
      for (const row of rows) {
        if (row.locationIds.includes(req.locationId)) continue;
        const [updated] = await tx
          .update(teams)
          .set({ locationIds: [...row.locationIds, req.locationId], version: sql`${teams.version} + 1`, updatedAt: this.clock() })
          .where(eq(teams.id, row.id))
          .returning();
        await this.changed(tx, emit, 'updated', updated, req.actorId);
      }
      return { teamIds };
    });
  }

  /**
   * Admins join a team's monitors after the present ones, in order (an import naming their team, a
   * directory's group); one already there stays where they are.
   */
  async appendMonitors(tx: Tx, emit: Emit, teamId: number, adminIds: number[], actorId: number, directory?: string): Promise<void> {
    const [current] = await tx.select().from(teams).where(eq(teams.id, teamId)).for('update');
    if (!current) throw new RpcError(400, TEAM_NOT_FOUND, { field: 'team' });
    const present = new Set(current.monitors.flatMap((m) => [m.userId, ...(m.deputyUserId !== undefined ? [m.deputyUserId] : [])]));
    const added = [...new Set(adminIds)].filter((id) => !present.has(id));
    if (added.length === 0) return;
    const [row] = await tx
      .update(teams)
      .set({
        monitors: [...current.monitors, ...added.map((userId) => ({ userId }))],
        version: sql`${teams.version} + 1`,
        updatedAt: this.clock(),
      })
      .where(eq(teams.id, teamId))
      .returning();
    await this.changed(tx, emit, 'updated', row, actorId, directory ? { directory, monitorsChanged: { added, removed: [] } } : {});
  }

  /**
   * Admins stop monitoring a team (the directory took them out of its group): a monitor's place goes
   * to the next in order, with their deputy. Deputising for a monitor who stays is not monitoring and
   * is left as it is.
   */
  async removeMonitors(tx: Tx, emit: Emit, teamId: number, adminIds: number[], actorId: number, directory?: string): Promise<void> {
    const [current] = await tx.select().from(teams).where(eq(teams.id, teamId)).for('update');
    if (!current) throw new RpcError(404, TEAM_NOT_FOUND, { field: 'id' });
    const leaving = new Set(adminIds);
    const removed = current.monitors.filter((m) => leaving.has(m.userId)).map((m) => m.userId);
    if (removed.length === 0) return;
    const [row] = await tx
      .update(teams)
      .set({
        monitors: current.monitors.filter((m) => !leaving.has(m.userId)),
        // Off the rota too, with a leaving monitor's deputy unless they stay another's (who still sees the team's alarms).
        onCallSchedule: keepTeamPeople(
          current.onCallSchedule,
          current.monitors.filter((m) => !leaving.has(m.userId)),
        ),
        version: sql`${teams.version} + 1`,
        updatedAt: this.clock(),
      })
      .where(eq(teams.id, teamId))
      .returning();
    await this.changed(tx, emit, 'updated', row, actorId, directory ? { directory, monitorsChanged: { added: [], removed } } : {});
  }

  /**
   * A deleted location leaves every team that listed it (locations.location.deleted.v1), so no team
   * keeps an id that names nothing: a team saved with one would be refused. Each team changed is
   * heard at its new version, as changed by whoever deleted the location (else the first superadmin).
   */
  async forgetLocation(tx: Tx, emit: Emit, locationId: number, deletedBy: number | undefined): Promise<void> {
    const rows = await tx.select().from(teams).where(sql`${locationId} = any(${teams.locationIds})`).orderBy(asc(teams.id)).for('update');
    if (rows.length === 0) return;
    const by =
      deletedBy ??
      (await tx.select({ id: users.id }).from(users).where(eq(users.role, 'superadmin')).orderBy(asc(users.id)).limit(1))[0]?.id;
    for (const row of rows) {
      const [updated] = await tx
        .update(teams)
        .set({
          locationIds: row.locationIds.filter((id) => id !== locationId),
          version: sql`${teams.version} + 1`,
          updatedAt: this.clock(),
        })
        .where(eq(teams.id, row.id))
        .returning();
      if (by !== undefined) await this.changed(tx, emit, 'updated', updated, by);
    }
  }

  /**
   * A deleted admin leaves every team they monitor or deputise for: a monitor's place goes to
   * the next in order, a deputy's is left empty. Each team changed is heard at its new version.
   */
  async forgetMonitor(tx: Tx, emit: Emit, adminId: number, actorId: number): Promise<void> {
    const rows = await tx.select().from(teams).where(monitoredOrDeputised(adminId)).orderBy(asc(teams.id)).for('update');
    for (const row of rows) {
      const monitors = row.monitors.filter((m) => m.userId !== adminId).map((m) => (m.deputyUserId === adminId ? { userId: m.userId } : m));
      const [updated] = await tx
        .update(teams)
        .set({
          monitors,
          onCallSchedule: keepTeamPeople(row.onCallSchedule, monitors),
          version: sql`${teams.version} + 1`,
          updatedAt: this.clock(),
        })
        .where(eq(teams.id, row.id))
        .returning();
      await this.changed(tx, emit, 'updated', updated, actorId);
    }
  }

  /** The fields as stored, or a 400 naming the first field that is wrong. */
  private async checked(tx: Tx, fields: TeamFields) {
    const name = fields.name.trim();
    if (!name) throw new RpcError(400, 'Team name is required', { field: 'name' });
    const policy = fields.checkInPolicy;
    const allowed = [...new Set(policy.allowedIntervals)].sort((a, b) => a - b);
    if (allowed.length === 0)
      throw new RpcError(400, 'At least one check-in interval must be allowed', { field: 'checkInPolicy.allowedIntervals' });
    if (!allowed.includes(policy.defaultInterval)) {
      throw new RpcError(400, 'The default check-in interval must be one of the allowed intervals', {
        field: 'checkInPolicy.defaultInterval',
      });
    }
    const monitors = fields.monitors.map((m) => ({
      userId: m.userId,
      ...(m.deputyUserId !== undefined ? { deputyUserId: m.deputyUserId } : {}),
    }));
    const seen = new Set<number>();
    for (const [i, m] of monitors.entries()) {
      if (seen.has(m.userId)) throw new RpcError(400, 'A monitor is listed twice', { field: `monitors.${i}.userId` });
      seen.add(m.userId);
      if (m.deputyUserId === m.userId)
        throw new RpcError(400, 'A monitor cannot be their own deputy', { field: `monitors.${i}.deputyUserId` });
    }
    const ids = [...new Set(monitors.flatMap((m) => [m.userId, ...(m.deputyUserId !== undefined ? [m.deputyUserId] : [])]))];
    const admins = new Set(
      ids.length === 0
        ? []
        : (
            await tx
              .select({ id: users.id })
              .from(users)
              .where(and(inArray(users.id, ids), eq(users.role, 'admin')))
          ).map((r) => r.id),
    );
    for (const [i, m] of monitors.entries()) {
      if (!admins.has(m.userId)) throw new RpcError(400, 'Monitors must be admins', { field: `monitors.${i}.userId` });
      if (m.deputyUserId !== undefined && !admins.has(m.deputyUserId))
        throw new RpcError(400, 'Deputies must be admins', { field: `monitors.${i}.deputyUserId` });
    }
    const escalationPolicy = fields.escalationPolicy !== undefined ? checkedPolicy(fields.escalationPolicy, 'escalationPolicy') : null;
    return {
      name,
      locationIds: [...new Set(fields.locationIds)],
      monitors: monitors as TeamMonitorEntry[],
      defaultInterval: policy.defaultInterval,
      allowedIntervals: allowed,
      escalationPolicy,
      emergencyNumbers: fields.emergencyNumbers,
      voiceReminder: fields.voiceReminder === true,
      visitTypes: checkedVisitTypes(fields.visitTypes),
    };
  }

  /** Publishes the team as of this row (identity.team.changed.v1), in the change's transaction. */
  async changed(
    tx: Tx,
    emit: Emit,
    change: 'created' | 'updated' | 'deleted',
    row: TeamRow,
    actorId: number,
    by: { directory?: string; monitorsChanged?: TeamChanged['monitorsChanged'] } = {},
  ): Promise<TeamView> {
    const team = view(row, change === 'deleted' ? 0 : ((await this.memberCounts(tx, [row.id])).get(row.id) ?? 0));
    await emit('identity.team.changed.v1', {
      change,
      team,
      changedBy: actorId,
      ...(by.directory ? { directory: by.directory } : {}),
      ...(by.monitorsChanged ? { monitorsChanged: by.monitorsChanged } : {}),
    });
    return team;
  }

  private async memberCounts(db: Db | Tx, teamIds: number[]): Promise<Map<number, number>> {
    if (teamIds.length === 0) return new Map();
    const rows = await db
      .select({ teamId: users.teamId, n: count() })
      .from(users)
      .where(inArray(users.teamId, teamIds))
      .groupBy(users.teamId);
    return new Map(rows.map((r) => [r.teamId!, Number(r.n)]));
  }
}

const MAX_AWAY_MS = 90 * 24 * 3600 * 1000;
/** The case-insensitive unique index on team names (db/schema.ts). */
const TEAM_NAME_INDEX = 'teams_name_lower_key';

/** The teams an admin monitors, in a `monitors` entry of their own (a deputy's place is not one). */
const monitoring = (adminId: number) => sql`${teams.monitors} @> ${JSON.stringify([{ userId: adminId }])}::jsonb`;

/** The teams an admin monitors or deputises for (the one rule for it). */
const monitoredOrDeputised = (adminId: number) =>
  sql`${teams.monitors} @> ${JSON.stringify([{ userId: adminId }])}::jsonb or ${teams.monitors} @> ${JSON.stringify([{ deputyUserId: adminId }])}::jsonb`;

/** A policy written as JSON, in ESCALATION_POLICY's form; 400 naming `field` (and the path inside it) otherwise. */
function checkedPolicy(json: string, field: string): unknown {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    throw new RpcError(400, 'Escalation policy is not valid JSON', { field });
  }
  const result = policyOverrideSchema.safeParse(parsed);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new RpcError(400, `Escalation policy: ${issue.message}`, { field: [field, ...issue.path].join('.') });
  }
  return result.data;
}

export const VISIT_TYPES_MAX = 20;

/** A team's visit types as kept: ids and names each used once (names whatever their case), at most 20, policies checked. */
function checkedVisitTypes(types: TeamFields['visitTypes'] | undefined): VisitTypeEntry[] {
  const list = types ?? [];
  if (list.length > VISIT_TYPES_MAX) throw new RpcError(400, `At most ${VISIT_TYPES_MAX} visit types`, { field: 'visitTypes' });
  const ids = new Set<string>();
  const names = new Set<string>();
  return list.map((t, i) => {
    const name = t.name.trim();
    if (ids.has(t.id)) throw new RpcError(400, 'A visit type is listed twice', { field: `visitTypes.${i}.id` });
    if (names.has(name.toLowerCase())) throw new RpcError(400, 'Each visit type needs its own name', { field: `visitTypes.${i}.name` });
    ids.add(t.id);
    names.add(name.toLowerCase());
    return {
      id: t.id,
      name,
      minutes: t.minutes,
      checkInInterval: t.checkInInterval ?? null,
      smsToo: t.smsToo,
      escalationPolicy: t.escalationPolicy !== undefined ? checkedPolicy(t.escalationPolicy, `visitTypes.${i}.escalationPolicy`) : null,
    };
  });
}

function view(row: TeamRow, memberCount: number): TeamView {
  return {
    id: row.id,
    name: row.name,
    locationIds: row.locationIds,
    monitors: row.monitors.map((m) => ({ userId: m.userId, ...(m.deputyUserId !== undefined ? { deputyUserId: m.deputyUserId } : {}) })),
    checkInPolicy: { defaultInterval: row.defaultInterval, allowedIntervals: row.allowedIntervals },
    ...(row.escalationPolicy !== null && row.escalationPolicy !== undefined
      ? { escalationPolicy: JSON.stringify(row.escalationPolicy) }
      : {}),
    emergencyNumbers: row.emergencyNumbers,
    ...(row.voiceReminder ? { voiceReminder: true } : {}),
    ...(row.onCallSchedule ? { onCallSchedule: JSON.stringify(row.onCallSchedule) } : {}),
    ...(row.coverRequired !== 'off' ? { coverRequired: row.coverRequired } : {}),
    visitTypes: (row.visitTypes ?? []).map((t) => ({
      id: t.id,
      name: t.name,
      minutes: t.minutes,
      ...(t.checkInInterval !== null ? { checkInInterval: t.checkInInterval } : {}),
      smsToo: t.smsToo,
      ...(t.escalationPolicy !== null && t.escalationPolicy !== undefined ? { escalationPolicy: JSON.stringify(t.escalationPolicy) } : {}),
    })),
    memberCount,
    version: row.version,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
