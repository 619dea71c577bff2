import { BadRequestException, ForbiddenException, Inject, Injectable, NotFoundException } from '@nestjs/common';
import type { z } from 'zod';
import type { CommandMap } from '@lws/contracts';
import { RemoteError, type RpcClient } from '@lws/messaging';
import { DEFAULT_CHECK_IN_INTERVAL } from '@lws/schemas';
import { authorizeUserAccess, mayActOn, type Actor } from '../common/access';
import { RPC } from '../common/rpc';
import { browserContact, browserSettings } from '../users/user.view';
import type { createContactSchema, settingsSchema, updateContactSchema } from './profile.schema';

type NewContact = z.infer<typeof createContactSchema>;
type ContactChanges = z.infer<typeof updateContactSchema>;
type Settings = z.infer<typeof settingsSchema>;

const contactNotFound = () => new NotFoundException({ message: 'Contact not found', field: 'id' });

/** Emergency contacts and check-in settings, under the access rule of the user they belong to. */
@Injectable()
export class ProfileService {
  constructor(@Inject(RPC) private readonly rpc: RpcClient) {}

  async contacts(actor: Actor, userId: number) {
    await authorizeUserAccess(this.rpc, actor, userId);
    const { contacts } = await this.rpc.send('identity.contact.list.v1', { userId });
    return contacts.map(browserContact);
  }

  async createContact(actor: Actor, input: NewContact) {
    await authorizeUserAccess(this.rpc, actor, input.userId);
    const { contact } = await this.rpc.send('identity.contact.create.v1', input);
    return browserContact(contact);
  }

  async updateContact(actor: Actor, contactId: number, input: ContactChanges) {
    const current = await this.reachableContact(actor, contactId);
    if (input.userId !== undefined && input.userId !== current.userId) {
      throw new BadRequestException({ message: 'A contact cannot be moved to another user', field: 'userId' });
    }
    const { userId: _sameOwner, ...changes } = input;
    const { contact } = await this.rpc.send('identity.contact.update.v1', { contactId, ...changes });
    return browserContact(contact);
  }

  async deleteContact(actor: Actor, contactId: number) {
    await this.reachableContact(actor, contactId);
    await this.rpc.send('identity.contact.delete.v1', { contactId });
    return { ok: true };
  }

  /** Identity refuses an interval the worker's team does not allow (400 naming checkInInterval and the allowed ones). */
  async saveSettings(actor: Actor, userId: number, input: Settings) {
    await authorizeUserAccess(this.rpc, actor, userId);
    const checkInInterval =
      input.checkInInterval ??
      (await this.rpc.send('identity.user.get_with_relations.v1', { userId })).checkInInterval ??
      DEFAULT_CHECK_IN_INTERVAL;
    const { settings } = await this.rpc.send('identity.settings.save.v1', {
      userId,
      primaryContact: input.primaryContact,
      ...(input.secondaryContact ? { secondaryContact: input.secondaryContact } : {}),
      checkInInterval,
    });
    return browserSettings(settings);
  }

  /**
   * A contact of someone the caller may not act on answers exactly like a missing one (404), so
   * contact ids cannot be probed to learn who has contacts.
   */
  private async reachableContact(actor: Actor, contactId: number) {
    let found: CommandMap['identity.contact.get.v1']['reply'];
    try {
      found = await this.rpc.send('identity.contact.get.v1', { contactId });
    } catch (err) {
      if (err instanceof RemoteError && err.status === 404) throw contactNotFound();
      throw err;
    }
    if (!mayActOn(actor, { id: found.contact.userId, role: found.ownerRole })) throw contactNotFound();
    // An admin reaches only the contacts of their teams' workers.
    if (actor.role === 'admin' && actor.userId !== found.contact.userId) {
      await authorizeUserAccess(this.rpc, actor, found.contact.userId).catch((err: unknown) => {
        throw err instanceof NotFoundException || err instanceof ForbiddenException ? contactNotFound() : err;
      });
    }
    return found.contact;
  }
}
