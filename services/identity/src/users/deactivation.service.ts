import { Inject, Injectable } from '@nestjs/common';
import { eq, sql } from 'drizzle-orm';
import type { CommandMap } from '@lws/contracts';
import { RpcError } from '@lws/messaging';
import { UnitOfWork, type Emit, type Tx } from '@lws/platform';
import { users } from '../db/schema';
import { TeamsService } from '../teams/teams.service';
import { UsersRepository } from './users.repository';

/** Who deactivates: a person (an admin, the superadmin), or the organisation's directory through SCIM. */
export type DeactivationActor =
  | { kind: 'user'; userId: number }
  | {
      kind: 'directory';
      /** The provisioning client's name, as the activity log shows it. */
      name: string;
      /** The superadmin who created the client's token: the actor of team changes it causes. */
      tokenCreatorId: number;
    };

export const SUPERADMIN_STAYS_ACTIVE = 'A superadmin cannot be deactivated';

/**
 * Deactivating an account shuts every door at once: no password, SSO or kiosk sign-in succeeds
 * (each checks disabled_at), the gateway revokes its sessions, and the shifts service ends a shift
 * in progress on identity.user.deactivated.v1, so escalation stops waiting for check-ins that
 * will never come while an open alarm stays open for a monitor, and the team's monitors are told.
 * An administrator stops monitoring: an alarm must not wait on someone who can no longer sign in.
 */
@Injectable()
export class DeactivationService {
  constructor(
    private readonly repo: UsersRepository,
    private readonly teams: TeamsService,
    @Inject(UnitOfWork) private readonly uow: UnitOfWork,
  ) {}

  /** An admin's or the superadmin's request: admins change workers only, nobody changes themselves. */
  setActiveBy(req: CommandMap['identity.user.set_active.v1']['request']): Promise<{ changed: boolean }> {
    if (req.userId === req.actorId) throw new RpcError(400, 'You cannot deactivate your own account', { field: 'id' });
    return this.uow.run(async (tx, emit) => {
      const actor = await this.repo.findByIdForUpdate(tx, req.actorId);
      if (!actor || actor.role !== req.actorRole || actor.disabledAt) throw new RpcError(403, 'Not allowed for your role');
      const target = await this.repo.findByIdForUpdate(tx, req.userId);
      if (!target) throw new RpcError(404, 'User not found', { field: 'id' });
      if (actor.role === 'admin' && target.role !== 'worker') throw new RpcError(403, 'Not allowed for your role');
      return this.setActiveIn(tx, emit, req.userId, req.active, { kind: 'user', userId: actor.id });
    });
  }

  setActive(userId: number, active: boolean, actor: DeactivationActor): Promise<{ changed: boolean }> {
    return this.uow.run((tx, emit) => this.setActiveIn(tx, emit, userId, active, actor));
  }

  /** setActive() inside the caller's transaction (a SCIM request that changes more than this). */
  async setActiveIn(tx: Tx, emit: Emit, userId: number, active: boolean, actor: DeactivationActor): Promise<{ changed: boolean }> {
    const row = await this.repo.findByIdForUpdate(tx, userId);
    if (!row) throw new RpcError(404, 'User not found', { field: 'id' });
    if ((row.disabledAt === null) === active) return { changed: false };
    if (!active && row.role === 'superadmin') throw new RpcError(409, SUPERADMIN_STAYS_ACTIVE, { field: 'active' });
    const [updated] = await tx
      .update(users)
      .set({
        disabledAt: active ? null : sql`now()`,
        updatedAt: new Date(),
        version: sql`${users.version} + 1`,
        versionChangedAt: sql`now()`,
      })
      .where(eq(users.id, userId))
      .returning({ version: users.version });
    const by = actor.kind === 'user' ? { byUserId: actor.userId } : { byUserId: actor.tokenCreatorId, directory: actor.name };
    if (active) {
      await emit('identity.user.reactivated.v1', { userId, version: updated.version, ...by });
      return { changed: true };
    }
    if (row.role === 'admin') await this.teams.forgetMonitor(tx, emit, userId, actor.kind === 'user' ? actor.userId : actor.tokenCreatorId);
    await emit('identity.user.deactivated.v1', { userId, version: updated.version, ...by });
    return { changed: true };
  }
}
