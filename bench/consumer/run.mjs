// A durable consumer's throughput, one transaction per event against one per batch.
// N events (identity.user.created.v1, default 5,000) are published once to a stream of their own;
// then, in each round, a fresh durable consumer reads all of them in each mode, the two modes in
// turn (the first alternating by round), on this machine's PostgreSQL and NATS over loopback. The
// handler is a projection's: one row per event (one INSERT; a batch writes its rows in one). Per
// mode: events/s from start to the last row committed, and this process's CPU per event (the
// consumer's side; PostgreSQL's own CPU is in the wall time).
//
//   node bench/consumer/run.mjs [--events N] [--rounds R] [--batch-size B] [--concurrency C] [--bus jetstream|in-process]
//
// --concurrency (default 1, as audit's consumers): events at once one at a time, batches at once
// in batches (notifications' request consumers: 16 events before, 4 batches now).
//
// Needs the built messaging library (`npm run build`, or `cd libs/messaging && npx tsc -b`).
import { randomBytes, randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { connect } from 'nats';
import pg from 'pg';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const require = createRequire(import.meta.url);
const { DurableConsumer, InProcessBus, JetStreamBus, messagingTables } = require(join(root, 'libs/messaging/dist/index.js'));
const { drizzle } = require('drizzle-orm/node-postgres');
const { sql } = require('drizzle-orm');
const { pgSchema } = require('drizzle-orm/pg-core');

const { values: args } = parseArgs({
  options: {
    events: { type: 'string', default: '5000' },
    rounds: { type: 'string', default: '3' },
    'batch-size': { type: 'string', default: '100' },
    concurrency: { type: 'string', default: '1' },
    bus: { type: 'string', default: 'jetstream' },
  },
});
const EVENTS = Number(args.events);
const ROUNDS = Number(args.rounds);
const BATCH_SIZE = Number(args['batch-size']);
const CONCURRENCY = Number(args.concurrency);
if (!(Number.isInteger(EVENTS) && EVENTS >= 1 && EVENTS <= 200_000)) throw new Error('--events must be a whole number 1..200000');
if (!(Number.isInteger(ROUNDS) && ROUNDS >= 1 && ROUNDS <= 20)) throw new Error('--rounds must be 1..20');
if (!(Number.isInteger(BATCH_SIZE) && BATCH_SIZE >= 1 && BATCH_SIZE <= 1000)) throw new Error('--batch-size must be 1..1000');
if (!(Number.isInteger(CONCURRENCY) && CONCURRENCY >= 1 && CONCURRENCY <= 64)) throw new Error('--concurrency must be 1..64');
if (!['jetstream', 'in-process'].includes(args.bus)) throw new Error('--bus must be jetstream or in-process');

const pgAdmin = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const natsUrl = process.env.TEST_NATS_URL ?? 'nats://127.0.0.1:4222';
const id = `benchc${randomBytes(4).toString('hex')}`;
const stream = `LWS_${id.toUpperCase()}`;
const dbUrl = new URL(pgAdmin);
dbUrl.pathname = `/${id}`;
const log = (m) => process.stderr.write(`[${new Date().toISOString().slice(11, 19)}] ${m}\n`);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const quiet = { debug() {}, info() {}, warn: (o, m) => log(`warn: ${m}`), error: (o, m) => log(`error: ${m}`) };

const admin = new pg.Client({ connectionString: pgAdmin });
await admin.connect();
await admin.query(`create database ${id}`);
// Pool size as a service's (10).
const pool = new pg.Pool({ connectionString: dbUrl.toString(), max: 10 });
pool.on('error', () => undefined);
let bus;
let failed = false;
try {
  const schema = pgSchema('bench');
  const tables = messagingTables(schema);
  const kit = require('drizzle-kit/api');
  for (const statement of await kit.generateMigration(kit.generateDrizzleJson({}), kit.generateDrizzleJson({ schema, ...tables })))
    await pool.query(statement);
  await pool.query(
    'create table bench.users (consumer text not null, event_id uuid not null, user_id int not null, primary key (consumer, event_id))',
  );
  const db = drizzle(pool);

  bus =
    args.bus === 'jetstream'
      ? await JetStreamBus.connect({ natsUrl, stream, subjectPrefix: `${id}.`, logger: quiet, name: 'bench-consumer' })
      : new InProcessBus({ logger: quiet, maxMessages: EVENTS + 10 });
  log(`publishing ${EVENTS} events on ${args.bus}`);
  const occurredAt = new Date().toISOString();
  for (let i = 0; i < EVENTS; i += 500) {
    await Promise.all(
      Array.from({ length: Math.min(500, EVENTS - i) }, (_, k) =>
        bus.publish({
          id: randomUUID(),
          subject: 'identity.user.created.v1',
          occurredAt,
          producer: 'bench',
          data: { userId: i + k + 1, username: `user${i + k + 1}`, name: `User ${i + k + 1}`, role: 'worker' },
        }),
      ),
    );
  }

  async function run(mode, round) {
    const name = `${mode}-${round}`;
    let done = 0;
    let finish;
    const finished = new Promise((resolve) => (finish = resolve));
    const count = (n) => {
      done += n;
      if (done >= EVENTS) finish();
    };
    const consumer = new DurableConsumer({
      db,
      tables,
      bus,
      name,
      subjects: ['identity.user.created.v1'],
      logger: quiet,
      concurrency: CONCURRENCY,
      handler: async (event, tx, afterCommit) => {
        await tx.execute(sql`insert into bench.users (consumer, event_id, user_id) values (${name}, ${event.id}, ${event.data.userId})`);
        afterCommit(() => count(1));
      },
      ...(mode === 'batch'
        ? {
            batchSize: BATCH_SIZE,
            batchHandler: async (events, tx, afterCommit) => {
              await tx.execute(sql`
                insert into bench.users (consumer, event_id, user_id)
                select ${name}, (e->>'id')::uuid, (e->'data'->>'userId')::int
                from jsonb_array_elements(${JSON.stringify(events)}::jsonb) e`);
              afterCommit(() => count(events.length));
            },
          }
        : {}),
    });
    const cpu = process.cpuUsage();
    const started = performance.now();
    await consumer.start();
    await finished;
    const seconds = (performance.now() - started) / 1000;
    const used = process.cpuUsage(cpu);
    await consumer.stop();
    const rows = (await pool.query('select count(*)::int as n from bench.users where consumer = $1', [name])).rows[0].n;
    if (rows !== EVENTS) throw new Error(`${name}: ${rows} rows for ${EVENTS} events`);
    return { perSecond: EVENTS / seconds, cpuMsPerEvent: (used.user + used.system) / 1000 / EVENTS };
  }

  const results = { one: [], batch: [] };
  for (let round = 1; round <= ROUNDS; round++) {
    const order = round % 2 === 1 ? ['one', 'batch'] : ['batch', 'one'];
    for (const mode of order) {
      const r = await run(mode, round);
      results[mode].push(r);
      log(`round ${round} ${mode.padEnd(5)} ${Math.round(r.perSecond)} events/s, ${r.cpuMsPerEvent.toFixed(3)} ms CPU per event`);
    }
  }
  const summary = (mode) => ({
    perSecond: Math.round(median(results[mode].map((r) => r.perSecond))),
    cpuMsPerEvent: Number(median(results[mode].map((r) => r.cpuMsPerEvent)).toFixed(3)),
  });
  const one = summary('one');
  const batch = summary('batch');
  console.log(
    [
      `consumer throughput, ${EVENTS} events, ${args.bus}, concurrency ${CONCURRENCY}, ${ROUNDS} paired rounds (medians); ${cpus().length} cores, load ${loadavg()[0].toFixed(1)}`,
      `  one at a time (a transaction per event)      ${String(one.perSecond).padStart(7)} events/s   ${one.cpuMsPerEvent} ms CPU per event`,
      `  batches of up to ${String(BATCH_SIZE).padEnd(4)} (a transaction each)   ${String(batch.perSecond).padStart(7)} events/s   ${batch.cpuMsPerEvent} ms CPU per event`,
      `  batch / one                                  ${(batch.perSecond / one.perSecond).toFixed(1)}x`,
    ].join('\n'),
  );
} catch (err) {
  failed = true;
  console.error(err);
} finally {
  await bus?.close();
  if (args.bus === 'jetstream') {
    const nc = await connect({ servers: natsUrl });
    await (await nc.jetstreamManager()).streams.delete(stream).catch(() => undefined);
    await nc.close();
  }
  await pool.end();
  await admin.query(`drop database if exists ${id} with (force)`);
  await admin.end();
}
process.exit(failed ? 1 : 0);
