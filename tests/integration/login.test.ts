import request from 'supertest';
import { startTestStack, XHR, type TestStack } from './support/test-stack';

describe('login end to end through the bus (real PostgreSQL, NATS, Redis)', () => {
  let t: TestStack;

  beforeAll(async () => {
    t = await startTestStack({ env: { LOGIN_MAX_FAILURES_PER_USERNAME: '3', LOGIN_MAX_ATTEMPTS_PER_IP: '50' } });
  }, 120_000);
  afterAll(() => t?.stop());

  const login = (username: string, password: string, extra: Record<string, unknown> = {}) =>
    request(t.url)
      .post('/api/auth/login')
      .set(XHR)
      .send({ username, password, ...extra });

  it('every service joined the bus and reports ready', async () => {
    const agent = request.agent(t.url);
    await agent.post('/api/auth/login').set(XHR).send({ username: t.superadmin.username, password: t.superadmin.password }).expect(200);
    const res = await agent.get('/api/system/status').expect(200);
    expect(res.body).toEqual({
      allReady: true,
      services: { identity: 'ready', locations: 'ready', shifts: 'ready', escalation: 'ready', notifications: 'ready', audit: 'ready' },
    });
  });

  it('the probes answer JSON to an anonymous caller whatever it accepts, readiness naming Redis and NATS', async () => {
    for (const accept of ['text/html,application/xhtml+xml', '*/*', 'application/json']) {
      const live = await request(t.url).get('/healthz').set('Accept', accept).expect(200);
      expect(live.headers['content-type']).toMatch(/application\/json/);
      expect(live.body).toEqual({ status: 'ok' });
      const ready = await request(t.url).get('/readyz').set('Accept', accept).expect(200);
      expect(ready.headers['content-type']).toMatch(/application\/json/);
      expect(ready.body).toEqual({ status: 'ready', checks: { started: 'ok', sessions: 'ok', bus: 'ok' } });
    }
  });

  it('logs the superadmin in with an httpOnly SameSite=Lax session cookie and no secret in the body', async () => {
    const res = await login(t.superadmin.username.toUpperCase(), t.superadmin.password).expect(200);
    expect(res.body).toEqual({ id: expect.any(Number), username: 'superadmin', name: 'Super Admin', role: 'superadmin', language: 'en' });
    const cookie = res.headers['set-cookie'][0] as string;
    expect(cookie).toMatch(/^lws_sid=[A-Za-z0-9_-]{43};/);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).not.toMatch(/Max-Age|Expires/);
    expect(JSON.stringify(res.body)).not.toContain(t.superadmin.password);
  });

  it('remember-me makes the cookie last 7 days', async () => {
    const res = await login(t.superadmin.username, t.superadmin.password, { rememberMe: true }).expect(200);
    expect(res.headers['set-cookie'][0]).toMatch(/Max-Age=604800/);
  });

  it('signing in and out sets and clears a readable hint beside the httpOnly cookie, holding no secret', async () => {
    const res = await login(t.superadmin.username, t.superadmin.password).expect(200);
    const hint = (res.headers['set-cookie'] as unknown as string[]).find((c) => c.startsWith('lws_signed_in='))!;
    expect(hint).toMatch(/^lws_signed_in=1; Max-Age=604800; Path=\/; Expires=[^;]+; SameSite=Lax$/);
    expect(hint).not.toMatch(/HttpOnly/);
    const sid = (res.headers['set-cookie'] as unknown as string[]).find((c) => c.startsWith('lws_sid='))!.split(';')[0];
    const out = await request(t.url).post('/api/auth/logout').set(XHR).set('Cookie', sid).send({}).expect(200);
    expect(out.headers['set-cookie']).toEqual(
      expect.arrayContaining([expect.stringMatching(/^lws_signed_in=; Path=\/; Expires=Thu, 01 Jan 1970/)]),
    );
  });

  it('a page load brings the hints in line with the cookies the browser sent', async () => {
    const page = (cookie: string) => request(t.url).get('/worker').set('Accept', 'text/html').set('Cookie', cookie).expect(200);
    // A session cookie but no hint (signed in before hints existed): the hint is set.
    const signedIn = await page('lws_sid=abc');
    expect(signedIn.headers['set-cookie']).toEqual([expect.stringMatching(/^lws_signed_in=1;/)]);
    // A hint but no session cookie (the browser dropped it at exit): the hint goes.
    const signedOut = await page('lws_signed_in=1');
    expect(signedOut.headers['set-cookie']).toEqual([expect.stringMatching(/^lws_signed_in=; Path=\/; Expires=Thu, 01 Jan 1970/)]);
    // An enrolled kiosk's device cookie: its hint is set too; in line already: nothing is sent.
    const kiosk = await page('lws_kiosk=tok');
    expect(kiosk.headers['set-cookie']).toEqual([expect.stringMatching(/^lws_kiosk_enrolled=1; Max-Age=34560000;/)]);
    const inLine = await page('lws_sid=abc; lws_signed_in=1');
    expect(inLine.headers['set-cookie']).toBeUndefined();
  });

  it('GET /api/auth/me answers 401 without a session and the user with one', async () => {
    await request(t.url).get('/api/auth/me').expect(401);
    const agent = request.agent(t.url);
    await agent.post('/api/auth/login').set(XHR).send({ username: t.superadmin.username, password: t.superadmin.password }).expect(200);
    const me = await agent.get('/api/auth/me').expect(200);
    expect(me.body.role).toBe('superadmin');
  });

  it('logout revokes the session on the server: the old cookie no longer works', async () => {
    const res = await login(t.superadmin.username, t.superadmin.password).expect(200);
    const cookie = (res.headers['set-cookie'][0] as string).split(';')[0];
    await request(t.url).get('/api/auth/me').set('Cookie', cookie).expect(200);
    const out = await request(t.url).post('/api/auth/logout').set(XHR).set('Cookie', cookie).send({ fromKiosk: false }).expect(200);
    expect(out.body).toEqual({ ok: true, redirectTo: '/login' });
    await request(t.url).get('/api/auth/me').set('Cookie', cookie).expect(401);
  });

  it('rejects a wrong password and an unknown user with the same message', async () => {
    const a = await login(t.superadmin.username, 'wrong-password').expect(401);
    const b = await login('nobody-here', 'wrong-password').expect(401);
    expect(a.body).toEqual({ message: 'Invalid username or password' });
    expect(b.body).toEqual(a.body);
  });

  it('answers 400 naming the field for a missing username or password', async () => {
    expect((await login('', 'x').expect(400)).body).toEqual({ message: 'Username is required', field: 'username' });
    expect((await login('someone', '').expect(400)).body).toEqual({ message: 'Password is required', field: 'password' });
  });

  it('refuses a state-changing call without the X-Requested-With header (CSRF)', async () => {
    const res = await request(t.url)
      .post('/api/auth/login')
      .send({ username: t.superadmin.username, password: t.superadmin.password })
      .expect(403);
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  it('locks a username out after repeated failures, even with the right password', async () => {
    const agent = request.agent(t.url);
    await agent.post('/api/auth/login').set(XHR).send({ username: t.superadmin.username, password: t.superadmin.password }).expect(200);
    await agent
      .post('/api/users')
      .set(XHR)
      .send({ username: 'lockme', password: 'secret1', name: 'Lock Me', phone: '+447911123123', role: 'worker' })
      .expect(201);
    for (let i = 0; i < 3; i++) await login('lockme', 'bad-guess').expect(401);
    const locked = await login('lockme', 'secret1').expect(429);
    expect(locked.body.message).toMatch(/Too many login attempts/);
  });

  it('never writes a password or session id to any log line', async () => {
    const res = await login(t.superadmin.username, t.superadmin.password).expect(200);
    const sid = (res.headers['set-cookie'][0] as string).split(';')[0].split('=')[1];
    const all = t.logs.join('');
    expect(all.length).toBeGreaterThan(0);
    expect(all).not.toContain(t.superadmin.password);
    expect(all).not.toContain(sid);
    expect(all).not.toContain('secret1');
    expect(all).not.toMatch(/\$argon2id\$/);
  });
});
