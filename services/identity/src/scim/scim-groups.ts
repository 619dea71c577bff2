import { Inject, Injectable } from '@nestjs/common';
import { and, asc, count, eq, ne, sql, type SQL } from 'drizzle-orm';
import type SCIMMY from 'scimmy';
import { DB, pgArray, UnitOfWork, type Db, type Emit, type Tx } from '@lws/platform';
import { teams, users, type TeamRow } from '../db/schema';
import { TeamsService } from '../teams/teams.service';
import { FILTER_SCAN_LIMIT } from './scim-users';
import { groupsNarrowing, matcher } from './filters';
import { accountId, checkedTeamName, memberIdsOf, membershipChanges, scimGroupOf, type TeamMembers } from './group-mapping';
import { ScimError, type ResourceHandlers, type ScimContext } from './scim-context';
import { checkedExternalId } from './user-mapping';

const NOT_FOUND = (id: string) => new ScimError(404, '', `Group ${id.slice(0, 40)} not found`);
const TEAM_EXTERNAL_ID_TAKEN = 'Another group has this externalId';

/**
 * SCIM Groups: LWS teams. A team's members are its workers and the admins who monitor it. Adding a
 * worker moves them into the team; adding an admin makes them a monitor, removing one ends that.
 * Removing a worker changes nothing: every worker belongs to a team, so a worker leaves one only by
 * joining another (a directory moves someone by adding them to the new group).
 */
@Injectable()
export class ScimGroups implements ResourceHandlers {
  constructor(
    @Inject(DB) private readonly db: Db,
    @Inject(UnitOfWork) private readonly uow: UnitOfWork,
    private readonly teams: TeamsService,
  ) {}

  async egress(resource: SCIMMY.Types.Resource, ctx: ScimContext) {
    if (resource.id === undefined) return this.list(resource.filter, ctx);
    const team = await this.team(this.db, resource.id);
    const withMembers = ctx.withMembers || ctx.mode !== 'read';
    const data = scimGroupOf(team, withMembers ? (await this.membersOf(this.db, [team])).get(team.id) : undefined);
    if (ctx.mode === 'patch') ctx.snapshot ??= data;
    return data;
  }

  async ingress(resource: SCIMMY.Types.Resource, data: Record<string, unknown>, ctx: ScimContext) {
    const name = checkedTeamName(data.displayName);
    const externalId =
      data.externalId === undefined || data.externalId === null
        ? undefined
        : checkedExternalId(typeof data.externalId === 'string' ? data.externalId.trim() || null : null);
    const wanted = data.members === undefined ? undefined : memberIdsOf(data.members);
    const teamId = await this.uow.run(async (tx, emit) => {
      if (resource.id === undefined) {
        if (externalId) await this.externalIdFree(tx, externalId);
        const row = await this.teams.createForDirectory(
          tx,
          emit,
          { name, ...(externalId ? { externalId } : {}) },
          ctx.client.createdBy,
          ctx.client.name,
        );
        await this.applyMembers(tx, emit, row.id, new Set(), wanted ?? new Set(), ctx);
        return row.id;
      }
      // Locked first: every membership change below takes its share of the same row.
      const current = await this.team(tx, resource.id, true);
      const before = ctx.mode === 'patch' ? ctx.snapshot : undefined;
      // A PATCH changes what its operations changed; a PUT sets what it sends and keeps what it leaves out.
      const nextName = before && before.displayName === name ? current.name : name;
      let nextExternalId = externalId === undefined ? current.externalId : externalId;
      if (before) {
        // After the operations an absent externalId is a removed one; unchanged, it stays as it is now.
        const was = typeof before.externalId === 'string' ? before.externalId : null;
        nextExternalId = was === (externalId ?? null) ? current.externalId : (externalId ?? null);
      }
      if (nextExternalId && nextExternalId !== current.externalId) await this.externalIdFree(tx, nextExternalId, current.id);
      await this.teams.updateForDirectory(
        tx,
        emit,
        current.id,
        { name: nextName, externalId: nextExternalId },
        ctx.client.createdBy,
        ctx.client.name,
      );
      if (before) {
        await this.applyMembers(tx, emit, current.id, memberIdsOf(before.members), wanted ?? new Set(), ctx);
      } else if (wanted !== undefined) {
        const members = (await this.membersOf(tx, [current])).get(current.id)!;
        await this.applyMembers(tx, emit, current.id, new Set([...members.workers, ...members.monitors].map((m) => m.id)), wanted, ctx);
      }
      return current.id;
    });
    const team = await this.team(this.db, String(teamId));
    return scimGroupOf(team, (await this.membersOf(this.db, [team])).get(team.id));
  }

  async degress(resource: SCIMMY.Types.Resource, ctx: ScimContext) {
    const team = await this.team(this.db, resource.id ?? '');
    await this.uow.run((tx, emit) => this.teams.deleteIn(tx, emit, team.id, ctx.client.createdBy, ctx.client.name));
  }

  /**
   * The members `after` adds to and removes from `before`: added workers move into the team, added
   * admins become its monitors, removed admins stop monitoring it; removed workers stay (see above).
   * An added id that is no account the directory sees is a 400, and nothing is written.
   */
  private async applyMembers(tx: Tx, emit: Emit, teamId: number, before: Set<number>, after: Set<number>, ctx: ScimContext) {
    const { added, removed } = membershipChanges(before, after);
    if (added.length === 0 && removed.length === 0) return;
    const rows = await tx
      .select({ id: users.id, role: users.role })
      .from(users)
      .where(sql`${users.id} = any(${pgArray([...added, ...removed])}::int[])`);
    const roleOf = new Map(rows.map((r) => [r.id, r.role]));
    const unknown = added.find((id) => roleOf.get(id) !== 'worker' && roleOf.get(id) !== 'admin');
    if (unknown !== undefined) throw new ScimError(400, 'invalidValue', `members: no User has the id "${unknown}"`);
    for (const id of added.filter((id) => roleOf.get(id) === 'worker')) {
      await this.teams.moveWorkerIn(tx, emit, id, teamId, ctx.client.name);
    }
    const monitors = added.filter((id) => roleOf.get(id) === 'admin');
    if (monitors.length > 0) await this.teams.appendMonitors(tx, emit, teamId, monitors, ctx.client.createdBy, ctx.client.name);
    const leaving = removed.filter((id) => roleOf.get(id) === 'admin');
    if (leaving.length > 0) await this.teams.removeMonitors(tx, emit, teamId, leaving, ctx.client.createdBy, ctx.client.name);
  }

  private async externalIdFree(tx: Tx, externalId: string, exceptId?: number): Promise<void> {
    const [taken] = await tx
      .select({ id: teams.id })
      .from(teams)
      .where(and(eq(teams.externalId, externalId), exceptId !== undefined ? ne(teams.id, exceptId) : undefined));
    if (taken) throw new ScimError(409, 'uniqueness', TEAM_EXTERNAL_ID_TAKEN);
  }

  private async team(db: Db | Tx, id: string, lock = false): Promise<TeamRow> {
    const teamId = accountId(id);
    if (teamId === undefined) throw NOT_FOUND(id);
    const query = db.select().from(teams).where(eq(teams.id, teamId));
    const [row] = lock ? await query.for('update') : await query;
    if (!row) throw NOT_FOUND(id);
    return row;
  }

  /** A page of the teams the filter names (see ScimUsers.list for how a filter is answered). */
  private async list(filter: SCIMMY.Types.Filter | undefined, ctx: ScimContext) {
    const page = ctx.page!;
    const narrowing = groupsNarrowing(filter);
    const where: SQL | undefined = narrowing.where;
    if (narrowing.exact) {
      const [{ n }] = await this.db.select({ n: count() }).from(teams).where(where);
      page.total = Number(n);
      if (page.count === 0 || page.total < page.startIndex) return [];
      const rows = await this.db
        .select()
        .from(teams)
        .where(where)
        .orderBy(asc(teams.id))
        .limit(page.count)
        .offset(page.startIndex - 1);
      return this.scimOfAll(rows, ctx.withMembers);
    }
    const rows = await this.db
      .select()
      .from(teams)
      .where(where)
      .orderBy(asc(teams.id))
      .limit(FILTER_SCAN_LIMIT + 1);
    if (rows.length > FILTER_SCAN_LIMIT) {
      throw new ScimError(
        400,
        'invalidFilter',
        `The filter leaves more than ${FILTER_SCAN_LIMIT} groups to compare: narrow it with displayName or externalId (eq)`,
      );
    }
    // Members are read for the comparison when the filter may be about them.
    const found = (await this.scimOfAll(rows, true)).filter(matcher(filter!));
    page.total = found.length;
    const shown = found.slice(page.startIndex - 1, page.startIndex - 1 + page.count);
    return ctx.withMembers ? shown : shown.map(({ members: _members, ...group }) => group);
  }

  private async scimOfAll(rows: TeamRow[], withMembers: boolean) {
    const members = withMembers ? await this.membersOf(this.db, rows) : undefined;
    return rows.map((row) => scimGroupOf(row, members?.get(row.id)));
  }

  /** Each team's workers and monitors, in two queries whatever the number of teams. */
  private async membersOf(db: Db | Tx, rows: TeamRow[]): Promise<Map<number, TeamMembers>> {
    const result = new Map<number, { workers: { id: number; name: string }[]; monitors: { id: number; name: string }[] }>(
      rows.map((r) => [r.id, { workers: [], monitors: [] }]),
    );
    if (rows.length === 0) return result;
    const workers = await db
      .select({ id: users.id, name: users.name, teamId: users.teamId })
      .from(users)
      .where(and(sql`${users.teamId} = any(${pgArray(rows.map((r) => r.id))}::int[])`, eq(users.role, 'worker')))
      .orderBy(asc(users.id));
    for (const w of workers) result.get(w.teamId!)?.workers.push({ id: w.id, name: w.name });
    const monitorIds = [...new Set(rows.flatMap((r) => r.monitors.map((m) => m.userId)))];
    if (monitorIds.length > 0) {
      const admins = await db
        .select({ id: users.id, name: users.name })
        .from(users)
        .where(sql`${users.id} = any(${pgArray(monitorIds)}::int[])`);
      const nameOf = new Map(admins.map((a) => [a.id, a.name]));
      for (const row of rows) {
        for (const m of row.monitors) {
          const name = nameOf.get(m.userId);
          if (name !== undefined) result.get(row.id)!.monitors.push({ id: m.userId, name });
        }
      }
    }
    return result;
  }
}
