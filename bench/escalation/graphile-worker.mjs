// The graphile-worker side of bench/escalation, in a process of its own (as the escalation service
// is): runs the jobs the harness queued with run_at = each step's due time. The task only records
// when it started; the records go to bench_escalation.graphile_fired in one multi-row INSERT every
// FLUSH_MS, so a step that ran twice shows up twice. Reads its plan from the JSON file named by
// argv[2]; prints "ready" on stdout once the runner has started; stops on SIGTERM.
import { readFileSync } from 'node:fs';
import { Logger, run } from 'graphile-worker';
import pg from 'pg';

const plan = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const FLUSH_MS = 250;

const pool = new pg.Pool({ connectionString: plan.databaseUrl, max: 2 });
let steps = [];
let firedAt = [];
let flushing = Promise.resolve();

const flush = () => {
  flushing = flushing.then(async () => {
    if (steps.length === 0) return;
    const s = steps;
    const f = firedAt;
    steps = [];
    firedAt = [];
    await pool.query(
      'INSERT INTO bench_escalation.graphile_fired (step, fired_at) SELECT s, to_timestamp(f / 1000.0) FROM unnest($1::int[], $2::float8[]) AS t(s, f)',
      [s, f],
    );
  });
  return flushing;
};
const flushTimer = setInterval(() => void flush().catch((err) => console.error('graphile bench: flush failed', err)), FLUSH_MS);

// graphile-worker logs every job at info level; only its warnings and errors matter here.
const logger = new Logger(() => (level, message) => {
  if (level === 'error' || level === 'warning') console.error(`graphile-worker ${level}: ${message}`);
});

const runner = await run({
  connectionString: plan.databaseUrl,
  concurrency: plan.graphile.concurrency,
  pollInterval: plan.graphile.pollIntervalMs,
  noHandleSignals: true,
  logger,
  preset: {
    worker: {
      maxPoolSize: plan.graphile.concurrency + 2,
      localQueue: { size: plan.graphile.localQueueSize },
      completeJobBatchDelay: plan.graphile.completeJobBatchDelayMs,
    },
  },
  taskList: {
    fire: async (payload) => {
      steps.push(payload.step);
      firedAt.push(Date.now());
    },
  },
});
process.stdout.write('ready\n');

let stopping = false;
process.on('SIGTERM', async () => {
  if (stopping) return;
  stopping = true;
  try {
    await runner.stop();
    clearInterval(flushTimer);
    await flush();
    await pool.end();
    process.exit(0);
  } catch (err) {
    console.error('graphile bench: stop failed', err);
    process.exit(1);
  }
});
