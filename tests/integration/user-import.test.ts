import { connect } from 'node:net';
import { Client } from 'pg';
import request from 'supertest';
import { eventually } from '@lws/testing';
import { startTestStack, XHR, type TestStack } from './support/test-stack';
import { createAccount, nextMobile, signIn, superadminOf, type Account } from './support/accounts';
import { sessionCookie } from './support/sse-client';

/**
 * Bulk onboarding: POST /api/users/import takes a CSV. The dry run says what each
 * row would do and changes nothing; the real run applies every row or none, and importing the same
 * file twice changes nothing the second time. New accounts' credentials come back once.
 */
describe('importing accounts from a CSV file', () => {
  let t: TestStack;
  let db: Client;
  let superadmin: Account;
  let admin: Account;
  let existing: Account;
  let northId: number;

  const post = (csv: string, query = '') =>
    superadmin.agent.post(`/api/users/import${query}`).set(XHR).set('Content-Type', 'text/csv').send(csv);
  /** Everything an import may change: accounts (with their PIN hashes and versions), teams, and events. */
  const snapshot = async () =>
    (
      await db.query(
        `select (select md5(string_agg(id || username || name || coalesce(phone, '') || coalesce(team_id, 0) || coalesce(pin_hash, '') || version, ',' order by id)) from identity.users) as users,
                (select md5(string_agg(id || monitors::text || version, ',' order by id)) from identity.teams) as teams,
                (select count(*) from identity.outbox) as events,
                (select count(*) from identity.user_import_rows) as staged`,
      )
    ).rows[0];

  beforeAll(async () => {
    t = await startTestStack({ env: { LOGIN_MAX_ATTEMPTS_PER_IP: '1000' } });
    db = new Client({ connectionString: t.env.DATABASE_URL });
    await db.connect();
    superadmin = await superadminOf(t);
    admin = await createAccount(t, superadmin.agent, 'admin', 'iadmin');
    existing = await createAccount(t, admin.agent, 'worker', 'iworker');
    northId = (await superadmin.agent.post('/api/teams').set(XHR).send({ name: 'North Estates' }).expect(201)).body.id;
  }, 120_000);

  afterAll(async () => {
    await db?.end();
    await t?.stop();
  });

  it('a dry run says what each row would do, naming the field and reason of each error, and changes nothing', async () => {
    const before = await snapshot();
    const newPhone = nextMobile();
    const csv = [
      'username,name,phone,role,team,pin',
      `dry.new,Dee New,${nextMobile()},worker,North Estates,`,
      `${existing.username.toUpperCase()},iworker person,${newPhone},worker,,`,
      `dry.phone,Bad Phone,01234,worker,,`,
      `dry.team,No Team,${nextMobile()},worker,Nowhere,1234`,
      `dry.new,Dee Twice,${nextMobile()},worker,,`,
      `${superadmin.username},Not Allowed,${nextMobile()},admin,,`,
      `dry.admin,Ada Admin,${nextMobile()},admin,north estates,`,
      `${admin.username},iadmin person,${nextMobile()},worker,,`,
    ].join('\n');
    const res = await post(csv, '?dryRun=true').expect(200);
    expect(res.body).toMatchObject({ dryRun: true, applied: false, summary: { rows: 8, created: 2, updated: 1, unchanged: 0, errors: 5 } });
    expect(res.body.rows).toEqual([
      { row: 2, username: 'dry.new', action: 'created' },
      { row: 3, username: existing.username, action: 'updated', fields: ['phone'] },
      {
        row: 4,
        username: 'dry.phone',
        action: 'error',
        errors: [{ field: 'phone', message: 'Phone should start with +44 for UK format' }],
      },
      { row: 5, username: 'dry.team', action: 'error', errors: [{ field: 'team', message: 'No team has this name' }] },
      {
        row: 6,
        username: 'dry.new',
        action: 'error',
        errors: [{ field: 'username', message: 'Listed twice in the file (first on row 2)' }],
      },
      {
        row: 7,
        username: superadmin.username,
        action: 'error',
        errors: [{ field: 'username', message: 'This username belongs to the superadmin' }],
      },
      { row: 8, username: 'dry.admin', action: 'created' },
      {
        row: 9,
        username: admin.username,
        action: 'error',
        errors: [{ field: 'role', message: 'This username belongs to an existing admin: an import does not change roles' }],
      },
    ]);
    expect(res.body.credentialsCsv).toBeUndefined();
    expect(await snapshot()).toEqual(before);
  });

  it('a real run with any wrong row imports nothing (422, the same table)', async () => {
    const before = await snapshot();
    const csv = [
      'username,name,phone,role,team',
      `half.one,Half One,${nextMobile()},worker,North Estates`,
      `half.two,H,${nextMobile()},worker,North Estates`,
    ].join('\n');
    const res = await post(csv).expect(422);
    expect(res.body).toMatchObject({
      dryRun: false,
      applied: false,
      message: expect.stringContaining('Nothing was imported'),
      summary: { created: 1, errors: 1 },
    });
    expect(res.body.rows[1]).toEqual({
      row: 3,
      username: 'half.two',
      action: 'error',
      errors: [{ field: 'name', message: 'Name must be at least 2 characters' }],
    });
    expect(await snapshot()).toEqual(before);
  });

  it('imports workers and admins once, returns their credentials once, and a second import of the same file changes nothing', async () => {
    const phones = [nextMobile(), nextMobile(), nextMobile(), nextMobile(), nextMobile()];
    const csv = [
      'username,name,phone,role,team,pin',
      `imp.ann,"Ann, Field Carer",${phones[0]},worker,North Estates,`,
      `imp.bob,Bob Chose,${phones[1]},Worker,North Estates,4821`,
      `imp.cat,Cat Default,${phones[2]},,,`,
      `imp.dan,Dan Monitor,${phones[3]},admin,North Estates,`,
      `${existing.username},Renamed Worker,${phones[4]},worker,North Estates,`,
    ].join('\r\n');
    const dry = await post(csv, '?dryRun=true').expect(200);
    expect(dry.body.summary).toEqual({ rows: 5, created: 4, updated: 1, unchanged: 0, errors: 0 });
    expect(dry.body.rows[4]).toEqual({ row: 6, username: existing.username, action: 'updated', fields: ['name', 'phone', 'team'] });

    const res = await post(csv).expect(200);
    expect(res.body).toMatchObject({ dryRun: false, applied: true, summary: { created: 4, updated: 1, errors: 0 } });
    const lines = (res.body.credentialsCsv as string).trim().split('\r\n');
    expect(lines[0]).toBe('username,name,password,pin');
    const creds = new Map(
      lines.slice(1).map((l) => {
        const m = /^([^,]+),(".*"|[^,]*),([^,]+),(\d{4})?$/.exec(l)!;
        return [m[1], { name: m[2], password: m[3], pin: m[4] }];
      }),
    );
    expect([...creds.keys()]).toEqual(['imp.ann', 'imp.bob', 'imp.cat', 'imp.dan']);
    expect(creds.get('imp.ann')).toMatchObject({ name: '"Ann, Field Carer"', pin: expect.stringMatching(/^\d{4}$/) });
    // A PIN the file chose is the worker's; it is not sent back.
    expect(creds.get('imp.bob')!.pin).toBeUndefined();

    // The new worker signs in with the generated password (a temporary one) and uses the generated PIN.
    const ann = await signIn(t, 'imp.ann', creds.get('imp.ann')!.password);
    const me = (await ann.get('/api/auth/me').expect(200)).body;
    expect(me).toMatchObject({ username: 'imp.ann', name: 'Ann, Field Carer', passwordIsTemporary: true });
    await ann
      .post(`/api/users/${me.id}/verify-pin`)
      .set(XHR)
      .send({ pin: creds.get('imp.ann')!.pin })
      .expect(200);
    const bob = await signIn(t, 'imp.bob', creds.get('imp.bob')!.password);
    const bobId = (await bob.get('/api/auth/me').expect(200)).body.id;
    await bob.post(`/api/users/${bobId}/verify-pin`).set(XHR).send({ pin: '4821' }).expect(200);

    // Teams: the named one, or the oldest; the admin monitors the team named.
    const team = (await superadmin.agent.get(`/api/teams/${northId}`).expect(200)).body;
    const dan = (await db.query(`select id from identity.users where username = 'imp.dan'`)).rows[0].id;
    expect(team.monitors).toEqual([{ userId: dan }]);
    const members = (await superadmin.agent.get(`/api/teams/${northId}/members`).expect(200)).body
      .map((m: { username: string }) => m.username)
      .sort();
    expect(members).toEqual(['imp.ann', 'imp.bob', existing.username].sort());
    const cat = (
      await db.query(`select t.name from identity.users u join identity.teams t on t.id = u.team_id where u.username = 'imp.cat'`)
    ).rows[0];
    expect(cat.name).toBe('Default');
    // Dan monitors North, so North's workers are his to see once the other services heard of them.
    const danAgent = await signIn(t, 'imp.dan', creds.get('imp.dan')!.password);
    await eventually(async () => {
      const workers = (await danAgent.get('/api/worker-accounts').expect(200)).body.map((w: { username: string }) => w.username).sort();
      expect(workers).toEqual(['imp.ann', 'imp.bob', existing.username].sort());
      return true;
    });

    // The same file again: every row unchanged, no credentials, nothing written.
    const before = await snapshot();
    const again = await post(csv).expect(200);
    expect(again.body).toMatchObject({ applied: true, summary: { rows: 5, created: 0, updated: 0, unchanged: 5, errors: 0 } });
    expect(again.body.credentialsCsv).toBeUndefined();
    expect(await snapshot()).toEqual(before);
  });

  it("provisions each account's language: a new one in the row's, an existing one changed only where the row names one; one LWS does not speak is an error naming language", async () => {
    const [welsh, english] = [nextMobile(), nextMobile()];
    const language = async (username: string) =>
      (await db.query('select language from identity.users where username = $1', [username])).rows[0]?.language as string | undefined;
    const csv = [
      'username,name,phone,role,team,pin,language',
      `lang.sian,Siân Gofal,${welsh},worker,,,cy`,
      `lang.eng,Eng Lish,${english},worker,,,`,
    ].join('\n');
    expect((await post(csv).expect(200)).body.summary).toMatchObject({ created: 2, errors: 0 });
    expect([await language('lang.sian'), await language('lang.eng')]).toEqual(['cy', 'en']);

    const again = [
      'username,name,phone,role,team,pin,language',
      `lang.sian,Siân Gofal,${welsh},worker,,,`,
      `lang.eng,Eng Lish,${english},worker,,,CY`,
    ].join('\n');
    const dry = await post(again, '?dryRun=true').expect(200);
    expect(dry.body.rows).toEqual([
      { row: 2, username: 'lang.sian', action: 'unchanged' },
      { row: 3, username: 'lang.eng', action: 'updated', fields: ['language'] },
    ]);
    await post(again).expect(200);
    expect([await language('lang.sian'), await language('lang.eng')]).toEqual(['cy', 'cy']);

    const before = await snapshot();
    const bad = await post(['username,name,phone,role,language', `lang.fr,Fran Cais,${nextMobile()},worker,fr`].join('\n')).expect(422);
    expect(bad.body.rows[0]).toMatchObject({
      action: 'error',
      errors: [{ field: 'language', message: expect.stringMatching(/^Language must be one LWS speaks/) }],
    });
    expect(await snapshot()).toEqual(before);
  });

  it('lists every account of a large organisation: 5,000 imported workers, more than one bus message holds', async () => {
    const n = 5000;
    // Numbers of their own, in a range nextMobile never gives: no worker shares another's.
    const csv = [
      'username,name,phone,role,team',
      ...Array.from(
        { length: n },
        (_, i) =>
          `bulk${i},Bulk Worker ${String(n - i).padStart(5, '0')},+4479112${String(20000 + i).padStart(5, '0')},worker,North Estates`,
      ),
    ].join('\n');
    const res = await post(csv);
    expect(res.status).toBe(200);
    expect(res.body.summary.created).toBe(n);
    const accounts = (await superadmin.agent.get('/api/worker-accounts').expect(200)).body as { name: string; teamId?: number }[];
    const bulk = accounts.filter((a) => a.name.startsWith('Bulk Worker '));
    expect(bulk).toHaveLength(n);
    // In name order, as before paging; each row names its team.
    expect(bulk.map((a) => a.name)).toEqual([...bulk.map((a) => a.name)].sort());
    expect(new Set(bulk.map((a) => a.teamId))).toEqual(new Set([northId]));
    const workers = (await superadmin.agent.get('/api/data/workers').expect(200)).body as { name: string }[];
    expect(workers.filter((w) => w.name.startsWith('Bulk Worker '))).toHaveLength(n);
  }, 180_000);

  it('refuses a file it cannot read, naming it, and lets only the superadmin import', async () => {
    const before = await snapshot();
    const header = 'username,name,phone,role,team,pin';
    expect((await post('username,name,phone\nx,y,z').expect(400)).body).toEqual({
      message: expect.stringContaining('"role" is missing'),
      field: 'file',
    });
    expect((await post(`${header},shoe\n`).expect(400)).body).toEqual({
      message: expect.stringContaining('Unknown column "shoe"'),
      field: 'file',
    });
    expect((await post(`${header}\n"unclosed,a,b,c,d,e`).expect(400)).body).toMatchObject({
      field: 'file',
      message: expect.stringContaining('not valid CSV'),
    });
    expect((await post(header).expect(400)).body).toMatchObject({ field: 'file', message: 'The file has no rows under its header' });
    const tooMany = [header, ...Array.from({ length: 10_001 }, (_, i) => `many${i},Many ${i},+447911123456,worker,,`)].join('\n');
    expect((await post(tooMany).expect(400)).body.message).toBe('The file has 10001 rows: at most 10000 per import (split it)');
    expect((await post(`${header}\nnul.user,Nul\u0000Name,+447911123456,worker,,`).expect(400)).body).toMatchObject({ field: 'file' });
    expect((await post('x'.repeat(6 * 1024 * 1024)).expect(413)).body).toEqual({
      message: 'The file is too large (limit 5 MB)',
      field: 'file',
    });
    await superadmin.agent.post('/api/users/import').set(XHR).send({ rows: [] }).expect(415);
    await superadmin.agent
      .post('/api/users/import?dryRun=yes')
      .set(XHR)
      .set('Content-Type', 'text/csv')
      .send(`${header}\n`)
      .expect(400, { message: 'dryRun must be true or false', field: 'dryRun' });
    await admin.agent
      .post('/api/users/import')
      .set(XHR)
      .set('Content-Type', 'text/csv')
      .send(`${header}\nadm.try,Adm Try,+447911123456,worker,,`)
      .expect(403);
    await request(t.url).post('/api/users/import').set(XHR).set('Content-Type', 'text/csv').send(header).expect(401);
    // Without a session the gateway does not even read a large file: the answer is the 401, not a 413.
    await request(t.url)
      .post('/api/users/import')
      .set(XHR)
      .set('Content-Type', 'text/csv')
      .send('x'.repeat(6 * 1024 * 1024))
      .expect(401);
    expect(await snapshot()).toEqual(before);
  });

  /**
   * A POST whose head declares `declared` bytes of body, of which only the first 64 KB are ever sent:
   * the gateway's answer, or null when none comes within 5 s (it is waiting for the rest).
   */
  function halfSent(path: string, headers: Record<string, string>, declared: number): Promise<{ status: number; body: unknown } | null> {
    const { hostname, port } = new URL(t.url);
    return new Promise((resolve, reject) => {
      const socket = connect(Number(port), hostname);
      let raw = '';
      const timer = setTimeout(() => {
        socket.destroy();
        resolve(null);
      }, 5000);
      socket.on('error', reject);
      socket.on('data', (chunk) => {
        raw += chunk.toString('latin1');
        const end = raw.indexOf('\r\n\r\n');
        if (end < 0) return;
        const length = Number(/content-length: (\d+)/i.exec(raw.slice(0, end))?.[1] ?? 0);
        if (raw.length - end - 4 < length) return;
        clearTimeout(timer);
        socket.destroy();
        resolve({ status: Number(raw.slice(9, 12)), body: JSON.parse(raw.slice(end + 4, end + 4 + length)) });
      });
      const head = { Host: `${hostname}:${port}`, ...XHR, 'Content-Length': String(declared), ...headers };
      socket.write(
        `POST ${path} HTTP/1.1\r\n${Object.entries(head)
          .map(([k, v]) => `${k}: ${v}\r\n`)
          .join('')}\r\n`,
      );
      socket.write('x'.repeat(64 * 1024));
    });
  }

  it('reads a large body only for a signed-in superadmin: anyone else is answered while still sending, and every other route takes 100 KB', async () => {
    const declared = Math.floor(4.9 * 1024 * 1024);
    const csv = { 'Content-Type': 'text/csv' };
    // A forged (or expired) session cookie is no session: the 401 comes before the body.
    expect(await halfSent('/api/users/import', { ...csv, Cookie: 'lws_sid=forged-session-id' }, declared)).toEqual({
      status: 401,
      body: { message: 'Not authenticated' },
    });
    expect(await halfSent('/api/users/import', csv, declared)).toEqual({ status: 401, body: { message: 'Not authenticated' } });
    const adminCookie = await sessionCookie(t.url, admin.username, admin.password);
    expect(await halfSent('/api/users/import', { ...csv, Cookie: adminCookie }, declared)).toEqual({
      status: 403,
      body: { message: 'Not allowed for your role' },
    });
    // Any other route, signed in or not, refuses a body over 100 KB from its declared length.
    expect(await halfSent('/api/auth/login', { 'Content-Type': 'application/json' }, declared)).toEqual({
      status: 413,
      body: { message: 'Request body is too large (limit 100 KB)' },
    });
    expect(await halfSent('/api/location-options', { 'Content-Type': 'application/json', Cookie: adminCookie }, 200 * 1024)).toEqual({
      status: 413,
      body: { message: 'Request body is too large (limit 100 KB)' },
    });
    // The superadmin's file: over the import's limit is refused the same way; under it, the gateway waits for the rest.
    const superadminCookie = await sessionCookie(t.url, superadmin.username, superadmin.password);
    expect(await halfSent('/api/users/import', { ...csv, Cookie: superadminCookie }, 6 * 1024 * 1024)).toEqual({
      status: 413,
      body: { message: 'The file is too large (limit 5 MB)', field: 'file' },
    });
    expect(await halfSent('/api/users/import', { ...csv, Cookie: superadminCookie }, declared)).toBeNull();
  });

  it("refuses a row whose PIN is the worker's duress PIN, naming pin, and writes nothing of it", async () => {
    const username = `duress${Math.random().toString(36).slice(2, 8)}`;
    const phone = nextMobile();
    const created = await superadmin.agent
      .post('/api/users')
      .set(XHR)
      .send({ username, password: 'Secret1pass', name: 'Dora Duress', phone, role: 'worker', pinCode: '2468' })
      .expect(201);
    const id = created.body.user.id as number;
    const worker = await signIn(t, username, 'Secret1pass');
    await worker.put(`/api/users/${id}/duress-pin`).set(XHR).send({ currentPin: '2468', duressPin: '1357' }).expect(200);
    const before = await snapshot();

    const csv = ['username,name,phone,role,team,pin', `${username},Dora Duress,${phone},worker,,1357`].join('\n');
    const refusal = {
      row: 2,
      username,
      action: 'error',
      errors: [{ field: 'pin', message: "The PIN must be different from this worker's duress PIN" }],
    };
    expect((await post(csv, '?dryRun=true').expect(200)).body.rows).toEqual([refusal]);
    expect((await post(csv).expect(422)).body.rows).toEqual([refusal]);
    expect(await snapshot()).toEqual(before);
    // Both PINs still do what the worker set them for.
    expect((await worker.get('/api/auth/me').expect(200)).body.duressPinSet).toBe(true);
    await worker.post(`/api/users/${id}/verify-pin`).set(XHR).send({ pin: '2468' }).expect(200);
  });
});
