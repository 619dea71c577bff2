import SCIMMY from 'scimmy';
import type { TeamRow } from '../db/schema';
import { accountId, checkedTeamName, memberIdsOf, membershipChanges, scimGroupOf } from './group-mapping';
import { declareScimResources } from './scim-resources';

beforeAll(() => declareScimResources());

const at = new Date('2026-03-01T09:00:00Z');

function team(fields: Partial<TeamRow> = {}): TeamRow {
  return {
    id: 3,
    name: 'North',
    locationIds: [],
    monitors: [{ userId: 20 }],
    defaultInterval: 60,
    allowedIntervals: [30, 50, 60, 120, 240],
    defaultHeard: 60,
    escalationPolicy: null,
    emergencyNumbers: [],
    voiceReminder: false,
    announced: true,
    externalId: 'grp-north',
    version: 2,
    createdAt: at,
    updatedAt: at,
    ...fields,
  };
}

describe('scimGroupOf', () => {
  it("shows a team as a Group whose members are its workers and its monitors, in id order, valid to scimmy's schema", () => {
    const group = scimGroupOf(team(), {
      workers: [
        { id: 31, name: 'Bea' },
        { id: 12, name: 'Ann' },
      ],
      monitors: [{ id: 20, name: 'Mo' }],
    });
    expect(group).toMatchObject({
      id: '3',
      externalId: 'grp-north',
      displayName: 'North',
      members: [
        { value: '12', display: 'Ann', type: 'User' },
        { value: '20', display: 'Mo', type: 'User' },
        { value: '31', display: 'Bea', type: 'User' },
      ],
    });
    expect(JSON.parse(JSON.stringify(new SCIMMY.Schemas.Group(group, 'out', '/scim/v2/Groups'))).meta.location).toBe('/scim/v2/Groups/3');
  });

  it('leaves members out when they were not read (a look-up that excludes them)', () => {
    expect(scimGroupOf(team({ externalId: null }))).toEqual({ id: '3', displayName: 'North', meta: { created: at, lastModified: at } });
  });
});

describe('members', () => {
  it('reads the account ids members name', () => {
    expect([...memberIdsOf([{ value: '12' }, { value: '20', type: 'User' }, { value: '12' }])]).toEqual([12, 20]);
    expect(memberIdsOf(undefined).size).toBe(0);
  });

  it.each([[[{ value: 'abc' }]], [[{ value: '0' }]], [[{ value: '99999999999' }]], [[{ value: '7', type: 'Group' }]]])(
    'refuses %j with a SCIM 400 invalidValue',
    (members) => {
      expect(() => memberIdsOf(members)).toThrow(SCIMMY.Types.Error);
    },
  );

  it('says who a change adds and removes', () => {
    expect(membershipChanges(new Set([1, 2, 3]), new Set([3, 4, 1]))).toEqual({ added: [4], removed: [2] });
  });

  it('reads ids LWS gave out and nothing else', () => {
    expect(accountId('42')).toBe(42);
    expect([accountId('042'), accountId('4.2'), accountId(' 42'), accountId(42)]).toEqual([undefined, undefined, undefined, undefined]);
  });

  it('keeps team names 1 to 100 characters, spaces tidied', () => {
    expect(checkedTeamName('  North   East ')).toBe('North East');
    expect(() => checkedTeamName('')).toThrow(SCIMMY.Types.Error);
    expect(() => checkedTeamName('x'.repeat(101))).toThrow(SCIMMY.Types.Error);
  });
});
