// Reconciliation at scale: N on-shift workers (default 100,000) in shifts and in escalation's copy.
// Prints (1) the CPU and wall time of a round with nothing to repair, summed over both services
// (the stack starts as `npm start` runs it, then every service but shifts and escalation is
// stopped, so process CPU is both sides' work; PostgreSQL's own CPU is in the wall time, not the
// CPU figure), and (2) the time from the start
// of a round to having repaired M workers (default 1,000) missing from escalation's copy, as if
// their shift-start events had been lost. Real PostgreSQL and NATS on this machine, over loopback.
//
//   node bench/reconcile/run.mjs [--workers N] [--missing M] [--rounds R]
//
// The workers are seeded with SQL (a shift each, a deadline an hour or more away), not through
// the API: what is measured is the round, not the seeding. Only the shifts side is measured;
// identity's runs the same way over users.
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { connect } from 'nats';
import pg from 'pg';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const require = createRequire(import.meta.url);
const { startStack } = require(join(root, 'tools/stack/dist/index.js'));
const { Reconciler } = require(join(root, 'services/escalation/dist/index.js'));

const { values: args } = parseArgs({
  options: {
    workers: { type: 'string', default: '100000' },
    missing: { type: 'string', default: '1000' },
    rounds: { type: 'string', default: '5' },
  },
});
const WORKERS = Number(args.workers);
const MISSING = Number(args.missing);
const ROUNDS = Number(args.rounds);
if (!(Number.isInteger(WORKERS) && WORKERS >= 1 && WORKERS <= 500_000)) throw new Error('--workers must be a whole number 1..500000');
if (!(Number.isInteger(MISSING) && MISSING >= 1 && MISSING <= WORKERS)) throw new Error('--missing must be a whole number 1..--workers');
if (!(Number.isInteger(ROUNDS) && ROUNDS >= 1 && ROUNDS <= 50)) throw new Error('--rounds must be 1..50');
const TARGET = { cpuMs: 100, repairMs: 2000 };

const pgAdmin = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const natsUrl = process.env.TEST_NATS_URL ?? 'nats://127.0.0.1:4222';
const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const id = `benchr${randomBytes(4).toString('hex')}`;
const stream = `LWS_${id.toUpperCase()}`;
const dbUrl = new URL(pgAdmin);
dbUrl.pathname = `/${id}`;
const log = (m) => process.stderr.write(`[${new Date().toISOString().slice(11, 19)}] ${m}\n`);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const admin = new pg.Client({ connectionString: pgAdmin });
await admin.connect();
await admin.query(`create database ${id}`);
let stack;
const db = new pg.Client({ connectionString: dbUrl.toString() });
try {
  log(`starting the stack on database ${id}`);
  stack = await startStack({
    env: {
      ...process.env,
      NODE_ENV: 'development',
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      PORT: '0',
      DATABASE_URL: dbUrl.toString(),
      NATS_URL: natsUrl,
      REDIS_URL: redisUrl,
      REDIS_KEY_PREFIX: `${id}:`,
      EVENTS_STREAM: stream,
      SUBJECT_PREFIX: `${id}.`,
      LWS_SUPERADMIN_USERNAME: 'superadmin',
      LWS_SUPERADMIN_PASSWORD: `Bench-${randomBytes(8).toString('hex')}`,
      OTEL_SDK_DISABLED: 'true',
      // Rounds run when this script says; nothing else should compete with them.
      ESCALATION_RECONCILE_INTERVAL_SECONDS: '3600',
      ESCALATION_RECONCILE_GRACE_SECONDS: '0',
      ESCALATION_AUDIT_INTERVAL_SECONDS: '3600',
    },
    healthPorts: 'random',
  });
  // Only the two services a round involves stay in this process, so its CPU is theirs (in a
  // deployment each service is its own process; audit's work on the repairs' alerts is not the round's).
  for (const s of stack.services.filter((s) => !['shifts', 'escalation'].includes(s.name))) await s.close();
  const escalation = stack.services.find((s) => s.name === 'escalation');
  const reconciler = escalation.app.get(Reconciler, { strict: false });
  await db.connect();

  log(`seeding ${WORKERS} on-shift workers in shifts and in escalation's copy`);
  await db.query(
    `insert into shifts.worker_state (user_id, name, username, role, on_shift, current_shift_id, location, shift_started_at, next_check_in_at, version, changed_at)
     select 1000000 + i, 'Worker ' || i, 'worker' || i, 'worker', true, gen_random_uuid(), 'Bench Depot', now() - interval '10 minutes',
            date_trunc('milliseconds', now() + interval '1 hour' + i * interval '1 millisecond'), 2, now() - interval '10 minutes'
     from generate_series(1, $1) as i`,
    [WORKERS],
  );
  await db.query(
    `insert into escalation.workers (user_id, name, role, on_shift, shift_id, location, next_check_in_at, deadline_as_of, shifts_version)
     select user_id, name, role, true, current_shift_id, location, next_check_in_at, shift_started_at, version from shifts.worker_state where on_shift`,
  );
  await db.query(
    `insert into escalation.deadlines (job_key, kind, user_id, step, due_at, payload)
     select 'checkin:' || user_id, 'checkin', user_id, 'reminder_5min', next_check_in_at - interval '5 minutes',
            jsonb_build_object('dueAt', next_check_in_at, 'shiftId', shift_id)
     from escalation.workers where on_shift`,
  );
  await db.query('analyze');

  const measure = async () => {
    const cpu = process.cpuUsage();
    const started = performance.now();
    const result = await reconciler.round('shifts');
    const wallMs = performance.now() - started;
    const used = process.cpuUsage(cpu);
    return { result, wallMs, cpuMs: (used.user + used.system) / 1000 };
  };

  log('warm-up round');
  const warm = await measure();
  if (!warm.result || warm.result.repairs.length > 0)
    throw new Error(`the warm-up round repaired ${warm.result?.repairs.length} workers: the seed is inconsistent`);
  const quiet = [];
  for (let i = 0; i < ROUNDS; i++) {
    const m = await measure();
    if (m.result.differing !== 0) throw new Error(`round ${i + 1} found ${m.result.differing} differing buckets with nothing changed`);
    quiet.push(m);
  }

  log(`losing ${MISSING} workers from escalation's copy (as if their shift starts never arrived)`);
  const lost = await db.query(
    `with lost as (select user_id from escalation.workers order by random() limit $1)
     update escalation.workers w set on_shift = false, shift_id = null, next_check_in_at = null, deadline_as_of = null, shifts_version = 0
     from lost where w.user_id = lost.user_id returning w.user_id`,
    [MISSING],
  );
  await db.query(`delete from escalation.deadlines where user_id = any($1)`, [lost.rows.map((r) => r.user_id)]);
  const repair = await measure();
  const repaired = repair.result.repairs.filter((r) => r.kind === 'shift_missing').length;
  const { rows } = await db.query(
    `select count(*)::int as n from escalation.workers w join shifts.worker_state s using (user_id)
     join escalation.deadlines d on d.job_key = 'checkin:' || w.user_id
     where w.on_shift and w.next_check_in_at = s.next_check_in_at and w.user_id = any($1)`,
    [lost.rows.map((r) => r.user_id)],
  );

  const q = {
    cpuMs: median(quiet.map((m) => m.cpuMs)),
    wallMs: median(quiet.map((m) => m.wallMs)),
  };
  const ok = (v, t) => (v <= t ? 'within target' : 'OVER TARGET');
  console.log(
    `\nReconciliation, ${WORKERS.toLocaleString('en-GB')} workers on shift, ${repair.result.buckets} buckets (${cpus().length} cores, load ${loadavg()[0].toFixed(2)})`,
  );
  console.log(
    `round with nothing to repair (median of ${ROUNDS}): CPU ${q.cpuMs.toFixed(1)} ms (both services; target <= ${TARGET.cpuMs} ms, ${ok(q.cpuMs, TARGET.cpuMs)}), wall ${q.wallMs.toFixed(1)} ms`,
  );
  console.log(`  each: ${quiet.map((m) => `${m.cpuMs.toFixed(0)}/${m.wallMs.toFixed(0)}`).join(', ')} ms CPU/wall`);
  console.log(
    `round repairing ${MISSING.toLocaleString('en-GB')} lost workers: ${repair.wallMs.toFixed(0)} ms from its start to the last repair (target <= ${TARGET.repairMs} ms, ${ok(repair.wallMs, TARGET.repairMs)}), CPU ${repair.cpuMs.toFixed(0)} ms`,
  );
  console.log(
    `  phases: digests ${repair.result.ms.digest} ms, fetch and compare ${repair.result.ms.compare} ms, repairs ${repair.result.ms.apply} ms`,
  );
  console.log(
    `  ${repair.result.differing} buckets differed, ${repair.result.compared} workers compared, ${repaired} repaired, ${rows[0].n} of ${MISSING} watched again at shifts' deadline`,
  );
  if (repaired !== MISSING || rows[0].n !== MISSING) process.exitCode = 1;
} finally {
  await stack?.close().catch((err) => log(`closing the stack: ${err}`));
  await db.end().catch(() => undefined);
  await admin.query(`drop database if exists ${id} with (force)`).catch(() => undefined);
  await admin.end();
  const nc = await connect({ servers: natsUrl });
  await (await nc.jetstreamManager()).streams.delete(stream).catch(() => undefined);
  await nc.close();
}
