import { Inject, Injectable } from '@nestjs/common';
import type { CommandMap } from '@lws/contracts';
import { RpcError } from '@lws/messaging';
import { UnitOfWork, type Emit } from '@lws/platform';
import type { EmergencyContactRow } from '../db/schema';
import { UsersRepository } from '../users/users.repository';
import { ContactsRepository, type ContactFields } from './contacts.repository';
import { toContactView } from './profile.views';

type Create = CommandMap['identity.contact.create.v1']['request'];
type Update = CommandMap['identity.contact.update.v1']['request'];

const notFound = () => new RpcError(404, 'Contact not found', { field: 'id' });

@Injectable()
export class ContactsService {
  constructor(
    private readonly contacts: ContactsRepository,
    private readonly users: UsersRepository,
    @Inject(UnitOfWork) private readonly uow: UnitOfWork,
  ) {}

  async list(userId: number) {
    return (await this.contacts.listForUser(userId)).map(toContactView);
  }

  async get(contactId: number) {
    const found = await this.contacts.findWithOwnerRole(contactId);
    if (!found) throw notFound();
    return { contact: toContactView(found.contact), ownerRole: found.ownerRole };
  }

  async create(req: Create) {
    const row = await this.uow.run(async (tx, emit) => {
      // Locks the owner so a concurrent account deletion cannot leave the insert dangling.
      const version = await this.users.bumpVersion(tx, req.userId);
      if (version === undefined) throw new RpcError(404, 'User not found', { field: 'userId' });
      const created = await this.contacts.insert(tx, req.userId, { name: req.name, phone: req.phone, relation: req.relation });
      await announce(emit, created, 'created', version);
      return created;
    });
    return { contact: toContactView(row) };
  }

  async update(req: Update) {
    const row = await this.uow.run(async (tx, emit) => {
      // The owner first, then the contact: the order account deletion locks them in.
      const version = await this.users.bumpVersionForContact(tx, req.contactId);
      const current = await this.contacts.findForUpdate(tx, req.contactId);
      if (!current || version === undefined) throw notFound();
      const changes: Partial<ContactFields> = {};
      for (const key of ['name', 'phone', 'relation'] as const) {
        const value = req[key];
        if (value !== undefined && value !== current[key]) changes[key] = value;
      }
      if (Object.keys(changes).length === 0) return current;
      const updated = await this.contacts.update(tx, current.id, changes);
      await announce(emit, updated, 'updated', version);
      return updated;
    });
    return { contact: toContactView(row) };
  }

  async delete(contactId: number) {
    await this.uow.run(async (tx, emit) => {
      // The owner first, then the contact: the order account deletion locks them in.
      const version = await this.users.bumpVersionForContact(tx, contactId);
      const current = await this.contacts.findForUpdate(tx, contactId);
      if (!current || version === undefined) throw notFound();
      await this.contacts.delete(tx, current.id);
      await emit('identity.contact.changed.v1', { userId: current.userId, contactId: current.id, change: 'deleted', version });
    });
    return { ok: true };
  }
}

/** Escalation keeps its own copy of the contacts it may have to message, so it gets the details. */
function announce(emit: Emit, row: EmergencyContactRow, change: 'created' | 'updated', version: number) {
  return emit('identity.contact.changed.v1', {
    userId: row.userId,
    contactId: row.id,
    change,
    name: row.name,
    phone: row.phone,
    relation: row.relation,
    version,
  });
}
