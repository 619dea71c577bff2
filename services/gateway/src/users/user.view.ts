import { SOURCE_LANGUAGE } from '@lws/i18n';
import type { CommandMap } from '@lws/contracts';
import type { UserView } from '../common/access';

type Contact = CommandMap['identity.contact.list.v1']['reply']['contacts'][number];
type Settings = NonNullable<CommandMap['identity.user.get_with_relations.v1']['reply']['settings']>;

/** `User` of the OpenAPI document, field by field so nothing identity adds leaks by accident. */
export function browserUser(user: UserView) {
  return {
    id: user.id,
    username: user.username,
    name: user.name,
    role: user.role,
    ...(user.phone ? { phone: user.phone } : {}),
    ...(user.medicalInfo ? { medicalInfo: user.medicalInfo } : {}),
    language: user.language ?? SOURCE_LANGUAGE,
  };
}

export function browserContact(c: Contact) {
  return { id: c.id, userId: c.userId, name: c.name, phone: c.phone, relation: c.relation };
}

export function browserSettings(s: Settings) {
  return {
    userId: s.userId,
    primaryContact: s.primaryContact,
    secondaryContact: s.secondaryContact ?? null,
    checkInInterval: s.checkInInterval,
  };
}
