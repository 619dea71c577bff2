// Deadline firing at scale: N on-shift workers (default 100,000) whose next step falls due,
// spread evenly over a window of SPREAD seconds starting LEAD seconds after seeding begins, fired by the
// escalation service (its built main, in a process of its own, on this machine's real PostgreSQL
// and NATS), then the same due times as graphile-worker jobs (run_at) on the same database, one
// system after the other. For every step: lateness = fire time - due time; missed = never fired by
// window end + MARGIN; duplicated = fired more than once; peak RSS of each process from VmHWM.
// Loopback only; about 2 × (LEAD + SPREAD + MARGIN) seconds plus seeding.
//
//   node bench/escalation/run.mjs [--workers N] [--spread-s S] [--lead-s S] [--margin-s S] [--only lws|graphile] [--replicas R] [--profile]
//
// --replicas runs R escalation processes on the one database (they share the due rows through
// SKIP LOCKED); --profile writes a CPU profile of each escalation process to bench/escalation/results/.
import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, openSync, closeSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { makeWorkerUtils } from 'graphile-worker';
import { connect } from 'nats';
import pg from 'pg';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const escalationMain = join(root, 'services/escalation/dist/main.js');

const { values: args } = parseArgs({
  options: {
    workers: { type: 'string', default: process.env.BENCH_WORKERS ?? '100000' },
    'spread-s': { type: 'string', default: '150' },
    'lead-s': { type: 'string', default: '30' },
    'margin-s': { type: 'string', default: '15' },
    only: { type: 'string' },
    replicas: { type: 'string', default: '1' },
    profile: { type: 'boolean', default: false },
  },
});
const WORKERS = Number(args.workers);
const SPREAD_S = Number(args['spread-s']);
const LEAD_S = Number(args['lead-s']);
const MARGIN_S = Number(args['margin-s']);
const REPLICAS = Number(args.replicas);
// Each worker gets its own valid UK mobile number (+447911100000 upwards).
if (!(Number.isInteger(WORKERS) && WORKERS >= 1 && WORKERS <= 500_000)) throw new Error('--workers must be a whole number 1..500000');
if (!(LEAD_S >= 10 && LEAD_S <= 120)) throw new Error('--lead-s must be 10..120 (seeding and start-up happen before the first due time)');
if (!(MARGIN_S >= 2 && MARGIN_S <= 60)) throw new Error('--margin-s must be 2..60');
if (!(Number.isInteger(REPLICAS) && REPLICAS >= 1 && REPLICAS <= 4)) throw new Error('--replicas must be 1..4');
// The step measured is each worker's 5-minute reminder; its 2-minute reminder falls due 180 s
// later and must stay out of the window so every worker has exactly one due step in it.
if (!(SPREAD_S >= 1 && SPREAD_S + MARGIN_S < 180)) throw new Error('--spread-s must be ≥ 1 and --spread-s + --margin-s < 180');
if (args.only && !['lws', 'graphile'].includes(args.only)) throw new Error('--only must be lws or graphile');

const LWS_TICK_MS = Number(process.env.ESCALATION_TICK_MS ?? 250);
const LWS_BATCH = Number(process.env.ESCALATION_BATCH_SIZE ?? 500);
const LWS_CONCURRENCY = Number(process.env.ESCALATION_CONCURRENCY ?? 2);
// graphile-worker tuned for many short jobs (its performance guide): the same poll interval as
// the escalation scheduler's tick, a local queue so one query locks a batch, batched completions.
const GRAPHILE = {
  concurrency: Number(process.env.GRAPHILE_CONCURRENCY ?? 10),
  pollIntervalMs: Number(process.env.GRAPHILE_POLL_MS ?? LWS_TICK_MS),
  localQueueSize: Number(process.env.GRAPHILE_LOCAL_QUEUE ?? LWS_BATCH),
  completeJobBatchDelayMs: Number(process.env.GRAPHILE_COMPLETE_BATCH_MS ?? 20),
};
const TARGET = { p99: 1000, max: 2000 };
const REMINDER_LEAD_MS = 5 * 60_000;

const pgAdmin = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const natsUrl = process.env.TEST_NATS_URL ?? 'nats://127.0.0.1:4222';
const id = `bench${randomBytes(4).toString('hex')}`;
const stream = `LWS_${id.toUpperCase()}`;
const dbUrl = new URL(pgAdmin);
dbUrl.pathname = `/${id}`;
const databaseUrl = dbUrl.toString();
const tmp = mkdtempSync(join(tmpdir(), 'lws-bench-escalation-'));
const resultsDir = join(here, 'results');
mkdirSync(resultsDir, { recursive: true });

const sleep = (ms) => new Promise((r) => setTimeout(r, Math.max(0, ms)));
const log = (m) => process.stderr.write(`[${new Date().toISOString().slice(11, 19)}] ${m}\n`);

/** Step i falls due at start + lead + spread·(i + ½)/N (whole ms): evenly over the window, none at its edges. */
const dueOffsetsMs = Array.from({ length: WORKERS }, (_, i) => Math.round(LEAD_S * 1000 + (SPREAD_S * 1000 * (i + 0.5)) / WORKERS));
const windowEndOffsetMs = (LEAD_S + SPREAD_S) * 1000;

async function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** VmHWM (peak resident set) and CPU seconds of a live process, from /proc. */
function processStats(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const hwmKb = Number(/VmHWM:\s+(\d+) kB/.exec(status)[1]);
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return { peakRssMb: hwmKb / 1024, cpuSeconds: ticks / 100 };
}

/** Children still running, killed if the run fails half-way. */
const running = new Set();

/** Starts a child; resolves when `ready()` says so; its output goes to a log file under results/. */
function startChild(name, argv, env, ready) {
  const logFile = join(resultsDir, `${id}-${name}.log`);
  const fd = openSync(logFile, 'w');
  const child = spawn(process.execPath, argv, { env, stdio: ['ignore', fd, fd] });
  closeSync(fd);
  running.add(child);
  child.once('exit', () => running.delete(child));
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const output = () => readFileSync(logFile, 'utf8');
  const tail = () => `${output().slice(-4000)}\n(log: ${logFile})`;
  const started = (async () => {
    let dead = false;
    exited.then(() => (dead = true));
    const until = Date.now() + 60_000;
    while (!(await ready(output))) {
      if (dead) throw new Error(`${name} exited during start-up:\n${tail()}`);
      if (Date.now() > until) throw new Error(`${name} not ready after 60 s:\n${tail()}`);
      await sleep(100);
    }
  })();
  return {
    child,
    started,
    tail,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) throw new Error(`${name} died during the run:\n${tail()}`);
      const stats = processStats(child.pid);
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
      const how = await exited;
      clearTimeout(timer);
      if (how.code !== 0) log(`${name} exited with ${how.code ?? how.signal}:\n${tail()}`);
      else if (
        output()
          .replace(/^ready$/m, '')
          .trim() === ''
      )
        rmSync(logFile);
      else log(`${name} logged warnings: ${logFile}`);
      return stats;
    },
  };
}

/** Lateness figures over every step's first firing; missed and duplicated over all of them. */
function summarize(system, dueAtMs, firings, extra = {}) {
  const first = new Map();
  let duplicated = 0;
  for (const [step, firedMs] of firings) {
    const seen = first.get(step);
    if (seen === undefined) first.set(step, firedMs);
    else {
      duplicated += 1;
      if (firedMs < seen) first.set(step, firedMs);
    }
  }
  const late = [];
  let early = 0;
  let minFired = Infinity;
  let maxFired = -Infinity;
  for (const [step, firedMs] of first) {
    const l = firedMs - dueAtMs[step];
    if (l < 0) early += 1;
    late.push(l);
    minFired = Math.min(minFired, firedMs);
    maxFired = Math.max(maxFired, firedMs);
  }
  late.sort((a, b) => a - b);
  const q = (p) => (late.length ? late[Math.min(late.length - 1, Math.ceil(p * late.length) - 1)] : NaN);
  return {
    system,
    steps: dueAtMs.length,
    fired: first.size,
    missed: dueAtMs.length - first.size,
    duplicated,
    early,
    latenessMs: { min: late[0], p50: q(0.5), p90: q(0.9), p99: q(0.99), max: late[late.length - 1] },
    throughputPerSecond: first.size > 1 ? first.size / ((maxFired - minFired) / 1000) : NaN,
    ...extra,
  };
}

/**
 * Waits until MARGIN seconds past the last due time, or until every step has fired and the last
 * one fell due at least 2 s ago, reporting progress every 15 s. `fired()` counts distinct steps.
 */
async function waitForWindowEnd(system, startMs, fired) {
  const lastDueMs = startMs + dueOffsetsMs[WORKERS - 1];
  const endMs = startMs + windowEndOffsetMs + MARGIN_S * 1000;
  let reportAt = Date.now() + 15_000;
  while (Date.now() < endMs) {
    const now = Date.now();
    if (now >= reportAt || now >= lastDueMs + 2000) {
      const n = await fired();
      if (now >= reportAt) {
        log(`${system}: ${n} of ${WORKERS} steps fired at +${((now - startMs) / 1000).toFixed(0)} s`);
        reportAt += 15_000;
      }
      if (n >= WORKERS && now >= lastDueMs + 2000) return;
    }
    await sleep(Math.min(1000, endMs - Date.now()));
  }
}

// ---- escalation service ----------------------------------------------------------------------

async function runLws(db) {
  log('lws: migrating');
  const env = {
    PATH: process.env.PATH,
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    DATABASE_URL: databaseUrl,
    NATS_URL: natsUrl,
    EVENTS_STREAM: stream,
    SUBJECT_PREFIX: `${id}.`,
    OTEL_SDK_DISABLED: 'true',
    ESCALATION_TICK_MS: String(LWS_TICK_MS),
    ESCALATION_BATCH_SIZE: String(LWS_BATCH),
    ESCALATION_CONCURRENCY: String(LWS_CONCURRENCY),
  };
  const migrate = spawn(process.execPath, [escalationMain, '--migrate-only'], { env, stdio: ['ignore', 'inherit', 'inherit'] });
  const code = await new Promise((resolve) => migrate.once('exit', resolve));
  if (code !== 0) throw new Error(`escalation --migrate-only exited with ${code}`);

  const startMs = Date.now();
  const dueAtMs = dueOffsetsMs.map((o) => startMs + o);
  log(`lws: seeding ${WORKERS} on-shift workers`);
  await seedLws(db, dueAtMs, startMs);
  log(`lws: seeded in ${((Date.now() - startMs) / 1000).toFixed(1)} s; starting the escalation service`);

  const profileArgs = args.profile ? ['--cpu-prof', `--cpu-prof-dir=${resultsDir}`] : [];
  const replicas = [];
  for (let r = 0; r < REPLICAS; r++) {
    const healthPort = await freePort();
    replicas.push(
      startChild(`escalation-${r + 1}`, [...profileArgs, escalationMain], { ...env, HEALTH_PORT: String(healthPort) }, async () => {
        const res = await fetch(`http://127.0.0.1:${healthPort}/readyz`).catch(() => undefined);
        return res?.ok === true;
      }),
    );
  }
  await Promise.all(replicas.map((svc) => svc.started));
  const readyAfterS = (Date.now() - startMs) / 1000;
  if (readyAfterS >= LEAD_S)
    throw new Error(
      `the escalation service was ready only ${readyAfterS.toFixed(1)} s after seeding began, after the first due time; raise --lead-s`,
    );
  log(`lws: service ready ${readyAfterS.toFixed(1)} s after seeding began; first step due at +${(dueOffsetsMs[0] / 1000).toFixed(1)} s`);

  await waitForWindowEnd('lws', startMs, async () => {
    const { rows } = await db.query(
      `SELECT count(DISTINCT payload->'data'->>'userId')::int AS n FROM escalation.outbox
       WHERE subject = 'escalation.reminder.fired.v1' AND (payload->'data'->>'minutesBefore')::int = 5`,
    );
    return rows[0].n;
  });
  const each = await Promise.all(replicas.map((svc) => svc.stop()));
  // Per process: the largest peak; CPU summed over the replicas.
  const stats = {
    peakRssMb: Math.max(...each.map((x) => x.peakRssMb)),
    cpuSeconds: each.reduce((a, x) => a + x.cpuSeconds, 0),
    replicas: REPLICAS,
  };
  const { firings, published, passes } = await collectLws(db, dueAtMs);
  const summary = summarize('escalation', dueAtMs, firings, { ...stats, passes });
  summary.published = summarize('escalation (published)', dueAtMs, published);
  return summary;
}

/** Worker i is user id i + 1 (escalation keys workers by identity's integer user id). */
const userIdOf = (i) => i + 1;

/**
 * Writes what escalation's consumers keep for a worker who started a shift: the `workers` row
 * (identity's name and phone, shifts' shift and next check-in T) and the `checkin:<userId>`
 * deadline at its first step still ahead, the 5-minute reminder at T-5, version 1 (as
 * CheckinsService.schedule puts it). Bulk INSERTs with unnest, 10,000 rows per statement: the
 * consumer path would take minutes for 100,000 shift starts and is not what is measured here.
 */
async function seedLws(db, dueAtMs, startMs) {
  const CHUNK = 10_000;
  const asOf = new Date(startMs).toISOString();
  for (let from = 0; from < WORKERS; from += CHUNK) {
    const ids = [];
    const names = [];
    const phones = [];
    const shifts = [];
    const checkInAt = [];
    const reminderAt = [];
    const payloads = [];
    for (let i = from; i < Math.min(WORKERS, from + CHUNK); i++) {
      const shiftId = randomUUID();
      const t = new Date(dueAtMs[i] + REMINDER_LEAD_MS).toISOString();
      ids.push(userIdOf(i));
      names.push(`Bench Worker ${i}`);
      phones.push(`+447911${100000 + i}`);
      shifts.push(shiftId);
      checkInAt.push(t);
      reminderAt.push(new Date(dueAtMs[i]).toISOString());
      payloads.push(JSON.stringify({ dueAt: t, shiftId }));
    }
    await db.query('BEGIN');
    await db.query(
      `INSERT INTO escalation.workers (user_id, name, phone, role, check_in_interval, on_shift, shift_id, location, next_check_in_at, deadline_as_of)
       SELECT u, n, p, 'worker', 60, true, s, 'The Prospect Building', t, $6::timestamptz
       FROM unnest($1::int[], $2::text[], $3::text[], $4::uuid[], $5::timestamptz[]) AS x(u, n, p, s, t)`,
      [ids, names, phones, shifts, checkInAt, asOf],
    );
    await db.query(
      `INSERT INTO escalation.deadlines (job_key, kind, user_id, step, due_at, version, payload)
       SELECT 'checkin:' || u, 'checkin', u, 'reminder_5min', d, 1, p
       FROM unnest($1::int[], $2::timestamptz[], $3::jsonb[]) AS x(u, d, p)`,
      [ids, reminderAt, payloads],
    );
    await db.query('COMMIT');
  }
  await db.query('ANALYZE escalation.workers');
  await db.query('ANALYZE escalation.deadlines');
}

/**
 * Every escalation.reminder.fired.v1 event for a 5-minute reminder of a seeded deadline: fired
 * when written to the outbox (created_at: the scheduler's clock inside the firing transaction),
 * published when the relay had JetStream's acknowledgement.
 */
async function collectLws(db, dueAtMs) {
  const { rows } = await db.query(
    `SELECT (payload->'data'->>'userId')::int AS user_id,
            payload->'data'->>'dueAt' AS due,
            payload->'data'->>'firedAt' AS pass,
            (extract(epoch FROM created_at) * 1000)::float8 AS fired,
            (extract(epoch FROM published_at) * 1000)::float8 AS published
     FROM escalation.outbox
     WHERE subject = 'escalation.reminder.fired.v1' AND (payload->'data'->>'minutesBefore')::int = 5`,
  );
  const firings = [];
  const published = [];
  const passes = new Map();
  let foreign = 0;
  for (const r of rows) {
    const step = r.user_id - 1;
    if (!(step >= 0 && step < WORKERS) || Date.parse(r.due) !== dueAtMs[step] + REMINDER_LEAD_MS) {
      foreign += 1;
      continue;
    }
    firings.push([step, r.fired]);
    // A step whose event never reached JetStream counts as missed on the published line.
    if (r.published !== null) published.push([step, r.published]);
    const pass = passes.get(r.pass) ?? { startMs: Date.parse(r.pass), steps: 0, lastMs: 0 };
    pass.steps += 1;
    pass.lastMs = Math.max(pass.lastMs, r.fired);
    passes.set(r.pass, pass);
  }
  if (foreign > 0) throw new Error(`${foreign} reminder events name no seeded step (wrong user or deadline)`);
  return { firings, published, passes: passStats([...passes.values()]) };
}

/**
 * The scheduler's passes, told apart by the clock reading every event of one pass carries
 * (firedAt): how many steps each fired and how long its transaction took to write them, so
 * lateness splits into waiting for a pass to claim the step and the pass working through its batch.
 */
function passStats(passes) {
  const sorted = (xs) => xs.sort((a, b) => a - b);
  const pick = (xs, p) => xs[Math.min(xs.length - 1, Math.max(0, Math.ceil(p * xs.length) - 1))];
  const steps = sorted(passes.map((p) => p.steps));
  const durations = sorted(passes.map((p) => p.lastMs - p.startMs));
  const totalSteps = steps.reduce((a, b) => a + b, 0);
  const totalMs = durations.reduce((a, b) => a + b, 0);
  return {
    passes: passes.length,
    stepsPerPass: { p50: pick(steps, 0.5), max: steps[steps.length - 1] },
    passMs: { p50: pick(durations, 0.5), p99: pick(durations, 0.99), max: durations[durations.length - 1] },
    msPerStep: totalSteps ? totalMs / totalSteps : NaN,
  };
}

// ---- graphile-worker -------------------------------------------------------------------------

async function runGraphile(db) {
  log('graphile: migrating');
  const utils = await makeWorkerUtils({ connectionString: databaseUrl });
  await utils.migrate();
  await db.query('CREATE SCHEMA IF NOT EXISTS bench_escalation');
  await db.query('CREATE TABLE bench_escalation.graphile_fired (step integer NOT NULL, fired_at timestamptz NOT NULL)');

  const startMs = Date.now();
  const dueAtMs = dueOffsetsMs.map((o) => startMs + o);
  log(`graphile: queueing ${WORKERS} jobs with run_at`);
  const BATCH = 5000;
  for (let from = 0; from < WORKERS; from += BATCH) {
    const specs = [];
    for (let i = from; i < Math.min(WORKERS, from + BATCH); i++) {
      specs.push({ identifier: 'fire', payload: { step: i }, runAt: new Date(dueAtMs[i]), maxAttempts: 1 });
    }
    await utils.addJobs(specs);
  }
  await utils.release();
  log(`graphile: queued in ${((Date.now() - startMs) / 1000).toFixed(1)} s; starting the worker`);

  const planFile = join(tmp, 'graphile-plan.json');
  writeFileSync(planFile, JSON.stringify({ databaseUrl, graphile: GRAPHILE }));
  const worker = startChild('graphile-worker', [join(here, 'graphile-worker.mjs'), planFile], { PATH: process.env.PATH }, async (out) =>
    out().includes('ready\n'),
  );
  await worker.started;
  const readyAfterS = (Date.now() - startMs) / 1000;
  if (readyAfterS >= LEAD_S)
    throw new Error(`graphile-worker was ready only ${readyAfterS.toFixed(1)} s after queueing began; raise --lead-s`);
  log(`graphile: worker ready ${readyAfterS.toFixed(1)} s after queueing began`);

  await waitForWindowEnd('graphile', startMs, async () => {
    const { rows } = await db.query('SELECT count(DISTINCT step)::int AS n FROM bench_escalation.graphile_fired');
    return rows[0].n;
  });
  const stats = await worker.stop();
  const { rows } = await db.query('SELECT step, (extract(epoch FROM fired_at) * 1000)::float8 AS ms FROM bench_escalation.graphile_fired');
  return summarize(
    'graphile-worker',
    dueAtMs,
    rows.map((r) => [r.step, r.ms]),
    stats,
  );
}

// ---- report ----------------------------------------------------------------------------------

function table(results) {
  const ms = (v) => (Number.isFinite(v) ? `${Math.round(v)} ms` : '-');
  const rows = [
    ['system', 'steps', 'p50', 'p99', 'max', 'missed', 'duplicated', 'peak RSS', 'CPU', 'throughput'],
    ...results.flatMap((r) => {
      const line = (x, withProcess) => [
        x.system,
        String(x.steps),
        ms(x.latenessMs.p50),
        ms(x.latenessMs.p99),
        ms(x.latenessMs.max),
        String(x.missed),
        String(x.duplicated),
        withProcess ? `${x.peakRssMb.toFixed(0)} MB` : '',
        withProcess ? `${x.cpuSeconds.toFixed(1)} s` : '',
        `${x.throughputPerSecond.toFixed(0)}/s`,
      ];
      return [line(r, true), ...(r.published ? [line(r.published, false)] : [])];
    }),
    ['target', '', '', `≤ ${ms(TARGET.p99)}`, `≤ ${ms(TARGET.max)}`, '0', '0', '', '', ''],
  ];
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  return rows.map((r) => `  ${r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join('  ')}`).join('\n');
}

const admin = new pg.Client({ connectionString: pgAdmin });
await admin.connect();
await admin.query(`CREATE DATABASE "${id}"`);
const db = new pg.Client({ connectionString: databaseUrl });
await db.connect();
let exitCode = 0;
try {
  const results = [];
  if (args.only !== 'graphile') results.push(await runLws(db));
  if (args.only !== 'lws') results.push(await runGraphile(db));

  console.log(
    `escalation: ${WORKERS} on-shift workers, one step each (the 5-minute reminder) due evenly over ${SPREAD_S} s ` +
      `(${(WORKERS / SPREAD_S).toFixed(0)} steps/s offered), measured ${MARGIN_S} s past the last due time`,
  );
  console.log(
    `  escalation service: ${REPLICAS === 1 ? 'one process' : `${REPLICAS} replicas (peak RSS: the largest; CPU: their sum)`}, ` +
      `ESCALATION_TICK_MS=${LWS_TICK_MS}, ESCALATION_BATCH_SIZE=${LWS_BATCH}, ESCALATION_CONCURRENCY=${LWS_CONCURRENCY}; ` +
      `graphile-worker 0.18: concurrency ${GRAPHILE.concurrency}, pollInterval ${GRAPHILE.pollIntervalMs} ms, ` +
      `localQueue ${GRAPHILE.localQueueSize}, completeJobBatchDelay ${GRAPHILE.completeJobBatchDelayMs} ms`,
  );
  console.log(
    `  lateness = fire time - due time; ${cpus().length} cores, load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  console.log(table(results));
  if (results[0].passes) {
    const p = results[0].passes;
    console.log(
      `  escalation passes: ${p.passes}, ${p.stepsPerPass.p50} steps each (p50; max ${p.stepsPerPass.max}), ` +
        `a pass writes its last event ${p.passMs.p50} ms after it read the clock (p50; p99 ${p.passMs.p99} ms, max ${p.passMs.max} ms) = ${p.msPerStep.toFixed(2)} ms per step`,
    );
  }
  for (const r of results) if (r.early > 0) console.log(`  ${r.system}: ${r.early} steps fired BEFORE their due time`);
  const lws = results.find((r) => r.system === 'escalation');
  if (lws) {
    const met = lws.latenessMs.p99 <= TARGET.p99 && lws.latenessMs.max <= TARGET.max && lws.missed === 0 && lws.duplicated === 0;
    console.log(`  escalation service: targets ${met ? 'met' : 'NOT met'}`);
    if (lws.missed > 0 || lws.duplicated > 0 || lws.early > 0) exitCode = 1;
  }

  const file = join(resultsDir, `${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(
    file,
    JSON.stringify(
      {
        at: new Date().toISOString(),
        workers: WORKERS,
        spreadSeconds: SPREAD_S,
        leadSeconds: LEAD_S,
        marginSeconds: MARGIN_S,
        escalation: { tickMs: LWS_TICK_MS, batchSize: LWS_BATCH, concurrency: LWS_CONCURRENCY, replicas: REPLICAS },
        graphile: GRAPHILE,
        machine: { cores: cpus().length, loadavg: loadavg() },
        target: TARGET,
        results,
      },
      null,
      2,
    ),
  );
  console.log(`  results: ${file}`);
} catch (err) {
  exitCode = 1;
  console.error(err);
} finally {
  for (const child of running) child.kill('SIGKILL');
  await db.end();
  rmSync(tmp, { recursive: true, force: true });
  await admin.query(`DROP DATABASE IF EXISTS "${id}" WITH (FORCE)`);
  await admin.end();
  const nc = await connect({ servers: natsUrl });
  await (await nc.jetstreamManager()).streams.delete(stream).catch(() => undefined);
  await nc.close();
}
process.exitCode = exitCode;
