import { writeFileSync } from 'node:fs';
import type { INestApplication } from '@nestjs/common';
import { Client } from 'pg';
import request from 'supertest';
import { EDGE_BODIES, EDGE_QUERIES } from '@lws/gateway';
import { startTestStack, XHR, type TestStack } from '../integration/support/test-stack';
import { createAccount, superadminOf, type Account } from '../integration/support/accounts';
import { servedRoutes } from '../integration/support/routes';
import { fuzz, type Role } from './fuzzer';

/**
 * The fuzzer's pass in `npm test`: a seeded run (FUZZ_REQUESTS, default 2,000) over every route
 * as every role on the whole stack against real PostgreSQL, NATS and Redis. No answer may be a
 * 5xx and no rejected request may change a row. `node tests/fuzz/run.mjs --requests 20000` runs
 * the long one, which also holds every answer to 1 s (FUZZ_MAX_MS) and prints the figures.
 */

const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 2000);
const SEED = Number(process.env.FUZZ_SEED ?? 20261125);
const MAX_MS = process.env.FUZZ_MAX_MS ? Number(process.env.FUZZ_MAX_MS) : undefined;

/** Tables a rejected request changes by design. */
const MAY_CHANGE = {
  'escalation.on_call_notices': "the daily on-call gap notice marks its day by itself, on escalation's timer, whatever the requests",
  'identity.pin_failures': 'a wrong PIN counts toward the 5-wrong, 15-minute lockout, whatever else the request got wrong after it',
  'identity.users.pin_locked_until': 'the fifth wrong PIN locks PIN actions for 15 minutes',
};

/** Events a rejected request publishes by design. */
const MAY_EMIT = {
  'identity.login.failed.v1': 'a failed sign-in is recorded in the activity log (who tried, and why it failed)',
  'identity.pin.locked.v1': 'a lockout is a system alert for the admins',
};

/**
 * A failed sign-in's entry in the activity log: audit may write it (its event is allowed above)
 * before the fuzzer takes its snapshot, which then sees the entry as the request's own change.
 * Only on the sign-in routes, and only audit's tables.
 */
const MAY_CHANGE_ON = [
  {
    route: /^POST \/api\/auth\/(login|pin-login)$/,
    tables: ['audit.entries', 'audit.outbox', 'audit.processed_events'],
    why: 'a failed sign-in is recorded in the activity log, sometimes before the fuzzer looks',
  },
];

describe(`fuzzer: ${REQUESTS} malformed requests, every route, every role`, () => {
  let t: TestStack;
  let db: Client;
  const cookies = {} as Record<Role, string>;
  let superadmin: Account;
  let admin: Account;
  let worker: Account;
  const victims: number[] = [];

  async function sessionCookie(username: string, password: string): Promise<string> {
    const res = await request(t.url).post('/api/auth/login').set(XHR).send({ username, password }).expect(200);
    const cookie = (res.headers['set-cookie'] as unknown as string[]).find((c) => c.startsWith('lws_sid='))!;
    return cookie.split(';')[0];
  }

  beforeAll(async () => {
    t = await startTestStack({ env: { LOGIN_MAX_ATTEMPTS_PER_IP: '100000', KIOSK_PIN_MAX_FAILURES: '100000', LOG_LEVEL: 'error' } });
    db = new Client({ connectionString: t.env.DATABASE_URL });
    await db.connect();
    superadmin = await superadminOf(t);
    admin = await createAccount(t, superadmin.agent, 'admin', 'fuzzadmin');
    worker = await createAccount(t, admin.agent, 'worker', 'fuzzworker');
    for (let i = 0; i < 3; i++) victims.push((await createAccount(t, admin.agent, 'worker', `victim${i}`)).id);
    await admin.agent.post('/api/location-options').set(XHR).send({ name: 'Fuzz Depot' }).expect(201);
    cookies.anonymous = '';
    cookies.worker = await sessionCookie(worker.username, worker.password);
    cookies.admin = await sessionCookie(admin.username, admin.password);
    cookies.superadmin = await sessionCookie(superadmin.username, superadmin.password);
    // A kiosk: the browser an admin enrolled, with its device cookie and no session.
    const enrolled = await request(t.url)
      .post('/api/kiosks')
      .set(XHR)
      .set('Cookie', cookies.admin)
      .send({ name: 'Fuzz kiosk', location: 'Fuzz Depot' })
      .expect(201);
    cookies.kiosk = (enrolled.headers['set-cookie'] as unknown as string[]).find((c) => c.startsWith('lws_kiosk='))!.split(';')[0];
  }, 120_000);

  afterAll(async () => {
    await db?.end();
    await t?.stop();
  });

  it('answers every one with a 2xx, 3xx or 4xx, and a rejected one leaves every table as it was', async () => {
    const gateway = t.stack.services.find((s) => s.name === 'gateway') as unknown as { app: INestApplication };
    const routes = servedRoutes(gateway.app).map((r) => {
      const [method, path] = r.split(' ');
      return { method, path };
    });
    expect(routes.length).toBeGreaterThan(60);
    const report = await fuzz({
      url: t.url,
      db,
      cookies,
      ids: { worker: worker.id, admin: admin.id, superadmin: superadmin.id },
      victims,
      routes,
      bodies: EDGE_BODIES,
      queries: EDGE_QUERIES,
      seed: SEED,
      requests: REQUESTS,
      mayChange: MAY_CHANGE,
      mayEmit: MAY_EMIT,
      mayChangeOn: MAY_CHANGE_ON,
    });
    if (process.env.FUZZ_REPORT) writeFileSync(process.env.FUZZ_REPORT, JSON.stringify(report, null, 2));
    // The fuzzer reached past the edge: some requests were good enough to succeed, most were refused.
    const count = (from: number, to: number) =>
      Object.entries(report.byStatus)
        .filter(([s]) => Number(s) >= from && Number(s) < to)
        .reduce((n, [, c]) => n + c, 0);
    expect(count(200, 300)).toBeGreaterThan(REQUESTS * 0.02);
    expect(count(400, 500)).toBeGreaterThan(REQUESTS * 0.5);
    expect(report.findings).toEqual([]);
    if (MAX_MS !== undefined) expect(report.slowest.filter((s) => s.ms > MAX_MS)).toEqual([]);
  }, 3_600_000);
});
