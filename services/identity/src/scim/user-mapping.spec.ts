import SCIMMY from 'scimmy';
import type { UserRow } from '../db/schema';
import { declareScimResources } from './scim-resources';
import {
  checkedChanges,
  checkedPhone,
  directoryUserOf,
  displayNameOf,
  patchChanges,
  replaceChanges,
  scimUserOf,
  usernameOf,
} from './user-mapping';

beforeAll(() => declareScimResources());

const created = new Date('2026-03-01T09:00:00Z');

function row(fields: Partial<UserRow> = {}): UserRow {
  return {
    id: 12,
    username: 'ann@example.org',
    passwordHash: 'x',
    name: 'Ann Smith',
    phone: '+447700900123',
    role: 'worker',
    medicalInfo: null,
    language: 'en',
    pinHash: null,
    duressPinHash: null,
    pinLockedUntil: null,
    passwordIsTemporary: false,
    version: 3,
    versionChangedAt: created,
    awayUntil: null,
    teamId: 4,
    createdBy: null,
    disabledAt: null,
    externalId: 'ext-ann',
    email: 'ann@example.org',
    createdAt: created,
    updatedAt: created,
    ...fields,
  };
}

/** A User as scimmy hands it to the ingress handler. */
const inbound = (body: Record<string, unknown>) => directoryUserOf({ ...new SCIMMY.Schemas.User(body, 'in') });

describe('scimUserOf', () => {
  it("shows an account as a SCIM User, its team as a read-only group, and passes scimmy's schema", () => {
    const user = scimUserOf(row(), [{ id: 4, name: 'North' }]);
    expect(user).toMatchObject({
      id: '12',
      externalId: 'ext-ann',
      userName: 'ann@example.org',
      displayName: 'Ann Smith',
      name: { formatted: 'Ann Smith' },
      active: true,
      emails: [{ value: 'ann@example.org', type: 'work', primary: true }],
      phoneNumbers: [{ value: '+447700900123', type: 'mobile', primary: true }],
      roles: [{ value: 'worker', display: 'Worker', primary: true }],
      groups: [{ value: '4', display: 'North', type: 'direct' }],
    });
    const out = JSON.parse(JSON.stringify(new SCIMMY.Schemas.User(user, 'out', '/scim/v2/Users')));
    expect(out.meta).toEqual({
      resourceType: 'User',
      created: created.toISOString(),
      lastModified: created.toISOString(),
      location: '/scim/v2/Users/12',
    });
  });

  it('shows a deactivated account as inactive, and leaves out what LWS does not know', () => {
    const user = scimUserOf(row({ disabledAt: created, email: null, phone: null, externalId: null }), []);
    expect(user.active).toBe(false);
    expect(user).not.toHaveProperty('emails');
    expect(user).not.toHaveProperty('phoneNumbers');
    expect(user).not.toHaveProperty('externalId');
    expect(user).not.toHaveProperty('groups');
  });
});

describe('directoryUserOf', () => {
  it('takes the primary e-mail, else the work one, else the first', () => {
    expect(
      inbound({
        userName: 'a',
        emails: [
          { value: 'home@x.org', type: 'home' },
          { value: 'p@x.org', primary: true },
        ],
      }).email,
    ).toBe('p@x.org');
    expect(
      inbound({
        userName: 'a',
        emails: [
          { value: 'home@x.org', type: 'home' },
          { value: 'w@x.org', type: 'work' },
        ],
      }).email,
    ).toBe('w@x.org');
    expect(inbound({ userName: 'a', emails: [{ value: 'home@x.org', type: 'home' }] }).email).toBe('home@x.org');
    expect(inbound({ userName: 'a', emails: [] }).email).toBeNull();
    expect(inbound({ userName: 'a' }).email).toBeUndefined();
  });

  it('takes the mobile number, else the first', () => {
    const phones = [
      { value: '01632 960000', type: 'work' },
      { value: '07700 900123', type: 'mobile' },
    ];
    expect(inbound({ userName: 'a', phoneNumbers: phones }).phone).toBe('07700 900123');
    expect(inbound({ userName: 'a', phoneNumbers: [phones[0]] }).phone).toBe('01632 960000');
  });

  it('names a person by their display name, else the formatted name, else given and family names', () => {
    expect(displayNameOf(inbound({ userName: 'a', displayName: 'Ann S', name: { formatted: 'Ann Smith', givenName: 'Ann' } }).names)).toBe(
      'Ann S',
    );
    expect(
      displayNameOf(inbound({ userName: 'a', name: { formatted: 'Dr Ann Smith', givenName: 'Ann', familyName: 'Smith' } }).names),
    ).toBe('Dr Ann Smith');
    expect(displayNameOf(inbound({ userName: 'a', name: { givenName: 'Ann', familyName: 'Smith' } }).names)).toBe('Ann Smith');
    expect(displayNameOf(inbound({ userName: 'a' }).names)).toBeUndefined();
  });
});

describe('what a request changes', () => {
  const before = directoryUserOf(scimUserOf(row(), []));

  it('a PUT sets what it sends and keeps what it leaves out (a phone keyed in LWS stays)', () => {
    const put = inbound({ userName: 'Ann@Example.org', name: { givenName: 'Ann', familyName: 'Jones' }, active: false });
    expect(replaceChanges(put)).toEqual({ userName: 'Ann@Example.org', name: 'Ann Jones', active: false });
  });

  it('a PATCH changes only what its operations changed, and a removed value is cleared', () => {
    const after = directoryUserOf({ ...scimUserOf(row(), []), phoneNumbers: undefined, active: false });
    expect(patchChanges(before, after)).toEqual({ phone: null, active: false });
  });

  it('a PATCH of given and family names renames the person; one of them alone cannot say what the name becomes', () => {
    const after = directoryUserOf({ ...scimUserOf(row(), []), name: { formatted: 'Ann Smith', givenName: 'Ann', familyName: 'Jones' } });
    expect(patchChanges(before, after)).toEqual({ name: 'Ann Jones' });
    const familyOnly = directoryUserOf({ ...scimUserOf(row(), []), name: { formatted: 'Ann Smith', familyName: 'Jones' } });
    expect(patchChanges(before, familyOnly)).toEqual({});
    const display = directoryUserOf({
      ...scimUserOf(row(), []),
      displayName: 'Ann Jones',
      name: { formatted: 'Ann Smith', familyName: 'Jones' },
    });
    expect(patchChanges(before, display)).toEqual({ name: 'Ann Jones' });
  });

  it('a PATCH that changes nothing asks for nothing', () => {
    expect(patchChanges(before, directoryUserOf(scimUserOf(row(), [])))).toEqual({});
  });
});

describe('checks', () => {
  it('keeps usernames lower-cased, "@" allowed, up to 100 characters', () => {
    expect(usernameOf('  Ann.Smith@Example.ORG ')).toBe('ann.smith@example.org');
    expect(() => usernameOf('ann smith')).toThrow(SCIMMY.Types.Error);
    expect(() => usernameOf('a'.repeat(101))).toThrow(SCIMMY.Types.Error);
  });

  it.each([
    ['+44 7911 123456', '+447911123456'],
    ['07911 123456', '+447911123456'],
    ['tel:+44-7911-123456', '+447911123456'],
    ['(07911) 123-456', '+447911123456'],
  ])('reads the phone number %p as %p', (given, stored) => {
    expect(checkedPhone(given)).toBe(stored);
  });

  it.each(['+1 212 555 0123', '07911', 'call me', '+44 7911 12345678', '07700 900123'])(
    'refuses %p naming phoneNumbers, 400 invalidValue',
    (given) => {
      try {
        checkedPhone(given);
        throw new Error('accepted');
      } catch (err) {
        expect(err).toMatchObject({ status: 400, scimType: 'invalidValue' });
        expect((err as Error).message).toMatch(/^phoneNumbers\[type eq "mobile"\]\.value: /);
      }
    },
  );

  it('refuses an e-mail that is none, and a name longer than 100 characters', () => {
    expect(() => checkedChanges({ email: 'not an address' })).toThrow(/emails\.value/);
    expect(() => checkedChanges({ name: 'x'.repeat(101) })).toThrow(/displayName/);
    expect(checkedChanges({ email: null, name: '  Ann   Smith ' })).toEqual({ email: null, name: 'Ann Smith' });
  });
});
