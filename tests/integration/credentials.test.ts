import request from 'supertest';
import { eventually } from '@lws/testing';
import { startTestStack, XHR, type TestStack } from './support/test-stack';
import { streamEvents } from './support/stream-events';

/** PINs and passwords end to end: gateway → identity over NATS, PostgreSQL, Redis sessions, JetStream events. */
describe('credentials (PINs and passwords)', () => {
  let t: TestStack;
  let superadmin: request.Agent;
  let admin: request.Agent;
  /** Every PIN any account of this test's database holds, so a PIN chosen here is known to be free. */
  const pinsInUse = new Set<string>();
  let serial = 0;

  const INCORRECT = { message: 'Incorrect PIN. Please try again.', field: 'pin' };
  const LOCKED = { message: 'Too many incorrect PINs. PIN actions are locked for 15 minutes.' };

  function unusedPin(): string {
    for (;;) {
      const pin = String(Math.floor(Math.random() * 10_000)).padStart(4, '0');
      if (!pinsInUse.has(pin)) return pin;
    }
  }

  function otherPin(pin: string): string {
    let other = unusedPin();
    while (other === pin) other = unusedPin();
    return other;
  }

  async function signIn(username: string, password: string): Promise<request.Agent> {
    const agent = request.agent(t.url);
    await agent.post('/api/auth/login').set(XHR).send({ username, password }).expect(200);
    return agent;
  }

  async function createUser(extra: Record<string, unknown> = {}, by: request.Agent = superadmin) {
    serial += 1;
    const body = {
      username: `cred${serial}`,
      password: 'secret1',
      name: `Cred ${serial}`,
      phone: `+4479111231${String(serial).padStart(2, '0')}`,
      role: 'worker',
      ...extra,
    };
    const res = await by.post('/api/users').set(XHR).send(body).expect(201);
    const pin = (extra.pinCode as string | undefined) ?? (res.body.generatedPin as string);
    pinsInUse.add(pin);
    return { id: res.body.user.id as number, username: body.username, password: body.password, pin, reply: res.body };
  }

  async function worker(extra: Record<string, unknown> = {}) {
    const user = await createUser({ pinCode: unusedPin(), ...extra });
    return { ...user, agent: await signIn(user.username, user.password) };
  }

  beforeAll(async () => {
    // Many sign-ins from one address: the per-IP login limit is not under test here.
    t = await startTestStack({ env: { LOGIN_MAX_ATTEMPTS_PER_IP: '1000' } });
    superadmin = await signIn(t.superadmin.username, t.superadmin.password);
    const a = await createUser({ role: 'admin', pinCode: unusedPin() });
    admin = await signIn(a.username, a.password);
  }, 120_000);
  afterAll(() => t?.stop());

  describe('a PIN on creation', () => {
    it("keeps the creator's PIN and returns none", async () => {
      const pin = unusedPin();
      const user = await createUser({ pinCode: pin });
      expect(user.reply).toEqual({ user: expect.objectContaining({ id: user.id, username: user.username }) });
      const agent = await signIn(user.username, user.password);
      await agent.post(`/api/users/${user.id}/verify-pin`).set(XHR).send({ pin }).expect(200, { valid: true });
    });

    it('generates a PIN when none is given, returned once and only to the creator', async () => {
      const user = await createUser();
      expect(user.reply.generatedPin).toMatch(/^\d{4}$/);
      const agent = await signIn(user.username, user.password);
      const me = await agent.get('/api/auth/me').expect(200);
      expect(me.body).toEqual({
        id: user.id,
        username: user.username,
        name: expect.any(String),
        role: 'worker',
        phone: expect.any(String),
        language: 'en',
        pinSet: true,
        passwordIsTemporary: false,
        duressPinSet: false,
      });
      expect(JSON.stringify(me.body)).not.toContain(user.pin);
      await agent.post(`/api/users/${user.id}/verify-pin`).set(XHR).send({ pin: user.pin }).expect(200, { valid: true });
    });

    it('creates a user with a PIN another user has: PINs are not unique, so a PIN reveals nobody', async () => {
      const taken = await createUser({ pinCode: unusedPin() });
      const res = await superadmin
        .post('/api/users')
        .set(XHR)
        .send({
          username: 'clash.user',
          password: 'secret1',
          name: 'Clash User',
          phone: '+447911123199',
          role: 'worker',
          pinCode: taken.pin,
        })
        .expect(201);
      const clash = await signIn('clash.user', 'secret1');
      await clash.post(`/api/users/${res.body.user.id}/verify-pin`).set(XHR).send({ pin: taken.pin }).expect(200, { valid: true });
    });

    it('validates pinCode at the edge', async () => {
      const res = await superadmin
        .post('/api/users')
        .set(XHR)
        .send({ username: 'bad.pin', password: 'secret1', name: 'Bad Pin', phone: '+447911123198', role: 'worker', pinCode: '12a4' })
        .expect(400);
      expect(res.body).toEqual({ message: 'PIN must be exactly 4 digits', field: 'pinCode' });
    });
  });

  describe('POST /api/users/{id}/verify-pin', () => {
    it('answers {valid: true} for the right PIN and 400 for a wrong or malformed one', async () => {
      const w = await worker();
      await w.agent.post(`/api/users/${w.id}/verify-pin`).set(XHR).send({ pin: w.pin }).expect(200, { valid: true });
      expect(
        (
          await w.agent
            .post(`/api/users/${w.id}/verify-pin`)
            .set(XHR)
            .send({ pin: otherPin(w.pin) })
            .expect(400)
        ).body,
      ).toEqual(INCORRECT);
      expect((await w.agent.post(`/api/users/${w.id}/verify-pin`).set(XHR).send({ pin: '12' }).expect(400)).body).toEqual({
        message: 'PIN must be exactly 4 digits',
        field: 'pin',
      });
    });

    it('is for the account holder only: not other workers, not admins, not the superadmin', async () => {
      const w = await worker();
      const other = await worker();
      await other.agent.post(`/api/users/${w.id}/verify-pin`).set(XHR).send({ pin: w.pin }).expect(403);
      await admin.post(`/api/users/${w.id}/verify-pin`).set(XHR).send({ pin: w.pin }).expect(403);
      await superadmin.post(`/api/users/${w.id}/verify-pin`).set(XHR).send({ pin: w.pin }).expect(403);
      await request(t.url).post(`/api/users/${w.id}/verify-pin`).set(XHR).send({ pin: w.pin }).expect(401);
    });

    it('five wrong PINs lock PIN actions (423 even for the right PIN) and publish identity.pin.locked.v1', async () => {
      const w = await worker();
      const wrong = otherPin(w.pin);
      for (let i = 0; i < 4; i++) {
        expect((await w.agent.post(`/api/users/${w.id}/verify-pin`).set(XHR).send({ pin: wrong }).expect(400)).body).toEqual(INCORRECT);
      }
      expect((await w.agent.post(`/api/users/${w.id}/verify-pin`).set(XHR).send({ pin: wrong }).expect(423)).body).toEqual(LOCKED);
      expect((await w.agent.post(`/api/users/${w.id}/verify-pin`).set(XHR).send({ pin: w.pin }).expect(423)).body).toEqual(LOCKED);
      const change = await w.agent.patch(`/api/users/${w.id}`).set(XHR).send({ currentPin: w.pin, pinCode: unusedPin() }).expect(423);
      expect(change.body).toEqual(LOCKED);

      const event = await eventually(
        async () => (await streamEvents(t, 'identity.pin.locked.v1')).find((e) => e.data.userId === w.id),
        15_000,
      );
      expect(event.producer).toBe('identity');
      expect(event.data).toEqual({ userId: w.id, username: w.username, lockedUntil: expect.any(String) });
      const lockedForMs = Date.parse(event.data.lockedUntil as string) - Date.parse(event.occurredAt);
      expect(lockedForMs).toBeGreaterThan(15 * 60_000 - 5_000);
      expect(lockedForMs).toBeLessThanOrEqual(15 * 60_000);
    });

    it('a correct PIN clears earlier failures', async () => {
      const w = await worker();
      const wrong = otherPin(w.pin);
      for (let i = 0; i < 4; i++) await w.agent.post(`/api/users/${w.id}/verify-pin`).set(XHR).send({ pin: wrong }).expect(400);
      await w.agent.post(`/api/users/${w.id}/verify-pin`).set(XHR).send({ pin: w.pin }).expect(200);
      for (let i = 0; i < 4; i++) await w.agent.post(`/api/users/${w.id}/verify-pin`).set(XHR).send({ pin: wrong }).expect(400);
      await w.agent.post(`/api/users/${w.id}/verify-pin`).set(XHR).send({ pin: w.pin }).expect(200);
    });
  });

  describe('PATCH /api/users/{id} with {currentPin, pinCode}', () => {
    it('changes the PIN after checking the current one: the new PIN works, the old does not', async () => {
      const w = await worker();
      const next = unusedPin();
      const res = await w.agent.patch(`/api/users/${w.id}`).set(XHR).send({ currentPin: w.pin, pinCode: next }).expect(200);
      pinsInUse.add(next);
      expect(res.body).toEqual(expect.objectContaining({ id: w.id, username: w.username, pinSet: true }));
      await w.agent.post(`/api/users/${w.id}/verify-pin`).set(XHR).send({ pin: next }).expect(200);
      await w.agent.post(`/api/users/${w.id}/verify-pin`).set(XHR).send({ pin: w.pin }).expect(400);
      const event = await eventually(async () =>
        (await streamEvents(t, 'identity.credential.changed.v1')).find((e) => e.data.userId === w.id && e.data.credential === 'pin'),
      );
      expect(event.data).toEqual({ userId: w.id, credential: 'pin', changedBy: w.id, reset: false });
    });

    it('refuses a wrong or missing current PIN and keeps the old PIN', async () => {
      const w = await worker();
      const next = unusedPin();
      const wrong = await w.agent
        .patch(`/api/users/${w.id}`)
        .set(XHR)
        .send({ currentPin: otherPin(w.pin), pinCode: next })
        .expect(400);
      expect(wrong.body).toEqual({ ...INCORRECT, field: 'currentPin' });
      const missing = await w.agent.patch(`/api/users/${w.id}`).set(XHR).send({ pinCode: next }).expect(400);
      expect(missing.body).toEqual({ message: 'Current PIN is required', field: 'currentPin' });
      await w.agent.post(`/api/users/${w.id}/verify-pin`).set(XHR).send({ pin: w.pin }).expect(200);
    });

    it("takes another user's PIN like any other: choosing a PIN tells nothing about anyone else's (it was a 409 oracle)", async () => {
      const w = await worker();
      const other = await worker();
      await w.agent.patch(`/api/users/${w.id}`).set(XHR).send({ currentPin: w.pin, pinCode: other.pin }).expect(200);
      await w.agent.post(`/api/users/${w.id}/verify-pin`).set(XHR).send({ pin: other.pin }).expect(200);
      // The other worker's PIN is theirs as before.
      await other.agent.post(`/api/users/${other.id}/verify-pin`).set(XHR).send({ pin: other.pin }).expect(200);
    });

    it('validates the new PIN and is for the account holder only', async () => {
      const w = await worker();
      const bad = await w.agent.patch(`/api/users/${w.id}`).set(XHR).send({ currentPin: w.pin, pinCode: '123' }).expect(400);
      expect(bad.body).toEqual({ message: 'PIN must be exactly 4 digits', field: 'pinCode' });
      await admin.patch(`/api/users/${w.id}`).set(XHR).send({ pinCode: unusedPin() }).expect(403);
      await superadmin.patch(`/api/users/${w.id}`).set(XHR).send({ pinCode: unusedPin() }).expect(403);
    });
  });

  describe('POST /api/auth/change-password', () => {
    const change = (agent: request.Agent, body: Record<string, unknown>) => agent.post('/api/auth/change-password').set(XHR).send(body);

    it.each([
      [{}, 'currentPassword', 'Current password is required'],
      [{ currentPassword: '   ', newPassword: 'Abcdef1' }, 'currentPassword', 'Current password is required'],
      [{ currentPassword: 'secret1', newPassword: ' Ab1  ' }, 'newPassword', 'New password must be at least 6 characters'],
      [{ currentPassword: 'secret1', newPassword: 'abcdef1' }, 'newPassword', 'Password must contain at least one uppercase letter'],
      [{ currentPassword: 'secret1', newPassword: 'Abcdefg' }, 'newPassword', 'Password must contain at least one number'],
    ])('rejects %p naming %s, and changes nothing', async (body, field, message) => {
      const w = await worker();
      expect((await change(w.agent, body).expect(400)).body).toEqual({ message, field });
      await signIn(w.username, w.password);
    });

    it('refuses a wrong current password', async () => {
      const w = await worker();
      const res = await change(w.agent, { currentPassword: 'not-it', newPassword: 'Newpass1' }).expect(400);
      expect(res.body).toEqual({ message: 'Current password is incorrect', field: 'currentPassword' });
      await signIn(w.username, w.password);
    });

    it('changes the password (trimmed), keeps this session and revokes every other one', async () => {
      const w = await worker();
      const elsewhere = await signIn(w.username, w.password);
      const res = await change(w.agent, { currentPassword: ` ${w.password} `, newPassword: '  Newpass1 ' }).expect(200);
      expect(res.body).toEqual({ message: 'Password changed' });
      await w.agent.get('/api/auth/me').expect(200);
      await elsewhere.get('/api/auth/me').expect(401);
      await request(t.url).post('/api/auth/login').set(XHR).send({ username: w.username, password: w.password }).expect(401);
      await signIn(w.username, 'Newpass1');
    });

    it('makes a session wait after repeated wrong current passwords', async () => {
      const w = await worker();
      for (let i = 0; i < 5; i++) await change(w.agent, { currentPassword: `wrong-${i}`, newPassword: 'Newpass1' }).expect(400);
      const res = await change(w.agent, { currentPassword: w.password, newPassword: 'Newpass1' }).expect(429);
      expect(res.body.message).toMatch(/Too many incorrect passwords/);
      await signIn(w.username, w.password);
    });

    it('needs a session', async () => {
      await request(t.url).post('/api/auth/change-password').set(XHR).send({ currentPassword: 'x', newPassword: 'Newpass1' }).expect(401);
    });
  });

  describe('superadmin resets', () => {
    it('reset-pin issues a one-time PIN: it works, the old one does not, and a lockout is lifted', async () => {
      const w = await worker();
      const wrong = otherPin(w.pin);
      for (let i = 0; i < 5; i++) await w.agent.post(`/api/users/${w.id}/verify-pin`).set(XHR).send({ pin: wrong });
      await w.agent.post(`/api/users/${w.id}/verify-pin`).set(XHR).send({ pin: w.pin }).expect(423);

      const res = await superadmin.post(`/api/users/${w.id}/reset-pin`).set(XHR).send({}).expect(200);
      expect(res.body).toEqual({ pin: expect.stringMatching(/^\d{4}$/) });
      pinsInUse.add(res.body.pin);
      await w.agent.post(`/api/users/${w.id}/verify-pin`).set(XHR).send({ pin: res.body.pin }).expect(200, { valid: true });
      if (res.body.pin !== w.pin) await w.agent.post(`/api/users/${w.id}/verify-pin`).set(XHR).send({ pin: w.pin }).expect(400);

      const event = await eventually(async () =>
        (await streamEvents(t, 'identity.credential.changed.v1')).find((e) => e.data.userId === w.id && e.data.reset === true),
      );
      expect(event.data).toEqual({ userId: w.id, credential: 'pin', changedBy: expect.any(Number), reset: true });
    });

    it('reset-password issues a one-time password meeting the policy and ends the user’s sessions', async () => {
      const w = await worker();
      const res = await superadmin.post(`/api/users/${w.id}/reset-password`).set(XHR).send({}).expect(200);
      const temporary = res.body.temporaryPassword as string;
      expect(Object.keys(res.body)).toEqual(['temporaryPassword']);
      expect(temporary.length).toBeGreaterThanOrEqual(6);
      expect(temporary).toMatch(/[A-Z]/);
      expect(temporary).toMatch(/[0-9]/);

      await w.agent.get('/api/auth/me').expect(401);
      await request(t.url).post('/api/auth/login').set(XHR).send({ username: w.username, password: w.password }).expect(401);
      const again = await signIn(w.username, temporary);
      expect((await again.get('/api/auth/me').expect(200)).body.passwordIsTemporary).toBe(true);

      await again.post('/api/auth/change-password').set(XHR).send({ currentPassword: temporary, newPassword: 'Chosen123' }).expect(200);
      expect((await again.get('/api/auth/me').expect(200)).body.passwordIsTemporary).toBe(false);
      await request(t.url).post('/api/auth/login').set(XHR).send({ username: w.username, password: temporary }).expect(401);
    });

    it('is refused to admins and workers (403) and anonymous callers (401)', async () => {
      const w = await worker();
      for (const path of ['reset-pin', 'reset-password']) {
        await admin.post(`/api/users/${w.id}/${path}`).set(XHR).send({}).expect(403);
        await w.agent.post(`/api/users/${w.id}/${path}`).set(XHR).send({}).expect(403);
        await request(t.url).post(`/api/users/${w.id}/${path}`).set(XHR).send({}).expect(401);
      }
      await signIn(w.username, w.password);
      await w.agent.post(`/api/users/${w.id}/verify-pin`).set(XHR).send({ pin: w.pin }).expect(200);
    });

    it('answers 404 for an unknown user and 400 for a bad id', async () => {
      await superadmin.post('/api/users/999999/reset-pin').set(XHR).send({}).expect(404);
      expect((await superadmin.post('/api/users/abc/reset-password').set(XHR).send({}).expect(400)).body).toEqual({
        message: 'Invalid user ID',
        field: 'id',
      });
    });
  });

  it('a user without a PIN is told so', async () => {
    // Only the superadmin starts without one (created at first start).
    const me = await superadmin.get('/api/auth/me').expect(200);
    expect(me.body.pinSet).toBe(false);
    const res = await superadmin.post(`/api/users/${me.body.id}/verify-pin`).set(XHR).send({ pin: '1234' }).expect(400);
    expect(res.body).toEqual({ message: 'No PIN set', field: 'pin' });
  });

  it('never writes a PIN, password or hash to any log line', () => {
    const all = t.logs.join('');
    expect(all.length).toBeGreaterThan(0);
    for (const pin of pinsInUse) expect(all).not.toMatch(new RegExp(`"${pin}"`));
    for (const secret of ['Newpass1', 'Chosen123', 'secret1']) expect(all).not.toContain(secret);
    expect(all).not.toMatch(/\$argon2id\$/);
    expect(all).not.toMatch(/[0-9a-f]{64}/);
  });
});
