/**
 * The whole stack (every service, as `npm start` runs them against servers) through the outages an
 * operator meets most: its Redis stopped for 30 s, then the PostgreSQL every service shares stopped
 * for 90 s, each a server this file owns. While a store is down the API answers 503 with a message
 * a person can act on, nothing is half-written, and the deadlines keep firing (Redis) or fire once
 * it is back (PostgreSQL). Invariants are read from the services' tables, not from logs.
 */
import { Client } from 'pg';
import request from 'supertest';
import { RpcClient, TEMPORARILY_UNAVAILABLE } from '@lws/messaging';
import { eventually } from '@lws/testing';
import { nextMobile } from '../integration/support/accounts';
import { startTestStack, XHR, type TestStack } from '../integration/support/test-stack';
import { killAllSpawned, PostgresServerProcess, RedisServerProcess } from './support/processes';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));
const silent = { debug() {}, info() {}, warn() {}, error() {} };

let redis: RedisServerProcess;
let pg: PostgresServerProcess;
let t: TestStack;
let rpc: RpcClient;
let db: Client | undefined;

beforeAll(async () => {
  [redis, pg] = await Promise.all([RedisServerProcess.start(), PostgresServerProcess.start()]);
  t = await startTestStack({ env: { REDIS_URL: redis.url, DATABASE_URL: pg.url(), ESCALATION_TICK_MS: '250' } });
  rpc = await RpcClient.create({ mode: 'nats', natsUrl: t.env.NATS_URL!, subjectPrefix: t.env.SUBJECT_PREFIX, logger: silent });
}, 180_000);

afterAll(async () => {
  await db?.end().catch(() => undefined);
  await rpc?.close();
  // A stack that does not stop names the step it hangs in (Shutdown warns every 10 s): show those.
  const slow = setTimeout(() => {
    const stuck = t?.logs.filter((line) => line.includes('shutdown step')).slice(-20) ?? [];
    console.error(`the stack has not stopped after 60 s:\n${stuck.join('')}`);
  }, 60_000);
  await t?.stop();
  clearTimeout(slow);
  await killAllSpawned();
  await pg?.destroy();
}, 240_000);

/** Reads the services' tables (one database, a schema each), reconnecting after an outage. */
async function query<R extends Record<string, unknown>>(text: string, params: unknown[] = []): Promise<R[]> {
  if (!db) {
    db = new Client({ connectionString: pg.url() });
    db.on('error', () => undefined);
    await db.connect();
  }
  try {
    return (await db.query<R>(text, params)).rows;
  } catch (err) {
    await db.end().catch(() => undefined);
    db = undefined;
    throw err;
  }
}

async function superadmin() {
  const agent = request.agent(t.url);
  await agent.post('/api/auth/login').set(XHR).send({ username: t.superadmin.username, password: t.superadmin.password }).expect(200);
  return agent;
}

let seq = 0;
/** Workers identity knows, on shift at `location` (through shifts' own command, as the gateway sends it). */
async function onShift(agent: ReturnType<typeof request.agent>, location: string, count: number): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < count; i++) {
    const res = await agent
      .post('/api/users')
      .set(XHR)
      .send({
        username: `out${Math.random().toString(36).slice(2, 9)}`,
        password: 'Secret1pass',
        name: `Outage Worker ${++seq}`,
        phone: nextMobile(),
        role: 'worker',
      })
      .expect(201);
    ids.push(res.body.user.id);
  }
  for (const userId of ids) {
    await eventually(async () => (await rpc.send('shifts.shift.start.v1', { userId, location })).worker.onShift, 20_000, 200);
  }
  return ids;
}

const setDeadline = (userId: number, minutesUntilDue: number) =>
  rpc.send('shifts.deadline.set.v1', { userId, mode: 'minutes_until_due', minutesUntilDue, byUserId: 1 });

const missedAlarms = (userIds: number[]) =>
  query<{ user_id: number; due_at: Date }>(
    `select user_id, due_at from escalation.alarms where kind = 'missed_check_in' and user_id = any($1)`,
    [userIds],
  );

describe('outages of the stores every service depends on', () => {
  it('Redis down for 30 s: sign-in answers 503 with a clear message, deadlines and alarms carry on, sign-in works after', async () => {
    const agent = await superadmin();
    await agent.post('/api/location-options').set(XHR).send({ name: 'Redis Depot' }).expect(201);
    const [worker] = await onShift(agent, 'Redis Depot', 1);
    const due = new Date((await setDeadline(worker, 0.25)).worker.nextCheckInAt!);

    await redis.stop();
    const stoppedAt = Date.now();
    const login = await request(t.url)
      .post('/api/auth/login')
      .set(XHR)
      .send({ username: t.superadmin.username, password: t.superadmin.password });
    expect(login.status).toBe(503);
    expect(login.body).toEqual({ message: TEMPORARILY_UNAVAILABLE });
    const me = await agent.get('/api/auth/me');
    expect(me.status).toBe(503);
    const ready = await request(t.url).get('/readyz');
    expect(ready.status).toBe(503);
    expect(ready.body.checks.sessions).not.toBe('ok');

    // Escalation needs no Redis: the missed check-in due during the outage opens its alarm on time.
    const [alarm] = await eventually(async () => {
      const found = await missedAlarms([worker]);
      return found.length > 0 ? found : undefined;
    }, 25_000);
    expect(alarm.due_at.getTime()).toBe(due.getTime());
    expect(Date.now() - stoppedAt).toBeLessThan(30_000);

    await sleep(stoppedAt + 30_000 - Date.now());
    await redis.start();
    await eventually(
      async () =>
        (await request(t.url).post('/api/auth/login').set(XHR).send({ username: t.superadmin.username, password: t.superadmin.password }))
          .status === 200,
      15_000,
      250,
    );
    await eventually(async () => (await request(t.url).get('/readyz')).status === 200, 15_000, 250);
    expect(await missedAlarms([worker])).toHaveLength(1);
  }, 120_000);

  it('the shared PostgreSQL down for 90 s: the API answers 503 and writes nothing; after it, every worker has the deadline shifts holds and each due step fired once', async () => {
    const agent = await superadmin();
    await agent.post('/api/location-options').set(XHR).send({ name: 'Outage Depot' }).expect(201);
    const workers = await onShift(agent, 'Outage Depot', 6);
    const silent = workers.slice(0, 3);
    // Due 30 s into the outage; the other three keep their hour.
    const due = new Map<number, number>();
    for (const userId of silent) due.set(userId, Date.parse((await setDeadline(userId, 0.6)).worker.nextCheckInAt!));
    await eventually(async () => {
      const rows = await query<{ user_id: number; due: string }>(
        `select user_id, payload->>'dueAt' as due from escalation.deadlines where kind = 'checkin' and user_id = any($1)`,
        [silent],
      );
      return rows.length === silent.length && rows.every((r) => Date.parse(r.due) === due.get(r.user_id));
    }, 20_000);

    await db?.end().catch(() => undefined);
    db = undefined;
    await pg.stop('immediate');
    const stoppedAt = Date.now();

    // The session lives in Redis, so the superadmin is still signed in; everything behind it is down.
    const created = await agent.post('/api/location-options').set(XHR).send({ name: 'Never Saved' });
    expect(created.status).toBe(503);
    expect(created.body).toEqual({ message: TEMPORARILY_UNAVAILABLE });
    const list = await agent.get('/api/workers/active');
    expect(list.status).toBe(503);
    const login = await request(t.url)
      .post('/api/auth/login')
      .set(XHR)
      .send({ username: t.superadmin.username, password: t.superadmin.password });
    expect(login.status).toBe(503);
    expect(login.body.message).toBe(TEMPORARILY_UNAVAILABLE);

    await sleep(stoppedAt + 90_000 - Date.now());
    await pg.start();

    const shiftsHolds = await eventually(
      async () =>
        query<{ user_id: number; next_check_in_at: Date }>(
          `select user_id, next_check_in_at from shifts.worker_state where on_shift and user_id = any($1)`,
          [workers],
        ),
      30_000,
      500,
    );
    expect(shiftsHolds.map((w) => w.user_id).sort((a, b) => a - b)).toEqual([...workers].sort((a, b) => a - b));
    // Each silent worker's missed check-in fires once, as soon as escalation's database is back.
    await eventually(async () => (await missedAlarms(silent)).length === silent.length, 45_000, 500);
    const alarms = await missedAlarms(workers);
    expect(alarms.map((a) => a.user_id).sort((a, b) => a - b)).toEqual([...silent].sort((a, b) => a - b));
    for (const a of alarms) expect(a.due_at.getTime()).toBe(due.get(a.user_id));
    for (const w of shiftsHolds.filter((x) => !silent.includes(x.user_id))) {
      const rows = await query<{ due: string }>(`select payload->>'dueAt' as due from escalation.deadlines where job_key = $1`, [
        `checkin:${w.user_id}`,
      ]);
      expect(rows.map((r) => Date.parse(r.due))).toEqual([w.next_check_in_at.getTime()]);
    }
    // Nothing half-written: the refused location does not exist anywhere; nothing was parked.
    expect(await query(`select 1 from locations.location_options where name = 'Never Saved'`)).toEqual([]);
    for (const schema of ['identity', 'locations', 'shifts', 'escalation', 'notifications', 'audit']) {
      expect({ schema, letters: await query(`select subject, error from ${schema}.dead_letters`) }).toEqual({ schema, letters: [] });
    }
    await eventually(async () => (await request(t.url).get('/readyz')).status === 200, 30_000, 500);
    await (await superadmin()).get('/api/workers/active').expect(200);
  }, 240_000);
});
