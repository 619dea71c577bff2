// POST /api/check-ins through the whole path: gateway (cookie session in Redis) → identity (PIN,
// over NATS) → shifts (row lock, check-in, state, outbox in one transaction) → JetStream, on this
// machine's real PostgreSQL, NATS and Redis, in two layouts of the same stack:
//   one    every service and the gateway in this process, as `npm start` runs them;
//   split  each service and the gateway in a process of its own, started from its own dist/main.js,
//          as the chart deploys them, so the stack can use every core;
//   two    (only when BENCH_LAYOUTS names it) the gateway from its main, every service in one more.
// Each layout is printed next to the raw single-row INSERT rate of the same PostgreSQL, measured in
// the same run just before it, and with the CPU time one raw row and one check-in cost. Loopback
// only; per layout 20 s of load (3 s raw, 2 s warm-up, 5 s unthrottled, 5 s at the target rate,
// 5 s at half the unthrottled rate) and up to 20 s for the event consumers to catch up; the load
// generator runs in a child process so it does not share the stack's event loop.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
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

const WORKERS = Number(process.env.BENCH_WORKERS ?? 50);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const RATE = Number(process.env.BENCH_RATE ?? 1000);
const LAYOUTS = (process.env.BENCH_LAYOUTS ?? 'one,split').split(',');
// The check-in's insert runs on the shifts service's pool, whose size is the platform's default
// (libs/platform openDatabase): the raw baseline gets as many connections, no more.
const SHIFTS_POOL_SIZE = 10;
const RAW_CONNECTIONS = Number(process.env.BENCH_RAW_CONNECTIONS ?? SHIFTS_POOL_SIZE);
// Server time runs this many times faster than real time while load runs (see the README), and
// every worker checks in every 240 minutes, the longest interval: 72 s of real time, so the
// escalation service falling a few seconds behind under load cannot take a worker for overdue.
const CLOCK_SPEED = 200;
const LONGEST_INTERVAL_MINUTES = 240;
// Extra node flags for the processes of the split and two layouts, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof".
const NODE_ARGS = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
const RAW_S = 3;
const WARM_S = 2;
const MAX_S = 5;
const RATE_S = 5;
// Longest wait for the event consumers to catch up, before and after each layout's load.
const DRAIN_S = 20;
const SERVICES = ['identity', 'locations', 'shifts', 'escalation', 'notifications', 'audit'];
const pgAdmin = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const natsUrl = process.env.TEST_NATS_URL ?? 'nats://127.0.0.1:4222';
if (!(WORKERS >= 1 && WORKERS <= 9000)) throw new Error('BENCH_WORKERS must be 1..9000 (PINs are 4 digits, one per worker)');
if (LAYOUTS.length === 0 || LAYOUTS.some((l) => !['one', 'two', 'split'].includes(l)))
  throw new Error('BENCH_LAYOUTS is a list of "one", "two" and "split"');

const id = `bench${randomBytes(4).toString('hex')}`;
const admin = new pg.Client({ connectionString: pgAdmin });
await admin.connect();
await admin.query(`CREATE DATABASE "${id}"`);
const dbUrl = new URL(pgAdmin);
dbUrl.pathname = `/${id}`;
const password = `Bench-${randomBytes(8).toString('hex')}`;
const tmp = mkdtempSync(join(tmpdir(), 'lws-bench-checkin-'));

const stackEnv = {
  ...process.env,
  NODE_ENV: 'test',
  LOG_LEVEL: 'warn',
  HOST: '127.0.0.1',
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
};
delete stackEnv.OTEL_EXPORTER_OTLP_ENDPOINT;

/** CPU seconds (user + system) a process has used so far, from /proc (Linux). */
function cpuSeconds(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return NaN;
  }
}

const freePort = () =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

/** The whole stack in this process; its test clock is this process's. */
async function startOne() {
  const stack = await startStack({ env: { ...stackEnv, PORT: '0' }, healthPorts: 'random', announce: () => {} });
  let timer;
  return {
    url: stack.url,
    processes: [{ name: 'stack (gateway + 6 services)', pid: process.pid }],
    startClock() {
      const from = testClock.offsetMs();
      const t0 = Date.now();
      timer = setInterval(() => testClock.setOffsetMs(Math.round(from + (Date.now() - t0) * (CLOCK_SPEED - 1))), 10);
    },
    stopClock: () => clearInterval(timer),
    close: () => stack.close(),
  };
}

/**
 * The stack in processes of their own: `split`, every service and the gateway each from its own
 * main entry point; `two`, the gateway from its main and every service in one process (backend.cjs).
 */
async function startProcesses(kind) {
  const port = await freePort();
  const env = {
    ...stackEnv,
    HEALTH_PORT: '0',
    PORT: String(port),
    BENCH_CLOCK_SPEED: String(CLOCK_SPEED),
    BENCH_CLOCK_BASE_MS: String(testClock.offsetMs()),
  };
  const backend =
    kind === 'split' ? SERVICES.map((s) => [s, join(root, `services/${s}/dist/main.js`)]) : [['services', join(here, 'backend.cjs')]];
  const children = [...backend, ['gateway', join(root, 'services/gateway/dist/main.js')]].map(([name, entry]) => {
    const child = spawn(process.execPath, [...NODE_ARGS, '-r', join(here, 'fast-clock.cjs'), entry], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let log = '';
    const keep = (d) => (log = (log + d).slice(-4000));
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
    return { name, child, pid: child.pid, exited, log: () => log };
  });
  const close = async () => {
    for (const c of children) c.child.kill('SIGTERM');
    await Promise.all(
      children.map(async (c) => {
        const timer = setTimeout(() => c.child.kill('SIGKILL'), 15_000);
        await c.exited;
        clearTimeout(timer);
      }),
    );
  };
  const url = `http://127.0.0.1:${port}`;
  try {
    // Ready when the gateway answers and every service answers its ping over NATS.
    const deadline = Date.now() + 120_000;
    let early;
    for (const c of children) void c.exited.then((e) => (early ??= { name: c.name, ...e, log: c.log() }));
    for (;;) {
      if (early) throw new Error(`${early.name} exited (${early.code ?? early.signal}) while starting:\n${early.log}`);
      if (Date.now() > deadline) throw new Error(`the ${kind} stack was not ready within 120 s`);
      const status = await loginAt(url, 'superadmin')
        .then((cookie) => fetch(`${url}/api/system/status`, { headers: { cookie } }))
        .then((r) => (r.ok ? r.json() : undefined))
        .catch(() => undefined);
      if (status?.allReady) break;
      await new Promise((r) => setTimeout(r, 250));
    }
  } catch (err) {
    await close();
    throw err;
  }
  const signal = () => {
    for (const c of children) c.child.kill('SIGUSR2');
  };
  return { url, processes: children.map((c) => ({ name: c.name, pid: c.pid })), startClock: signal, stopClock: signal, close };
}

const api = (url, path, { cookie, body, method = body ? 'POST' : 'GET' } = {}) =>
  fetch(`${url}${path}`, {
    method,
    headers: { 'Content-Type': 'application/json', 'X-Requested-With': 'XMLHttpRequest', ...(cookie ? { cookie } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
async function loginAt(url, username) {
  const res = await api(url, '/api/auth/login', { body: { username, password } });
  if (!res.ok) throw new Error(`login ${username}: ${res.status}`);
  return res.headers.get('set-cookie').split(';')[0];
}

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

/**
 * Each worker is made as an admin would (its own account, session and PIN; PINs handed out in
 * sequence, since they are unique), given the longest check-in interval and put on shift at the
 * default location. Sessions live in
 * Redis, so they hold across layouts.
 */
async function createWorkers(url) {
  const superadmin = await loginAt(url, 'superadmin');
  return pool([...Array(WORKERS).keys()], 4, async (i) => {
    const username = `bw${i}`;
    const pin = String(1000 + i);
    const created = await api(url, '/api/users', {
      cookie: superadmin,
      body: { username, password, name: `Bench Worker ${i}`, phone: `+447911${String(100000 + i)}`, role: 'worker', pinCode: pin },
    });
    if (created.status !== 201) throw new Error(`create ${username}: ${created.status} ${await created.text()}`);
    const userId = (await created.json()).user.id;
    const cookie = await loginAt(url, username);
    const settings = await api(url, `/api/users/${userId}/settings`, {
      cookie,
      method: 'PATCH',
      body: { primaryContact: '+447700900123', checkInInterval: LONGEST_INTERVAL_MINUTES },
    });
    if (!settings.ok) throw new Error(`settings ${username}: ${settings.status} ${await settings.text()}`);
    for (let attempt = 0; ; attempt++) {
      const started = await api(url, `/api/users/${userId}/start-shift`, { cookie, body: { location: 'The Prospect Building' } });
      if (started.ok) break;
      // The default location reaches shifts through an event; only the first workers can beat it.
      if (attempt > 100) throw new Error(`start-shift ${username}: ${started.status} ${await started.text()}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    return { id: userId, pin, cookie };
  });
}

/**
 * Runs the load generator against a started layout. A worker's second press within 5 s (server
 * time) is answered as the first: running the server clock CLOCK_SPEED times faster while load
 * runs keeps each worker's check-ins far apart, so every request records one; the request path is
 * the same as at normal speed. The clock stands still otherwise, so no worker falls overdue while
 * a layout starts or stops. CPU is sampled around the unthrottled phase.
 */
async function measure(layout, workers) {
  const planFile = join(tmp, 'plan.json');
  writeFileSync(
    planFile,
    JSON.stringify({
      url: layout.url,
      databaseUrl: dbUrl.toString(),
      workers,
      connections: CONNECTIONS,
      rawConnections: RAW_CONNECTIONS,
      rate: RATE,
      rawSeconds: RAW_S,
      warmSeconds: WARM_S,
      maxSeconds: MAX_S,
      rateSeconds: RATE_S,
    }),
  );
  layout.startClock();
  try {
    return await new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [join(here, 'load.mjs'), planFile], { stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
      const pids = [...layout.processes, { name: 'load generator', pid: child.pid }];
      // CPU seconds per process over each phase, PostgreSQL's backends for this database included.
      const cpu = { raw: {}, unthrottled: {} };
      const starts = {};
      let sampling = Promise.resolve();
      const sample = async () => {
        const out = new Map(pids.map((p) => [p.name, [p.pid]]));
        const { rows } = await admin.query('SELECT pid FROM pg_stat_activity WHERE datname = $1', [id]);
        out.set(
          'postgres',
          rows.map((r) => r.pid),
        );
        return out;
      };
      const record = async (m) => {
        for (const [name, list] of await sample()) {
          for (const pid of list) {
            const now = cpuSeconds(pid);
            if (Number.isNaN(now)) continue;
            const key = `${m.phase}:${name}:${pid}`;
            if (m.at === 'start') starts[key] = now;
            // A connection opened during the phase spent all its CPU in it.
            else cpu[m.phase][name] = (cpu[m.phase][name] ?? 0) + now - (starts[key] ?? 0);
          }
        }
      };
      child.on('message', (m) => {
        sampling = sampling.then(async () => {
          await record(m);
          child.send('sampled');
        });
      });
      let out = '';
      child.stdout.on('data', (d) => (out += d));
      child.on('error', reject);
      child.on('exit', (code) =>
        sampling.then(() => (code === 0 ? resolve({ ...JSON.parse(out), cpu }) : reject(new Error(`load generator exited with ${code}`)))),
      );
    });
  } finally {
    layout.stopClock();
  }
}

/**
 * Waits (at most `seconds`) until every JetStream consumer of this run's stream has nothing
 * pending: the events of check-ins already answered are still being handled by escalation, audit
 * and the others, whose CPU would otherwise land in the next measurement. Resolves with the
 * seconds waited, or with the consumers still behind and their pending events.
 */
async function drain(seconds) {
  const nc = await connect({ servers: natsUrl });
  try {
    const jsm = await nc.jetstreamManager();
    const started = Date.now();
    for (;;) {
      const consumers = await jsm.consumers.list(stackEnv.EVENTS_STREAM).next();
      const behind = consumers.filter((c) => c.num_pending + c.num_ack_pending > 0);
      if (behind.length === 0) return { seconds: (Date.now() - started) / 1000 };
      if (Date.now() - started >= seconds * 1000) {
        return { behind: behind.map((c) => `${c.name} ${c.num_pending + c.num_ack_pending}`).join(', ') };
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  } finally {
    await nc.close();
  }
}

const starters = { one: startOne, two: () => startProcesses('two'), split: () => startProcesses('split') };
const results = [];
let workers;
let setupSeconds = 0;
let exitCode = 0;
try {
  for (const name of LAYOUTS) {
    const startedAt = Date.now();
    const layout = await starters[name]();
    const startSeconds = (Date.now() - startedAt) / 1000;
    try {
      if (!workers) {
        const setupStarted = Date.now();
        workers = await createWorkers(layout.url);
        setupSeconds = (Date.now() - setupStarted) / 1000;
      }
      await drain(DRAIN_S);
      const figures = await measure(layout, workers);
      results.push({ name, processes: layout.processes.length, startSeconds, ...figures, drain: await drain(DRAIN_S) });
    } finally {
      await layout.close();
    }
  }

  const db = new pg.Client({ connectionString: dbUrl.toString() });
  await db.connect();
  const { rows } = await db.query('SELECT count(*)::int AS n FROM shifts.check_ins');
  await db.end();

  const pct = (x) => `${(100 * x).toFixed(0)}%`;
  const lat = (r) => `p50 ${r.latency.p50} ms  p90 ${r.latency.p90} ms  p99 ${r.latency.p99} ms  max ${r.latency.max} ms`;
  console.log(`checkin: POST /api/check-ins, ${WORKERS} workers on shift, ${CONNECTIONS} connections (setup ${setupSeconds.toFixed(0)} s)`);
  let ok = 0;
  let bad = 0;
  let duplicates = 0;
  for (const r of results) {
    const runs = [r.unthrottled, r.fixedRate, r.half];
    const sum = (f) => runs.reduce((a, x) => a + f(x), 0);
    ok += sum((x) => x.ok);
    bad += sum((x) => x.non2xx + x.errors);
    duplicates += sum((x) => x.duplicates);
    console.log(`layout ${r.name}: ${r.processes} process${r.processes > 1 ? 'es' : ''} (started in ${r.startSeconds.toFixed(0)} s)`);
    console.log(`  raw INSERT, pg, ${RAW_CONNECTIONS} connections, ${RAW_S} s    ${r.raw.perSecond.toFixed(0)} rows/s`);
    console.log(
      `  check-ins, unthrottled, ${MAX_S} s            ${r.unthrottled.perSecond.toFixed(0)}/s = ${pct(r.unthrottled.perSecond / r.raw.perSecond)} of raw (target ≥ 30%)   ${lat(r.unthrottled)}`,
    );
    console.log(
      `  check-ins offered at ${RATE}/s, ${RATE_S} s      ${r.fixedRate.perSecond.toFixed(0)}/s achieved   ${lat(r.fixedRate)} (target p99 ≤ 50 ms)`,
    );
    console.log(
      `  check-ins at ${r.half.rate}/s (half of unthrottled, ${r.half.connections} connections), ${RATE_S} s   ${r.half.perSecond.toFixed(0)}/s achieved   ${lat(r.half)}`,
    );
    const perUnit = (phase, n) => {
      const entries = Object.entries(r.cpu[phase]);
      const total = entries.reduce((a, [, sec]) => a + sec, 0);
      const list = entries.map(([name, sec]) => `${name} ${((1000 * sec) / Math.max(1, n)).toFixed(2)}`).join(', ');
      return `${((1000 * total) / Math.max(1, n)).toFixed(2)} ms (${list})`;
    };
    console.log(`  CPU per raw row:    ${perUnit('raw', r.raw.rows)}`);
    console.log(`  CPU per check-in:   ${perUnit('unthrottled', r.unthrottled.ok)}; NATS and Redis servers not counted`);
    const lag = r.drain.behind
      ? `still behind ${DRAIN_S} s after the load stopped: ${r.drain.behind}`
      : `caught up ${r.drain.seconds.toFixed(1)} s after the load stopped`;
    console.log(`  event consumers (escalation, audit, notifications, ...): ${lag}`);
    console.log(
      `  responses    ${sum((x) => x.ok)} ok, ${sum((x) => x.non2xx)} non-2xx, ${sum((x) => x.errors)} errors, ${sum((x) => x.timeouts)} timeouts`,
    );
  }
  // Requests still in flight when a run stops, and the warm-ups', are recorded but not counted above.
  console.log(`recorded     ${rows[0].n} rows in shifts.check_ins; ${duplicates} answers were a duplicate of an earlier check-in`);
  if (bad > 0 || duplicates > 0 || rows[0].n < ok) exitCode = 1;
} finally {
  rmSync(tmp, { recursive: true, force: true });
  await admin.query(`DROP DATABASE IF EXISTS "${id}" WITH (FORCE)`);
  await admin.end();
  const nc = await connect({ servers: natsUrl });
  await (await nc.jetstreamManager()).streams.delete(`LWS_${id.toUpperCase()}`).catch(() => undefined);
  await nc.close();
}
process.exitCode = exitCode;
