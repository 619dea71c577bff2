import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import net from 'node:net';
import { join } from 'node:path';
import { connect } from 'nats';
import { Client } from 'pg';
import { randomBytes } from 'node:crypto';

const root = join(__dirname, '..', '..');

async function freePort(): Promise<number> {
  const srv = net.createServer();
  srv.listen(0, '127.0.0.1');
  await once(srv, 'listening');
  const port = (srv.address() as net.AddressInfo).port;
  srv.close();
  return port;
}

/**
 * Starts the whole stack as `npm start` does (one process, built output) against the real
 * PostgreSQL, NATS and Redis, in a database, stream and key space of its own. With
 * LWS_E2E_EMBEDDED=1 it runs on `npm start`'s embedded defaults instead (PGlite, the in-process
 * bus, in-memory sessions) in a data directory of its own: `npm test` runs the tests tagged
 * @embedded that way too.
 */
export default async function globalSetup() {
  const id = `e2e${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
  const embedded = process.env.LWS_E2E_EMBEDDED === '1';
  const pgAdmin = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const natsUrl = process.env.TEST_NATS_URL ?? 'nats://127.0.0.1:4222';
  const dbUrl = new URL(pgAdmin);
  dbUrl.pathname = `/${id}`;
  const dataDir = embedded ? mkdtempSync(join(tmpdir(), 'lws-e2e-')) : undefined;
  if (!embedded) {
    const admin = new Client({ connectionString: pgAdmin });
    await admin.connect();
    await admin.query(`CREATE DATABASE "${id}"`);
    await admin.end();
  }

  const port = await freePort();
  const password = `E2e-${randomBytes(9).toString('base64url')}`;
  const servers = embedded
    ? { DATA_DIR: dataDir! }
    : {
        DATABASE_URL: dbUrl.toString(),
        NATS_URL: natsUrl,
        REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
        REDIS_KEY_PREFIX: `${id}:`,
        EVENTS_STREAM: `LWS_${id.toUpperCase()}`,
        SUBJECT_PREFIX: `${id}.`,
      };
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    PORT: String(port),
    ...servers,
    // Browser tests log in many times from one address; the limits are proven by the integration tests.
    LOGIN_MAX_ATTEMPTS_PER_IP: '10000',
    // Time-dependent flows (check-in windows, due and overdue) move the server's clock instead of waiting.
    LWS_TEST_CLOCK: '1',
    // The webhooks test's receiver runs on this machine.
    WEBHOOKS_ALLOW_LOOPBACK: 'true',
    // Escalation calls this number through the embedded fake provider; escalation.e2e.ts answers it.
    EMERGENCY_NUMBER_1: '+447911000001',
    LWS_SUPERADMIN_USERNAME: 'superadmin',
    LWS_SUPERADMIN_PASSWORD: password,
    OTEL_SDK_DISABLED: 'true',
  };
  for (const s of ['IDENTITY', 'LOCATIONS', 'SHIFTS', 'ESCALATION', 'NOTIFICATIONS', 'AUDIT']) delete env[`${s}_HEALTH_PORT`];
  env.HEALTH_PORT = '0';
  env.METRICS_PORT = '0';
  if (embedded) for (const k of ['DATABASE_URL', 'NATS_URL', 'REDIS_URL']) delete env[k];
  const child = spawn(process.execPath, [join(root, 'tools/stack/dist/cli.js')], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d) => (output += String(d)));
  child.stderr.on('data', (d) => (output += String(d)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`stack did not start in 90 s:\n${output}`)), 90_000);
    child.stdout.on('data', () => {
      const m = /LWS is running: (http:\/\/\S+)/.exec(output);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`stack exited with ${code}:\n${output}`));
    });
  });

  process.env.LWS_E2E_URL = url;
  process.env.LWS_E2E_SUPERADMIN_PASSWORD = password;
  // For tests that set up what no API can (an outbox row the bus refused).
  if (!embedded) process.env.LWS_E2E_DATABASE_URL = dbUrl.toString();

  return async () => {
    child.kill('SIGTERM');
    await Promise.race([once(child, 'exit'), new Promise((r) => setTimeout(r, 10_000))]);
    if (dataDir) {
      rmSync(dataDir, { recursive: true, force: true });
      return;
    }
    const c = new Client({ connectionString: pgAdmin });
    await c.connect();
    await c.query(`DROP DATABASE IF EXISTS "${id}" WITH (FORCE)`);
    await c.end();
    const nc = await connect({ servers: natsUrl });
    await (await nc.jetstreamManager()).streams.delete(env.EVENTS_STREAM!).catch(() => undefined);
    await nc.close();
  };
}
