import { createHash } from 'node:crypto';
import Redis from 'ioredis';
import request from 'supertest';
import { eventually } from '@lws/testing';
import { startTestStack, XHR, type TestStack } from './support/test-stack';
import { streamEvents } from './support/stream-events';

/** Kiosks end to end: enrolment, the device cookie, the roster, PIN login, per-device limits and revocation. */
describe('kiosks', () => {
  let t: TestStack;
  let superadmin: request.Agent;
  let admin: request.Agent;
  let adminId: number;
  let adminPin: string;
  const pinsInUse = new Set<string>();
  const tokens: string[] = [];
  let serial = 0;
  const MAX_FAILURES = 3;

  function unusedPin(): string {
    for (;;) {
      const pin = String(Math.floor(Math.random() * 10_000)).padStart(4, '0');
      if (!pinsInUse.has(pin)) return pin;
    }
  }

  async function signIn(username: string, password: string, agent = request.agent(t.url)): Promise<request.Agent> {
    await agent.post('/api/auth/login').set(XHR).send({ username, password }).expect(200);
    return agent;
  }

  async function createUser(opts: { pinCode?: string } = {}) {
    serial += 1;
    const pin = opts.pinCode ?? unusedPin();
    pinsInUse.add(pin);
    const body = {
      username: `kiosk${serial}`,
      password: 'secret1',
      name: `Kiosk${serial} Worker`,
      phone: `+4479111232${String(serial).padStart(2, '0')}`,
      role: 'worker',
      pinCode: pin,
    };
    const res = await superadmin.post('/api/users').set(XHR).send(body).expect(201);
    return { id: res.body.user.id as number, username: body.username, password: body.password, pin, serial };
  }

  /** An admin enrols this browser, then signs out: the browser keeps only the device cookie. */
  async function enrolledDevice(name = `Front desk ${serial}`, location = 'Depot') {
    const device = await signIn('kadmin', 'secret1');
    const res = await device.post('/api/kiosks').set(XHR).send({ name, location }).expect(201);
    await device.post('/api/auth/logout').set(XHR).send({}).expect(200);
    const setCookie = res.headers['set-cookie'] as unknown as string[];
    tokens.push(
      setCookie
        .find((c) => c.startsWith('lws_kiosk='))!
        .split(';')[0]
        .split('=')[1],
    );
    return { device, kiosk: res.body, setCookie };
  }

  const pinLogin = (agent: request.Agent, who: { userId: number } | { username: string }, pin: string) =>
    agent
      .post('/api/auth/pin-login')
      .set(XHR)
      .send({ ...who, pin });

  /** Seconds the gateway keeps a session (Redis TTL of the session key, by the cookie's id). */
  async function sessionTtl(setCookie: string): Promise<number> {
    const id = decodeURIComponent(setCookie.split(';')[0].split('=')[1]);
    const redis = new Redis(t.env.REDIS_URL!);
    try {
      return await redis.ttl(`${t.env.REDIS_KEY_PREFIX}sess:${createHash('sha256').update(id).digest('hex')}`);
    } finally {
      redis.disconnect();
    }
  }

  beforeAll(async () => {
    t = await startTestStack({ env: { LOGIN_MAX_ATTEMPTS_PER_IP: '1000', KIOSK_PIN_MAX_FAILURES: String(MAX_FAILURES) } });
    superadmin = await signIn(t.superadmin.username, t.superadmin.password);
    adminPin = unusedPin();
    pinsInUse.add(adminPin);
    const res = await superadmin
      .post('/api/users')
      .set(XHR)
      .send({ username: 'kadmin', password: 'secret1', name: 'Kiosk Admin', phone: '+447911123299', role: 'admin', pinCode: adminPin })
      .expect(201);
    adminId = res.body.user.id;
    admin = await signIn('kadmin', 'secret1');
    // A kiosk stands at a location that exists (by its id).
    for (const name of ['Depot', 'Depot 2', 'Head office', 'Yard'])
      await superadmin.post('/api/location-options').set(XHR).send({ name }).expect(201);
  }, 120_000);
  afterAll(() => t?.stop());

  describe('enrolment', () => {
    it('gives the enrolling browser a long-lived httpOnly device cookie and answers the Kiosk without its token', async () => {
      const { kiosk, setCookie } = await enrolledDevice('Reception', 'Head office');
      expect(kiosk).toEqual({
        id: expect.any(Number),
        name: 'Reception',
        location: 'Head office',
        locationId: expect.any(Number),
        enrolledAt: expect.any(String),
        enrolledBy: adminId,
        lastUsedAt: null,
        revokedAt: null,
      });
      const cookie = setCookie.find((c) => c.startsWith('lws_kiosk='))!;
      expect(cookie).toMatch(/^lws_kiosk=[A-Za-z0-9_-]{43};/);
      expect(cookie).toMatch(/HttpOnly/);
      expect(cookie).toMatch(/SameSite=Lax/);
      expect(cookie).toMatch(/Path=\//);
      expect(cookie).toMatch(/Max-Age=34560000/);
      const token = cookie.split(';')[0].split('=')[1];
      expect(JSON.stringify(kiosk)).not.toContain(token);
    });

    it('trims and validates name and location', async () => {
      const res = await admin.post('/api/kiosks').set(XHR).send({ name: '   ', location: 'Depot' }).expect(400);
      expect(res.body).toEqual({ message: 'Kiosk name is required', field: 'name' });
      const long = await admin
        .post('/api/kiosks')
        .set(XHR)
        .send({ name: 'Desk', location: 'x'.repeat(101) })
        .expect(400);
      expect(long.body).toEqual({ message: 'Location must be at most 100 characters', field: 'location' });
      const ok = await admin.post('/api/kiosks').set(XHR).send({ name: '  Gate  ', location: ' Yard ' }).expect(201);
      expect(ok.body).toMatchObject({ name: 'Gate', location: 'Yard' });
    });

    it('lists kiosks newest first, for admins and the superadmin only', async () => {
      const first = (await enrolledDevice('List A')).kiosk;
      const second = (await enrolledDevice('List B')).kiosk;
      const list = (await admin.get('/api/kiosks').expect(200)).body as { id: number }[];
      const ids = list.map((k) => k.id);
      expect(ids.indexOf(second.id)).toBeLessThan(ids.indexOf(first.id));
      expect(JSON.stringify(list)).not.toMatch(/token/i);
      await superadmin.get('/api/kiosks').expect(200);
      const w = await createUser();
      const workerAgent = await signIn(w.username, w.password);
      await workerAgent.get('/api/kiosks').expect(403);
      await workerAgent.post('/api/kiosks').set(XHR).send({ name: 'Mine', location: 'Home' }).expect(403);
      await request(t.url).get('/api/kiosks').expect(401);
    });

    it('GET /api/kiosks/current tells a browser whether it is an enrolled kiosk', async () => {
      const { device } = await enrolledDevice('Current desk', 'Depot 2');
      expect((await device.get('/api/kiosks/current').expect(200)).body).toEqual({
        enrolled: true,
        name: 'Current desk',
        location: 'Depot 2',
      });
      expect((await request(t.url).get('/api/kiosks/current').expect(200)).body).toEqual({ enrolled: false });
      const forged = await request(t.url)
        .get('/api/kiosks/current')
        .set('Cookie', `lws_kiosk=${'A'.repeat(43)}`)
        .expect(200);
      expect(forged.body).toEqual({ enrolled: false });
    });
  });

  describe('GET /api/kiosks/roster', () => {
    it('lists every worker by first name and last initial to an enrolled kiosk, and nobody to any other browser', async () => {
      const w = await createUser();
      const { device, kiosk } = await enrolledDevice('Roster desk', 'Depot');
      const roster = await device.get('/api/kiosks/roster').expect(200);
      expect(roster.body).toMatchObject({ name: 'Roster desk', location: 'Depot' });
      expect(roster.body.workers).toContainEqual({ id: w.id, label: `Kiosk${w.serial} W.` });
      // Workers only, no surnames, ids and labels only.
      expect(roster.body.workers.find((e: { id: number }) => e.id === adminId)).toBeUndefined();
      for (const e of roster.body.workers) expect(Object.keys(e).sort()).toEqual(['id', 'label']);
      expect(JSON.stringify(roster.body)).not.toContain('Worker');
      expect(roster.headers['cache-control']).toBe('no-store');
      const denied = await request(t.url).get('/api/kiosks/roster').expect(403);
      expect(denied.body).toEqual({ message: 'This device is not an enrolled kiosk' });
      await admin.delete(`/api/kiosks/${kiosk.id}`).set(XHR).expect(200);
      await device.get('/api/kiosks/roster').expect(403);
    });

    it("lists the workers of the teams working at the kiosk's location (and of teams bound to none); anyone else types their username", async () => {
      const place = async (name: string) =>
        (await superadmin.post('/api/location-options').set(XHR).send({ name }).expect(201)).body.id as number;
      const [northDepot, southOffice] = [await place('North Depot'), await place('South Office')];
      const team = async (name: string, locationId: number) =>
        (
          await superadmin
            .post('/api/teams')
            .set(XHR)
            .send({ name, locationIds: [locationId] })
            .expect(201)
        ).body.id as number;
      const [north, south] = [await team('Kiosk North', northDepot), await team('Kiosk South', southOffice)];
      const [here, elsewhere, unbound] = [await createUser(), await createUser(), await createUser()];
      await superadmin.patch(`/api/users/${here.id}`).set(XHR).send({ teamId: north }).expect(200);
      await superadmin.patch(`/api/users/${elsewhere.id}`).set(XHR).send({ teamId: south }).expect(200);
      // The superadmin enrols a kiosk at North Depot.
      const device = await signIn(t.superadmin.username, t.superadmin.password);
      await device.post('/api/kiosks').set(XHR).send({ name: 'North desk', location: 'north depot' }).expect(201);
      await device.post('/api/auth/logout').set(XHR).send({}).expect(200);

      const ids = ((await device.get('/api/kiosks/roster').expect(200)).body.workers as { id: number }[]).map((w) => w.id);
      expect(ids).toContain(here.id);
      expect(ids).toContain(unbound.id); // "Default" works anywhere
      expect(ids).not.toContain(elsewhere.id);
      // South's worker is not listed, but signs in by username.
      await pinLogin(device, { username: elsewhere.username }, elsewhere.pin).expect(200);

      // Left as the other tests expect: one team.
      for (const w of [here, elsewhere]) await superadmin.delete(`/api/users/${w.id}`).set(XHR).expect(200);
      for (const id of [north, south]) await superadmin.delete(`/api/teams/${id}`).set(XHR).expect(200);
    });
  });

  describe('POST /api/auth/pin-login', () => {
    it('logs in the worker picked on the roster with their PIN; the session is a short one at this kiosk; logout returns to /kiosk', async () => {
      const w = await createUser();
      const { device, kiosk } = await enrolledDevice('Login desk', 'Depot');
      const res = await pinLogin(device, { userId: w.id }, w.pin).expect(200);
      expect(res.body).toEqual({
        id: w.id,
        username: w.username,
        name: expect.any(String),
        role: 'worker',
        phone: expect.any(String),
        language: 'en',
        kiosk: { location: 'Depot' },
      });
      const session = (res.headers['set-cookie'] as unknown as string[]).find((c) => c.startsWith('lws_sid='))!;
      expect(session).toMatch(/HttpOnly/);
      expect(session).not.toMatch(/Max-Age|Expires/);
      // Its screens start a shift at the kiosk's location, and sign out after 2 idle minutes.
      expect((await device.get('/api/auth/me').expect(200)).body).toMatchObject({ id: w.id, role: 'worker', kiosk: { location: 'Depot' } });
      expect(await sessionTtl(session)).toBeLessThanOrEqual(120);

      const listed = ((await admin.get('/api/kiosks').expect(200)).body as { id: number; lastUsedAt: string | null }[]).find(
        (k) => k.id === kiosk.id,
      )!;
      expect(listed.lastUsedAt).toEqual(expect.any(String));
      const event = await eventually(async () =>
        (await streamEvents(t, 'identity.login.succeeded.v1')).find((e) => e.data.userId === w.id && e.data.method === 'pin'),
      );
      expect(event.data).toEqual({ userId: w.id, username: w.username, method: 'pin' });

      const out = await device.post('/api/auth/logout').set(XHR).send({ fromKiosk: true }).expect(200);
      expect(out.body).toEqual({ ok: true, redirectTo: '/kiosk' });
      await device.get('/api/auth/me').expect(401);
    });

    it('logs in by a typed username too (any case), and two workers who share a PIN each get their own account', async () => {
      const a = await createUser();
      const b = await createUser({ pinCode: a.pin });
      const { device } = await enrolledDevice();
      expect((await pinLogin(device, { username: a.username.toUpperCase() }, a.pin).expect(200)).body.id).toBe(a.id);
      await device.post('/api/auth/logout').set(XHR).send({ fromKiosk: true }).expect(200);
      expect((await pinLogin(device, { userId: b.id }, a.pin).expect(200)).body.id).toBe(b.id);
    });

    it('needs the worker first: a PIN alone names nobody', async () => {
      const w = await createUser();
      const { device } = await enrolledDevice();
      expect((await device.post('/api/auth/pin-login').set(XHR).send({ pin: w.pin }).expect(400)).body).toEqual({
        message: 'Choose your name first',
        field: 'userId',
      });
      await device.get('/api/auth/me').expect(401);
    });

    it('is refused (403) to a browser that is not an enrolled kiosk', async () => {
      const w = await createUser();
      const res = await pinLogin(request.agent(t.url), { userId: w.id }, w.pin).expect(403);
      expect(res.body).toEqual({ message: 'This device is not an enrolled kiosk' });
      await request(t.url)
        .post('/api/auth/pin-login')
        .set(XHR)
        .set('Cookie', `lws_kiosk=${'B'.repeat(43)}`)
        .send({ userId: w.id, pin: w.pin })
        .expect(403);
    });

    it('revoking the kiosk refuses it (403) and signs out whoever is signed in at it at once', async () => {
      const w = await createUser();
      const { device, kiosk } = await enrolledDevice('Revoked desk');
      await pinLogin(device, { userId: w.id }, w.pin).expect(200);
      await device.get('/api/auth/me').expect(200);
      await admin.delete(`/api/kiosks/${kiosk.id}`).set(XHR).expect(200, { ok: true });
      await device.get('/api/auth/me').expect(401);
      expect((await pinLogin(device, { userId: w.id }, w.pin).expect(403)).body).toEqual({
        message: 'This device is not an enrolled kiosk',
      });
      expect((await device.get('/api/kiosks/current').expect(200)).body).toEqual({ enrolled: false });
      const listed = ((await admin.get('/api/kiosks').expect(200)).body as { id: number; revokedAt: string | null }[]).find(
        (k) => k.id === kiosk.id,
      )!;
      expect(listed.revokedAt).toEqual(expect.any(String));
      // The worker's own sessions elsewhere are untouched.
      await (await signIn(w.username, w.password)).get('/api/auth/me').expect(200);
    });

    it('revoking needs an admin and a real kiosk id', async () => {
      const w = await createUser();
      const workerAgent = await signIn(w.username, w.password);
      const { kiosk } = await enrolledDevice();
      await workerAgent.delete(`/api/kiosks/${kiosk.id}`).set(XHR).expect(403);
      await admin.delete('/api/kiosks/999999').set(XHR).expect(404);
      expect((await admin.delete('/api/kiosks/abc').set(XHR).expect(400)).body).toEqual({ message: 'Invalid kiosk ID', field: 'id' });
    });

    it('answers one 401 for a wrong PIN, an unknown username and an admin, naming no account', async () => {
      const w = await createUser();
      const { device } = await enrolledDevice();
      const INVALID = { message: 'Invalid name or PIN' };
      expect((await pinLogin(device, { userId: w.id }, unusedPin()).expect(401)).body).toEqual(INVALID);
      expect((await pinLogin(device, { username: 'nobody.here' }, w.pin).expect(401)).body).toEqual(INVALID);
      const other = (await enrolledDevice()).device;
      expect((await pinLogin(other, { userId: adminId }, adminPin).expect(401)).body).toEqual(INVALID);
      expect((await pinLogin(other, { userId: w.id }, '12x4').expect(400)).body).toEqual({
        message: 'PIN must be exactly 4 digits',
        field: 'pin',
      });
    });

    it('limits wrong PINs per device (429), without touching other kiosks', async () => {
      const w = await createUser();
      const victim = await createUser();
      const { device } = await enrolledDevice();
      for (let i = 0; i < MAX_FAILURES; i++) await pinLogin(device, { userId: victim.id }, unusedPin()).expect(401);
      const limited = await pinLogin(device, { userId: w.id }, w.pin).expect(429);
      expect(limited.body.message).toMatch(/Too many attempts/);
      const other = (await enrolledDevice()).device;
      await pinLogin(other, { userId: w.id }, w.pin).expect(200);
    });

    it("counts wrong PINs at kiosks toward the worker's lockout, and refuses a locked worker (423), the right PIN included", async () => {
      const w = await createUser();
      let wrongs = 0;
      while (wrongs < 4) {
        const { device } = await enrolledDevice();
        for (let i = 0; i < MAX_FAILURES && wrongs < 4; i++, wrongs++) await pinLogin(device, { userId: w.id }, unusedPin()).expect(401);
      }
      const { device } = await enrolledDevice();
      await pinLogin(device, { userId: w.id }, unusedPin()).expect(423);
      const res = await pinLogin(device, { userId: w.id }, w.pin).expect(423);
      expect(res.body).toEqual({ message: 'Too many incorrect PINs. PIN actions are locked for 15 minutes.' });
      // The lock is the worker's, on every PIN step.
      const workerAgent = await signIn(w.username, w.password);
      await workerAgent.post(`/api/users/${w.id}/verify-pin`).set(XHR).send({ pin: w.pin }).expect(423);
    });
  });

  it('never writes a PIN or kiosk token to any log line', () => {
    const all = t.logs.join('');
    for (const pin of pinsInUse) expect(all).not.toMatch(new RegExp(`"${pin}"`));
    expect(tokens.length).toBeGreaterThan(0);
    for (const token of tokens) expect(all).not.toContain(token);
    expect(all).not.toMatch(/[0-9a-f]{64}/);
  });
});
