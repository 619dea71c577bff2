import { gzipSync } from 'node:zlib';
import request from 'supertest';
import { Client } from 'pg';
import { eventually } from '@lws/testing';
import { startTestStack, XHR, type TestStack } from './support/test-stack';
import { createAccount, nextMobile, superadminOf, type Account } from './support/accounts';

/**
 * What a probe found from outside, each as the attacker sent it: CSRF walked around by
 * spelling the path differently, 500s on bad input, fields silently ignored, contacts that are no
 * phone numbers, secrets a browser could cache.
 */
describe('security: CSRF on every spelling, bad input is a 4xx, no cached secrets', () => {
  let t: TestStack;
  let db: Client;
  let superadmin: Account;
  let worker: Account;

  beforeAll(async () => {
    t = await startTestStack({ env: { LOGIN_MAX_ATTEMPTS_PER_IP: '1000' } });
    db = new Client({ connectionString: t.env.DATABASE_URL });
    await db.connect();
    superadmin = await superadminOf(t);
    worker = await createAccount(t, superadmin.agent, 'worker', 'sec');
  }, 120_000);

  afterAll(async () => {
    await db?.end();
    await t?.stop();
  });

  const users = async () => (await db.query('select count(*)::int as n from identity.users')).rows[0].n as number;
  const onShift = async (id: number) =>
    (await db.query('select 1 from shifts.shifts where user_id = $1 and ended_at is null', [id])).rowCount;
  const host = () => new URL(t.url).host;

  it('a cross-site form cannot create an account or end a shift, however the path is spelled', async () => {
    await superadmin.agent.post('/api/location-options').set(XHR).send({ name: 'Security Depot' }).expect(201);
    // Shifts learns of the new location from its event: the shift can start once it has.
    await eventually(
      async () =>
        (await worker.agent.post(`/api/users/${worker.id}/start-shift`).set(XHR).send({ location: 'Security Depot' })).status === 200,
    );
    const before = await users();
    const form = `username=csrf${Date.now()}&password=Secret123&name=Mallory+Admin&phone=%2B447911123456&role=admin`;
    for (const path of ['/API/users', '/Api/users', '/api/users/', '/aPI/USERS', '/api/%75sers', '/api//users']) {
      for (const [type, body] of [
        ['application/x-www-form-urlencoded', form],
        [
          'text/plain',
          JSON.stringify({ username: `csrf${Date.now()}`, password: 'Secret123', name: 'Mallory', phone: '+447911123456', role: 'admin' }),
        ],
        ['multipart/form-data; boundary=x', '--x\r\nContent-Disposition: form-data; name="username"\r\n\r\nmallory\r\n--x--\r\n'],
      ]) {
        const res = await superadmin.agent.post(path).set('Content-Type', type).send(body);
        expect([path, type, res.status]).toEqual([path, type, 403]);
      }
    }
    for (const path of [
      `/API/users/${worker.id}/force-clock-out`,
      `/api/USERS/${worker.id}/force-clock-out`,
      `/api/users/${worker.id}/force-clock-out/`,
    ]) {
      const res = await superadmin.agent.post(path).type('form').send('x=1');
      expect([path, res.status]).toEqual([path, 403]);
    }
    expect(await users()).toBe(before);
    expect(await onShift(worker.id)).toBe(1);
  });

  it("a request a browser marks as from another origin is refused even with the header; LWS's own origin passes", async () => {
    const before = await users();
    const body = (n: string) => ({
      username: `origin-${n}-${Date.now()}`,
      password: 'Secret123',
      name: 'Origin Test',
      phone: nextMobile(),
      role: 'worker',
    });
    for (const headers of [
      { 'Sec-Fetch-Site': 'same-site' },
      { 'Sec-Fetch-Site': 'cross-site' },
      { Origin: 'https://evil.example' },
      { Origin: 'null' },
      { Origin: `http://${host()}.evil.example` },
    ]) {
      const res = await superadmin.agent.post('/api/users').set(XHR).set(headers).send(body('x'));
      expect([headers, res.status, res.body.message]).toEqual([headers, 403, expect.stringContaining('Cross-origin request refused')]);
    }
    expect(await users()).toBe(before);
    await superadmin.agent
      .post('/api/users')
      .set(XHR)
      .set({ Origin: `http://${host()}`, 'Sec-Fetch-Site': 'same-origin' })
      .send(body('ok'))
      .expect(201);
    expect(await users()).toBe(before + 1);
  });

  it('NUL characters and bidi overrides are a 400 naming the field, wherever they are sent, and nothing is written', async () => {
    const before = await users();
    const cases: [string, string, Record<string, unknown>, string][] = [
      ['post', '/api/auth/login', { username: 'a\u0000b', password: 'x' }, 'username'],
      // Found by the fuzzer's long run: a lone surrogate reached the login-failed event's JSON and PostgreSQL refused it.
      ['post', '/api/auth/login', { username: '\ud800', password: 'x' }, 'username'],
      ['post', '/api/auth/login', { username: 'ok', password: 'x\udc00y' }, 'password'],
      ['post', '/api/users', { username: 'nul-user', password: 'Secret123', name: 'Nul\u0000Name', phone: '+447911123456' }, 'name'],
      ['post', '/api/users', { username: 'bidi-user', password: 'Secret123', name: 'Evil \u202Etxt.exe', phone: '+447911123456' }, 'name'],
      ['patch', `/api/users/${worker.id}`, { medicalInfo: 'asthma\u0000' }, 'medicalInfo'],
      ['post', '/api/location-options', { name: 'Depot\u0000' }, 'name'],
      ['post', '/api/location-options', { name: 'Depot \u2066isolate\u2069' }, 'name'],
      ['post', '/api/emergency-contacts', { userId: worker.id, name: 'Mum', phone: '+447911123456', relation: 'mother\u0000' }, 'relation'],
      ['post', '/api/activity-logs', { userId: superadmin.id, type: 'system_alert', details: 'x\u0000' }, 'details'],
      ['post', '/api/kiosks', { name: 'Kiosk\u0000', location: 'Depot' }, 'name'],
    ];
    for (const [method, path, body, field] of cases) {
      const agent = method === 'patch' ? superadmin.agent.patch(path) : superadmin.agent.post(path);
      const res = await agent.set(XHR).send(body);
      expect([path, res.status, res.body.field]).toEqual([path, 400, field]);
    }
    const start = await worker.agent.post('/api/check-ins').set(XHR).send({ userId: worker.id, location: 'Depot\u0000', pin: '1234' });
    expect(start.status).toBe(400);
    const query = await superadmin.agent.get('/api/activity-logs?userId=%00');
    expect(query.status).toBe(400);
    const nested = await superadmin.agent
      .post('/api/users')
      .set(XHR)
      .set('Content-Type', 'application/json')
      .send(`${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`);
    expect(nested.status).toBe(400);
    expect(await users()).toBe(before);
  });

  it('a body that is too large, in an unknown charset or encoding, or broken, is a 4xx that says so', async () => {
    const big = await superadmin.agent
      .post('/api/location-options')
      .set(XHR)
      .send({ name: 'x'.repeat(200_000) });
    expect(big.status).toBe(413);
    expect(big.body.message).toContain('100 KB');
    const charset = await superadmin.agent
      .post('/api/location-options')
      .set(XHR)
      .set('Content-Type', 'application/json; charset=foo')
      .send('{"name":"Depot"}');
    expect([charset.status, charset.body.message]).toEqual([415, expect.stringContaining('charset')]);
    const encoding = await superadmin.agent
      .post('/api/location-options')
      .set(XHR)
      .set({ 'Content-Type': 'application/json', 'Content-Encoding': 'x-unknown' })
      .send('{"name":"Depot"}');
    expect(encoding.status).toBe(415);
    const gzip = gzipSync(Buffer.from('{"name":"Gzip Depot"}'));
    const broken = await superadmin.agent
      .post('/api/location-options')
      .set(XHR)
      .set({ 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' })
      .send(gzip.subarray(0, gzip.length - 8).toString('latin1'));
    expect(broken.status).toBe(400);
    const json = await superadmin.agent.post('/api/location-options').set(XHR).set('Content-Type', 'application/json').send('{"name":');
    expect([json.status, json.body.message]).toEqual([400, expect.stringContaining('JSON')]);
  });

  it('a remote file that does not exist, a directory, a NUL or a traversal is a 404', async () => {
    for (const path of [
      '/remotes/admin/nonexistent.js',
      '/remotes/admin/',
      '/remotes/worker/%00',
      '/remotes/admin/..%2f..%2fpackage.json',
      '/remotes/admin/%2e%2e/%2e%2e/package.json',
    ]) {
      const res = await request(t.url).get(path);
      expect([path, res.status]).toEqual([path, 404]);
    }
  });

  it('a field a call does not take is refused by name on create as on update', async () => {
    const before = await users();
    const res = await superadmin.agent
      .post('/api/users')
      .set(XHR)
      .send({ username: `extra${Date.now()}`, password: 'Secret123', name: 'Extra Field', phone: '+447911123456', isAdmin: true });
    expect([res.status, res.body]).toEqual([400, { message: 'Unknown field: isAdmin', field: 'isAdmin' }]);
    expect(await users()).toBe(before);
    const shift = await superadmin.agent.post('/api/kiosks').set(XHR).send({ name: 'Front desk', location: 'Depot', trusted: true });
    expect([shift.status, shift.body.field]).toEqual([400, 'trusted']);
    // "__proto__" is a field like any other, not a way to smuggle fields past the schema.
    const smuggled = await superadmin.agent
      .post('/api/users')
      .set(XHR)
      .set('Content-Type', 'application/json')
      .send(
        `{"username":"proto${Date.now()}","password":"Secret123","name":"Proto Field","phone":"+447911123456","__proto__":{"role":"admin"}}`,
      );
    expect([smuggled.status, smuggled.body]).toEqual([400, { message: 'Unknown field: __proto__', field: '__proto__' }]);
    expect(await users()).toBe(before);
  });

  it('emergency contact numbers in settings are real phone numbers, stored in E.164', async () => {
    const bad = await worker.agent
      .post('/api/settings')
      .set(XHR)
      .send({ userId: worker.id, primaryContact: 'javascript:alert(1)//', checkInInterval: 60 });
    expect([bad.status, bad.body.field]).toEqual([400, 'primaryContact']);
    const badSecond = await worker.agent
      .post('/api/settings')
      .set(XHR)
      .send({ userId: worker.id, primaryContact: '+447911123456', secondaryContact: '<img src=x onerror=alert(1)>', checkInInterval: 60 });
    expect([badSecond.status, badSecond.body.field]).toEqual([400, 'secondaryContact']);
    const ok = await worker.agent
      .post('/api/settings')
      .set(XHR)
      .send({ userId: worker.id, primaryContact: '07911 123456', checkInInterval: 60 });
    expect(ok.status).toBeLessThan(300);
    const { rows } = await db.query('select primary_contact from identity.user_settings where user_id = $1', [worker.id]);
    expect(rows[0].primary_contact).toBe('+447911123456');
  });

  it('answers carrying a one-time secret or medical information may not be cached', async () => {
    const pin = await superadmin.agent.post(`/api/users/${worker.id}/reset-pin`).set(XHR).send({});
    expect([pin.status, pin.headers['cache-control']]).toEqual([200, 'no-store']);
    const password = await superadmin.agent.post(`/api/users/${worker.id}/reset-password`).set(XHR).send({});
    expect([password.status, password.headers['cache-control']]).toEqual([200, 'no-store']);
    const relations = await superadmin.agent.get(`/api/users/${worker.id}/with-relations`);
    expect([relations.status, relations.headers['cache-control']]).toEqual([200, 'no-store']);
  });
});
