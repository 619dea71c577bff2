import { Inject, Injectable } from '@nestjs/common';
import type { CommandMap } from '@lws/contracts';
import { RpcError } from '@lws/messaging';
import { randomBytes } from 'node:crypto';
import { UnitOfWork, type Emit, type Tx } from '@lws/platform';
import { PasswordHasher } from './password-hasher';
import { lockPhones, UsersRepository } from './users.repository';
import { toUserView, userCreatedEvent, userUpdatedEvent } from './user-view';
import { PinAssigner, writePinHash } from '../credentials/pin-assigner';
import { TEAM_NOT_FOUND, TeamsService } from '../teams/teams.service';
import { TeamIntervals } from '../teams/team-intervals';
import { ASSUMED_INTERVAL } from '../teams/check-in-policy';
import type { Role, UserRow } from '../db/schema';
import { PHONE_TAKEN } from '../credentials/messages';

type CreateUser = CommandMap['identity.user.create.v1'];
type UpdateProfile = CommandMap['identity.user.update_profile.v1'];
type DeleteUser = CommandMap['identity.user.delete.v1'];

export const EXTERNAL_ID_TAKEN = 'Another account has this directory id (externalId)';

@Injectable()
export class UsersService {
  constructor(
    private readonly repo: UsersRepository,
    private readonly hasher: PasswordHasher,
    @Inject(UnitOfWork) private readonly uow: UnitOfWork,
    private readonly pins: PinAssigner,
    private readonly teams: TeamsService,
    private readonly intervals: TeamIntervals,
  ) {}

  async get(userId: number) {
    const row = await this.repo.findById(userId);
    if (!row) throw new RpcError(404, 'User not found', { field: 'userId' });
    return toUserView(row);
  }

  async create(req: CreateUser['request']): Promise<CreateUser['reply']> {
    const username = req.username.trim().toLowerCase();
    const role: Role = req.role === 'admin' ? 'admin' : 'worker';
    // An admin may create an administrator (spec: Worker or Administrator), who then monitors the
    // teams the creating admin monitors, and no others: an admin never widens their own reach, and
    // one who only deputises creates none (TeamsService.shareMonitoring).
    if (role === 'admin' && req.actorRole === 'admin' && req.actorId === undefined) {
      throw new RpcError(400, 'An admin creating an administrator must be named (actorId)', { field: 'actorId' });
    }
    if (role === 'admin' && req.teamId !== undefined) throw new RpcError(400, 'Only workers belong to a team', { field: 'teamId' });
    const monitorTeamIds = req.monitorTeams?.teamIds ?? [];
    if (monitorTeamIds.length > 0 && role !== 'admin')
      throw new RpcError(400, 'Only administrators monitor teams', { field: 'monitorTeamIds' });
    if (monitorTeamIds.length > 0 && req.actorRole !== 'superadmin') {
      throw new RpcError(400, 'An administrator you create monitors the teams you monitor', { field: 'monitorTeamIds' });
    }
    const passwordHash = await this.hasher.hash(req.password);
    // The creator's PIN, or a random free one returned once (see PinAssigner).
    const { result: row, generatedPin } = await this.pins.assign(req.pin, (pinHash) =>
      this.uow.run(async (tx, emit) => {
        if (role === 'worker') await lockPhones(tx);
        const phoneTaken = role === 'worker' && (await this.repo.phoneTakenByWorker(tx, req.phone));
        // A worker joins the team named, or the oldest (an upgraded deployment's "Default").
        let teamId: number | null = null;
        if (role === 'worker') {
          if (req.teamId !== undefined && !(await this.teams.exists(tx, req.teamId)))
            throw new RpcError(400, TEAM_NOT_FOUND, { field: 'teamId' });
          teamId = req.teamId ?? (await this.teams.defaultTeamId(tx)) ?? null;
          if (teamId === null) throw new RpcError(400, TEAM_NOT_FOUND, { field: 'teamId' });
          // Held until the worker is in: a policy change to the team waits, then brings them within it.
          await this.intervals.policy(tx, teamId, true);
        }
        const inserted = await this.repo.insert(tx, {
          username,
          passwordHash,
          name: req.name.trim(),
          phone: req.phone,
          role,
          medicalInfo: req.medicalInfo?.trim() || null,
          teamId,
          createdBy: req.actorId ?? null,
          ...(req.language ? { language: req.language } : {}),
        });
        if (!inserted) return undefined;
        // After the username, so a taken username answers as it always has; the insert is undone.
        if (phoneTaken) throw new RpcError(400, PHONE_TAKEN, { field: 'phone' });
        if (role === 'admin' && req.actorRole === 'admin') await this.teams.shareMonitoring(tx, emit, req.actorId!, inserted.id);
        if (monitorTeamIds.length > 0) await this.teams.addMonitorTo(tx, emit, monitorTeamIds, inserted.id, req.actorId ?? inserted.id);
        else if (role === 'admin') await this.teams.adoptNewAdmin(tx, emit, inserted.id, req.actorId ?? inserted.id);
        const created = await writePinHash(tx, inserted.id, pinHash);
        await emit('identity.user.created.v1', userCreatedEvent(created));
        // A worker starts on their team's default interval: the other services hear it unless it is the one they assume.
        if (role === 'worker') await this.intervals.bringWithin(tx, emit, [created.id], () => ASSUMED_INTERVAL);
        return created;
      }),
    );
    if (!row) {
      throw new RpcError(409, 'Username already exists. Please choose a different username.', { field: 'username' });
    }
    return { user: toUserView(row), ...(generatedPin ? { generatedPin } : {}) };
  }

  /**
   * A worker the organisation's identity provider or directory brings, inside the caller's
   * transaction: no PIN yet (they set one before their first shift), no usable password (they sign
   * in through the provider), the team's check-in policy from the start. Undefined when the
   * username is taken.
   */
  async provisionWorkerIn(
    tx: Tx,
    emit: Emit,
    fields: { username: string; name: string; teamId: number; email?: string; externalId?: string; phone?: string; directory?: string },
  ): Promise<UserRow | undefined> {
    // Before the team's row is locked: the hash is slow on purpose.
    const passwordHash = await this.hasher.hash(randomBytes(32).toString('base64url'));
    await this.intervals.policy(tx, fields.teamId, true);
    const inserted = await this.repo.insert(tx, {
      username: fields.username,
      passwordHash,
      name: fields.name,
      phone: fields.phone ?? null,
      role: 'worker',
      teamId: fields.teamId,
      email: fields.email ?? null,
      externalId: fields.externalId ?? null,
    });
    if (!inserted) return undefined;
    await emit('identity.user.created.v1', { ...userCreatedEvent(inserted), ...(fields.directory ? { directory: fields.directory } : {}) });
    await this.intervals.bringWithin(tx, emit, [inserted.id], () => ASSUMED_INTERVAL);
    return inserted;
  }

  async list(req: CommandMap['identity.user.list.v1']['request']): Promise<CommandMap['identity.user.list.v1']['reply']> {
    const roles = req.roles as Role[];
    if (req.limit === undefined) return { users: (await this.repo.listByRoles(roles)).map(toUserView) };
    const page = await this.repo.pageByRoles(roles, req.after, req.limit);
    return { users: page.rows.map(toUserView), ...(page.next ? { next: page.next } : {}) };
  }

  /** Changes only the fields given; other services hear the whole profile at its new version. */
  async updateProfile(req: UpdateProfile['request']): Promise<UpdateProfile['reply']> {
    const row = await this.uow.run(async (tx, emit) => {
      // Before the user's row is locked: every writer of a phone number takes the two in this order.
      if (req.phone !== undefined) await lockPhones(tx);
      const current = await this.repo.findByIdForUpdate(tx, req.userId);
      if (!current) throw new RpcError(404, 'User not found', { field: 'userId' });
      const changes: { name?: string; phone?: string; medicalInfo?: string | null; language?: string } = {};
      if (req.language !== undefined && req.language !== current.language) changes.language = req.language;
      if (req.name !== undefined && req.name !== current.name) changes.name = req.name;
      if (req.phone !== undefined && req.phone !== current.phone) {
        if (current.role === 'worker' && (await this.repo.phoneTakenByWorker(tx, req.phone, current.id)))
          throw new RpcError(400, PHONE_TAKEN, { field: 'phone' });
        changes.phone = req.phone;
      }
      if (req.medicalInfo !== undefined) {
        const medicalInfo = req.medicalInfo.trim() || null;
        if (medicalInfo !== current.medicalInfo) changes.medicalInfo = medicalInfo;
      }
      if (Object.keys(changes).length === 0) return current;
      const updated = await this.repo.updateProfile(tx, current.id, changes);
      // Medical information stays in identity: the event says the user changed, not what it reads.
      await emit('identity.user.updated.v1', userUpdatedEvent(updated));
      return updated;
    });
    return { user: toUserView(row) };
  }

  /**
   * Admins delete workers; a superadmin deletes anyone but itself; a superadmin always remains.
   * Checked against the rows locked by the deleting transaction, so concurrent deletes cannot
   * get round it. Contacts, settings and PIN failures go with the row; every other service
   * purges its own data when it hears identity.user.deleted.v1.
   */
  async delete(req: DeleteUser['request']): Promise<DeleteUser['reply']> {
    if (req.userId === req.actorId) throw new RpcError(400, 'You cannot delete your own account', { field: 'id' });
    await this.uow.run(async (tx, emit) => {
      const superadmins = req.actorRole === 'superadmin' ? await this.repo.lockSuperadmins(tx) : [];
      const actor = await this.repo.findByIdForUpdate(tx, req.actorId);
      if (!actor || actor.role !== req.actorRole) throw new RpcError(403, 'Not allowed for your role');
      const target = await this.repo.findByIdForUpdate(tx, req.userId);
      if (!target) throw new RpcError(404, 'User not found', { field: 'id' });
      if (actor.role === 'admin' && target.role !== 'worker') throw new RpcError(403, 'Not allowed for your role');
      if (target.role === 'superadmin' && superadmins.filter((id) => id !== target.id).length === 0) {
        throw new RpcError(409, 'The last superadmin cannot be deleted', { field: 'id' });
      }
      await this.remove(tx, emit, target, actor.id);
    });
    return { ok: true };
  }

  /**
   * The organisation's directory deletes an account, inside the caller's transaction, as its
   * token's creator (`actorId`). Never a superadmin's: the directory does not see those (404).
   */
  async deleteForDirectory(tx: Tx, emit: Emit, userId: number, actorId: number, directory: string): Promise<void> {
    const target = await this.repo.findByIdForUpdate(tx, userId);
    if (!target || target.role === 'superadmin') throw new RpcError(404, 'User not found', { field: 'id' });
    await this.remove(tx, emit, target, actorId, directory);
  }

  /**
   * The directory's change to an account (name, phone, e-mail, its own id for the person) inside
   * the caller's transaction, which may also deactivate it. Other services hear the whole profile
   * at a new version when the name or phone changed; the e-mail and the directory's id stay here.
   */
  async updateForDirectoryIn(
    tx: Tx,
    emit: Emit,
    userId: number,
    fields: { name?: string; phone?: string | null; email?: string | null; externalId?: string | null },
    directory: string,
  ): Promise<UserRow> {
    // Before the user's row is locked: every writer of a phone number takes the two in this order.
    if (fields.phone) await lockPhones(tx);
    const current = await this.repo.findByIdForUpdate(tx, userId);
    if (!current || current.role === 'superadmin') throw new RpcError(404, 'User not found', { field: 'id' });
    const profile: { name?: string; phone?: string | null } = {};
    if (fields.name !== undefined && fields.name !== current.name) profile.name = fields.name;
    if (fields.phone !== undefined && fields.phone !== current.phone) {
      if (fields.phone !== null && current.role === 'worker' && (await this.repo.phoneTakenByWorker(tx, fields.phone, current.id)))
        throw new RpcError(400, PHONE_TAKEN, { field: 'phone' });
      profile.phone = fields.phone;
    }
    const own: { email?: string | null; externalId?: string | null } = {};
    if (fields.email !== undefined && fields.email !== current.email) own.email = fields.email;
    if (fields.externalId !== undefined && fields.externalId !== current.externalId) {
      if (fields.externalId !== null && (await this.repo.externalIdTaken(tx, fields.externalId, current.id)))
        throw new RpcError(409, EXTERNAL_ID_TAKEN, { field: 'externalId' });
      own.externalId = fields.externalId;
    }
    if (Object.keys(profile).length === 0) return Object.keys(own).length === 0 ? current : this.repo.updateOwnFields(tx, current.id, own);
    const updated = await this.repo.updateProfile(tx, current.id, { ...profile, ...own });
    await emit('identity.user.updated.v1', { ...userUpdatedEvent(updated), directory });
    return updated;
  }

  /** Deletes the row, the user's last event at the version after it; `directory` names the provisioning client that asked. */
  private async remove(tx: Tx, emit: Emit, target: UserRow, actorId: number, directory?: string): Promise<void> {
    if (target.role === 'admin') await this.teams.forgetMonitor(tx, emit, target.id, actorId);
    await this.repo.delete(tx, target.id);
    // The row goes, so its last version is the one before the delete, plus one.
    await emit('identity.user.deleted.v1', {
      userId: target.id,
      deletedBy: actorId,
      version: target.version + 1,
      ...(directory ? { directory } : {}),
    });
  }
}
