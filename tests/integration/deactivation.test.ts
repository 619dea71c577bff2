import request from 'supertest';
import { Client } from 'pg';
import { eventually } from '@lws/testing';
import { createAccount, superadminOf, type Account } from './support/accounts';
import { startTestStack, XHR, type TestStack } from './support/test-stack';

const WAIT_MS = 15_000;

describe('a worker deactivated while on shift leaves no silent gap (real PostgreSQL, NATS, Redis; whole stack)', () => {
  let t: TestStack;
  let superadmin: Account;
  let admin: Account;
  let db: Client;
  const site = 'Riverside Depot';

  beforeAll(async () => {
    t = await startTestStack({ env: { LOGIN_MAX_ATTEMPTS_PER_IP: '1000' } });
    superadmin = await superadminOf(t);
    admin = await createAccount(t, superadmin.agent, 'admin');
    await admin.agent.post('/api/location-options').set(XHR).send({ name: site, isActive: true }).expect(201);
    db = new Client({ connectionString: t.env.DATABASE_URL });
    await db.connect();
  }, 120_000);
  afterAll(async () => {
    await db?.end();
    await t?.stop();
  });

  async function onShift(): Promise<Account> {
    const w = await createAccount(t, admin.agent, 'worker');
    await eventually(
      async () => (await w.agent.post(`/api/users/${w.id}/start-shift`).set(XHR).send({ location: site })).status === 200,
      WAIT_MS,
      100,
    );
    return w;
  }
  const activeIds = async () => ((await admin.agent.get('/api/workers/active').expect(200)).body as { id: number }[]).map((w) => w.id);
  const activity = async (userId: number) =>
    ((await admin.agent.get(`/api/activity-logs?userId=${userId}&limit=50`).expect(200)).body as { details: string }[]).map(
      (e) => e.details,
    );

  it('is signed out at once, cannot sign back in, their shift ends with the reason, and the monitors are told', async () => {
    const w = await onShift();
    expect(await activeIds()).toContain(w.id);
    expect((await admin.agent.post(`/api/users/${w.id}/deactivate`).set(XHR).expect(200)).body).toEqual({ ok: true, changed: true });

    await w.agent.get('/api/auth/me').expect(401);
    const again = await request(t.url).post('/api/auth/login').set(XHR).send({ username: w.username, password: w.password }).expect(401);
    expect(again.body.message).toBe('Invalid username or password');

    await eventually(async () => !(await activeIds()).includes(w.id), WAIT_MS, 100);
    // The team's monitors get a push that names the worker and asks them to make sure.
    const notice = await eventually(async () => {
      const rows = await db.query(`select channel, body from notifications.deliveries where purpose = 'account_notice' and user_id = $1`, [
        w.id,
      ]);
      return rows.rows[0] as { channel: string; body: string } | undefined;
    }, WAIT_MS);
    expect(notice.channel).toBe('push');
    expect(notice.body).toContain('worker person was deactivated while on shift');
    await eventually(async () => {
      const log = await activity(w.id);
      return (
        log.some((d) => d.includes('(account deactivated)')) &&
        log.some((d) => d === `Account deactivated by ${admin.username}: every session was signed out`)
      );
    }, WAIT_MS);
    // Once is enough: deactivating again changes nothing and tells nobody twice.
    expect((await admin.agent.post(`/api/users/${w.id}/deactivate`).set(XHR).expect(200)).body).toEqual({ ok: true, changed: false });
  });

  it('an open missed check-in alarm stays open and goes on escalating until a monitor resolves it', async () => {
    const w = await onShift();
    await superadmin.agent.post(`/api/simulate-check-in-due/${w.id}`).set(XHR).expect(200);
    const alarmOf = async () =>
      ((await admin.agent.get('/api/alarms').expect(200)).body as { id: string; userId: number; state: string; history: string[] }[]).find(
        (a) => a.userId === w.id,
      );
    const opened = await eventually(alarmOf, WAIT_MS, 100);
    await admin.agent.post(`/api/users/${w.id}/deactivate`).set(XHR).expect(200);
    const noted = await eventually(async () => {
      const a = await alarmOf();
      return a?.history.some((h) => h.includes('Account deactivated during the shift')) ? a : undefined;
    }, WAIT_MS);
    expect(noted.id).toBe(opened!.id);
    expect(noted.state).toBe('open');
    expect(noted.history.some((h) => h.includes('no further steps'))).toBe(false);
    const [row] = (await db.query('select steps_stopped_reason from escalation.alarms where id = $1', [opened!.id])).rows;
    expect(row.steps_stopped_reason).toBeNull();
    // The deadline of its next step is still there: the scheduler will fire it.
    const next = await db.query(`select count(*)::int as n from escalation.deadlines where job_key = $1`, [`alarm:${opened!.id}`]);
    expect(next.rows[0].n).toBe(1);
  });

  it('a worker deleted while on shift is not dropped silently either: the monitors are told', async () => {
    const w = await onShift();
    await admin.agent.delete(`/api/users/${w.id}`).set(XHR).expect(200);
    const notice = await eventually(async () => {
      const rows = await db.query(`select body from notifications.deliveries where purpose = 'account_notice' and user_id = $1`, [w.id]);
      return rows.rows[0] as { body: string } | undefined;
    }, WAIT_MS);
    expect(notice.body).toContain('worker person was deleted while on shift');
  });

  it('a reactivated worker signs in again; an admin cannot deactivate an administrator, nor anyone themselves', async () => {
    const w = await createAccount(t, admin.agent, 'worker');
    await admin.agent.post(`/api/users/${w.id}/deactivate`).set(XHR).expect(200);
    await request(t.url).post('/api/auth/login').set(XHR).send({ username: w.username, password: w.password }).expect(401);
    expect((await admin.agent.post(`/api/users/${w.id}/reactivate`).set(XHR).expect(200)).body).toEqual({ ok: true, changed: true });
    await request(t.url).post('/api/auth/login').set(XHR).send({ username: w.username, password: w.password }).expect(200);
    await admin.agent.post(`/api/users/${superadmin.id}/deactivate`).set(XHR).expect(403);
    await admin.agent.post(`/api/users/${admin.id}/deactivate`).set(XHR).expect(400);
  });
});
