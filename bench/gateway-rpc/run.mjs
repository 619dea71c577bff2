// GET /api/auth/me through the whole path (gateway → Redis session → NATS → identity → PostgreSQL).
// Loopback only; 10 s at most; prints requests/s and latency percentiles.
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { connect } from 'nats';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const require = createRequire(import.meta.url);
const { startStack } = require(join(root, 'tools/stack/dist/index.js'));

const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const pgAdmin = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const natsUrl = process.env.TEST_NATS_URL ?? 'nats://127.0.0.1:4222';

const id = `bench${randomBytes(4).toString('hex')}`;
const admin = new pg.Client({ connectionString: pgAdmin });
await admin.connect();
await admin.query(`CREATE DATABASE "${id}"`);
const dbUrl = new URL(pgAdmin);
dbUrl.pathname = `/${id}`;
const password = `Bench-${randomBytes(8).toString('hex')}`;

const stack = await startStack({
  env: {
    ...process.env,
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
    OTEL_SDK_DISABLED: 'true',
  },
  healthPorts: 'random',
  announce: () => {},
});

try {
  const login = await fetch(`${stack.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Requested-With': 'XMLHttpRequest' },
    body: JSON.stringify({ username: 'superadmin', password }),
  });
  if (!login.ok) throw new Error(`login failed: ${login.status}`);
  const cookie = login.headers.get('set-cookie').split(';')[0];

  const result = await autocannon({
    url: `${stack.url}/api/auth/me`,
    connections: CONNECTIONS,
    duration: DURATION_S,
    headers: { cookie },
  });
  const ok = result['2xx'];
  console.log(`gateway-rpc: GET /api/auth/me, ${CONNECTIONS} connections, ${DURATION_S} s`);
  console.log(`  requests/s   ${result.requests.average.toFixed(0)}`);
  console.log(`  latency ms   p50 ${result.latency.p50}  p90 ${result.latency.p90}  p99 ${result.latency.p99}  max ${result.latency.max}`);
  console.log(`  responses    ${ok} ok, ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`);
  if (result.non2xx > 0 || result.errors > 0) process.exitCode = 1;
} finally {
  await stack.close();
  await admin.query(`DROP DATABASE IF EXISTS "${id}" WITH (FORCE)`);
  await admin.end();
  const nc = await connect({ servers: natsUrl });
  await (await nc.jetstreamManager()).streams.delete(`LWS_${id.toUpperCase()}`).catch(() => undefined);
  await nc.close();
}
