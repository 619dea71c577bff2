import { Inject, Injectable } from '@nestjs/common';
import type { CommandMap } from '@lws/contracts';
import { RpcError } from '@lws/messaging';
import { UnitOfWork } from '@lws/platform';
import { UsersRepository } from '../users/users.repository';
import { TeamIntervals } from '../teams/team-intervals';
import { SettingsRepository } from './settings.repository';
import { toSettingsView } from './profile.views';

type Save = CommandMap['identity.settings.save.v1'];

@Injectable()
export class SettingsService {
  constructor(
    private readonly settings: SettingsRepository,
    private readonly users: UsersRepository,
    @Inject(UnitOfWork) private readonly uow: UnitOfWork,
    private readonly intervals: TeamIntervals,
  ) {}

  /**
   * Shifts and escalation schedule check-ins from checkInInterval: they hear of every change. A
   * worker's interval must be one their team allows (400 naming checkInInterval and the allowed ones).
   */
  async save(req: Save['request']): Promise<Save['reply']> {
    const fields = {
      primaryContact: req.primaryContact,
      secondaryContact: req.secondaryContact ?? null,
      checkInInterval: req.checkInInterval,
    };
    const row = await this.uow.run(async (tx, emit) => {
      const user = await this.users.findByIdForUpdate(tx, req.userId);
      if (!user) throw new RpcError(404, 'User not found', { field: 'userId' });
      // Read after the user's lock: a policy change that got there first is the one checked against.
      await this.intervals.checkAllowed(tx, user.role === 'worker' ? user.teamId : null, fields.checkInInterval);
      const current = await this.settings.findForUpdate(tx, req.userId);
      const unchanged =
        current &&
        current.primaryContact === fields.primaryContact &&
        current.secondaryContact === fields.secondaryContact &&
        current.checkInInterval === fields.checkInInterval;
      if (unchanged) return current;
      const saved = await this.settings.upsert(tx, req.userId, fields);
      const version = (await this.users.bumpVersion(tx, req.userId))!;
      await emit('identity.settings.changed.v1', {
        userId: saved.userId,
        checkInInterval: saved.checkInInterval,
        primaryContact: saved.primaryContact,
        ...(saved.secondaryContact ? { secondaryContact: saved.secondaryContact } : {}),
        version,
      });
      return saved;
    });
    return { settings: toSettingsView(row) };
  }
}
