import { Inject, Injectable } from '@nestjs/common';
import { and, asc, count, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type SCIMMY from 'scimmy';
import { RpcError } from '@lws/messaging';
import { DB, pgArray, UnitOfWork, type Db } from '@lws/platform';
import { teams, users, type UserRow } from '../db/schema';
import { PHONE_TAKEN } from '../credentials/messages';
import { TeamsService } from '../teams/teams.service';
import { DeactivationService, type DeactivationActor } from '../users/deactivation.service';
import { lockPhones, UsersRepository } from '../users/users.repository';
import { EXTERNAL_ID_TAKEN, UsersService } from '../users/users.service';
import { accountId } from './group-mapping';
import { matcher, usersNarrowing, withUserNameLowered } from './filters';
import { ScimError, type ResourceHandlers, type ScimContext } from './scim-context';
import { checkedChanges, directoryUserOf, patchChanges, replaceChanges, scimUserOf, type GroupRef, type UserChanges } from './user-mapping';

/**
 * A filter that SQL cannot answer alone is checked by scimmy on the accounts SQL narrows it to; more
 * than this many is refused (400) rather than read: a filter on userName, externalId, emails or
 * displayName (eq) narrows any directory to one account.
 */
export const FILTER_SCAN_LIMIT = 1000;

/** The accounts the directory sees and manages: workers and administrators, never a superadmin (break-glass accounts stay LWS's). */
const MANAGED = inArray(users.role, ['worker', 'admin']);

const NOT_FOUND = (id: string) => new ScimError(404, '', `User ${id.slice(0, 40)} not found`);

/** SCIM Users: LWS accounts. A created account is a worker in the oldest team until a group membership moves them. */
@Injectable()
export class ScimUsers implements ResourceHandlers {
  constructor(
    @Inject(DB) private readonly db: Db,
    @Inject(UnitOfWork) private readonly uow: UnitOfWork,
    private readonly users: UsersService,
    private readonly repo: UsersRepository,
    private readonly teams: TeamsService,
    private readonly deactivation: DeactivationService,
  ) {}

  async egress(resource: SCIMMY.Types.Resource, ctx: ScimContext) {
    if (resource.id === undefined) return this.list(resource.filter, ctx);
    const data = await this.scimOf(await this.managed(resource.id));
    if (ctx.mode === 'patch') ctx.snapshot ??= data;
    return data;
  }

  async ingress(resource: SCIMMY.Types.Resource, data: Record<string, unknown>, ctx: ScimContext) {
    const given = directoryUserOf(data);
    if (resource.id === undefined) return this.scimOf(await this.create(checkedChanges(replaceChanges(given)), ctx));
    const row = await this.managed(resource.id);
    const asked = ctx.mode === 'patch' && ctx.snapshot ? patchChanges(directoryUserOf(ctx.snapshot), given) : replaceChanges(given);
    const changes = checkedChanges(asked);
    if (changes.userName !== undefined && changes.userName !== row.username) {
      throw new ScimError(400, 'mutability', 'userName cannot change in LWS: the activity log and other records keep it');
    }
    const { active } = changes;
    const profile = {
      ...(changes.name !== undefined ? { name: changes.name } : {}),
      ...(changes.phone !== undefined ? { phone: changes.phone } : {}),
      ...(changes.email !== undefined ? { email: changes.email } : {}),
      ...(changes.externalId !== undefined ? { externalId: changes.externalId } : {}),
    };
    await this.uow.run(async (tx, emit) => {
      if (Object.keys(profile).length > 0) await this.users.updateForDirectoryIn(tx, emit, row.id, profile, ctx.client.name);
      if (active !== undefined) await this.deactivation.setActiveIn(tx, emit, row.id, active, actorOf(ctx));
    });
    // Also when nothing changed: a session that began in a race with an earlier deactivation goes too.
    if (active === false) ctx.revokeUserIds.add(row.id);
    return this.scimOf(await this.managed(resource.id));
  }

  async degress(resource: SCIMMY.Types.Resource, ctx: ScimContext) {
    const row = await this.managed(resource.id ?? '');
    await this.uow.run((tx, emit) => this.users.deleteForDirectory(tx, emit, row.id, ctx.client.createdBy, ctx.client.name));
    ctx.revokeUserIds.add(row.id);
  }

  /** A new worker with no PIN yet and no usable password (they sign in through the organisation's provider). */
  private async create(fields: UserChanges, ctx: ScimContext): Promise<UserRow> {
    if (!fields.userName) throw new ScimError(400, 'invalidValue', 'userName is required');
    const username = fields.userName;
    const row = await this.uow.run(async (tx, emit) => {
      if (fields.phone) {
        // Before any row is locked, as every writer of a phone number takes it.
        await lockPhones(tx);
        if (await this.repo.phoneTakenByWorker(tx, fields.phone)) throw new RpcError(400, PHONE_TAKEN, { field: 'phone' });
      }
      if (fields.externalId && (await this.repo.externalIdTaken(tx, fields.externalId))) {
        throw new ScimError(409, 'uniqueness', EXTERNAL_ID_TAKEN);
      }
      const teamId = await this.teams.defaultTeamId(tx);
      if (teamId === undefined) throw new ScimError(400, 'invalidValue', 'LWS has no team to put a new worker in yet');
      const created = await this.users.provisionWorkerIn(tx, emit, {
        username,
        name: fields.name ?? username,
        teamId,
        ...(fields.email ? { email: fields.email } : {}),
        ...(fields.externalId ? { externalId: fields.externalId } : {}),
        ...(fields.phone ? { phone: fields.phone } : {}),
        directory: ctx.client.name,
      });
      if (!created) throw new ScimError(409, 'uniqueness', 'userName is already another account’s');
      if (fields.active === false) await this.deactivation.setActiveIn(tx, emit, created.id, false, actorOf(ctx));
      return created;
    });
    if (fields.active === false) ctx.revokeUserIds.add(row.id);
    return (await this.repo.findById(row.id)) ?? row;
  }

  /** The account with this SCIM id, if the directory may see it; else a SCIM 404. */
  private async managed(id: string): Promise<UserRow> {
    const userId = accountId(id);
    if (userId === undefined) throw NOT_FOUND(id);
    const [row] = await this.db
      .select()
      .from(users)
      .where(and(eq(users.id, userId), MANAGED));
    if (!row) throw NOT_FOUND(id);
    return row;
  }

  /**
   * A page of the accounts the filter names. A filter SQL answers whole is counted and paged in SQL;
   * another is narrowed by what SQL can say and checked by scimmy, on at most FILTER_SCAN_LIMIT rows.
   */
  private async list(filter: SCIMMY.Types.Filter | undefined, ctx: ScimContext) {
    const page = ctx.page!;
    const narrowing = usersNarrowing(filter);
    const where: SQL = narrowing.where ? and(MANAGED, narrowing.where)! : MANAGED;
    if (narrowing.exact) {
      const [{ n }] = await this.db.select({ n: count() }).from(users).where(where);
      page.total = Number(n);
      if (page.count === 0 || page.total < page.startIndex) return [];
      const rows = await this.db
        .select()
        .from(users)
        .where(where)
        .orderBy(asc(users.id))
        .limit(page.count)
        .offset(page.startIndex - 1);
      return this.scimOfAll(rows);
    }
    const rows = await this.db
      .select()
      .from(users)
      .where(where)
      .orderBy(asc(users.id))
      .limit(FILTER_SCAN_LIMIT + 1);
    if (rows.length > FILTER_SCAN_LIMIT) {
      throw new ScimError(
        400,
        'invalidFilter',
        `The filter leaves more than ${FILTER_SCAN_LIMIT} accounts to compare: narrow it with userName, externalId, emails.value or displayName (eq)`,
      );
    }
    const found = (await this.scimOfAll(rows)).filter(matcher(withUserNameLowered(filter!)));
    page.total = found.length;
    return found.slice(page.startIndex - 1, page.startIndex - 1 + page.count);
  }

  private async scimOf(row: UserRow): Promise<Record<string, unknown>> {
    return (await this.scimOfAll([row]))[0];
  }

  /** The accounts as SCIM Users, their groups read in one query: a worker's team, the teams an admin monitors. */
  private async scimOfAll(rows: UserRow[]): Promise<Record<string, unknown>[]> {
    const teamIds = [...new Set(rows.flatMap((r) => (r.role === 'worker' && r.teamId !== null ? [r.teamId] : [])))];
    const adminIds = rows.filter((r) => r.role === 'admin').map((r) => r.id);
    const related =
      teamIds.length === 0 && adminIds.length === 0
        ? []
        : await this.db
            .select({ id: teams.id, name: teams.name, monitors: teams.monitors })
            .from(teams)
            .where(
              sql`${teams.id} = any(${pgArray(teamIds)}::int[]) or exists (select 1 from jsonb_array_elements(${teams.monitors}) m where (m->>'userId')::int = any(${pgArray(adminIds)}::int[]))`,
            )
            .orderBy(asc(teams.id));
    return rows.map((row) => {
      const groups: GroupRef[] =
        row.role === 'worker'
          ? related.filter((t) => t.id === row.teamId)
          : related.filter((t) => t.monitors.some((m) => m.userId === row.id));
      return scimUserOf(
        row,
        groups.map((g) => ({ id: g.id, name: g.name })),
      );
    });
  }
}

/** The directory as the actor of a deactivation: the activity log names it, the events carry its token's creator. */
function actorOf(ctx: ScimContext): DeactivationActor {
  return { kind: 'directory', name: ctx.client.name, tokenCreatorId: ctx.client.createdBy };
}
