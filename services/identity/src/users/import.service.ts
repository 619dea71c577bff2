import { Inject, Injectable } from '@nestjs/common';
import { and, asc, eq, inArray, lt, sql } from 'drizzle-orm';
import type { CommandMap } from '@lws/contracts';
import { RpcError } from '@lws/messaging';
import { CLOCK, DB, UnitOfWork, type Clock, type Db, type Emit, type Tx } from '@lws/platform';
import { teams, userImportRows, users, type UserImportRow, type UserRow } from '../db/schema';
import { PinHasher } from '../credentials/pin-hasher';
import { temporaryPassword } from '../credentials/temporary-password';
import { TeamsService } from '../teams/teams.service';
import { TeamIntervals } from '../teams/team-intervals';
import { ASSUMED_INTERVAL } from '../teams/check-in-policy';
import { PHONE_TAKEN } from '../credentials/messages';
import { PasswordHasher } from './password-hasher';
import { lockPhones } from './users.repository';
import { userCreatedEvent, userUpdatedEvent } from './user-view';

type Request<P extends keyof CommandMap> = CommandMap[P]['request'];
type Reply<P extends keyof CommandMap> = CommandMap[P]['reply'];
type ApplyReply = Reply<'identity.user.import_apply.v1'>;
type ErrorField = ApplyReply['errors'][number]['field'];
type ChangedField = ApplyReply['updated'][number]['fields'][number];

/** Staged rows an import never applied are dropped after this long. */
const STAGED_FOR_MS = 3600_000;
/** One import at a time: two imports naming the same new username would otherwise race. */
const IMPORT_LOCK_KEY = 7_120_012;
const INSERT_BATCH = 500;
const LOOKUP_BATCH = 5000;

export const IMPORT_INCOMPLETE = 'Part of the file did not arrive: nothing was imported. Send the file again.';
export const IMPORT_RACED = 'A username in the file was taken while it was being imported: nothing was imported. Try again.';
export const IMPORT_PIN_IS_DURESS = "The PIN must be different from this worker's duress PIN";

interface TeamRef {
  id: number;
  monitorIds: Set<number>;
}

type Planned =
  | { kind: 'create'; row: UserImportRow; teamId: number | null; monitorOf?: number }
  | { kind: 'update'; row: UserImportRow; user: UserRow; fields: ChangedField[]; teamId?: number; monitorOf?: number }
  | { kind: 'unchanged'; row: UserImportRow }
  | { kind: 'error'; row: UserImportRow; field: ErrorField; message: string };

/**
 * Bulk onboarding: the gateway stages a checked file's rows, then asks for a plan (the
 * dry run) or the import itself. Rows match accounts by username, so importing the same file twice
 * changes nothing the second time; the import is one transaction, so it changes every row or none.
 * New accounts get a generated temporary password (and a PIN unless the row has one), returned once.
 */
@Injectable()
export class ImportService {
  constructor(
    @Inject(DB) private readonly db: Db,
    @Inject(UnitOfWork) private readonly uow: UnitOfWork,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly passwords: PasswordHasher,
    private readonly pins: PinHasher,
    private readonly teamsService: TeamsService,
    private readonly intervals: TeamIntervals,
  ) {}

  async stage(req: Request<'identity.user.import_stage.v1'>): Promise<Reply<'identity.user.import_stage.v1'>> {
    await this.requireSuperadmin(req.actorId);
    const now = this.clock();
    await this.db.delete(userImportRows).where(lt(userImportRows.stagedAt, new Date(now.getTime() - STAGED_FOR_MS)));
    if (req.rows.length > 0) {
      // A chunk sent twice (a retry after a timeout) stages its rows once.
      await this.db
        .insert(userImportRows)
        .values(
          req.rows.map((r) => ({
            importId: req.importId,
            actorId: req.actorId,
            line: r.line,
            username: r.username.trim().toLowerCase(),
            name: r.name.trim(),
            phone: r.phone,
            role: r.role as 'worker' | 'admin',
            team: r.team?.trim() || null,
            pinHash: r.pin ? this.pins.hash(r.pin) : null,
            language: r.language ?? null,
            stagedAt: now,
          })),
        )
        .onConflictDoNothing();
    }
    const [{ n }] = await this.db
      .select({ n: sql<number>`count(*)::int` })
      .from(userImportRows)
      .where(and(eq(userImportRows.importId, req.importId), eq(userImportRows.actorId, req.actorId)));
    return { staged: Number(n) };
  }

  async apply(req: Request<'identity.user.import_apply.v1'>): Promise<ApplyReply> {
    await this.requireSuperadmin(req.actorId);
    const mine = and(eq(userImportRows.importId, req.importId), eq(userImportRows.actorId, req.actorId));
    const staged = await this.db.select().from(userImportRows).where(mine).orderBy(asc(userImportRows.line));
    if (staged.length !== req.rowCount) {
      await this.db.delete(userImportRows).where(mine);
      throw new RpcError(409, IMPORT_INCOMPLETE, { field: 'file' });
    }
    const draft = await this.plan(this.db, staged, false);
    if (req.dryRun || draft.some((p) => p.kind === 'error')) {
      await this.db.delete(userImportRows).where(mine);
      return outcome(draft, false, []);
    }
    // Passwords for the accounts the plan creates are hashed before the transaction, so it stays short.
    const prepared = await this.preparePasswords(draft.filter((p) => p.kind === 'create').map((p) => p.row.username));
    return this.uow.run(async (tx, emit) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${IMPORT_LOCK_KEY})`);
      await lockPhones(tx);
      // Planned again under the locks: the accounts or teams may have changed since the draft.
      const plan = await this.plan(tx, staged, true);
      await tx.delete(userImportRows).where(mine);
      if (plan.some((p) => p.kind === 'error')) return outcome(plan, false, []);
      const credentials = await this.create(tx, emit, plan, prepared, req.actorId);
      await this.update(tx, emit, plan, req.actorId);
      await this.addMonitors(tx, emit, plan, req.actorId);
      return outcome(plan, true, credentials);
    });
  }

  /** Only the superadmin imports accounts (the gateway checks the session; identity checks the account). */
  private async requireSuperadmin(actorId: number): Promise<void> {
    const [actor] = await this.db.select({ role: users.role }).from(users).where(eq(users.id, actorId));
    if (actor?.role !== 'superadmin') throw new RpcError(403, 'Only a superadmin imports accounts');
  }

  /** What each row does, or why it cannot: matched by username against the accounts and teams now. */
  private async plan(db: Db | Tx, staged: UserImportRow[], lock: boolean): Promise<Planned[]> {
    const teamQuery = db.select({ id: teams.id, name: teams.name, monitors: teams.monitors }).from(teams).orderBy(asc(teams.id));
    const teamRows = lock ? await teamQuery.for('update') : await teamQuery;
    const byName = new Map<string, TeamRef>();
    for (const t of teamRows) {
      byName.set(t.name.toLowerCase(), {
        id: t.id,
        monitorIds: new Set(t.monitors.flatMap((m) => [m.userId, ...(m.deputyUserId ? [m.deputyUserId] : [])])),
      });
    }
    const defaultTeamId = teamRows[0]?.id ?? null;
    const existing = new Map<string, UserRow>();
    const names = [...new Set(staged.map((r) => r.username))];
    for (let i = 0; i < names.length; i += LOOKUP_BATCH) {
      const query = db
        .select()
        .from(users)
        .where(inArray(users.username, names.slice(i, i + LOOKUP_BATCH)));
      for (const u of lock ? await query.for('update') : await query) existing.set(u.username, u);
    }
    const phoneOwners = await this.phoneOwners(db, staged);
    const firstLine = new Map<string, number>();
    return staged.map((row): Planned => {
      const error = (field: ErrorField, message: string): Planned => ({ kind: 'error', row, field, message });
      const earlier = firstLine.get(row.username);
      if (earlier !== undefined) return error('username', `Listed twice in the file (first on row ${earlier})`);
      firstLine.set(row.username, row.line);
      const team = row.team === null ? undefined : byName.get(row.team.toLowerCase());
      if (row.team !== null && !team) return error('team', 'No team has this name');
      const user = existing.get(row.username);
      // A worker given a number another worker has, or will have once the file is imported; a
      // number the account already shares is left as it is.
      const sharer =
        row.role === 'worker' && row.phone !== user?.phone
          ? phoneOwners.get(row.phone)?.find((o) => o.username !== row.username)
          : undefined;
      const phoneTaken =
        sharer &&
        error('phone', sharer.line === undefined ? PHONE_TAKEN : `Another worker in the file has this phone number (row ${sharer.line})`);
      if (!user) {
        if (row.role === 'admin') return { kind: 'create', row, teamId: null, ...(team ? { monitorOf: team.id } : {}) };
        if (phoneTaken) return phoneTaken;
        const teamId = team?.id ?? defaultTeamId;
        if (teamId === null) return error('team', 'No team has this name');
        return { kind: 'create', row, teamId };
      }
      if (user.role === 'superadmin') return error('username', 'This username belongs to the superadmin');
      if (user.role !== row.role)
        return error('role', `This username belongs to an existing ${user.role}: an import does not change roles`);
      if (phoneTaken) return phoneTaken;
      // As on the PIN change screen: the PIN is compared first, so a duress PIN equal to it would
      // silently stop raising the alarm while the worker believes it set.
      if (row.pinHash !== null && row.pinHash === user.duressPinHash) return error('pin', IMPORT_PIN_IS_DURESS);
      const fields: ChangedField[] = [];
      if (row.name !== user.name) fields.push('name');
      if (row.phone !== user.phone) fields.push('phone');
      const moveTo = row.role === 'worker' && team && team.id !== user.teamId ? team.id : undefined;
      if (moveTo !== undefined) fields.push('team');
      if (row.pinHash !== null && row.pinHash !== user.pinHash) fields.push('pin');
      if (row.language !== null && row.language !== user.language) fields.push('language');
      const monitorOf = row.role === 'admin' && team && !team.monitorIds.has(user.id) ? team.id : undefined;
      if (monitorOf !== undefined) fields.push('monitors');
      if (fields.length === 0) return { kind: 'unchanged', row };
      return {
        kind: 'update',
        row,
        user,
        fields,
        ...(moveTo !== undefined ? { teamId: moveTo } : {}),
        ...(monitorOf !== undefined ? { monitorOf } : {}),
      };
    });
  }

  /**
   * Who will have each of the file's workers' numbers once it is imported: the file's workers (with
   * their row), and the other workers who have one now. A worker the file names takes the file's
   * number instead of their own.
   */
  private async phoneOwners(db: Db | Tx, staged: UserImportRow[]): Promise<Map<string, { username: string; line?: number }[]>> {
    const owners = new Map<string, { username: string; line?: number }[]>();
    const own = (phone: string, owner: { username: string; line?: number }) => owners.set(phone, [...(owners.get(phone) ?? []), owner]);
    const named = new Set(staged.map((r) => r.username));
    const seen = new Set<string>();
    for (const r of staged) {
      if (r.role !== 'worker' || seen.has(r.username)) continue;
      seen.add(r.username);
      own(r.phone, { username: r.username, line: r.line });
    }
    const phones = [...owners.keys()];
    for (let i = 0; i < phones.length; i += LOOKUP_BATCH) {
      const holders = await db
        .select({ username: users.username, phone: users.phone })
        .from(users)
        .where(and(eq(users.role, 'worker'), inArray(users.phone, phones.slice(i, i + LOOKUP_BATCH))));
      for (const h of holders) if (h.phone !== null && !named.has(h.username)) own(h.phone, { username: h.username });
    }
    return owners;
  }

  private async preparePasswords(usernames: string[]): Promise<Map<string, { password: string; hash: string }>> {
    const out = new Map<string, { password: string; hash: string }>();
    // A few at a time: the hashes run on libuv's threads, so this keeps both cores busy.
    for (let i = 0; i < usernames.length; i += 16) {
      await Promise.all(
        usernames.slice(i, i + 16).map(async (u) => {
          const password = temporaryPassword();
          out.set(u, { password, hash: await this.passwords.hashGenerated(password) });
        }),
      );
    }
    return out;
  }

  private async create(tx: Tx, emit: Emit, plan: Planned[], prepared: Map<string, { password: string; hash: string }>, actorId: number) {
    const creates = plan.filter((p): p is Extract<Planned, { kind: 'create' }> => p.kind === 'create');
    // An account the draft found but that was deleted since has no prepared password yet.
    const missing = creates.map((p) => p.row.username).filter((u) => !prepared.has(u));
    for (const [u, v] of await this.preparePasswords(missing)) prepared.set(u, v);
    const credentials: ApplyReply['credentials'] = [];
    for (let i = 0; i < creates.length; i += INSERT_BATCH) {
      const batch = creates.slice(i, i + INSERT_BATCH).map((p) => {
        const generatedPin = p.row.pinHash === null ? this.pins.randomPin() : undefined;
        const { password, hash } = prepared.get(p.row.username)!;
        credentials.push({ line: p.row.line, password, ...(generatedPin ? { pin: generatedPin } : {}) });
        return {
          username: p.row.username,
          passwordHash: hash,
          passwordIsTemporary: true,
          name: p.row.name,
          phone: p.row.phone,
          role: p.row.role,
          teamId: p.teamId,
          pinHash: p.row.pinHash ?? this.pins.hash(generatedPin!),
          createdBy: actorId,
          ...(p.row.language !== null ? { language: p.row.language } : {}),
        };
      });
      const inserted = await tx.insert(users).values(batch).onConflictDoNothing({ target: users.username }).returning();
      // A single create does not take the import lock: its username wins, and the import is undone.
      if (inserted.length !== batch.length) throw new RpcError(409, IMPORT_RACED, { field: 'username' });
      for (const row of inserted) {
        await emit('identity.user.created.v1', userCreatedEvent(row));
        if (row.role === 'admin') await this.teamsService.adoptNewAdmin(tx, emit, row.id, actorId);
      }
      // New workers start on their team's default interval, as one created alone does.
      await this.intervals.bringWithin(
        tx,
        emit,
        inserted.filter((r) => r.role === 'worker').map((r) => r.id),
        () => ASSUMED_INTERVAL,
      );
    }
    return credentials;
  }

  private async update(tx: Tx, emit: Emit, plan: Planned[], actorId: number) {
    const now = this.clock();
    // A worker who moves takes their new team's check-in policy, as one moved alone does.
    const movedFrom = new Map<number, number | null>();
    for (const p of plan) {
      if (p.kind === 'update' && p.teamId !== undefined) movedFrom.set(p.user.id, p.user.teamId);
    }
    const defaults =
      movedFrom.size === 0
        ? new Map<number, number>()
        : new Map(
            (await tx.select({ id: teams.id, defaultInterval: teams.defaultInterval }).from(teams)).map((t) => [t.id, t.defaultInterval]),
          );
    for (const p of plan) {
      if (p.kind !== 'update') continue;
      const profile = p.fields.some((f) => f === 'name' || f === 'phone' || f === 'team' || f === 'language');
      if (profile || p.fields.includes('pin')) {
        const [row] = await tx
          .update(users)
          .set({
            name: p.row.name,
            phone: p.row.phone,
            ...(p.teamId !== undefined ? { teamId: p.teamId } : {}),
            ...(p.fields.includes('pin') ? { pinHash: p.row.pinHash } : {}),
            ...(p.fields.includes('language') ? { language: p.row.language! } : {}),
            ...(profile ? { version: sql`${users.version} + 1`, versionChangedAt: now } : {}),
            updatedAt: now,
          })
          .where(eq(users.id, p.user.id))
          .returning();
        if (profile) await emit('identity.user.updated.v1', userUpdatedEvent(row));
        if (p.fields.includes('pin'))
          await emit('identity.credential.changed.v1', { userId: row.id, credential: 'pin', changedBy: actorId, reset: true });
      }
    }
    await this.intervals.bringWithin(tx, emit, [...movedFrom.keys()], (userId) => {
      const from = movedFrom.get(userId);
      return (from === null || from === undefined ? undefined : defaults.get(from)) ?? ASSUMED_INTERVAL;
    });
  }

  /** Admins named with a team monitor it, after its present monitors and in the file's order. */
  private async addMonitors(tx: Tx, emit: Emit, plan: Planned[], actorId: number) {
    const byTeam = new Map<number, string[]>();
    for (const p of plan) {
      if ((p.kind === 'create' || p.kind === 'update') && p.monitorOf !== undefined)
        byTeam.set(p.monitorOf, [...(byTeam.get(p.monitorOf) ?? []), p.row.username]);
    }
    for (const [teamId, usernames] of byTeam) {
      const ids = await tx.select({ id: users.id, username: users.username }).from(users).where(inArray(users.username, usernames));
      const idOf = new Map(ids.map((r) => [r.username, r.id]));
      await this.teamsService.appendMonitors(
        tx,
        emit,
        teamId,
        usernames.map((u) => idOf.get(u)!),
        actorId,
      );
    }
  }
}

function outcome(plan: Planned[], applied: boolean, credentials: ApplyReply['credentials']): ApplyReply {
  const updated = new Map<string, { fields: ChangedField[]; lines: number[] }>();
  const errors = new Map<string, { field: ErrorField; message: string; lines: number[] }>();
  const created: number[] = [];
  const unchanged: number[] = [];
  for (const p of plan) {
    if (p.kind === 'create') created.push(p.row.line);
    else if (p.kind === 'unchanged') unchanged.push(p.row.line);
    else if (p.kind === 'update') {
      const key = p.fields.join(',');
      const group = updated.get(key) ?? { fields: p.fields, lines: [] };
      group.lines.push(p.row.line);
      updated.set(key, group);
    } else {
      const key = `${p.field}\u0000${p.message}`;
      const group = errors.get(key) ?? { field: p.field, message: p.message, lines: [] };
      group.lines.push(p.row.line);
      errors.set(key, group);
    }
  }
  return { applied, created, updated: [...updated.values()], unchanged, errors: [...errors.values()], credentials };
}
