import { once } from 'node:events';
import { createServer, type AddressInfo } from 'node:net';
import request from 'supertest';
import { Client } from 'pg';
import { eventually } from '@lws/testing';
import { superadminOf, type Account } from './support/accounts';
import { startTestStack, XHR, type TestStack } from './support/test-stack';
import { CookieJar, signInWithIdp, startTestIdp, type TestIdp } from './support/test-idp';

const SECRET = 'client-secret-that-must-never-show';

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('single sign-on through the organisation identity provider (oidc-provider on 127.0.0.1, the real stack)', () => {
  let t: TestStack;
  let idp: TestIdp;
  let superadmin: Account;
  let north: number;
  let db: Client;

  const settings = (overrides: Record<string, unknown> = {}) => ({
    enabled: true,
    displayName: 'Example Trust',
    issuer: idp.issuer,
    clientId: 'lws',
    subjectClaim: 'sub',
    emailDomains: ['example.org'],
    passwordLogin: 'everyone',
    jitEnabled: true,
    groupsClaim: 'groups',
    groupTeams: [{ group: 'lws-north', teamId: north }],
    linkByEmail: false,
    ...overrides,
  });
  const put = (body: Record<string, unknown>) => superadmin.agent.put('/api/system/sso').set(XHR).send(body);
  /** The session a sign-in left in the jar, as supertest sends it. */
  const sessionOf = (jar: CookieJar) => `lws_sid=${jar.get(t.url, 'lws_sid')}`;

  beforeAll(async () => {
    t = await startTestStack({ env: { LOGIN_MAX_ATTEMPTS_PER_IP: '1000' } });
    superadmin = await superadminOf(t);
    north = (await superadmin.agent.post('/api/teams').set(XHR).send({ name: 'North' }).expect(201)).body.id;
    idp = await startTestIdp(
      [
        {
          client_id: 'lws',
          client_secret: SECRET,
          redirect_uris: [`${t.url}/api/auth/sso/callback`],
          post_logout_redirect_uris: [`${t.url}/login`],
        },
      ],
      {
        ann: {
          email: 'ann@example.org',
          email_verified: true,
          name: 'Ann Field',
          preferred_username: 'ann@example.org',
          groups: ['lws-north'],
        },
        cal: { email: 'cal@example.org', email_verified: true, name: 'Cal Nogroup', groups: ['elsewhere'] },
        eve: { email: 'eve@elsewhere.example', email_verified: true, name: 'Eve Outside', groups: ['lws-north'] },
        dee: { email: 'dee@example.org', email_verified: true, name: 'Dee Linked', groups: [] },
      },
    );
    db = new Client({ connectionString: t.env.DATABASE_URL });
    await db.connect();
  }, 120_000);
  afterAll(async () => {
    await db?.end();
    await idp?.stop();
    await t?.stop();
  });

  it('the superadmin sets it up; the secret is stored but never shown, logged or returned', async () => {
    const res = await put({ ...settings(), clientSecret: SECRET }).expect(200);
    expect(res.body).toMatchObject({
      enabled: true,
      issuer: idp.issuer,
      clientSecretSet: true,
      redirectUri: `${t.url}/api/auth/sso/callback`,
      postLogoutRedirectUri: `${t.url}/login`,
      fromEnvironment: false,
    });
    expect(JSON.stringify(res.body)).not.toContain(SECRET);
    expect(JSON.stringify((await superadmin.agent.get('/api/system/sso').expect(200)).body)).not.toContain(SECRET);
    const stored = await db.query('select client_secret_enc from identity.sso_settings');
    expect(stored.rows[0].client_secret_enc).toMatch(/^v1\./);
    expect(stored.rows[0].client_secret_enc).not.toContain(SECRET);
    // The login page learns what to offer, and nothing more.
    expect((await request(t.url).get('/api/auth/sso').expect(200)).body).toEqual({
      enabled: true,
      displayName: 'Example Trust',
      passwordLogin: 'everyone',
    });
  });

  it('bad settings get a 4xx naming the field and change nothing', async () => {
    expect((await put({ ...settings(), issuer: 'ftp://idp.example' }).expect(400)).body).toMatchObject({ field: 'issuer' });
    expect((await put({ ...settings(), issuer: 'http://idp.example' }).expect(400)).body).toMatchObject({ field: 'issuer' });
    expect((await put({ ...settings(), groupTeams: [{ group: 'x', teamId: 999999 }] }).expect(400)).body).toMatchObject({
      field: 'groupTeams.0.teamId',
    });
    expect((await put({ ...settings(), emailDomains: ['not a domain'] }).expect(400)).body).toMatchObject({ field: 'emailDomains.0' });
    expect((await put({ ...settings(), subjectClaim: 'email' }).expect(400)).body).toMatchObject({ field: 'subjectClaim' });
    expect((await put({ ...settings(), isAdmin: true }).expect(400)).body).toMatchObject({ field: 'isAdmin' });
    // Nobody answers there: the mistake is found now, not at someone's first sign-in.
    expect((await put({ ...settings(), issuer: 'http://127.0.0.1:9/nothing' }).expect(400)).body).toMatchObject({ field: 'issuer' });
    const now = (await superadmin.agent.get('/api/system/sso').expect(200)).body;
    expect(now).toMatchObject({ issuer: idp.issuer, emailDomains: ['example.org'], groupTeams: [{ group: 'lws-north', teamId: north }] });
    // Only the superadmin sees or changes them.
    await request(t.url).get('/api/system/sso').expect(401);
  });

  it("a first sign-in creates the worker in the team the provider's group names, with a session like a password's", async () => {
    const run = await signInWithIdp(t.url, 'ann', { next: '/worker' });
    expect(run.finalLocation).toBe('/worker');
    expect(run.jar.get(t.url, 'lws_sid')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const me = (await request(t.url).get('/api/auth/me').set('Cookie', sessionOf(run.jar)).expect(200)).body;
    expect(me).toMatchObject({ username: 'ann@example.org', name: 'Ann Field', role: 'worker', pinSet: false });
    const members = (await superadmin.agent.get(`/api/teams/${north}/members`).expect(200)).body;
    expect(JSON.stringify(members)).toContain('Ann Field');
    // A second sign-in finds the same account by issuer and subject.
    const again = await signInWithIdp(t.url, 'ann');
    expect(again.finalLocation).toBe('/');
    expect((await request(t.url).get('/api/auth/me').set('Cookie', sessionOf(again.jar)).expect(200)).body.id).toBe(me.id);
  });

  it('the PIN stays: a worker who signed in with the provider sets a PIN, starts a shift and checks in with it', async () => {
    const run = await signInWithIdp(t.url, 'ann');
    const cookie = sessionOf(run.jar);
    const me = (await request(t.url).get('/api/auth/me').set('Cookie', cookie).expect(200)).body;
    await request(t.url).patch(`/api/users/${me.id}`).set(XHR).set('Cookie', cookie).send({ pinCode: '4826' }).expect(200);
    await superadmin.agent.post('/api/location-options').set(XHR).send({ name: 'Clinic', isActive: true }).expect(201);
    // The shifts service hears of the location by its event.
    await eventually(
      async () =>
        (await request(t.url).post(`/api/users/${me.id}/start-shift`).set(XHR).set('Cookie', cookie).send({ location: 'Clinic' }))
          .status === 200,
      10_000,
      100,
    );
    await request(t.url).post('/api/check-ins').set(XHR).set('Cookie', cookie).send({ userId: me.id, pin: '0000' }).expect(400);
    await request(t.url).post('/api/check-ins').set(XHR).set('Cookie', cookie).send({ userId: me.id, pin: '4826' }).expect(201);
    await request(t.url).post(`/api/users/${me.id}/end-shift`).set(XHR).set('Cookie', cookie).send({ pin: '4826' }).expect(200);
  });

  it('a replayed callback, or one from another browser, is refused', async () => {
    const run = await signInWithIdp(t.url, 'ann');
    expect(run.callbackUrl).toBeDefined();
    // The same browser sends the same answer again: the state was used up.
    const jar = new CookieJar();
    jar.set(t.url, 'lws_sso', 'whatever-this-browser-had');
    const replay = await fetch(run.callbackUrl!, { redirect: 'manual', headers: { cookie: jar.header(t.url) } });
    expect(replay.headers.get('location')).toBe('/login?sso_error=expired');
    expect(replay.headers.getSetCookie().some((c) => c.startsWith('lws_sid='))).toBe(false);

    // A sign-in begun in one browser and finished in another (a planted link) is refused too.
    const begun = await fetch(`${t.url}/api/auth/sso/start`, { redirect: 'manual' });
    expect(begun.status).toBe(302);
    const planted = await fetch(
      `${t.url}/api/auth/sso/callback?code=x&state=${new URL(begun.headers.get('location')!).searchParams.get('state')}`,
      {
        redirect: 'manual',
      },
    );
    expect(planted.headers.get('location')).toBe('/login?sso_error=expired');
  });

  it.each([
    ['another audience', 'aud'],
    ['an expired token', 'exp'],
    ['an unknown issuer', 'iss'],
  ] as const)('an ID token for %s is refused, and no session is opened', async (_what, mode) => {
    await idp.tamper(mode);
    try {
      const run = await signInWithIdp(t.url, 'ann');
      expect(run.callbackUrl).toBeDefined();
      expect(run.finalLocation).toBe('/login?sso_error=failed');
      expect(run.jar.get(t.url, 'lws_sid')).toBeUndefined();
    } finally {
      await idp.tamper('none');
    }
  });

  it('an identity that names no account that may sign in is refused, whatever the provider says', async () => {
    // No group mapped to a team: no account is made.
    expect((await signInWithIdp(t.url, 'cal')).finalLocation).toBe('/login?sso_error=refused');
    // An e-mail domain the organisation did not allow.
    expect((await signInWithIdp(t.url, 'eve')).finalLocation).toBe('/login?sso_error=refused');
    // A deactivated account, though the provider vouches for the person.
    await db.query(`update identity.users set disabled_at = now() where username = 'ann@example.org'`);
    try {
      const run = await signInWithIdp(t.url, 'ann');
      expect(run.finalLocation).toBe('/login?sso_error=refused');
      expect(run.jar.get(t.url, 'lws_sid')).toBeUndefined();
    } finally {
      await db.query(`update identity.users set disabled_at = null where username = 'ann@example.org'`);
    }
    // Without just-in-time creation, an unknown person gets no account.
    await put({ ...settings(), jitEnabled: false }).expect(200);
    const before = await db.query('select count(*)::int as n from identity.users');
    expect((await signInWithIdp(t.url, 'dee')).finalLocation).toBe('/login?sso_error=refused');
    expect((await db.query('select count(*)::int as n from identity.users')).rows[0].n).toBe(before.rows[0].n);
  });

  it('an existing account is linked by e-mail only when the superadmin allows it', async () => {
    const created = await superadmin.agent
      .post('/api/users')
      .set(XHR)
      .send({ username: 'dee.linked', password: 'Secret1pass', name: 'Dee Linked', phone: '+447911123456', role: 'worker' })
      .expect(201);
    await db.query(`update identity.users set email = 'Dee@Example.org' where id = $1`, [created.body.user.id]);
    await put({ ...settings(), jitEnabled: false, linkByEmail: false }).expect(200);
    expect((await signInWithIdp(t.url, 'dee')).finalLocation).toBe('/login?sso_error=refused');
    await put({ ...settings(), jitEnabled: false, linkByEmail: true }).expect(200);
    const run = await signInWithIdp(t.url, 'dee');
    expect(run.finalLocation).toBe('/');
    expect((await request(t.url).get('/api/auth/me').set('Cookie', sessionOf(run.jar)).expect(200)).body.id).toBe(created.body.user.id);
  });

  it('with password sign-in kept for break glass, only the superadmin may use a password', async () => {
    const worker = await superadmin.agent
      .post('/api/users')
      .set(XHR)
      .send({ username: 'pat.password', password: 'Secret1pass', name: 'Pat Password', phone: '+447911123457', role: 'worker' })
      .expect(201);
    expect(worker.status).toBe(201);
    await request(t.url).post('/api/auth/login').set(XHR).send({ username: 'pat.password', password: 'Secret1pass' }).expect(200);
    await put({ ...settings(), passwordLogin: 'break_glass' }).expect(200);
    try {
      expect((await request(t.url).get('/api/auth/sso').expect(200)).body.passwordLogin).toBe('break_glass');
      const refused = await request(t.url)
        .post('/api/auth/login')
        .set(XHR)
        .send({ username: 'pat.password', password: 'Secret1pass' })
        .expect(403);
      expect(refused.body.message).toContain('Example Trust');
      await request(t.url)
        .post('/api/auth/login')
        .set(XHR)
        .send({ username: t.superadmin.username, password: t.superadmin.password })
        .expect(200);
    } finally {
      await put({ ...settings(), passwordLogin: 'everyone' }).expect(200);
    }
  });

  it("signing out ends the LWS session and sends the browser to the provider's sign-out", async () => {
    const run = await signInWithIdp(t.url, 'ann');
    const cookie = sessionOf(run.jar);
    const out = await request(t.url).post('/api/auth/logout').set(XHR).set('Cookie', cookie).send({}).expect(200);
    const url = new URL(out.body.providerLogoutUrl);
    expect(url.origin).toBe(idp.issuer);
    expect(url.searchParams.get('post_logout_redirect_uri')).toBe(`${t.url}/login`);
    expect(url.searchParams.get('id_token_hint')).toBeTruthy();
    await request(t.url).get('/api/auth/me').set('Cookie', cookie).expect(401);
    // The provider accepts the request (its own confirmation page), so the hint and address are right.
    expect((await fetch(url, { redirect: 'manual' })).status).toBe(200);
  });

  it('no secret reached the logs', () => {
    expect(t.logs.join('')).not.toContain(SECRET);
  });
});

describe('single sign-on set by the environment (Helm values)', () => {
  let t: TestStack;
  let idp: TestIdp;

  beforeAll(async () => {
    // The provider must know the gateway's address before the gateway starts: a port of its own.
    const port = await freePort();
    const gateway = `http://127.0.0.1:${port}`;
    idp = await startTestIdp([{ client_id: 'lws-env', client_secret: SECRET, redirect_uris: [`${gateway}/api/auth/sso/callback`] }], {
      fay: { email: 'fay@example.org', email_verified: true, name: 'Fay Env', groups: ['everyone'] },
    });
    t = await startTestStack({
      env: {
        PORT: String(port),
        SSO_ISSUER: idp.issuer,
        SSO_CLIENT_ID: 'lws-env',
        SSO_CLIENT_SECRET: SECRET,
        SSO_DISPLAY_NAME: 'Env Trust',
        SSO_JIT: 'true',
        SSO_GROUP_TEAMS: 'everyone=1',
        SSO_PASSWORD_LOGIN: 'break_glass',
      },
    });
  }, 120_000);
  afterAll(async () => {
    await idp?.stop();
    await t?.stop();
  });

  it('applies at start, shows read-only to the superadmin, and signs people in with the secret it was given', async () => {
    expect((await request(t.url).get('/api/auth/sso').expect(200)).body).toEqual({
      enabled: true,
      displayName: 'Env Trust',
      passwordLogin: 'break_glass',
    });
    const superadmin = await superadminOf(t);
    const view = (await superadmin.agent.get('/api/system/sso').expect(200)).body;
    expect(view).toMatchObject({
      fromEnvironment: true,
      issuer: idp.issuer,
      clientId: 'lws-env',
      jitEnabled: true,
      groupTeams: [{ group: 'everyone', teamId: 1 }],
    });
    expect(JSON.stringify(view)).not.toContain(SECRET);
    const { clientSecretSet: _s, fromEnvironment: _e, redirectUri: _r, postLogoutRedirectUri: _p, ...settings } = view;
    expect(
      (
        await superadmin.agent
          .put('/api/system/sso')
          .set(XHR)
          .send({ ...settings, enabled: false })
          .expect(409)
      ).body.message,
    ).toContain('environment');
    const run = await signInWithIdp(t.url, 'fay');
    expect(run.finalLocation).toBe('/');
    const me = (
      await request(t.url)
        .get('/api/auth/me')
        .set('Cookie', `lws_sid=${run.jar.get(t.url, 'lws_sid')}`)
        .expect(200)
    ).body;
    expect(me).toMatchObject({ name: 'Fay Env', role: 'worker' });
    expect(t.logs.join('')).not.toContain(SECRET);
  });
});
