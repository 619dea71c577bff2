// The load generator of bench/checkin, in a process of its own so it does not share the stack's
// event loop: the raw INSERT baseline, then check-ins through the gateway with autocannon.
// Reads its plan from the JSON file named by argv[2]; prints its figures as JSON on stdout.
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import pg from 'pg';

const plan = JSON.parse(readFileSync(process.argv[2], 'utf8'));

/** Single-row autocommit INSERTs on `connections` pg clients for `seconds`: the database's own pace. */
async function rawInserts({ databaseUrl, connections, seconds }) {
  const clients = await Promise.all(
    Array.from({ length: connections }, async () => {
      const c = new pg.Client({ connectionString: databaseUrl });
      await c.connect();
      return c;
    }),
  );
  await clients[0].query('CREATE TABLE IF NOT EXISTS bench_raw (id bigserial PRIMARY KEY, user_id integer NOT NULL, at timestamptz NOT NULL)');
  const until = Date.now() + seconds * 1000;
  const started = Date.now();
  const counts = await Promise.all(
    clients.map(async (c, i) => {
      let n = 0;
      while (Date.now() < until) {
        await c.query('INSERT INTO bench_raw (user_id, at) VALUES ($1, now())', [i + 1]);
        n += 1;
      }
      return n;
    }),
  );
  const elapsed = (Date.now() - started) / 1000;
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

const raw = await rawInserts({ databaseUrl: plan.databaseUrl, connections: plan.connections, seconds: plan.rawSeconds });
// Warms the JIT and the connection pools; not reported.
await checkIns({ ...plan, seconds: plan.warmSeconds });
const unthrottled = await checkIns({ ...plan, seconds: plan.maxSeconds });
const fixedRate = await checkIns({ ...plan, seconds: plan.rateSeconds, rate: plan.rate });
// Latency in ordinary operation: half of what the stack managed unthrottled, on fewer connections
// (autocannon starts every connection's timer together, so many connections arrive in bursts).
const halfRate = Math.max(1, Math.round(unthrottled.perSecond / 2));
const halfConnections = Math.min(5, plan.connections);
const half = { rate: halfRate, connections: halfConnections, ...(await checkIns({ ...plan, connections: halfConnections, seconds: plan.rateSeconds, rate: halfRate })) };
process.stdout.write(JSON.stringify({ raw, unthrottled, fixedRate, half }));
