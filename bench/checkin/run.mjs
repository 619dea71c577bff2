// POST /api/check-ins through the whole path: gateway (cookie session in Redis) → identity (PIN,
// over NATS) → shifts (row lock, check-in, state, outbox in one transaction) → JetStream, on this
// machine's real PostgreSQL, NATS and Redis. Printed next to the raw single-row INSERT rate of the
// same PostgreSQL, measured in the same run with as many connections. Loopback only; 20 s of load
// (3 s raw, 2 s warm-up, 5 s unthrottled, 5 s at the target rate, 5 s at half the unthrottled
// rate); the load generator runs in a child process so it does not share the stack's event loop.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import pg from 'pg';
import { connect } from 'nats';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const require = createRequire(import.meta.url);
const { startStack } = require(join(root, 'tools/stack/dist/index.js'));
const { testClock } = require(join(root, 'libs/platform/dist/index.js'));

const WORKERS = Number(process.env.BENCH_WORKERS ?? 100);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const RATE = Number(process.env.BENCH_RATE ?? 1000);
const RAW_S = 3;
const WARM_S = 2;
const MAX_S = 5;
const RATE_S = 5;
const pgAdmin = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const natsUrl = process.env.TEST_NATS_URL ?? 'nats://127.0.0.1:4222';
if (!(WORKERS >= 1 && WORKERS <= 9000)) throw new Error('BENCH_WORKERS must be 1..9000 (PINs are 4 digits, one per worker)');

const id = `bench${randomBytes(4).toString('hex')}`;
const admin = new pg.Client({ connectionString: pgAdmin });
await admin.connect();
await admin.query(`CREATE DATABASE "${id}"`);
const dbUrl = new URL(pgAdmin);
dbUrl.pathname = `/${id}`;
const password = `Bench-${randomBytes(8).toString('hex')}`;
const tmp = mkdtempSync(join(tmpdir(), 'lws-bench-checkin-'));

const stack = await startStack({
  env: {
    ...process.env,
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    PORT: '0',
    DATABASE_URL: dbUrl.toString(),
    NATS_URL: natsUrl,
    REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
    REDIS_KEY_PREFIX: `${id}:`,
    EVENTS_STREAM: `LWS_${id.toUpperCase()}`,
    SUBJECT_PREFIX: `${id}.`,
    LWS_SUPERADMIN_PASSWORD: password,
    LOGIN_MAX_ATTEMPTS_PER_IP: '1000000',
    LWS_TEST_CLOCK: '1',
    OTEL_SDK_DISABLED: 'true',
  },
  healthPorts: 'random',
  announce: () => {},
});

const api = async (path, { cookie, body, method = body ? 'POST' : 'GET' } = {}) => {
  const res = await fetch(`${stack.url}${path}`, {
    method,
    headers: { 'Content-Type': 'application/json', 'X-Requested-With': 'XMLHttpRequest', ...(cookie ? { cookie } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return res;
};
const login = async (username) => {
  const res = await api('/api/auth/login', { body: { username, password } });
  if (!res.ok) throw new Error(`login ${username}: ${res.status}`);
  return res.headers.get('set-cookie').split(';')[0];
};

/** Runs fn over items, `width` at a time. */
async function pool(items, width, fn) {
  const out = new Array(items.length);
  let i = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (i < items.length) {
        const k = i++;
        out[k] = await fn(items[k], k);
      }
    }),
  );
  return out;
}

let exitCode = 0;
try {
  const superadmin = await login('superadmin');
  const setupStarted = Date.now();
  // Each worker is made as an admin would (its own account, session and PIN; PINs handed out in
  // sequence, since they are unique) and put on shift at the default location.
  const workers = await pool([...Array(WORKERS).keys()], 4, async (i) => {
    const username = `bw${i}`;
    const pin = String(1000 + i);
    const created = await api('/api/users', {
      cookie: superadmin,
      body: { username, password, name: `Bench Worker ${i}`, phone: `+447911${String(100000 + i)}`, role: 'worker', pinCode: pin },
    });
    if (created.status !== 201) throw new Error(`create ${username}: ${created.status} ${await created.text()}`);
    const userId = (await created.json()).user.id;
    const cookie = await login(username);
    for (let attempt = 0; ; attempt++) {
      const started = await api(`/api/users/${userId}/start-shift`, { cookie, body: { location: 'The Prospect Building' } });
      if (started.ok) break;
      // The default location reaches shifts through an event; only the first workers can beat it.
      if (attempt > 100) throw new Error(`start-shift ${username}: ${started.status} ${await started.text()}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    return { id: userId, pin, cookie };
  });
  const setupSeconds = (Date.now() - setupStarted) / 1000;

  // A worker's second press within 5 s (server time) is answered as the first: running the server
  // clock 400 times faster keeps each worker's check-ins far apart, so every request records one.
  // The request path is the same as at normal speed.
  const accelerator = setInterval(() => testClock.advanceMs(20_000), 50);
  const planFile = join(tmp, 'plan.json');
  writeFileSync(
    planFile,
    JSON.stringify({
      url: stack.url,
      databaseUrl: dbUrl.toString(),
      workers,
      connections: CONNECTIONS,
      rate: RATE,
      rawSeconds: RAW_S,
      warmSeconds: WARM_S,
      maxSeconds: MAX_S,
      rateSeconds: RATE_S,
    }),
  );
  let results;
  try {
    results = await new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [join(here, 'load.mjs'), planFile], { stdio: ['ignore', 'pipe', 'inherit'] });
      let out = '';
      child.stdout.on('data', (d) => (out += d));
      child.on('error', reject);
      child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`load generator exited with ${code}`))));
    });
  } finally {
    clearInterval(accelerator);
  }

  const db = new pg.Client({ connectionString: dbUrl.toString() });
  await db.connect();
  const { rows } = await db.query('SELECT count(*)::int AS n FROM shifts.check_ins');
  await db.end();

  const { raw, unthrottled, fixedRate, half } = results;
  const pct = (x) => `${(100 * x).toFixed(0)}%`;
  const lat = (r) => `p50 ${r.latency.p50} ms  p90 ${r.latency.p90} ms  p99 ${r.latency.p99} ms  max ${r.latency.max} ms`;
  const runs = [unthrottled, fixedRate, half];
  const sum = (f) => runs.reduce((a, r) => a + f(r), 0);
  const ok = sum((r) => r.ok);
  console.log(`checkin: POST /api/check-ins, ${WORKERS} workers on shift, ${CONNECTIONS} connections (setup ${setupSeconds.toFixed(0)} s)`);
  console.log(`  raw INSERT, pg, ${CONNECTIONS} connections, ${RAW_S} s    ${raw.perSecond.toFixed(0)} rows/s`);
  console.log(`  check-ins, unthrottled, ${MAX_S} s            ${unthrottled.perSecond.toFixed(0)}/s = ${pct(unthrottled.perSecond / raw.perSecond)} of raw (target ≥ 30%)   ${lat(unthrottled)}`);
  console.log(`  check-ins offered at ${RATE}/s, ${RATE_S} s      ${fixedRate.perSecond.toFixed(0)}/s achieved   ${lat(fixedRate)} (target p99 ≤ 50 ms)`);
  console.log(`  check-ins at ${half.rate}/s (half of unthrottled, ${half.connections} connections), ${RATE_S} s   ${half.perSecond.toFixed(0)}/s achieved   ${lat(half)}`);
  console.log(`  responses    ${ok} ok, ${sum((r) => r.non2xx)} non-2xx, ${sum((r) => r.errors)} errors, ${sum((r) => r.timeouts)} timeouts`);
  const duplicates = sum((r) => r.duplicates);
  // Requests still in flight when a run stops, and the warm-up's, are recorded but not counted above.
  console.log(`  recorded     ${rows[0].n} rows in shifts.check_ins; ${duplicates} answers were a duplicate of an earlier check-in`);
  if (sum((r) => r.non2xx + r.errors) > 0 || duplicates > 0 || rows[0].n < ok) exitCode = 1;
} finally {
  await stack.close();
  rmSync(tmp, { recursive: true, force: true });
  await admin.query(`DROP DATABASE IF EXISTS "${id}" WITH (FORCE)`);
  await admin.end();
  const nc = await connect({ servers: natsUrl });
  await (await nc.jetstreamManager()).streams.delete(`LWS_${id.toUpperCase()}`).catch(() => undefined);
  await nc.close();
}
process.exitCode = exitCode;
