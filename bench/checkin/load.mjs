// The load generator of bench/checkin, in a process of its own so it does not share the stack's
// event loop: the raw INSERT baseline, then check-ins through the gateway with autocannon.
// Reads its plan from the JSON file named by argv[2]; prints its figures as JSON on stdout.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import pg from 'pg';

const plan = JSON.parse(readFileSync(process.argv[2], 'utf8'));

/** Tells the parent a phase starts or ends, and waits until it has sampled CPU times. */
function phase(name, at) {
  if (!process.send) return Promise.resolve();
  return new Promise((resolve) => {
    process.once('message', resolve);
    process.send({ phase: name, at });
  });
}

/**
 * Single-row autocommit INSERTs on `connections` pg clients for `seconds`: the database's own pace.
 * The table is a copy of shifts.check_ins (same columns, defaults and indexes; no foreign key) and
 * each row carries what a check-in's row carries, so the only difference from the check-in path's
 * insert is everything around it.
 */
async function rawInserts({ databaseUrl, connections, seconds }) {
  const clients = await Promise.all(
    Array.from({ length: connections }, async () => {
      const c = new pg.Client({ connectionString: databaseUrl });
      await c.connect();
      return c;
    }),
  );
  await clients[0].query('CREATE TABLE IF NOT EXISTS bench_raw (LIKE shifts.check_ins INCLUDING ALL)');
  // The parent samples CPU (these clients' backends included) around the loop.
  await phase('raw', 'start');
  const until = Date.now() + seconds * 1000;
  const started = Date.now();
  const counts = await Promise.all(
    clients.map(async (c, i) => {
      const shiftId = randomUUID();
      let n = 0;
      while (Date.now() < until) {
        const now = new Date();
        await c.query(
          'INSERT INTO bench_raw (id, user_id, shift_id, location, checked_in_at, next_check_in_at) VALUES ($1, $2, $3, $4, $5::timestamptz, $6::timestamptz)',
          [randomUUID(), i + 1, shiftId, 'The Prospect Building', now.toISOString(), new Date(now.getTime() + 3600_000).toISOString()],
        );
        n += 1;
      }
      return n;
    }),
  );
  const elapsed = (Date.now() - started) / 1000;
  await phase('raw', 'end');
  await Promise.all(clients.map((c) => c.end()));
  const rows = counts.reduce((a, b) => a + b, 0);
  return { rows, perSecond: rows / elapsed };
}

/** POST /api/check-ins, each request from the next worker in turn (each with its own session and PIN). */
async function checkIns({ url, workers, connections, seconds, rate }) {
  let next = 0;
  // Every answer names its check-in: a duplicate answer (the first check-in again) would repeat an id.
  const ids = new Set();
  let answered = 0;
  const result = await autocannon({
    url,
    connections,
    duration: seconds,
    ...(rate ? { overallRate: rate } : {}),
    requests: [
      {
        method: 'POST',
        path: '/api/check-ins',
        setupRequest: (req) => {
          const w = workers[next++ % workers.length];
          return {
            ...req,
            headers: { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest', cookie: w.cookie },
            body: JSON.stringify({ userId: w.id, location: 'The Prospect Building', pin: w.pin }),
          };
        },
        onResponse: (status, body) => {
          if (status !== 201) return;
          answered += 1;
          ids.add(JSON.parse(body).id);
        },
      },
    ],
  });
  return {
    perSecond: result['2xx'] / seconds,
    ok: result['2xx'],
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    duplicates: answered - ids.size,
    latency: { p50: result.latency.p50, p90: result.latency.p90, p99: result.latency.p99, max: result.latency.max },
  };
}

const raw = await rawInserts({ databaseUrl: plan.databaseUrl, connections: plan.rawConnections, seconds: plan.rawSeconds });
// Warms the JIT and the connection pools; not reported.
await checkIns({ ...plan, seconds: plan.warmSeconds });
// The parent samples the stack's CPU time around this phase.
await phase('unthrottled', 'start');
const unthrottled = await checkIns({ ...plan, seconds: plan.maxSeconds });
await phase('unthrottled', 'end');
const fixedRate = await checkIns({ ...plan, seconds: plan.rateSeconds, rate: plan.rate });
// Latency in ordinary operation: half of what the stack managed unthrottled, on fewer connections
// (autocannon starts every connection's timer together, so many connections arrive in bursts).
const halfRate = Math.max(1, Math.round(unthrottled.perSecond / 2));
const halfConnections = Math.min(5, plan.connections);
const half = {
  rate: halfRate,
  connections: halfConnections,
  ...(await checkIns({ ...plan, connections: halfConnections, seconds: plan.rateSeconds, rate: halfRate })),
};
process.stdout.write(JSON.stringify({ raw, unthrottled, fixedRate, half }));
process.disconnect?.();
