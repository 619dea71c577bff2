import request from 'supertest';
import { eventually } from '@lws/testing';
import { createAccount, nextMobile, signIn, superadminOf, type Account } from './support/accounts';
import { startTestStack, XHR, type TestStack } from './support/test-stack';

const SCIM_JSON = 'application/scim+json';
const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const ERROR = 'urn:ietf:params:scim:api:messages:2.0:Error';
const LIST = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';
const WAIT_MS = 15_000;
const RATE_LIMIT = 150;

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/**
 * SCIM 2.0 provisioning (RFC 7643/7644) on the real stack: request sequences in the shapes Entra ID
 * and Okta send, each answer checked as a SCIM client reads it and what LWS shows afterwards (the
 * team a worker is in, the monitors of a team, a deprovisioned person signed out at once, the
 * activity log naming the directory).
 */
describe('SCIM provisioning at /scim/v2 (real PostgreSQL, NATS, Redis; whole stack)', () => {
  let t: TestStack;
  let superadmin: Account;
  let admin: Account;
  let secret: string;
  let tokenId: number;
  const run = Math.random().toString(36).slice(2, 8);

  beforeAll(async () => {
    t = await startTestStack({ env: { LOGIN_MAX_ATTEMPTS_PER_IP: '1000', SCIM_MAX_REQUESTS_PER_MINUTE: String(RATE_LIMIT) } });
    superadmin = await superadminOf(t);
    admin = await createAccount(t, superadmin.agent, 'admin', 'scimadmin');
    const created = await superadmin.agent.post('/api/system/scim-tokens').set(XHR).send({ name: 'Entra ID' }).expect(201);
    secret = created.body.secret;
    tokenId = created.body.token.id;
  }, 120_000);
  afterAll(() => t?.stop());

  /** A SCIM request as a provisioning client sends it: bearer token, application/scim+json. */
  function scim(method: Method, path: string, body?: unknown, token = secret) {
    const call = request(t.url)[method](`/scim/v2${path}`).set('Authorization', `Bearer ${token}`).set('Accept', SCIM_JSON);
    return body === undefined ? call : call.set('Content-Type', SCIM_JSON).send(JSON.stringify(body));
  }
  const patchOp = (...Operations: object[]) => ({ schemas: [PATCH_OP], Operations });
  const filter = (expression: string) => `filter=${encodeURIComponent(expression)}`;
  const membersOf = async (teamId: number) =>
    ((await superadmin.agent.get(`/api/teams/${teamId}/members`).expect(200)).body as { id: number }[]).map((m) => m.id);
  const monitorsOf = async (teamId: number) =>
    ((await superadmin.agent.get(`/api/teams/${teamId}`).expect(200)).body.monitors as { userId: number }[]).map((m) => m.userId);
  const activity = async (userId?: number) =>
    (
      (await superadmin.agent.get(`/api/activity-logs?limit=200${userId ? `&userId=${userId}` : ''}`).expect(200)).body as {
        details: string;
      }[]
    ).map((e) => e.details);
  /** Signs a provisioned person in with a password (SSO aside): the superadmin resets it first. */
  async function signedIn(userId: number, username: string) {
    const { temporaryPassword } = (await superadmin.agent.post(`/api/users/${userId}/reset-password`).set(XHR).expect(200)).body;
    const agent = await signIn(t, username, temporaryPassword);
    await agent.get('/api/time').expect(200);
    return { agent, password: temporaryPassword as string };
  }

  describe('tokens', () => {
    it('the superadmin creates a token, shown once, and the list shows it by name and prefix only', async () => {
      expect(secret).toMatch(/^lws_scim_[A-Za-z0-9_-]{43}$/);
      const { tokens } = (await superadmin.agent.get('/api/system/scim-tokens').expect(200)).body;
      expect(tokens).toEqual([
        { id: tokenId, name: 'Entra ID', prefix: secret.slice(0, 12), createdAt: expect.any(String), lastUsedAt: null, revokedAt: null },
      ]);
      expect(JSON.stringify(tokens)).not.toContain(secret.slice(12));
      const bad = await superadmin.agent.post('/api/system/scim-tokens').set(XHR).send({ name: ' ' }).expect(400);
      expect(bad.body).toEqual({ message: 'name is required', field: 'name' });
      await admin.agent.post('/api/system/scim-tokens').set(XHR).send({ name: 'Mine' }).expect(403);
    });

    it('no token, an unknown token, or a session cookie alone get 401 with a SCIM error', async () => {
      const none = await request(t.url).get('/scim/v2/Users').expect(401);
      expect(none.headers['content-type']).toMatch(/^application\/scim\+json/);
      expect(none.body).toMatchObject({ schemas: [ERROR], status: '401' });
      const unknown = await scim('get', '/Users', undefined, `lws_scim_${'x'.repeat(43)}`).expect(401);
      expect(unknown.body).toMatchObject({ schemas: [ERROR], status: '401', detail: 'The bearer token is unknown or has been revoked' });
      // The superadmin's own browser session cannot provision anything: SCIM takes the token alone.
      await superadmin.agent.post('/scim/v2/Users').set(XHR).send({ userName: 'sneaky' }).expect(401);
    });

    it('the first use shows on the list', async () => {
      await scim('get', '/ServiceProviderConfig').expect(200);
      const { tokens } = (await superadmin.agent.get('/api/system/scim-tokens').expect(200)).body;
      expect(tokens.find((x: { id: number }) => x.id === tokenId).lastUsedAt).toEqual(expect.any(String));
    });
  });

  describe('discovery', () => {
    it('ServiceProviderConfig: PATCH and filter (200 at most) on, bulk, password change, sort and ETags off, bearer tokens', async () => {
      const res = await scim('get', '/ServiceProviderConfig').expect(200);
      expect(res.headers['content-type']).toMatch(/^application\/scim\+json/);
      expect(res.body).toMatchObject({
        patch: { supported: true },
        filter: { supported: true, maxResults: 200 },
        bulk: { supported: false },
        changePassword: { supported: false },
        sort: { supported: false },
        etag: { supported: false },
        authenticationSchemes: [expect.objectContaining({ type: 'oauthbearertoken' })],
      });
    });

    it('ResourceTypes and Schemas list Users (with the enterprise extension) and Groups, located where the client called', async () => {
      const types = (await scim('get', '/ResourceTypes').expect(200)).body;
      expect(types.schemas).toEqual([LIST]);
      const user = types.Resources.find((r: { id: string }) => r.id === 'User');
      expect(user).toMatchObject({ endpoint: '/Users', schema: USER, schemaExtensions: [{ schema: ENTERPRISE, required: false }] });
      expect(user.meta.location).toBe(`${t.url}/scim/v2/ResourceTypes/User`);
      expect(types.Resources.map((r: { id: string }) => r.id).sort()).toEqual(['Group', 'User']);
      const schemas = (await scim('get', '/Schemas').expect(200)).body.Resources.map((s: { id: string }) => s.id);
      expect(schemas).toEqual(expect.arrayContaining([USER, GROUP, ENTERPRISE]));
      expect((await scim('get', `/Schemas/${USER}`).expect(200)).body.attributes.map((a: { name: string }) => a.name)).toContain(
        'userName',
      );
    });
  });

  describe('an Entra ID sequence', () => {
    const userName = `Ann.Smith.${run}@Example.org`;
    const mobile = nextMobile();
    let annId: string;
    let northId: string;
    let southId: string;

    it('creates a user: a worker in the oldest team, the number in E.164, located for the client', async () => {
      // Entra asks first whether the person exists, by its matching attribute.
      const before = await scim('get', `/Users?${filter(`userName eq "${userName}"`)}&aadOptscim062020`).expect(200);
      expect(before.body).toMatchObject({ schemas: [LIST], totalResults: 0, Resources: [] });
      const res = await scim('post', '/Users', {
        schemas: [USER, ENTERPRISE],
        externalId: `entra-${run}`,
        userName,
        active: true,
        displayName: 'Ann Smith',
        emails: [{ primary: true, type: 'work', value: `ann.smith.${run}@example.org` }],
        name: { formatted: 'Ann Smith', familyName: 'Smith', givenName: 'Ann' },
        phoneNumbers: [{ type: 'mobile', value: `0${mobile.slice(3, 7)} ${mobile.slice(7)}` }],
        [ENTERPRISE]: { employeeNumber: '701', department: 'Care' },
      });
      expect(res.status).toBe(201);
      annId = res.body.id;
      expect(res.headers.location).toBe(`${t.url}/scim/v2/Users/${annId}`);
      expect(res.body).toMatchObject({
        id: annId,
        externalId: `entra-${run}`,
        userName: userName.toLowerCase(),
        displayName: 'Ann Smith',
        active: true,
        emails: [{ value: `ann.smith.${run}@example.org`, type: 'work', primary: true }],
        phoneNumbers: [{ value: mobile, type: 'mobile', primary: true }],
        roles: [{ value: 'worker' }],
        groups: [{ display: 'Default' }],
        meta: { resourceType: 'User', location: `${t.url}/scim/v2/Users/${annId}` },
      });
      const users = (await superadmin.agent.get('/api/worker-accounts').expect(200)).body as { id: number; role: string; phone?: string }[];
      expect(users.find((u) => u.id === Number(annId))).toMatchObject({ role: 'worker', phone: mobile });
    });

    it('finds the user by userName in any case, and refuses a second with the same userName (409 uniqueness)', async () => {
      const found = await scim('get', `/Users?${filter(`userName eq "${userName.toUpperCase()}"`)}`).expect(200);
      expect(found.body).toMatchObject({ totalResults: 1, startIndex: 1, itemsPerPage: 1, Resources: [{ id: annId }] });
      const again = await scim('post', '/Users', { schemas: [USER], userName: userName.toUpperCase() }).expect(409);
      expect(again.body).toMatchObject({ schemas: [ERROR], status: '409', scimType: 'uniqueness' });
      const sameExternal = await scim('post', '/Users', {
        schemas: [USER],
        userName: `other.${run}@example.org`,
        externalId: `entra-${run}`,
      });
      expect(sameExternal.status).toBe(409);
      expect(sameExternal.body.scimType).toBe('uniqueness');
    });

    it('creates groups as teams and adds members: a worker joins the team, an admin monitors it', async () => {
      const north = await scim('post', '/Groups', {
        schemas: [GROUP],
        displayName: `North ${run}`,
        externalId: `g-north-${run}`,
        members: [],
      });
      expect(north.status).toBe(201);
      northId = north.body.id;
      expect(north.body).toMatchObject({ displayName: `North ${run}`, externalId: `g-north-${run}` });
      expect(north.headers.location).toBe(`${t.url}/scim/v2/Groups/${northId}`);
      const look = await scim('get', `/Groups?${filter(`displayName eq "north ${run}"`)}&excludedAttributes=members`).expect(200);
      expect(look.body.Resources).toEqual([expect.objectContaining({ id: northId, displayName: `North ${run}` })]);
      expect(look.body.Resources[0]).not.toHaveProperty('members');

      const added = await scim(
        'patch',
        `/Groups/${northId}`,
        patchOp({ op: 'Add', path: 'members', value: [{ value: annId }, { value: String(admin.id) }] }),
      ).expect(200);
      expect(added.body.members.map((m: { value: string }) => m.value).sort()).toEqual([annId, String(admin.id)].sort());
      expect(await membersOf(Number(northId))).toEqual([Number(annId)]);
      expect(await monitorsOf(Number(northId))).toEqual([admin.id]);
      const ann = (await scim('get', `/Users/${annId}`).expect(200)).body;
      expect(ann.groups).toEqual([{ value: northId, display: `North ${run}`, type: 'direct' }]);
    });

    it('removes a member by value: the admin stops monitoring; a worker stays (every worker has a team) until added to another group', async () => {
      await scim('patch', `/Groups/${northId}`, patchOp({ op: 'Remove', path: 'members', value: [{ value: String(admin.id) }] })).expect(
        200,
      );
      expect(await monitorsOf(Number(northId))).toEqual([]);
      const workerRemoved = await scim(
        'patch',
        `/Groups/${northId}`,
        patchOp({ op: 'Remove', path: 'members', value: [{ value: annId }] }),
      );
      expect(workerRemoved.status).toBe(204);
      expect(await membersOf(Number(northId))).toEqual([Number(annId)]);

      const south = await scim('post', '/Groups', { schemas: [GROUP], displayName: `South ${run}`, members: [{ value: annId }] }).expect(
        201,
      );
      southId = south.body.id;
      expect(await membersOf(Number(southId))).toEqual([Number(annId)]);
      expect(await membersOf(Number(northId))).toEqual([]);
    });

    it('puts every change on the activity log with the directory as its actor', async () => {
      const directory = "Entra ID (the organisation's directory)";
      await eventually(async () => {
        const annLog = await activity(Number(annId));
        const mine = await activity(superadmin.id);
        return (
          annLog.includes(`${directory} created the account of Ann Smith (${userName.toLowerCase()})`) &&
          annLog.includes(`${directory} moved Ann Smith to team North ${run}`) &&
          annLog.includes(`${directory} moved Ann Smith to team South ${run}`) &&
          mine.includes(`${directory} created team North ${run}`) &&
          mine.includes(`${directory} added ${admin.username} as a monitor of team North ${run}`) &&
          mine.includes(`${directory} removed ${admin.username} as a monitor of team North ${run}`)
        );
      }, WAIT_MS);
    });

    it('deactivates with Replace "active": "False" and no path: every session of the person ends at once', async () => {
      const ann = await signedIn(Number(annId), userName.toLowerCase());
      const res = await scim('patch', `/Users/${annId}`, patchOp({ op: 'Replace', value: { active: 'False' } })).expect(200);
      expect(res.body.active).toBe(false);
      // No waiting: the gateway revoked the sessions before it answered the directory.
      await ann.agent.get('/api/time').expect(401);
      await ann.agent.get('/api/auth/me').expect(401);
      await request(t.url).post('/api/auth/login').set(XHR).send({ username: userName.toLowerCase(), password: ann.password }).expect(401);
      const found = await scim('get', `/Users?${filter('active eq false')}`).expect(200);
      expect(found.body.Resources.map((u: { id: string }) => u.id)).toContain(annId);
      await eventually(
        async () =>
          (await activity(Number(annId))).includes(
            "Account deactivated by Entra ID (the organisation's directory): every session was signed out",
          ),
        WAIT_MS,
      );
    });

    it("deletes the user: signed out, gone from SCIM and LWS, the deletion on the token creator's record", async () => {
      await scim('patch', `/Users/${annId}`, patchOp({ op: 'Replace', path: 'active', value: 'True' })).expect(200);
      const ann = await signedIn(Number(annId), userName.toLowerCase());
      await scim('delete', `/Users/${annId}`).expect(204);
      await ann.agent.get('/api/time').expect(401);
      const gone = await scim('get', `/Users/${annId}`).expect(404);
      expect(gone.body).toMatchObject({ schemas: [ERROR], status: '404' });
      const users = (await superadmin.agent.get('/api/worker-accounts').expect(200)).body as { id: number }[];
      expect(users.some((u) => u.id === Number(annId))).toBe(false);
      await eventually(
        async () =>
          (await activity(superadmin.id)).includes(
            `Entra ID (the organisation's directory) deleted the account of Ann Smith (${userName.toLowerCase()}); their activity entries were removed`,
          ),
        WAIT_MS,
      );
    });

    it('a group whose team still has workers cannot be deleted (409); an empty one can', async () => {
      const worker = await scim('post', '/Users', { schemas: [USER], userName: `kim.${run}@example.org`, displayName: 'Kim' }).expect(201);
      await scim('patch', `/Groups/${southId}`, patchOp({ op: 'add', path: 'members', value: [{ value: worker.body.id }] })).expect(200);
      const refused = await scim('delete', `/Groups/${southId}`).expect(409);
      expect(refused.body).toMatchObject({ schemas: [ERROR], status: '409' });
      await scim('delete', `/Groups/${northId}`).expect(204);
      await scim('get', `/Groups/${northId}`).expect(404);
    });
  });

  describe('an Okta sequence', () => {
    const userName = `bob.jones.${run}@example.org`;
    let bobId: string;

    it('creates the user with its whole profile, and changes it with PATCH paths that hold filters', async () => {
      const res = await scim('post', '/Users', {
        schemas: [USER],
        userName,
        name: { givenName: 'Bob', familyName: 'Jones' },
        emails: [{ primary: true, value: userName, type: 'work' }],
        displayName: 'Bob Jones',
        locale: 'en-US',
        externalId: `00u${run}`,
        groups: [],
        password: 'Okta-sends-one-1',
        active: true,
      }).expect(201);
      bobId = res.body.id;
      const patched = await scim(
        'patch',
        `/Users/${bobId}`,
        patchOp(
          { op: 'replace', path: 'emails[type eq "work"].value', value: `robert.${run}@example.org` },
          { op: 'replace', path: 'name.givenName', value: 'Robert' },
          { op: 'replace', path: 'name.familyName', value: 'Smith' },
        ),
      ).expect(200);
      expect(patched.body.emails).toEqual([{ value: `robert.${run}@example.org`, type: 'work', primary: true }]);
      expect(patched.body.displayName).toBe('Robert Smith');
      const users = (await superadmin.agent.get('/api/worker-accounts').expect(200)).body as { id: number; name: string }[];
      expect(users.find((u) => u.id === Number(bobId))?.name).toBe('Robert Smith');
    });

    it('deactivates with a PUT of the whole user with active false, and reactivates with active true', async () => {
      const bob = await signedIn(Number(bobId), userName);
      const whole = (await scim('get', `/Users/${bobId}`).expect(200)).body;
      const put = await scim('put', `/Users/${bobId}`, { ...whole, active: false }).expect(200);
      expect(put.body.active).toBe(false);
      await bob.agent.get('/api/time').expect(401);
      const back = await scim('put', `/Users/${bobId}`, { ...whole, active: true }).expect(200);
      expect(back.body.active).toBe(true);
      await signIn(t, userName, bob.password);
    });

    it('pages a list with startIndex and count', async () => {
      const all = (await scim('get', '/Users?startIndex=1&count=200').expect(200)).body;
      expect(all.totalResults).toBeGreaterThanOrEqual(3);
      const second = (await scim('get', '/Users?startIndex=2&count=1').expect(200)).body;
      expect(second).toMatchObject({ totalResults: all.totalResults, startIndex: 2, itemsPerPage: 1 });
      expect(second.Resources).toEqual([all.Resources[1]]);
      const none = (await scim('get', '/Users?count=0').expect(200)).body;
      expect(none).toMatchObject({ totalResults: all.totalResults, Resources: [] });
      // The superadmin is no directory's to manage: never listed.
      expect(all.Resources.map((u: { id: string }) => u.id)).not.toContain(String(superadmin.id));
    });

    it("removes a member with a filtered path, Okta's way", async () => {
      const group = await scim('post', '/Groups', {
        schemas: [GROUP],
        displayName: `Okta ${run}`,
        members: [{ value: bobId }, { value: String(admin.id) }],
      }).expect(201);
      await scim('patch', `/Groups/${group.body.id}`, patchOp({ op: 'remove', path: `members[value eq "${admin.id}"]` })).expect(200);
      expect(await monitorsOf(Number(group.body.id))).toEqual([]);
      expect(await membersOf(Number(group.body.id))).toEqual([Number(bobId)]);
    });
  });

  describe('bad input', () => {
    it('is a 400 with a SCIM error naming what is wrong, never a 5xx', async () => {
      const cases: [Method, string, unknown, number, string?][] = [
        [
          'post',
          '/Users',
          { schemas: [USER], userName: `p.${run}@example.org`, phoneNumbers: [{ type: 'mobile', value: 'call me' }] },
          400,
          'invalidValue',
        ],
        ['post', '/Users', { schemas: [USER], displayName: 'No userName' }, 400, 'invalidValue'],
        ['post', '/Users', { schemas: [USER], userName: 'has space' }, 400, 'invalidValue'],
        [
          'post',
          '/Users',
          { schemas: [USER], userName: `e.${run}@example.org`, emails: [{ value: 'not-an-address' }] },
          400,
          'invalidValue',
        ],
        ['post', '/Users', { schemas: [USER], userName: `n.${run}@example.org`, active: 'maybe' }, 400, 'invalidValue'],
        ['post', '/Users', [1, 2], 400, 'invalidSyntax'],
        ['post', '/Groups', { schemas: [GROUP], displayName: `Bad ${run}`, members: [{ value: 'nobody' }] }, 400, 'invalidValue'],
        ['post', '/Groups', { schemas: [GROUP], displayName: `Ghost ${run}`, members: [{ value: '999999' }] }, 400, 'invalidValue'],
        ['patch', '/Users/1', { schemas: [PATCH_OP], Operations: 'all of them' }, 400, 'invalidValue'],
        ['patch', '/Users/1', { schemas: [PATCH_OP], Operations: [{ op: 'frobnicate', path: 'active' }] }, 400, 'invalidSyntax'],
        ['get', `/Users?${filter('userName eq')}`, undefined, 400, 'invalidFilter'],
        ['get', `/Users?${filter('userName xx "a"')}`, undefined, 400, 'invalidFilter'],
        ['get', `/Users?${filter('nickName sw "a"')}&count=abc`, undefined, 400, 'invalidValue'],
        ['get', '/Users/abc', undefined, 404],
        ['get', '/Users/99999999', undefined, 404],
        ['get', '/Nothing', undefined, 404],
        ['delete', '/Users', undefined, 404],
        ['post', '/Bulk', { schemas: ['urn:ietf:params:scim:api:messages:2.0:BulkRequest'], Operations: [] }, 501],
      ];
      for (const [method, path, body, status, scimType] of cases) {
        const res = await scim(method, path, body);
        expect({ method, path, status: res.status }).toEqual({ method, path, status });
        expect(res.body).toMatchObject({ schemas: [ERROR], status: String(status), ...(scimType ? { scimType } : {}) });
      }
    });

    it('the phone number is named in the error, and text that is not JSON is a 400 too', async () => {
      const phone = await scim('post', '/Users', {
        schemas: [USER],
        userName: `q.${run}@example.org`,
        phoneNumbers: [{ type: 'mobile', value: '+1 212 555 0123' }],
      }).expect(400);
      expect(phone.body.detail).toMatch(/^phoneNumbers\[type eq "mobile"\]\.value: /);
      const notJson = await request(t.url)
        .post('/scim/v2/Users')
        .set('Authorization', `Bearer ${secret}`)
        .set('Content-Type', 'application/json')
        .send('{"userName":');
      expect(notJson.status).toBe(400);
      expect(notJson.body).toMatchObject({ schemas: [ERROR], scimType: 'invalidSyntax' });
      const form = await request(t.url)
        .post('/scim/v2/Users')
        .set('Authorization', `Bearer ${secret}`)
        .set('Content-Type', 'application/x-www-form-urlencoded')
        .send('userName=x');
      expect(form.status).toBe(415);
      expect(form.body).toMatchObject({ schemas: [ERROR], status: '415' });
    });

    it('a userName cannot change (400 mutability), and a filter that reads too much is refused, not run', async () => {
      const u = await scim('post', '/Users', { schemas: [USER], userName: `fixed.${run}@example.org` }).expect(201);
      const res = await scim(
        'patch',
        `/Users/${u.body.id}`,
        patchOp({ op: 'replace', path: 'userName', value: `other.${run}@example.org` }),
      ).expect(400);
      expect(res.body.scimType).toBe('mutability');
      // Narrowed by userName eq: SQL reads one row and scimmy checks the rest of the filter on it.
      const narrowed = await scim('get', `/Users?${filter(`userName eq "FIXED.${run}@example.org" and title pr`)}`).expect(200);
      expect(narrowed.body.totalResults).toBe(0);
      const wide = await scim('get', `/Users?${filter(`userName eq "fixed.${run}@example.org" or nickName pr`)}`).expect(200);
      expect(wide.body.Resources.map((x: { id: string }) => x.id)).toEqual([u.body.id]);
    });
  });

  describe('limits', () => {
    it(`a token may send ${RATE_LIMIT} requests a minute; more get 429 with a SCIM error`, async () => {
      const { body } = await superadmin.agent.post('/api/system/scim-tokens').set(XHR).send({ name: 'Busy' }).expect(201);
      for (let i = 0; i < RATE_LIMIT; i++) await scim('get', '/ServiceProviderConfig', undefined, body.secret).expect(200);
      const refused = await scim('get', '/ServiceProviderConfig', undefined, body.secret).expect(429);
      expect(refused.headers['retry-after']).toBe('60');
      expect(refused.body).toMatchObject({ schemas: [ERROR], status: '429' });
      // Another token has its own budget.
      await scim('get', '/ServiceProviderConfig').expect(200);
    });

    it('a revoked token gets 401 at once', async () => {
      const { body } = await superadmin.agent.post('/api/system/scim-tokens').set(XHR).send({ name: 'Okta' }).expect(201);
      await scim('get', '/Users?count=1', undefined, body.secret).expect(200);
      expect((await superadmin.agent.delete(`/api/system/scim-tokens/${body.token.id}`).set(XHR).expect(200)).body).toEqual({ ok: true });
      const res = await scim('get', '/Users?count=1', undefined, body.secret).expect(401);
      expect(res.body).toMatchObject({ schemas: [ERROR], status: '401' });
      const { tokens } = (await superadmin.agent.get('/api/system/scim-tokens').expect(200)).body;
      expect(tokens.find((x: { id: number }) => x.id === body.token.id).revokedAt).toEqual(expect.any(String));
      await superadmin.agent.delete('/api/system/scim-tokens/999999').set(XHR).expect(404);
    });
  });

  it('failed nowhere on the server, and logged no token', () => {
    const logs = t.logs.join('');
    expect(t.logs.filter((line) => /SCIM request failed/.test(line))).toEqual([]);
    expect(logs).not.toContain(secret);
  });
});
