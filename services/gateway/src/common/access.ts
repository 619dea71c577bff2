import { BadRequestException, ForbiddenException, NotFoundException, type PipeTransform } from '@nestjs/common';
import type { CommandMap } from '@lws/contracts';
import { RemoteError, type RpcClient } from '@lws/messaging';
import type { AuthedRequest, Role } from './session.guard';

export type UserView = CommandMap['identity.user.get.v1']['reply']['user'];

export interface Actor {
  userId: number;
  role: Role;
  /** A machine acting for userId with this API token: what histories and the activity log name. */
  viaToken?: string;
}

export function actorOf(req: AuthedRequest): Actor {
  return { userId: req.session!.userId, role: req.session!.role, ...(req.apiToken ? { viaToken: req.apiToken.name } : {}) };
}

/** Spec section 6 on the server: a worker acts only on itself, an admin on itself and workers, a superadmin on anyone. */
export function mayActOn(actor: Actor, target: { id: number; role: string }): boolean {
  if (actor.userId === target.id) return true;
  if (actor.role === 'superadmin') return true;
  if (actor.role === 'admin') return target.role === 'worker';
  return false;
}

/**
 * Loads the target user and checks the actor may act on it. A worker probing other ids gets
 * 403 whether or not the id exists, so ids cannot be enumerated. An admin acts only on the workers
 * of the teams they monitor or deputise for: another team's worker is a 404, as if it did not exist.
 */
export async function authorizeUserAccess(rpc: RpcClient, actor: Actor, targetUserId: number): Promise<UserView> {
  if (actor.role === 'worker' && actor.userId !== targetUserId) {
    throw new ForbiddenException({ message: 'Not allowed for your role' });
  }
  let user: UserView;
  try {
    ({ user } = await rpc.send('identity.user.get.v1', { userId: targetUserId }));
  } catch (err) {
    if (err instanceof RemoteError && err.status === 404) throw new NotFoundException({ message: 'User not found' });
    throw err;
  }
  if (!mayActOn(actor, user)) throw new ForbiddenException({ message: 'Not allowed for your role' });
  if (actor.role === 'admin' && actor.userId !== user.id) {
    const { teams } = await rpc.send('identity.team.list.v1', { monitoredBy: actor.userId });
    if (user.teamId === undefined || !teams.some((t) => t.id === user.teamId)) throw new NotFoundException({ message: 'User not found' });
  }
  return user;
}

/** Which workers a list shows an actor: absent, all of them; otherwise only these ids (none when empty). */
export type WorkerScope = { userIds: number[] } | undefined;

/**
 * The workers an admin sees: those of the teams they monitor or deputise for, none when
 * they monitor no team. The superadmin, and an admin who monitors every team (a single-team
 * deployment), see every worker: no scope. Asked of identity on every call, so a change of team or
 * of monitors holds from the next request.
 */
export async function workerScope(rpc: RpcClient, actor: Actor): Promise<WorkerScope> {
  return scopeOf(await adminTeams(rpc, actor));
}

export type AdminTeams = CommandMap['identity.team.scope.v1']['reply'];

/**
 * An admin's teams as identity answers them (`all` when they cover every team), with the ids of their
 * workers unless `members` is false; undefined for the superadmin, who sees every team.
 */
export async function adminTeams(rpc: RpcClient, actor: Actor, members = true): Promise<AdminTeams | undefined> {
  if (actor.role !== 'admin') return undefined;
  return rpc.send('identity.team.scope.v1', { adminId: actor.userId, ...(members ? {} : { members: false }) });
}

/** The workers a list shows for those teams: every one when they cover every team (or for the superadmin). */
export const scopeOf = (teams: AdminTeams | undefined): WorkerScope => (!teams || teams.all ? undefined : { userIds: teams.userIds });

/** `{scope}` for a request to a service that filters by it, or nothing. */
export const scopeField = (scope: WorkerScope) => (scope ? { scope } : {});

/** Route ids are positive 32-bit integers; anything else is a 400 naming the parameter. */
export class PositiveIntPipe implements PipeTransform<string, number> {
  constructor(
    readonly field = 'id',
    readonly message = 'Invalid user ID',
  ) {}

  transform(value: string): number {
    const id = /^\d{1,10}$/.test(value) ? Number(value) : NaN;
    if (!Number.isInteger(id) || id < 1 || id > 2147483647) throw new BadRequestException({ message: this.message, field: this.field });
    return id;
  }
}
