import SCIMMY from 'scimmy';
import { normalisePatch, normaliseResource, parseBody } from './dialect';
import { declareScimResources } from './scim-resources';

const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';

beforeAll(() => declareScimResources());

/** A User as GET answers it, for the patches below to apply to. */
function currentUser(extra: Record<string, unknown> = {}) {
  return new SCIMMY.Schemas.User(
    {
      id: '12',
      userName: 'ann@example.org',
      name: { formatted: 'Ann Smith' },
      displayName: 'Ann Smith',
      active: true,
      emails: [{ value: 'ann@example.org', type: 'work', primary: true }],
      meta: { created: new Date('2026-01-01T00:00:00Z') },
      ...extra,
    },
    'out',
    '/scim/v2/Users',
  );
}

/** What scimmy makes of a PatchOp once the dialect is put right: the resource after its operations. */
async function patched(current: SCIMMY.Schemas.User, body: unknown) {
  const message = normalisePatch(body, JSON.parse(JSON.stringify(current)));
  let result: Record<string, unknown> | undefined;
  await new SCIMMY.Messages.PatchOp(message as never).apply(current, async (instance) => {
    result = JSON.parse(JSON.stringify(instance));
    return instance;
  });
  return result!;
}

describe('normaliseResource', () => {
  it('reads Entra ID\'s "False" and "True" as booleans, for active and for primary', () => {
    const body = normaliseResource({
      userName: 'ann@example.org',
      active: 'False',
      emails: [{ value: 'ann@example.org', type: 'work', primary: 'True' }],
    });
    expect(body).toEqual({
      userName: 'ann@example.org',
      active: false,
      emails: [{ value: 'ann@example.org', type: 'work', primary: true }],
    });
    expect(new SCIMMY.Schemas.User(body, 'in').active).toBe(false);
  });

  it('puts types in their canonical spelling, drops those the schema has none of, and wraps a bare manager id', () => {
    expect(
      normaliseResource({
        emails: [{ value: 'a@b.org', type: 'Work' }],
        phoneNumbers: [
          { value: '07700900123', type: 'MOBILE' },
          { value: '01632960000', type: 'desk' },
        ],
        roles: [{ value: 'nurse', type: 'WindowsAzureActiveDirectoryRole', primary: 'False' }],
        [ENTERPRISE]: { employeeNumber: '7', manager: '42' },
      }),
    ).toEqual({
      emails: [{ value: 'a@b.org', type: 'work' }],
      phoneNumbers: [{ value: '07700900123', type: 'mobile' }, { value: '01632960000' }],
      roles: [{ value: 'nurse', primary: false }],
      [ENTERPRISE]: { employeeNumber: '7', manager: { value: '42' } },
    });
  });

  it('spells a member type as the Group schema does', () => {
    expect(normaliseResource({ displayName: 'North', members: [{ value: '12', type: 'user' }] })).toEqual({
      displayName: 'North',
      members: [{ value: '12', type: 'User' }],
    });
  });
});

describe('normalisePatch with scimmy', () => {
  it('deactivates on Entra ID\'s path-less Replace with "active": "False"', async () => {
    const body = { schemas: [PATCH_OP], Operations: [{ op: 'Replace', value: { active: 'False' } }] };
    expect((await patched(currentUser(), body)).active).toBe(false);
  });

  it('reactivates on Replace of the path active with "True"', async () => {
    const body = { schemas: [PATCH_OP], Operations: [{ op: 'Replace', path: 'active', value: 'True' }] };
    expect((await patched(currentUser({ active: false }), body)).active).toBe(true);
  });

  it('replaces the value a filtered path names (emails[type eq "work"].value)', async () => {
    const body = {
      schemas: [PATCH_OP],
      Operations: [{ op: 'replace', path: 'emails[type eq "work"].value', value: 'ann.smith@example.org' }],
    };
    expect((await patched(currentUser(), body)).emails).toEqual([{ value: 'ann.smith@example.org', type: 'work', primary: true }]);
  });

  it("adds a value of that type when the filtered path matches nothing yet (Entra ID's Add of a new mobile)", async () => {
    const body = {
      schemas: [PATCH_OP],
      Operations: [{ op: 'Add', path: 'phoneNumbers[type eq "mobile"].value', value: '+447700900123' }],
    };
    expect((await patched(currentUser(), body)).phoneNumbers).toEqual([{ value: '+447700900123', type: 'mobile' }]);
  });

  it('accepts the enterprise extension, a bare manager id included', async () => {
    const body = {
      schemas: [PATCH_OP],
      Operations: [
        { op: 'Add', path: `${ENTERPRISE}:employeeNumber`, value: '701' },
        { op: 'Add', path: `${ENTERPRISE}:manager`, value: '99' },
      ],
    };
    expect((await patched(currentUser(), body))[ENTERPRISE]).toEqual({ employeeNumber: '701', manager: { value: '99' } });
  });

  it('takes a PatchOp without its schemas, and capitalised op names', async () => {
    const body = { Operations: [{ op: 'Replace', path: 'displayName', value: 'Ann Jones' }] };
    expect((await patched(currentUser(), body)).displayName).toBe('Ann Jones');
  });

  it("removes a member by value, Entra ID's way, and by a filtered path, Okta's way", async () => {
    const group = new SCIMMY.Schemas.Group(
      {
        id: '3',
        displayName: 'North',
        members: [
          { value: '12', type: 'User' },
          { value: '13', type: 'User' },
          { value: '14', type: 'User' },
        ],
      },
      'out',
      '/scim/v2/Groups',
    );
    const entra = { schemas: [PATCH_OP], Operations: [{ op: 'Remove', path: 'members', value: [{ value: '12' }] }] };
    const okta = { schemas: [PATCH_OP], Operations: [{ op: 'remove', path: 'members[value eq "13"]' }] };
    const message = (b: unknown) => normalisePatch(b, JSON.parse(JSON.stringify(group)));
    const after = async (b: unknown) => {
      let members: unknown;
      await new SCIMMY.Messages.PatchOp(message(b) as never).apply(group, async (i) => {
        members = JSON.parse(JSON.stringify(i)).members;
        return i;
      });
      return members;
    };
    expect(await after(entra)).toEqual([
      { value: '13', type: 'User' },
      { value: '14', type: 'User' },
    ]);
    expect(await after(okta)).toEqual([
      { value: '12', type: 'User' },
      { value: '14', type: 'User' },
    ]);
  });
});

describe('parseBody', () => {
  it('reads JSON', () => {
    expect(parseBody('{"userName":"ann"}')).toEqual({ userName: 'ann' });
  });

  it.each([
    ['{"userName":', 'invalidSyntax'],
    ['{"userName":"ann\\u0000"}', 'invalidValue'],
    ['{"displayName":"\\u202egnp.exe"}', 'invalidValue'],
    [`${'['.repeat(20)}${']'.repeat(20)}`, 'invalidSyntax'],
  ])('refuses %s with a SCIM 400 %s', (text, scimType) => {
    try {
      parseBody(text);
      throw new Error('accepted');
    } catch (err) {
      expect(err).toBeInstanceOf(SCIMMY.Types.Error);
      expect(err).toMatchObject({ status: 400, scimType });
    }
  });
});
