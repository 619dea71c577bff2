import { Inject, Injectable } from '@nestjs/common';
import { RemoteError, type RpcClient } from '@lws/messaging';
import { actorOf, authorizeUserAccess, type Actor, type UserView } from '../common/access';
import type { AuthedRequest } from '../common/session.guard';
import { RPC } from '../common/rpc';
import { SESSION_STORE, type SessionStore } from '../sessions/session.store';
import type { z } from 'zod';
import { DEFAULT_CHECK_IN_INTERVAL } from '@lws/schemas';
import type { updateProfileSchema } from './users.schema';
import { changePin } from '../credentials/pin-change';
import { browserContact, browserSettings, browserUser } from './user.view';
import { extensionFields, shiftFields, shiftNoteField } from '../shifts/worker.view';

type ProfileUpdate = z.infer<typeof updateProfileSchema>;
export type Manager = Actor & { role: 'admin' | 'superadmin' };

/** The caller of a route guarded by @Roles('admin', 'superadmin'). */
export function managerOf(req: AuthedRequest): Manager {
  const actor = actorOf(req);
  return { ...actor, role: actor.role === 'superadmin' ? 'superadmin' : 'admin' };
}

@Injectable()
export class UsersService {
  constructor(
    @Inject(RPC) private readonly rpc: RpcClient,
    @Inject(SESSION_STORE) private readonly sessions: SessionStore,
  ) {}

  /**
   * Admins see workers; a superadmin also sees admins and whether each account has a password and
   * a PIN. Each account carries its shift state. Both are fetched a page at a time (a bus message
   * holds at most 1 MB; a multi-site organisation has tens of thousands of accounts), in name order.
   */
  async accounts(actor: Manager) {
    const accounts = await allPages(async (after) => {
      const page = await this.rpc.send('identity.account.list.v1', {
        actorRole: actor.role,
        actorId: actor.userId,
        ...(after ? { after } : {}),
        limit: PAGE,
      });
      return { items: page.accounts, next: page.next };
    });
    const workers = (
      await Promise.all(
        chunk(
          accounts.map((a) => a.user.id),
          PAGE,
        ).map((userIds) => this.rpc.send('shifts.worker.states.v1', { userIds })),
      )
    ).flatMap((r) => r.workers);
    const creators = actor.role === 'superadmin' ? await this.creators(accounts.map((a) => a.user)) : undefined;
    return accounts.map((a, i) => ({
      ...browserUser(a.user),
      // The worker's team: the dashboards show it, and an admin of several teams filters by it.
      ...(a.user.teamId !== undefined ? { teamId: a.user.teamId } : {}),
      // A deactivated account stays listed so that it can be reactivated; the table marks it.
      ...(a.user.disabled ? { disabled: true } : {}),
      emergencyContacts: a.emergencyContacts.map(({ id, name, phone, relation }) => ({ id, name, phone, relation })),
      ...(actor.role === 'superadmin' ? { passwordSet: a.passwordSet ?? false, pinSet: a.pinSet ?? false } : {}),
      ...(creators ? { createdBy: creatorOf(a.user, creators) } : {}),
      ...shiftFields(workers[i]),
    }));
  }

  /**
   * The accounts that created these, by id, for the superadmin: most are in the list already (admins);
   * the rest (superadmins) are asked for, and an account since deleted is missing from the map.
   */
  private async creators(users: UserView[]): Promise<Map<number, UserView>> {
    const known = new Map(users.map((u) => [u.id, u]));
    const wanted = [...new Set(users.flatMap((u) => (u.createdBy !== undefined && !known.has(u.createdBy) ? [u.createdBy] : [])))];
    for (const found of await Promise.all(wanted.map((userId) => unlessGone(this.rpc.send('identity.user.get.v1', { userId }))))) {
      if (found) known.set(found.user.id, found.user);
    }
    return known;
  }

  /** Every worker for the superadmin; an admin's are those of the teams they monitor or deputise for. */
  async workers(actor: Manager) {
    const users = await allPages(async (after) => {
      const page = await this.rpc.send('identity.user.list.v1', { roles: ['worker'], ...(after ? { after } : {}), limit: PAGE });
      return { items: page.users, next: page.next };
    });
    if (actor.role === 'superadmin') return users.map(browserUser);
    const { teams } = await this.rpc.send('identity.team.list.v1', { monitoredBy: actor.userId });
    const mine = new Set(teams.map((t) => t.id));
    return users.filter((u) => u.teamId !== undefined && mine.has(u.teamId)).map(browserUser);
  }

  async withRelations(actor: Actor, userId: number) {
    await authorizeUserAccess(this.rpc, actor, userId);
    const [found, shift] = await Promise.all([
      this.rpc.send('identity.user.get_with_relations.v1', { userId }),
      this.rpc.send('shifts.worker.states.v1', { userIds: [userId] }),
    ]);
    return {
      ...browserUser(found.user),
      pinSet: found.user.pinSet,
      settings: found.settings ? browserSettings(found.settings) : null,
      // The interval that applies: the settings' own, else the worker's team's default.
      checkInInterval: found.checkInInterval ?? found.settings?.checkInInterval ?? DEFAULT_CHECK_IN_INTERVAL,
      emergencyContacts: found.emergencyContacts.map(browserContact),
      ...shiftFields(shift.workers[0]),
      ...extensionFields(shift.workers[0]),
      ...shiftNoteField(shift.workers[0]),
      team: found.user.teamId !== undefined ? await this.teamOf(found.user.teamId) : null,
      ...(actor.role === 'superadmin' ? { createdBy: creatorOf(found.user, await this.creators([found.user])) } : {}),
      // An admin away until then, whose deputies stand in (POST /api/users/{id}/away).
      ...(found.user.role === 'admin' ? { awayUntil: found.user.awayUntil ?? null } : {}),
    };
  }

  /** A worker's team as their profile shows it: its name, who monitors it, in order, and the check-in intervals it allows. */
  private async teamOf(teamId: number): Promise<{
    id: number;
    name: string;
    monitors: string[];
    checkInPolicy: { defaultInterval: number; allowedIntervals: number[] };
    visitTypes: { id: string; name: string; minutes: number; checkInInterval: number | null; smsToo: boolean }[];
  } | null> {
    const found = await unlessGone(this.rpc.send('identity.team.get.v1', { teamId }));
    if (!found) return null;
    const monitors = await Promise.all(
      found.team.monitors.map(async (m) => (await unlessGone(this.rpc.send('identity.user.get.v1', { userId: m.userId })))?.user.name),
    );
    return {
      id: found.team.id,
      name: found.team.name,
      monitors: monitors.filter((n): n is string => !!n),
      checkInPolicy: found.team.checkInPolicy,
      // What the worker picks from when starting a visit: never the policies, which are the monitors'.
      visitTypes: found.team.visitTypes.map((v) => ({
        id: v.id,
        name: v.name,
        minutes: v.minutes,
        checkInInterval: v.checkInInterval ?? null,
        smsToo: v.smsToo,
      })),
    };
  }

  async updateProfile(actor: Actor, userId: number, input: ProfileUpdate) {
    await authorizeUserAccess(this.rpc, actor, userId);
    const { user } = await this.rpc.send('identity.user.update_profile.v1', {
      userId,
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.phone !== undefined ? { phone: input.phone } : {}),
      ...(input.medicalInfo !== undefined ? { medicalInfo: input.medicalInfo ?? '' } : {}),
      ...(input.language !== undefined ? { language: input.language } : {}),
    });
    return browserUser(user);
  }

  /** The PIN branch: self only, through identity's one PIN-verification path. */
  changePin(actor: Actor, userId: number, body: unknown) {
    return changePin(this.rpc, actor, userId, body);
  }

  /** Identity deletes the account and announces it; the account's sessions end with it. */
  async delete(actor: Manager, userId: number) {
    // An admin deletes only their teams' workers (identity checks the roles).
    if (actor.role === 'admin') await authorizeUserAccess(this.rpc, actor, userId);
    await this.rpc.send('identity.user.delete.v1', { userId, actorId: actor.userId, actorRole: actor.role });
    await this.sessions.destroyAllForUser(userId);
    return { ok: true };
  }

  async setActive(actor: Manager, userId: number, active: boolean) {
    // An admin changes only their teams' workers (identity checks the roles).
    if (actor.role === 'admin') await authorizeUserAccess(this.rpc, actor, userId);
    const { changed } = await this.rpc.send('identity.user.set_active.v1', {
      userId,
      active,
      actorId: actor.userId,
      actorRole: actor.role,
    });
    // Also when nothing changed: a session opened in a race with an earlier deactivation goes too.
    if (!active) await this.sessions.destroyAllForUser(userId);
    return { ok: true, changed };
  }
}

/**
 * Who created an account, as the superadmin reads it: null when unknown (the bootstrap superadmin,
 * or created before this was kept); name and role null once that account is deleted. An admin
 * created by an admin shows as such by the creator's role.
 */
function creatorOf(user: UserView, creators: Map<number, UserView>): { id: number; name: string | null; role: string | null } | null {
  if (user.createdBy === undefined) return null;
  const creator = creators.get(user.createdBy);
  return { id: user.createdBy, name: creator?.name ?? null, role: creator?.role ?? null };
}

/** What identity answers, or undefined for something deleted meanwhile (a 404); any other failure stands. */
async function unlessGone<T>(reply: Promise<T>): Promise<T | undefined> {
  try {
    return await reply;
  } catch (err) {
    if (err instanceof RemoteError && err.status === 404) return undefined;
    throw err;
  }
}

/** Accounts per bus message: well under its 1 MB with contacts and shift states. */
const PAGE = 1000;

type Cursor = { name: string; id: number };

/** Every page of a list identity pages by name and id, in order. */
async function allPages<T>(fetch: (after: Cursor | undefined) => Promise<{ items: T[]; next?: Cursor }>): Promise<T[]> {
  const out: T[] = [];
  let after: Cursor | undefined;
  do {
    const page = await fetch(after);
    out.push(...page.items);
    after = page.next;
  } while (after);
  return out;
}

function chunk<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
