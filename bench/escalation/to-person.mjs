// Deadline to a person: N on-shift workers (default 100,000) whose check-in deadline passes,
// spread evenly over SPREAD seconds starting LEAD seconds after seeding begins. For every missed
// check-in it measures, from the deadline (due), when (a) escalation opened the alarm (fired),
// (b) the messaging provider received the SMS that tells the worker (the fake Twilio, driven by
// the real SDK in notifications), and (c) the alarm reached an admin's live stream (GET /api/events).
// The stack runs from its built output on this machine's real PostgreSQL, NATS and Redis, over
// loopback; this process is the provider and the admin's browser.
// Missed = not seen by window end + MARGIN; duplicated = seen more than once.
//
//   node bench/escalation/to-person.mjs [--workers N] [--missing M] [--spread-s S] [--lead-s S] [--margin-s S] [--emergencies E] [--layout one|services]
//
// --layout one (default): the whole stack in one process, as `npm start` runs it. --layout services:
// each of the seven services in its own process from its dist/main.js, with its own variables as
// docker-compose.yml gives them (the chart's layout), started one at a time in the stack's order.
// --missing M: only the first M workers miss their check-in in the window (default: all N); the
// others stay on shift with a deadline an hour later, as most of a large workforce is at any time.
// --emergencies E (default 5, 0 for none): E more workers, real for the gateway (created, signed in,
// an emergency contact, on shift through the API), each press the emergency button once, evenly
// through the window (at 1/(E+1), 2/(E+1), ... of it); measured from the press to the provider
// receiving the first SMS or call to that worker's contact (a flood must not bury one).
// The stack's CPU (its processes and their PostgreSQL backends) over the window, per alarm opened, is
// printed too; with --layout services, each service's as well, to see which one is the bottleneck.
//
// BENCH_NODE_ARGS passes flags to every stack process (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`).
import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { connect } from 'nats';
import pg from 'pg';
import { allReached, emergencyHops, pressEmergencies, seedEmergencyWorkers, summarizeEmergencies } from './emergencies.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const { FakeTwilio } = createRequire(import.meta.url)(join(root, 'services/notifications/dist/fake-twilio/fake-twilio.js'));

const { values: args } = parseArgs({
  options: {
    workers: { type: 'string', default: process.env.BENCH_WORKERS ?? '100000' },
    missing: { type: 'string' },
    'spread-s': { type: 'string', default: '150' },
    'lead-s': { type: 'string', default: '40' },
    'margin-s': { type: 'string', default: '30' },
    emergencies: { type: 'string', default: '5' },
    layout: { type: 'string', default: 'one' },
  },
});
const WORKERS = Number(args.workers);
// How many of them miss their check-in in the window (default: all); the others' deadlines are an hour later.
const MISSING = Number(args.missing ?? args.workers);
const SPREAD_S = Number(args['spread-s']);
const LEAD_S = Number(args['lead-s']);
const MARGIN_S = Number(args['margin-s']);
const EMERGENCIES = Number(args.emergencies);
const LAYOUT = args.layout;
const LAYOUTS = { one: 'the stack in one process (npm start)', services: "each service in its own process (the chart's layout)" };
if (!(Number.isInteger(WORKERS) && WORKERS >= 1 && WORKERS <= 200_000)) throw new Error('--workers must be a whole number 1..200000');
if (!(Number.isInteger(MISSING) && MISSING >= 1 && MISSING <= WORKERS)) throw new Error('--missing must be a whole number 1..--workers');
if (!(LEAD_S >= 20 && LEAD_S <= 180)) throw new Error('--lead-s must be 20..180 (seeding happens before the first deadline)');
if (!(SPREAD_S >= 1 && SPREAD_S <= 600) || !(MARGIN_S >= 5 && MARGIN_S <= 300)) throw new Error('--spread-s 1..600, --margin-s 5..300');
if (!(Number.isInteger(EMERGENCIES) && EMERGENCIES >= 0 && EMERGENCIES <= 100))
  throw new Error('--emergencies must be a whole number 0..100');
if (!Object.hasOwn(LAYOUTS, LAYOUT)) throw new Error('--layout must be one or services');
const TARGET = { p99: 2000, max: 5000 };
/** From the press to the first SMS or call to the worker's emergency contact, during the flood. */
const EMERGENCY_TARGET = { p99: 1000, max: 2000 };

const pgAdmin = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const natsUrl = process.env.TEST_NATS_URL ?? 'nats://127.0.0.1:4222';
const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const id = `benchp${randomBytes(4).toString('hex')}`;
const stream = `LWS_${id.toUpperCase()}`;
const password = `Bench-${randomBytes(8).toString('hex')}`;
const dbUrl = new URL(pgAdmin);
dbUrl.pathname = `/${id}`;
const log = (m) => process.stderr.write(`[${new Date().toISOString().slice(11, 19)}] ${m}\n`);
const sleep = (ms) => new Promise((r) => setTimeout(r, Math.max(0, ms)));
/** A limit on a wait that, once the wait is over, does not keep this process alive until it passes. */
const limit = (ms) => new Promise((r) => setTimeout(r, ms).unref());
const freePort = () =>
  new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

const userIdOf = (i) => 1_000_000 + i;
const phoneOf = (i) => `+447911${100000 + i}`;
const indexOfPhone = (phone) => Number(phone.slice(7)) - 100000;

/** CPU seconds (user + system) a process has used so far, from /proc (Linux); NaN once it is gone. */
function cpuSeconds(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return NaN;
  }
}

function stats(latencies) {
  const sorted = [...latencies].sort((a, b) => a - b);
  const at = (q) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] : NaN);
  return { p50: at(0.5), p99: at(0.99), max: sorted.length ? sorted[sorted.length - 1] : NaN };
}

/** Lateness of the first sighting per worker; missed = none, duplicated = more than one. */
function summarize(what, dueAtMs, sightings) {
  const seen = new Map();
  for (const [i, at] of sightings) seen.set(i, [...(seen.get(i) ?? []), at]);
  const latencies = [];
  let duplicated = 0;
  for (const [i, times] of seen) {
    if (times.length > 1) duplicated += 1;
    latencies.push(Math.min(...times) - dueAtMs[i]);
  }
  return { what, seen: seen.size, missed: MISSING - seen.size, duplicated, latenessMs: stats(latencies) };
}

/** A stack process (`name` as the report names it), its output kept for a failure's report. */
function launch(name, entry, env) {
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, entry], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const proc = { name, child, output: '', exited: new Promise((resolve) => child.once('exit', resolve)) };
  child.stdout.on('data', (d) => (proc.output += d));
  child.stderr.on('data', (d) => (proc.output += d));
  return proc;
}
const running = (proc) => proc.child.exitCode === null && proc.child.signalCode === null;

/** Waits until `ready()` holds; fails when the process exits first, or after 120 s. */
async function started(proc, ready) {
  for (const since = Date.now(); !(await ready()); await sleep(200)) {
    if (!running(proc) || Date.now() - since > 120_000) throw new Error(`${proc.name} did not start:\n${proc.output}`);
  }
  log(`${proc.name} running`);
}

/** The stack's order (tools/stack): identity first (the superadmin), the gateway, which only forwards, last. */
const SERVICES = ['identity', 'locations', 'shifts', 'escalation', 'notifications', 'audit', 'gateway'];

const admin = new pg.Client({ connectionString: pgAdmin });
await admin.connect();
await admin.query(`CREATE DATABASE "${id}"`);
const provider = await FakeTwilio.start();
const procs = [];
let sse;
let exitCode = 0;
const db = new pg.Client({ connectionString: dbUrl.toString() });
try {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  // What every service reads (docker-compose.yml's common variables), then what only the gateway does.
  const common = {
    PATH: process.env.PATH,
    NODE_ENV: 'test',
    LOG_LEVEL: 'error',
    HOST: '127.0.0.1',
    DATABASE_URL: dbUrl.toString(),
    NATS_URL: natsUrl,
    REDIS_KEY_PREFIX: `${id}:`,
    EVENTS_STREAM: stream,
    SUBJECT_PREFIX: `${id}.`,
    LWS_SUPERADMIN_PASSWORD: password,
    // The alarm's opening is measured; its later steps (calls after 2 minutes) stay out of the window.
    ALARM_ACK_TIMEOUT_SECONDS: '3600',
    OTEL_SDK_DISABLED: 'true',
    // Tuning to compare (ESCALATION_CONCURRENCY, ESCALATION_TICK_MS, ...) passes through.
    ...Object.fromEntries(Object.entries(process.env).filter(([k]) => k.startsWith('ESCALATION_'))),
  };
  const gateway = {
    PORT: String(port),
    REDIS_URL: redisUrl,
    // The emergency workers and the admin each sign in once, from this one address.
    LOGIN_MAX_ATTEMPTS_PER_IP: '1000000',
  };
  if (LAYOUT === 'one') {
    // The stack gives notifications the gateway's URL (PUBLIC_BASE_URL) from HOST and PORT.
    const stack = launch('the stack', join(root, 'tools/stack/dist/cli.js'), {
      ...common,
      ...gateway,
      HEALTH_PORT: '0',
      METRICS_PORT: '0',
      FAKE_TWILIO_URL: provider.url,
    });
    procs.push(stack);
    await started(stack, () => /LWS is running/.test(stack.output));
  } else {
    for (const svc of SERVICES) {
      const health = `http://127.0.0.1:${await freePort()}`;
      const env = {
        ...common,
        HEALTH_PORT: new URL(health).port,
        ...(svc === 'gateway' ? gateway : {}),
        // The provider's status callbacks reach notifications through the gateway's /webhooks/twilio.
        ...(svc === 'notifications' ? { FAKE_TWILIO_URL: provider.url, PUBLIC_BASE_URL: url } : {}),
      };
      const proc = launch(svc, join(root, `services/${svc}/dist/main.js`), env);
      procs.push(proc);
      await started(proc, () =>
        fetch(`${health}/readyz`).then(
          (r) => r.ok,
          () => false,
        ),
      );
    }
  }

  // Ready is not yet signed in: the gateway answers a login once identity answers it.
  let login;
  for (const since = Date.now(); ; await sleep(500)) {
    login = await fetch(`${url}/api/auth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Requested-With': 'XMLHttpRequest' },
      body: JSON.stringify({ username: 'superadmin', password }),
    }).catch((err) => ({ ok: false, status: String(err) }));
    if (login.ok) break;
    if (Date.now() - since > 60_000) throw new Error(`login: ${login.status}`);
  }
  const cookie = login.headers.get('set-cookie').split(';')[0];
  const onStream = [];
  // The emergency workers' ids (known once they are created), and when each one's alarm reached the stream.
  const emergencyIds = new Set();
  const emergencyOnStream = new Map();
  sse = await new Promise((resolve, reject) => {
    const req = http.get(`${url}/api/events`, { headers: { cookie, Accept: 'text/event-stream' } }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`GET /api/events: ${res.statusCode}`));
      let buffer = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => {
        const now = Date.now();
        buffer += chunk;
        for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (!/^event: alarm$/m.test(frame)) continue;
          const data = JSON.parse(/^data: (.*)$/m.exec(frame)[1]);
          if (data.change !== 'opened') continue;
          if (data.userId >= 1_000_000) onStream.push([data.userId - 1_000_000, now]);
          else if (emergencyIds.has(data.userId) && !emergencyOnStream.has(data.userId)) emergencyOnStream.set(data.userId, now);
        }
      });
      resolve(req);
    });
    req.once('error', reject);
  });

  await db.connect();
  const emergencyWorkers = await seedEmergencyWorkers({ url, adminCookie: cookie, count: EMERGENCIES, tag: id.slice(-6), db, log });
  for (const w of emergencyWorkers) emergencyIds.add(w.id);
  const startMs = Date.now();
  const laterMs = startMs + (LEAD_S + SPREAD_S + MARGIN_S + 3600) * 1000;
  const dueAtMs = Array.from({ length: WORKERS }, (_, i) =>
    i < MISSING ? startMs + Math.round(LEAD_S * 1000 + (SPREAD_S * 1000 * (i + 0.5)) / MISSING) : laterMs + i,
  );
  log(`seeding ${WORKERS} on-shift workers, ${MISSING} of whose deadline passes over ${SPREAD_S} s from +${LEAD_S} s`);
  // What escalation's consumers keep for a worker on shift: the workers row and the check-in
  // deadline at its last step (the missed check-in at T), as CheckinsService.schedule puts it.
  const CHUNK = 10_000;
  for (let from = 0; from < WORKERS; from += CHUNK) {
    const rows = { ids: [], names: [], phones: [], shifts: [], due: [], payloads: [] };
    for (let i = from; i < Math.min(WORKERS, from + CHUNK); i++) {
      const shiftId = randomUUID();
      const due = new Date(dueAtMs[i]).toISOString();
      rows.ids.push(userIdOf(i));
      rows.names.push(`Bench Worker ${i}`);
      rows.phones.push(phoneOf(i));
      rows.shifts.push(shiftId);
      rows.due.push(due);
      rows.payloads.push(JSON.stringify({ dueAt: due, shiftId }));
    }
    await db.query('BEGIN');
    // In the team identity puts them in (below), as escalation hears it: a copy without it would
    // differ from identity's, and reconciliation would "repair" every worker in the middle of the window.
    await db.query(
      `INSERT INTO escalation.workers (user_id, name, phone, role, check_in_interval, on_shift, shift_id, location, next_check_in_at, deadline_as_of, team_id)
       SELECT u, n, p, 'worker', 60, true, s, 'The Prospect Building', t, $6::timestamptz, (SELECT min(id) FROM identity.teams)
       FROM unnest($1::int[], $2::text[], $3::text[], $4::uuid[], $5::timestamptz[]) AS x(u, n, p, s, t)`,
      [rows.ids, rows.names, rows.phones, rows.shifts, rows.due, new Date(startMs).toISOString()],
    );
    await db.query(
      `INSERT INTO escalation.deadlines (job_key, kind, user_id, step, due_at, version, payload)
       SELECT 'checkin:' || u, 'checkin', u, 'missed', d, 1, p FROM unnest($1::int[], $2::timestamptz[], $3::jsonb[]) AS x(u, d, p)`,
      [rows.ids, rows.due, rows.payloads],
    );
    // identity holds the same users (escalation's reconciliation compares its copy with them).
    await db.query(
      `INSERT INTO identity.users (id, username, password_hash, name, phone, role, team_id)
       SELECT u, 'bench' || u, 'not-a-hash', n, p, 'worker', (SELECT min(id) FROM identity.teams) FROM unnest($1::int[], $2::text[], $3::text[]) AS x(u, n, p)`,
      [rows.ids, rows.names, rows.phones],
    );
    // Shifts, which escalation asks before it raises a missed check-in, holds the same deadline.
    await db.query(
      `INSERT INTO shifts.worker_state (user_id, name, username, phone, role, check_in_interval, on_shift, current_shift_id, location, shift_started_at, next_check_in_at)
       SELECT u, n, 'bench' || u, p, 'worker', 60, true, s, 'The Prospect Building', $6::timestamptz, t
       FROM unnest($1::int[], $2::text[], $3::text[], $4::uuid[], $5::timestamptz[]) AS x(u, n, p, s, t)`,
      [rows.ids, rows.names, rows.phones, rows.shifts, rows.due, new Date(startMs).toISOString()],
    );
    await db.query('COMMIT');
  }
  await db.query('ANALYZE identity.users');
  await db.query('ANALYZE shifts.worker_state');
  await db.query('ANALYZE escalation.workers');
  await db.query('ANALYZE escalation.deadlines');
  const seededS = (Date.now() - startMs) / 1000;
  if (seededS >= LEAD_S) throw new Error(`seeding took ${seededS.toFixed(1)} s, past the first deadline; raise --lead-s`);
  log(`seeded in ${seededS.toFixed(1)} s`);

  const pressAtMs = emergencyWorkers.map((_, k) => startMs + LEAD_S * 1000 + Math.round((SPREAD_S * 1000 * (k + 1)) / (EMERGENCIES + 1)));
  const pressed = pressEmergencies({ url, workers: emergencyWorkers, pressAtMs });

  // The stack's CPU from the first deadline on: its processes and PostgreSQL's backends for its
  // database (not this one's); the quiet lead before it would be charged to the alarms otherwise.
  const backends = async () =>
    (await db.query('SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()')).rows.map(
      (r) => r.pid,
    );
  await sleep(startMs + LEAD_S * 1000 - Date.now());
  const cpuAtStart = {
    at: Date.now(),
    procs: procs.map((p) => cpuSeconds(p.child.pid)),
    pg: new Map((await backends()).map((pid) => [pid, cpuSeconds(pid)])),
  };

  const endMs = startMs + (LEAD_S + SPREAD_S + MARGIN_S) * 1000;
  while (Date.now() < endMs) {
    await sleep(5000);
    const sms = provider.messages.filter((m) => m.to.startsWith('+447911')).length;
    const reached = emergencyWorkers.filter(
      (w) => w.pressedAt !== undefined && [...provider.messages, ...provider.calls].some((m) => m.to === w.contact),
    ).length;
    log(
      `stream: ${onStream.length} alarms; provider: ${sms} messages to workers${EMERGENCIES ? `; emergencies: ${reached} of ${EMERGENCIES} reached the provider` : ''}`,
    );
    if (
      onStream.length >= MISSING &&
      sms >= MISSING &&
      allReached(emergencyWorkers, provider) &&
      Date.now() > startMs + (LEAD_S + SPREAD_S) * 1000
    )
      break;
  }
  await pressed;
  await sleep(2000);
  const perProcess = procs.map((p, k) => cpuSeconds(p.child.pid) - cpuAtStart.procs[k]);
  const cpu = { windowSeconds: (Date.now() - cpuAtStart.at) / 1000, stack: perProcess.reduce((a, b) => a + b, 0), pg: 0 };
  if (LAYOUT === 'services') cpu.perService = Object.fromEntries(procs.map((p, k) => [p.name, perProcess[k]]));
  // A backend opened during the window spent all its CPU in it.
  for (const pid of await backends()) cpu.pg += (cpuSeconds(pid) || 0) - (cpuAtStart.pg.get(pid) || 0);

  const { rows } = await db.query(
    `SELECT user_id, (extract(epoch FROM created_at) * 1000)::float8 AS at FROM escalation.outbox o
       JOIN LATERAL (SELECT (o.payload->'data'->>'userId')::int AS user_id) x ON true
      WHERE o.subject = 'escalation.alarm.opened.v1'`,
  );
  const fired = summarize(
    'alarm opened (escalation)',
    dueAtMs,
    rows.filter((r) => r.user_id >= 1_000_000).map((r) => [r.user_id - 1_000_000, r.at]),
  );
  const emergencyOpenedAt = new Map();
  for (const r of rows) if (emergencyIds.has(r.user_id) && !emergencyOpenedAt.has(r.user_id)) emergencyOpenedAt.set(r.user_id, r.at);
  const toWorker = provider.messages.filter((m) => m.to.startsWith('+447911') && m.body.includes('missed your check-in'));
  const sms = summarize(
    'SMS at the provider',
    dueAtMs,
    toWorker.map((m) => [indexOfPhone(m.to), Date.parse(m.createdAt)]),
  );
  const live = summarize("admin's live stream", dueAtMs, onStream);
  const results = [fired, sms, live];

  console.log(
    `deadline to a person: ${WORKERS} on-shift workers, ${MISSING === WORKERS ? 'each' : MISSING} missing a check-in, deadlines evenly over ${SPREAD_S} s ` +
      `(${(MISSING / SPREAD_S).toFixed(0)} alarms/s offered); ${LAYOUTS[LAYOUT]}, ${cpus().length} cores, ` +
      `load average ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
  );
  const ms = (v) => (Number.isFinite(v) ? `${Math.round(v)} ms` : '-');
  const table = [
    ['from due to', 'seen', 'p50', 'p99', 'max', 'missed', 'duplicated'],
    ...results.map((r) => [
      r.what,
      String(r.seen),
      ms(r.latenessMs.p50),
      ms(r.latenessMs.p99),
      ms(r.latenessMs.max),
      String(r.missed),
      String(r.duplicated),
    ]),
    ['target (provider)', '', '', `≤ ${ms(TARGET.p99)}`, `≤ ${ms(TARGET.max)}`, '0', '0'],
  ];
  const widths = table[0].map((_, c) => Math.max(...table.map((r) => r[c].length)));
  console.log(
    table.map((r) => `  ${r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join('  ')}`).join('\n'),
  );
  const met = sms.latenessMs.p99 <= TARGET.p99 && sms.latenessMs.max <= TARGET.max && sms.missed === 0 && sms.duplicated === 0;
  console.log(`  provider target ${met ? 'met' : 'NOT met'}`);

  const emergencies = summarizeEmergencies({
    workers: emergencyWorkers,
    provider,
    openedAt: emergencyOpenedAt,
    onStream: emergencyOnStream,
    stats,
  });
  let emergencyMet = true;
  if (EMERGENCIES > 0) {
    const at = (e) => `+${((e.pressedAt - startMs) / 1000 - LEAD_S).toFixed(1)} s`;
    console.log(
      `\n  ${EMERGENCIES} emergencies pressed during the flood, evenly through the window (time into it: press to answered / alarm opened / live stream / contact at the provider)`,
    );
    for (const e of emergencies.per) {
      const first = e.providerMs === undefined ? 'never reached' : `${ms(e.providerMs)} (${e.firstBy})`;
      const extra = `${e.texts} SMS, ${e.calls} call${e.calls === 1 ? '' : 's'}${e.error ? `; answered ${e.status}: ${e.error}` : ''}`;
      console.log(`    worker ${e.userId} at ${at(e)}: ${ms(e.answeredMs)} / ${ms(e.openedMs)} / ${ms(e.streamMs)} / ${first}; ${extra}`);
    }
    const etable = [
      ['from the press to', 'seen', 'p50', 'p99', 'max', 'missed', 'duplicated'],
      ...emergencies.rows.map((r) => [
        r.what,
        String(r.seen),
        ms(r.latenessMs.p50),
        ms(r.latenessMs.p99),
        ms(r.latenessMs.max),
        String(r.missed),
        String(r.duplicated),
      ]),
      ['target (contact at the provider)', '', '', `≤ ${ms(EMERGENCY_TARGET.p99)}`, `≤ ${ms(EMERGENCY_TARGET.max)}`, '0', '0'],
    ];
    const ew = etable[0].map((_, c) => Math.max(...etable.map((r) => r[c].length)));
    console.log(etable.map((r) => `  ${r.map((cell, c) => (c === 0 ? cell.padEnd(ew[c]) : cell.padStart(ew[c]))).join('  ')}`).join('\n'));
    const hops = await emergencyHops({ db, workers: emergencyWorkers, provider });
    emergencies.hops = hops;
    const hopNames = Object.keys(hops[0] ?? {}).filter((k) => k !== 'userId');
    console.log(`  hop by hop (ms from the press; a consumer's is when its transaction began): ${hopNames.join(' / ')}`);
    for (const h of hops)
      console.log(`    worker ${h.userId}: ${hopNames.map((k) => (h[k] === undefined ? '-' : String(Math.round(h[k])))).join(' / ')}`);
    const toContact = emergencies.rows[emergencies.rows.length - 1];
    emergencyMet =
      toContact.latenessMs.p99 <= EMERGENCY_TARGET.p99 &&
      toContact.latenessMs.max <= EMERGENCY_TARGET.max &&
      toContact.missed === 0 &&
      toContact.duplicated === 0;
    console.log(`  emergency target ${emergencyMet ? 'met' : 'NOT met'} (with at most 100 presses, p99 is the slowest one)`);
  }
  // Everything the stack did in the window (missed check-ins, emergencies, and its idle work for the
  // rest of the workers), spread over the alarms it opened.
  const opened = rows.filter((r) => r.user_id >= 1_000_000 || emergencyIds.has(r.user_id)).length;
  const perAlarm = (s) => (opened > 0 && Number.isFinite(s) ? `${((s * 1000) / opened).toFixed(1)} ms` : '-');
  console.log(
    `\n  CPU per alarm: ${perAlarm(cpu.stack + cpu.pg)} (${LAYOUT === 'one' ? 'stack process' : 'services'} ${perAlarm(cpu.stack)}, PostgreSQL ${perAlarm(cpu.pg)}); ` +
      `${cpu.stack.toFixed(1)} s + ${cpu.pg.toFixed(1)} s in the ${cpu.windowSeconds.toFixed(0)} s from the first deadline to the end, for ${opened} alarms opened`,
  );
  if (cpu.perService)
    console.log(
      `  CPU seconds per service: ${Object.entries(cpu.perService)
        .map(([name, s]) => `${name} ${s.toFixed(1)}`)
        .join(', ')}`,
    );
  // A seeded copy that differs from its owner would be "repaired" mid-window, which is work no real flood has.
  const { rows: alerts } = await db.query(`SELECT details FROM audit.entries WHERE details LIKE 'Reconciliation%'`);
  const repaired = alerts.reduce((n, a) => n + Number(/repaired (\d+) copies/.exec(a.details)?.[1] ?? 1), 0);
  console.log(`  reconciliation repairs during the run: ${repaired} (0 expected)`);
  if (emergencies.per.some((e) => e.answeredMs === undefined || e.providerMs === undefined)) exitCode = 1;
  if (results.some((r) => r.missed > 0 || r.duplicated > 0)) {
    exitCode = 1;
    const left = await db.query(`SELECT step, count(*)::int AS n FROM escalation.deadlines GROUP BY step`);
    console.log(`  deadlines left: ${JSON.stringify(left.rows)}`);
    for (const p of procs)
      console.log(
        `  ${p.name}'s last lines:\n${p.output
          .split('\n')
          .slice(LAYOUT === 'one' ? -30 : -10)
          .join('\n')}`,
      );
  }
  const resultsDir = join(here, 'results');
  mkdirSync(resultsDir, { recursive: true });
  const file = join(resultsDir, `to-person-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  const saved = {
    at: new Date().toISOString(),
    workers: WORKERS,
    missing: MISSING,
    spreadSeconds: SPREAD_S,
    layout: LAYOUT,
    target: TARGET,
    machine: { cores: cpus().length, loadavg: loadavg() },
    results,
    emergencies: {
      count: EMERGENCIES,
      target: EMERGENCY_TARGET,
      met: emergencyMet,
      rows: emergencies.rows,
      per: emergencies.per,
      hops: emergencies.hops,
    },
    cpuSeconds: { ...cpu, alarmsOpened: opened },
  };
  writeFileSync(file, JSON.stringify(saved, null, 2));
  console.log(`  results: ${file}`);
} catch (err) {
  exitCode = 1;
  console.error(err);
} finally {
  sse?.destroy();
  const alive = procs.filter(running);
  if (alive.length > 0) {
    const stopping = Date.now();
    const exited = () => Promise.all(alive.map((p) => p.exited));
    for (const p of alive) p.child.kill('SIGTERM');
    await Promise.race([exited(), limit(30_000)]);
    const slow = alive.filter(running);
    if (slow.length > 0) {
      // A second signal exits at once: the stack by process.exit (so a --cpu-prof profile is still
      // written), a service's main.js by the signal's default action (it listens for one only).
      log(
        `${slow.map((p) => p.name).join(', ')} did not stop within 30 s of SIGTERM; a second SIGTERM stops ${LAYOUT === 'one' ? 'it' : 'each'} at once`,
      );
      for (const p of slow) p.child.kill('SIGTERM');
      await Promise.race([exited(), limit(10_000)]);
      for (const p of slow.filter(running)) p.child.kill('SIGKILL');
    } else log(`the stack stopped ${Date.now() - stopping} ms after SIGTERM`);
  }
  await provider.close();
  await db.end().catch(() => undefined);
  await admin.query(`DROP DATABASE IF EXISTS "${id}" WITH (FORCE)`);
  await admin.end();
  const nc = await connect({ servers: natsUrl });
  await (await nc.jetstreamManager()).streams.delete(stream).catch(() => undefined);
  await nc.close();
}
process.exitCode = exitCode;
