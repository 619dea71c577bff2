import SCIMMY from 'scimmy';
import { parsePhoneNumberFromString } from 'libphonenumber-js';
import type { UserRow } from '../db/schema';

/** A team an account belongs to (a worker's) or monitors (an admin's), as its User's `groups`. */
export interface GroupRef {
  id: number;
  name: string;
}

const ROLE_NAMES = { worker: 'Worker', admin: 'Administrator', superadmin: 'Superadmin' } as const;

/** An LWS account as the directory reads it (RFC 7643 User): its groups are read-only, derived from teams. */
export function scimUserOf(row: UserRow, groups: readonly GroupRef[]): Record<string, unknown> {
  return {
    id: String(row.id),
    ...(row.externalId !== null ? { externalId: row.externalId } : {}),
    userName: row.username,
    name: { formatted: row.name },
    displayName: row.name,
    active: row.disabledAt === null,
    ...(row.email ? { emails: [{ value: row.email, type: 'work', primary: true }] } : {}),
    ...(row.phone ? { phoneNumbers: [{ value: row.phone, type: 'mobile', primary: true }] } : {}),
    roles: [{ value: row.role, display: ROLE_NAMES[row.role], primary: true }],
    ...(groups.length > 0 ? { groups: groups.map((g) => ({ value: String(g.id), display: g.name, type: 'direct' })) } : {}),
    meta: { created: row.createdAt, lastModified: row.updatedAt },
  };
}

/**
 * What a directory's User says about the fields LWS keeps, before they are checked. `undefined`:
 * the attribute is not there at all; `null`: it is there and holds nothing (an empty list).
 */
export interface DirectoryUser {
  userName?: string;
  names: { display?: string; formatted?: string; given?: string; family?: string };
  email?: string | null;
  phone?: string | null;
  active?: boolean;
  externalId?: string | null;
}

type Multi = { value?: unknown; type?: unknown; primary?: unknown }[];

const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v.trim() : undefined);

/** The value of the first list item each preference in turn finds, else of the first; null for an empty list. */
function pick(list: unknown, ...preferences: ((item: Multi[number]) => boolean)[]): string | null | undefined {
  if (list === undefined) return undefined;
  if (!Array.isArray(list)) return null;
  const items = (list as Multi).filter((i) => text(i?.value) !== undefined);
  const chosen = preferences.reduce<Multi[number] | undefined>((found, prefer) => found ?? items.find(prefer), undefined) ?? items[0];
  return text(chosen?.value) ?? null;
}

/** The fields of a User as scimmy read it (`in`): attribute names are canonical by then. */
export function directoryUserOf(user: Record<string, unknown>): DirectoryUser {
  const name = (user.name ?? {}) as Record<string, unknown>;
  return {
    ...(user.userName !== undefined ? { userName: String(user.userName) } : {}),
    names: {
      display: text(user.displayName),
      formatted: text(name.formatted),
      given: text(name.givenName),
      family: text(name.familyName),
    },
    // Their work e-mail: the primary one, else the one typed work, else the first.
    email: pick(
      user.emails,
      (e) => e.primary === true,
      (e) => e.type === 'work',
    ),
    // A number that takes texts: the mobile one, else the first.
    phone: pick(user.phoneNumbers, (p) => p.type === 'mobile'),
    ...(typeof user.active === 'boolean' ? { active: user.active } : {}),
    ...(user.externalId !== undefined && user.externalId !== null ? { externalId: text(user.externalId) ?? null } : {}),
  };
}

/** The name LWS shows: the display name, else the formatted name, else given and family names. */
export function displayNameOf(names: DirectoryUser['names']): string | undefined {
  const parts = [names.given, names.family].filter((p): p is string => p !== undefined);
  return names.display ?? names.formatted ?? (parts.length > 0 ? parts.join(' ') : undefined);
}

/** The changes to LWS's fields a request asks for; absent: left as they are. */
export interface UserChanges {
  userName?: string;
  name?: string;
  email?: string | null;
  phone?: string | null;
  active?: boolean;
  externalId?: string | null;
}

/**
 * What a PUT asks for: every attribute it sends, none it leaves out. A directory sends what it
 * maps, so what it does not map (a phone number an administrator keyed in) stays.
 */
export function replaceChanges(given: DirectoryUser): UserChanges {
  const name = displayNameOf(given.names);
  return {
    ...(given.userName !== undefined ? { userName: given.userName } : {}),
    ...(name !== undefined ? { name } : {}),
    ...(given.email !== undefined ? { email: given.email } : {}),
    ...(given.phone !== undefined ? { phone: given.phone } : {}),
    ...(given.active !== undefined ? { active: given.active } : {}),
    ...(given.externalId !== undefined ? { externalId: given.externalId } : {}),
  };
}

/**
 * What a PATCH asks for: what differs between the resource before its operations and after them.
 * Only that is applied, so two PATCHes at once each change only what they name. A name part that
 * changed decides the name: the display name first, then the formatted name, then given and family
 * names together (LWS keeps one name, so one of them alone cannot say what the whole becomes).
 */
export function patchChanges(before: DirectoryUser, after: DirectoryUser): UserChanges {
  const changes: UserChanges = {};
  if ((after.userName ?? '') !== (before.userName ?? '')) changes.userName = after.userName ?? '';
  const b = before.names;
  const a = after.names;
  if (a.display !== b.display && a.display !== undefined) changes.name = a.display;
  else if (a.formatted !== b.formatted && a.formatted !== undefined) changes.name = a.formatted;
  else if ((a.given !== b.given || a.family !== b.family) && a.given !== undefined && a.family !== undefined) {
    changes.name = `${a.given} ${a.family}`;
  }
  if ((after.email ?? null) !== (before.email ?? null)) changes.email = after.email ?? null;
  if ((after.phone ?? null) !== (before.phone ?? null)) changes.phone = after.phone ?? null;
  if (after.active !== undefined && after.active !== before.active) changes.active = after.active;
  if ((after.externalId ?? null) !== (before.externalId ?? null)) changes.externalId = after.externalId ?? null;
  return changes;
}

/** Usernames as LWS keeps them: lower-cased, at most 100 characters, no spaces or control characters. */
export function usernameOf(userName: string): string {
  const username = userName.trim().toLowerCase();
  if (!/^[^\s\p{Cc}]{1,100}$/u.test(username)) {
    throw new SCIMMY.Types.Error(400, 'invalidValue', 'userName must be 1 to 100 characters without spaces');
  }
  return username;
}

export function checkedName(name: string): string {
  const trimmed = name.trim().replace(/\s+/g, ' ');
  if (trimmed.length < 1 || trimmed.length > 100)
    throw new SCIMMY.Types.Error(400, 'invalidValue', 'displayName (or name) must be 1 to 100 characters');
  return trimmed;
}

export function checkedEmail(email: string | null): string | null {
  if (email === null) return null;
  if (email.length > 254 || !/^[^\s@]+@[^\s@]+$/.test(email))
    throw new SCIMMY.Types.Error(400, 'invalidValue', `emails.value: "${email.slice(0, 100)}" is not an e-mail address`);
  return email;
}

export function checkedExternalId(externalId: string | null): string | null {
  if (externalId !== null && externalId.length > 500)
    throw new SCIMMY.Types.Error(400, 'invalidValue', 'externalId must be at most 500 characters');
  return externalId;
}

/**
 * A directory's phone number as LWS keeps a worker's: a UK number in use, in E.164 (the rule of
 * the screens: +44 and ten digits, checked by libphonenumber-js). Directories write numbers many
 * ways ("tel:+44-7700-900123", "07700 900123"): separators and a tel: prefix are dropped first.
 */
export function checkedPhone(phone: string | null): string | null {
  if (phone === null) return null;
  const digits = phone.replace(/^tel:/i, '').replace(/[\s().-]/g, '');
  const parsed = parsePhoneNumberFromString(digits, 'GB');
  if (!parsed?.isValid() || !/^\+44\d{10}$/.test(parsed.number)) {
    throw new SCIMMY.Types.Error(
      400,
      'invalidValue',
      `phoneNumbers[type eq "mobile"].value: "${phone.slice(0, 40)}" is not a UK phone number in use (+44 followed by 10 digits)`,
    );
  }
  return parsed.number;
}

/** Every change checked and put in LWS's form; a SCIM 400 invalidValue naming the attribute for the first that is wrong. */
export function checkedChanges(changes: UserChanges): UserChanges {
  return {
    ...(changes.userName !== undefined ? { userName: usernameOf(changes.userName) } : {}),
    ...(changes.name !== undefined ? { name: checkedName(changes.name) } : {}),
    ...(changes.email !== undefined ? { email: checkedEmail(changes.email) } : {}),
    ...(changes.phone !== undefined ? { phone: checkedPhone(changes.phone) } : {}),
    ...(changes.active !== undefined ? { active: changes.active } : {}),
    ...(changes.externalId !== undefined ? { externalId: checkedExternalId(changes.externalId) } : {}),
  };
}
