import request from 'supertest';
import { Client } from 'pg';
import { eventually } from '@lws/testing';
import { createAccount, superadminOf, type Account } from './support/accounts';
import { startTestStack, XHR, type TestStack } from './support/test-stack';

const WAIT_MS = 15_000;
const RATE_LIMIT = 15;

interface TokenRow {
  id: number;
  name: string;
  prefix: string;
  last4: string;
  scopes: string[];
  createdBy: number;
  createdAt: string;
  expiresAt: string;
  lastUsedAt: string | null;
  useCount: number;
  revokedAt: string | null;
}
interface Alarm {
  id: string;
  userId: number;
  state: string;
  acknowledgedByName: string | null;
  acknowledgedViaToken: string | null;
  resolvedByName: string | null;
  history: string[];
}

/**
 * Machines call the API with a token an admin (for their teams) or the superadmin made: no cookie
 * and no CSRF header, only the routes its scopes name, only the creator's teams, and never again
 * once revoked or expired. What a token does is named by the token on the alarm and the activity log.
 */
describe('API tokens for machines (real PostgreSQL, NATS, Redis; whole stack)', () => {
  let t: TestStack;
  let superadmin: Account;
  let adminN: Account;
  let adminS: Account;
  let workerN: Account;
  let workerS: Account;
  let db: Client;

  const machine = (token: string) => ({ Authorization: `Bearer ${token}` });
  const tokens = async (a: Account) => (await a.agent.get('/api/api-tokens').expect(200)).body.tokens as TokenRow[];
  async function mint(a: Account, name: string, scopes: string[], expiresInDays = 30): Promise<{ token: TokenRow; secret: string }> {
    return (await a.agent.post('/api/api-tokens').set(XHR).send({ name, scopes, expiresInDays }).expect(201)).body;
  }

  async function inTeam(teamId: number, prefix: string, site: string): Promise<Account> {
    const w = await createAccount(t, superadmin.agent, 'worker', prefix);
    await superadmin.agent.patch(`/api/users/${w.id}`).set(XHR).send({ teamId }).expect(200);
    await eventually(
      async () => (await w.agent.post(`/api/users/${w.id}/start-shift`).set(XHR).send({ location: site })).status === 200,
      WAIT_MS,
      100,
    );
    return w;
  }

  async function missedAlarm(w: Account): Promise<Alarm> {
    await superadmin.agent.post(`/api/simulate-check-in-due/${w.id}`).set(XHR).expect(200);
    return eventually(async () => {
      const all = (await superadmin.agent.get('/api/alarms').expect(200)).body as Alarm[];
      return all.find((a) => a.userId === w.id && a.state === 'open');
    }, WAIT_MS);
  }

  beforeAll(async () => {
    t = await startTestStack({ env: { LOGIN_MAX_ATTEMPTS_PER_IP: '1000', API_TOKEN_MAX_REQUESTS_PER_MINUTE: String(RATE_LIMIT) } });
    superadmin = await superadminOf(t);
    adminN = await createAccount(t, superadmin.agent, 'admin', 'tknorth');
    adminS = await createAccount(t, superadmin.agent, 'admin', 'tksouth');
    const loc = async (name: string) =>
      (await superadmin.agent.post('/api/location-options').set(XHR).send({ name }).expect(201)).body.id as number;
    const [northSite, southSite] = [await loc('North Depot'), await loc('South Depot')];
    const [defaultTeam] = (await superadmin.agent.get('/api/teams').expect(200)).body as { id: number }[];
    await superadmin.agent.patch(`/api/teams/${defaultTeam.id}`).set(XHR).send({ monitors: [] }).expect(200);
    const team = async (name: string, site: number, admin: Account) =>
      (
        await superadmin.agent
          .post('/api/teams')
          .set(XHR)
          .send({ name, locationIds: [site], monitors: [{ userId: admin.id }] })
          .expect(201)
      ).body as { id: number };
    const [north, south] = [await team('North', northSite, adminN), await team('South', southSite, adminS)];
    workerN = await inTeam(north.id, 'tkwn', 'North Depot');
    workerS = await inTeam(south.id, 'tkws', 'South Depot');
    db = new Client({ connectionString: t.env.DATABASE_URL });
    await db.connect();
  }, 120_000);
  afterAll(async () => {
    await db?.end();
    await t?.stop();
  });

  it('an admin creates a token: shown once, kept as a hash, listed by prefix and last 4; bad input is a 400 naming the field', async () => {
    const before = await tokens(adminN);
    for (const [body, field] of [
      [{ name: 'ARC', scopes: ['alarms:delete'], expiresInDays: 30 }, 'scopes.0'],
      [{ name: 'ARC', scopes: [], expiresInDays: 30 }, 'scopes'],
      [{ name: 'ARC', scopes: ['alarms:read', 'alarms:read'], expiresInDays: 30 }, 'scopes'],
      [{ name: ' ', scopes: ['alarms:read'], expiresInDays: 30 }, 'name'],
      [{ name: 'ARC', scopes: ['alarms:read'], expiresInDays: 366 }, 'expiresInDays'],
      [{ name: 'ARC', scopes: ['alarms:read'] }, 'expiresInDays'],
      [{ name: 'ARC', scopes: ['alarms:read'], expiresInDays: 30, createdBy: 1 }, 'createdBy'],
    ] as const) {
      const res = await adminN.agent.post('/api/api-tokens').set(XHR).send(body).expect(400);
      expect(res.body.field).toBe(field);
    }
    expect(await tokens(adminN)).toEqual(before);

    const { token, secret } = await mint(adminN, 'Northern ARC', ['alarms:read', 'alarms:write']);
    expect(secret).toMatch(/^lws_api_[A-Za-z0-9_-]{43}$/);
    expect(token).toEqual(
      expect.objectContaining({
        name: 'Northern ARC',
        prefix: secret.slice(0, 14),
        last4: secret.slice(-4),
        scopes: ['alarms:read', 'alarms:write'],
        createdBy: adminN.id,
        lastUsedAt: null,
        useCount: 0,
        revokedAt: null,
      }),
    );
    expect(Date.parse(token.expiresAt) - Date.parse(token.createdAt)).toBe(30 * 86_400_000);
    // Never again: not in the list, not in the database, not in any log line.
    const listed = await adminN.agent.get('/api/api-tokens').expect(200);
    expect(JSON.stringify(listed.body)).not.toContain(secret.slice(14, -4));
    const stored = await db.query('select * from identity.api_tokens where id = $1', [token.id]);
    expect(JSON.stringify(stored.rows)).not.toContain(secret.slice(14, -4));
    expect(t.logs.some((l) => l.includes(secret.slice(14, -4)))).toBe(false);
    await eventually(async () => {
      const log = (await adminN.agent.get(`/api/activity-logs?userId=${adminN.id}&limit=20`).expect(200)).body as { details: string }[];
      return log.some(
        (e) => e.details.startsWith('API token "Northern ARC" created by') && e.details.includes('alarms:read, alarms:write'),
      );
    }, WAIT_MS);
  });

  it('a worker cannot make a token; a token can neither make nor list tokens', async () => {
    const worker = await createAccount(t, adminN.agent, 'worker', 'tkw');
    await worker.agent
      .post('/api/api-tokens')
      .set(XHR)
      .send({ name: 'x', scopes: ['alarms:read'], expiresInDays: 1 })
      .expect(403);
    const { secret } = await mint(adminN, 'Everything', ['alarms:read', 'alarms:write', 'shifts:read', 'users:read', 'webhooks:manage']);
    const listed = await request(t.url).get('/api/api-tokens').set(machine(secret)).expect(403);
    expect(listed.body.message).toBe('This route does not accept API tokens: sign in as a person');
    await request(t.url)
      .post('/api/api-tokens')
      .set(machine(secret))
      .send({ name: 'y', scopes: ['alarms:read'], expiresInDays: 1 })
      .expect(403);
    // Nor any route not opened to machines, whatever the token's scopes.
    await request(t.url)
      .post('/api/users')
      .set(machine(secret))
      .send({ username: 'mach1', password: 'Secret1pass', name: 'M', role: 'worker' })
      .expect(403);
    await request(t.url).get('/api/system/status').set(machine(secret)).expect(403);
  });

  it('a token lists only its creator’s teams’ alarms and acknowledges and resolves one with no cookie or CSRF header, named on the alarm', async () => {
    const north = await missedAlarm(workerN);
    const south = await missedAlarm(workerS);
    const { secret } = await mint(adminN, 'Northern ARC desk', ['alarms:read', 'alarms:write']);

    const listed = (await request(t.url).get('/api/alarms').set(machine(secret)).expect(200)).body as Alarm[];
    expect(listed.map((a) => a.userId)).toContain(workerN.id);
    expect(listed.map((a) => a.userId)).not.toContain(workerS.id);
    await request(t.url).post(`/api/alarms/${south.id}/acknowledge`).set(machine(secret)).expect(404);

    const acked = (await request(t.url).post(`/api/alarms/${north.id}/acknowledge`).set(machine(secret)).expect(200)).body as Alarm;
    expect(acked.state).toBe('acknowledged');
    expect(acked.acknowledgedByName).toBe('Northern ARC desk');
    expect(acked.acknowledgedViaToken).toBe('Northern ARC desk');
    expect(acked.history).toContain('Acknowledged by Northern ARC desk (API token of tknorth person)');

    const blank = await request(t.url).post(`/api/alarms/${north.id}/notes`).set(machine(secret)).send({ text: '  ' }).expect(400);
    expect(blank.body.field).toBe('text');
    const noted = (
      await request(t.url)
        .post(`/api/alarms/${north.id}/notes`)
        .set(machine(secret))
        .send({ text: 'Police attending, ETA 10 minutes' })
        .expect(201)
    ).body as Alarm;
    expect(noted.history.at(-1)).toBe('Note from Northern ARC desk (API token of tknorth person): Police attending, ETA 10 minutes');

    const resolved = (
      await request(t.url)
        .post(`/api/alarms/${north.id}/resolve`)
        .set(machine(secret))
        .send({ verdict: 'genuine', severity: 'minor', note: 'Police attended; worker safe' })
        .expect(200)
    ).body as Alarm;
    expect(resolved.state).toBe('resolved');
    expect(resolved.resolvedByName).toBe('Northern ARC desk');
    expect(resolved.history.at(-1)).toBe('Resolved by Northern ARC desk (API token of tknorth person) (genuine, minor incident)');
    await eventually(async () => {
      const log = (await adminN.agent.get(`/api/activity-logs?userId=${workerN.id}&limit=30`).expect(200)).body as { details: string }[];
      return (
        log.some((e) => e.details === `Alarm acknowledged by Northern ARC desk (API token of ${adminN.username})`) &&
        log.some(
          (e) =>
            e.details === `Note on the alarm from Northern ARC desk (API token of ${adminN.username}): Police attending, ETA 10 minutes`,
        ) &&
        log.some((e) => e.details.startsWith(`Alarm resolved by Northern ARC desk (API token of ${adminN.username})`))
      );
    }, WAIT_MS);
    // South's alarm is untouched.
    const southNow = ((await superadmin.agent.get('/api/alarms').expect(200)).body as Alarm[]).find((a) => a.id === south.id)!;
    expect(southNow.state).toBe('open');
  });

  it('each route needs its scope: a read-only token cannot acknowledge', async () => {
    const alarm = await missedAlarm(workerN);
    const { secret } = await mint(adminN, 'Read only', ['alarms:read']);
    await request(t.url).get('/api/alarms').set(machine(secret)).expect(200);
    const refused = await request(t.url).post(`/api/alarms/${alarm.id}/acknowledge`).set(machine(secret)).expect(403);
    expect(refused.body.message).toBe('This token lacks the scope alarms:write');
    expect(refused.headers['www-authenticate']).toContain('insufficient_scope');
    await request(t.url).get('/api/workers/active').set(machine(secret)).expect(403);
    const shifts = await mint(adminN, 'HR', ['shifts:read', 'users:read']);
    const active = (await request(t.url).get('/api/workers/active').set(machine(shifts.secret)).expect(200)).body as { id: number }[];
    expect(active.map((w) => w.id)).toContain(workerN.id);
    expect(active.map((w) => w.id)).not.toContain(workerS.id);
    const teams = (await request(t.url).get('/api/teams').set(machine(shifts.secret)).expect(200)).body as { name: string }[];
    expect(teams.map((x) => x.name)).toEqual(['North']);
  });

  it('a bearer request is judged by its token alone: a valid cookie beside a bad token is refused', async () => {
    const res = await adminN.agent.get('/api/alarms').set(machine('lws_api_not-a-real-token')).expect(401);
    expect(res.body.message).toMatch(/^Invalid API token/);
    await request(t.url).get('/api/alarms').set('Authorization', 'Bearer').expect(401);
    // And a bearer request is not a way round CSRF for a cookie: the same cookie without the token still needs the header.
    await adminN.agent.post(`/api/alarms/00000000-0000-4000-8000-000000000000/acknowledge`).expect(403);
  });

  it('revoking takes effect at once; last use and use count are shown; the superadmin sees and revokes every token', async () => {
    const { token, secret } = await mint(adminN, 'Soon revoked', ['alarms:read']);
    await request(t.url).get('/api/alarms').set(machine(secret)).expect(200);
    await request(t.url).get('/api/alarms').set(machine(secret)).expect(200);
    const used = (await tokens(adminN)).find((x) => x.id === token.id)!;
    expect(used.useCount).toBe(2);
    expect(used.lastUsedAt).not.toBeNull();

    // An admin sees only their own tokens and cannot revoke another admin's.
    expect((await tokens(adminS)).map((x) => x.id)).not.toContain(token.id);
    await adminS.agent.delete(`/api/api-tokens/${token.id}`).set(XHR).expect(404);
    expect((await tokens(superadmin)).map((x) => x.id)).toContain(token.id);

    await superadmin.agent.delete(`/api/api-tokens/${token.id}`).set(XHR).expect(200);
    await request(t.url).get('/api/alarms').set(machine(secret)).expect(401);
    const revoked = (await tokens(adminN)).find((x) => x.id === token.id)!;
    expect(revoked.revokedAt).not.toBeNull();
    expect(revoked.useCount).toBe(2);
    await eventually(async () => {
      const log = (await adminN.agent.get(`/api/activity-logs?userId=${adminN.id}&limit=30`).expect(200)).body as { details: string }[];
      return log.some((e) => e.details.startsWith('API token "Soon revoked" revoked by'));
    }, WAIT_MS);
  });

  it('an expired token, and a token whose creator is deactivated, are refused', async () => {
    const expiring = await mint(adminS, 'Expiring', ['alarms:read'], 1);
    await request(t.url).get('/api/alarms').set(machine(expiring.secret)).expect(200);
    await db.query(`update identity.api_tokens set expires_at = now() - interval '1 second' where id = $1`, [expiring.token.id]);
    await request(t.url).get('/api/alarms').set(machine(expiring.secret)).expect(401);

    const leaver = await createAccount(t, superadmin.agent, 'admin', 'tkleaver');
    const theirs = await mint(leaver, 'Leaver’s script', ['alarms:read']);
    await request(t.url).get('/api/alarms').set(machine(theirs.secret)).expect(200);
    await superadmin.agent.post(`/api/users/${leaver.id}/deactivate`).set(XHR).expect(200);
    await request(t.url).get('/api/alarms').set(machine(theirs.secret)).expect(401);
  });

  it('each token is rate-limited on its own: 429 with Retry-After, while another token goes on', async () => {
    const busy = await mint(adminS, 'Busy', ['alarms:read']);
    const calm = await mint(adminS, 'Calm', ['alarms:read']);
    for (let i = 0; i < RATE_LIMIT; i++) await request(t.url).get('/api/alarms').set(machine(busy.secret)).expect(200);
    const limited = await request(t.url).get('/api/alarms').set(machine(busy.secret)).expect(429);
    expect(limited.headers['retry-after']).toBe('60');
    await request(t.url).get('/api/alarms').set(machine(calm.secret)).expect(200);
  });
});
