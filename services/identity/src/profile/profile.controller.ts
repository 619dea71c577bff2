import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import type { CommandMap } from '@lws/contracts';
import { Command } from '@lws/messaging';
import { AccountsService } from './accounts.service';
import { ContactsService } from './contacts.service';
import { SettingsService } from './settings.service';

type Req<P extends keyof CommandMap> = CommandMap[P]['request'];

@Controller()
export class ProfileController {
  constructor(
    private readonly accounts: AccountsService,
    private readonly contacts: ContactsService,
    private readonly settings: SettingsService,
  ) {}

  @Command('identity.account.list.v1')
  listAccounts(@Payload() req: Req<'identity.account.list.v1'>) {
    return this.accounts.list(req);
  }

  @Command('identity.user.get_with_relations.v1')
  withRelations(@Payload() req: Req<'identity.user.get_with_relations.v1'>) {
    return this.accounts.withRelations(req.userId);
  }

  @Command('identity.contact.list.v1')
  async listContacts(@Payload() req: Req<'identity.contact.list.v1'>) {
    return { contacts: await this.contacts.list(req.userId) };
  }

  @Command('identity.contact.get.v1')
  getContact(@Payload() req: Req<'identity.contact.get.v1'>) {
    return this.contacts.get(req.contactId);
  }

  @Command('identity.contact.create.v1')
  createContact(@Payload() req: Req<'identity.contact.create.v1'>) {
    return this.contacts.create(req);
  }

  @Command('identity.contact.update.v1')
  updateContact(@Payload() req: Req<'identity.contact.update.v1'>) {
    return this.contacts.update(req);
  }

  @Command('identity.contact.delete.v1')
  deleteContact(@Payload() req: Req<'identity.contact.delete.v1'>) {
    return this.contacts.delete(req.contactId);
  }

  @Command('identity.settings.save.v1')
  saveSettings(@Payload() req: Req<'identity.settings.save.v1'>) {
    return this.settings.save(req);
  }
}
