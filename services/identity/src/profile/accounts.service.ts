import { Injectable } from '@nestjs/common';
import type { CommandMap } from '@lws/contracts';
import { RpcError } from '@lws/messaging';
import type { Role } from '../db/schema';
import { UsersRepository } from '../users/users.repository';
import { toUserView } from '../users/user-view';
import { ContactsRepository } from './contacts.repository';
import { SettingsRepository } from './settings.repository';
import { toContactView, toSettingsView } from './profile.views';
import { TeamsService } from '../teams/teams.service';
import { TeamIntervals } from '../teams/team-intervals';

type ListAccounts = CommandMap['identity.account.list.v1'];
type WithRelations = CommandMap['identity.user.get_with_relations.v1'];

/** The views that join a user with their contacts and settings. */
@Injectable()
export class AccountsService {
  constructor(
    private readonly users: UsersRepository,
    private readonly contacts: ContactsRepository,
    private readonly settings: SettingsRepository,
    private readonly teams: TeamsService,
    private readonly intervals: TeamIntervals,
  ) {}

  /** Admins see workers; a superadmin sees workers and admins, and whether each has a password and a PIN. */
  async list(req: ListAccounts['request']): Promise<ListAccounts['reply']> {
    const superadmin = req.actorRole === 'superadmin';
    const roles: Role[] = superadmin ? ['worker', 'admin'] : ['worker'];
    const page =
      req.limit === undefined ? { rows: await this.users.listByRoles(roles) } : await this.users.pageByRoles(roles, req.after, req.limit);
    let rows = page.rows;
    if (!superadmin && req.actorId !== undefined) {
      // An admin's accounts are the workers of the teams they monitor or deputise for.
      const mine = new Set(await this.teams.monitoredBy(req.actorId));
      rows = rows.filter((r) => r.teamId !== null && mine.has(r.teamId));
    }
    const contactsOf = new Map<number, ReturnType<typeof toContactView>[]>();
    for (const c of await this.contacts.listForUsers(rows.map((r) => r.id)))
      contactsOf.set(c.userId, [...(contactsOf.get(c.userId) ?? []), toContactView(c)]);
    return {
      accounts: rows.map((row) => ({
        user: toUserView(row),
        emergencyContacts: contactsOf.get(row.id) ?? [],
        ...(superadmin ? { passwordSet: row.passwordHash.length > 0, pinSet: row.pinHash !== null } : {}),
      })),
      ...('next' in page && page.next ? { next: page.next } : {}),
    };
  }

  async withRelations(userId: number): Promise<WithRelations['reply']> {
    const row = await this.users.findById(userId);
    if (!row) throw new RpcError(404, 'User not found', { field: 'userId' });
    const [contacts, settings, effective] = await Promise.all([
      this.contacts.listForUser(userId),
      this.settings.findForUser(userId),
      this.intervals.effective([userId]),
    ]);
    const checkInInterval = effective.get(userId);
    return {
      user: toUserView(row),
      ...(settings ? { settings: toSettingsView(settings) } : {}),
      emergencyContacts: contacts.map(toContactView),
      ...(checkInInterval !== undefined ? { checkInInterval } : {}),
    };
  }
}
