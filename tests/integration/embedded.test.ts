import request from 'supertest';
import { startTestStack, XHR, type TestStack } from './support/test-stack';

describe('embedded mode (PGlite, in-process bus, in-memory sessions)', () => {
  let t: TestStack;
  let superadminPassword = '';

  /**
   * Starting the embedded stack opens PGlite (WebAssembly PostgreSQL) and migrates seven schemas in
   * one process: on two busy cores (the chaos suites run alongside) that has taken over a minute.
   */
  const STACK_START_MS = 180_000;

  beforeAll(async () => {
    t = await startTestStack({ embedded: true, env: { LWS_SUPERADMIN_PASSWORD: '' } });
  }, STACK_START_MS);
  afterAll(() => t?.stop());

  it(
    'generates a superadmin password, shows it once, and it logs in end to end',
    async () => {
      expect(t.announcements).toHaveLength(1);
      const m = /Username: superadmin {2}Password: (\S+)/.exec(t.announcements[0]);
      expect(m).not.toBeNull();
      const password = m![1];
      expect(password.length).toBeGreaterThanOrEqual(20);
      expect(t.logs.join('')).not.toContain(password);

      const agent = request.agent(t.url);
      await agent.post('/api/auth/login').set(XHR).send({ username: 'superadmin', password }).expect(200);
      const status = await agent.get('/api/system/status').expect(200);
      expect(status.body.allReady).toBe(true);

      await t.restart();
      expect(t.announcements).toHaveLength(1);
      await request(t.url).post('/api/auth/login').set(XHR).send({ username: 'superadmin', password }).expect(200);
      superadminPassword = password;
      // It restarts the stack: the same budget as the first start, and then some for the rest.
    },
    STACK_START_MS + 60_000,
  );

  it('runs the accounts flows on PGlite: PINs (a shared one too), contacts, settings, kiosk login', async () => {
    const admin = request.agent(t.url);
    await admin.post('/api/auth/login').set(XHR).send({ username: 'superadmin', password: superadminPassword }).expect(200);
    const worker = { password: 'secret1', name: 'Embedded Worker', phone: '+447911123456', role: 'worker' };
    const created = await admin
      .post('/api/users')
      .set(XHR)
      .send({ ...worker, username: 'emb.one', pinCode: '4321' })
      .expect(201);
    // PINs are not unique: a second worker may have the same one (a phone number, though, is a worker's own).
    await admin
      .post('/api/users')
      .set(XHR)
      .send({ ...worker, phone: '+447911123455', username: 'emb.same', pinCode: '4321' })
      .expect(201);
    const generated = await admin
      .post('/api/users')
      .set(XHR)
      .send({ ...worker, phone: '+447911123454', username: 'emb.two' })
      .expect(201);
    expect(generated.body.generatedPin).toMatch(/^\d{4}$/);

    const w = request.agent(t.url);
    await w.post('/api/auth/login').set(XHR).send({ username: 'emb.one', password: 'secret1' }).expect(200);
    const id = created.body.user.id;
    await w.post(`/api/users/${id}/verify-pin`).set(XHR).send({ pin: '4321' }).expect(200);
    await w.post(`/api/users/${id}/verify-pin`).set(XHR).send({ pin: '1111' }).expect(400);
    await w
      .post('/api/emergency-contacts')
      .set(XHR)
      .send({ userId: id, name: 'Sam Carer', phone: '07911 123457', relation: 'Partner' })
      .expect(201);
    await w.patch(`/api/users/${id}/settings`).set(XHR).send({ primaryContact: '+447911123457', checkInInterval: '120' }).expect(200);
    const rel = await w.get(`/api/users/${id}/with-relations`).expect(200);
    expect(rel.body.settings.checkInInterval).toBe(120);
    expect(rel.body.emergencyContacts).toEqual([
      expect.objectContaining({ name: 'Sam Carer', phone: '+447911123457', relation: 'Partner' }),
    ]);

    const terminal = request.agent(t.url);
    await terminal.post('/api/auth/login').set(XHR).send({ username: 'superadmin', password: superadminPassword }).expect(200);
    await terminal.post('/api/kiosks').set(XHR).send({ name: 'Front desk', location: 'The Prospect Building' }).expect(201);
    await terminal.post('/api/auth/logout').set(XHR).send({ fromKiosk: true }).expect(200);
    const kioskLogin = await terminal.post('/api/auth/pin-login').set(XHR).send({ username: 'emb.one', pin: '4321' }).expect(200);
    expect(kioskLogin.body.username).toBe('emb.one');
  });
});
