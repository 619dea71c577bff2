// The whole stack in a child process (as `npm start` runs it, from the built output) on this
// machine's real PostgreSQL, NATS and Redis, with a database, stream, subject prefix and Redis
// prefix of its own, over loopback. stop() removes all of them.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { connect } from 'nats';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const freePort = () =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

export async function startBenchStack(name, extraEnv = {}) {
  const pgAdmin = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const natsUrl = process.env.TEST_NATS_URL ?? 'nats://127.0.0.1:4222';
  const id = `bench${name}${randomBytes(4).toString('hex')}`;
  const stream = `LWS_${id.toUpperCase()}`;
  const password = `Bench-${randomBytes(8).toString('hex')}`;
  const admin = new pg.Client({ connectionString: pgAdmin });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${id}"`);
  const dbUrl = new URL(pgAdmin);
  dbUrl.pathname = `/${id}`;
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env = {
    ...process.env,
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    PORT: String(port),
    DATABASE_URL: dbUrl.toString(),
    NATS_URL: natsUrl,
    REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
    REDIS_KEY_PREFIX: `${id}:`,
    EVENTS_STREAM: stream,
    SUBJECT_PREFIX: `${id}.`,
    LWS_SUPERADMIN_PASSWORD: password,
    LOGIN_MAX_ATTEMPTS_PER_IP: '1000000',
    OTEL_SDK_DISABLED: 'true',
    ...extraEnv,
  };
  delete env.OTEL_EXPORTER_OTLP_ENDPOINT;

  const api = (path, { cookie, body, method = body !== undefined ? 'POST' : 'GET', contentType = 'application/json' } = {}) =>
    fetch(`${url}${path}`, {
      method,
      headers: { 'Content-Type': contentType, 'X-Requested-With': 'XMLHttpRequest', ...(cookie ? { cookie } : {}) },
      ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
    });
  const login = async (username, pass = password) => {
    const res = await api('/api/auth/login', { body: { username, password: pass } });
    if (!res.ok) throw new Error(`login ${username}: ${res.status}`);
    return res.headers.get('set-cookie').split(';')[0];
  };

  const stack = spawn(process.execPath, [join(root, 'tools/stack/dist/cli.js')], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  const keep = (d) => (log = (log + d).slice(-4000));
  stack.stdout.on('data', keep);
  stack.stderr.on('data', keep);
  let exited;
  stack.on('exit', (code, signal) => (exited = { code, signal }));

  const stop = async () => {
    if (stack.exitCode === null && stack.signalCode === null) {
      const gone = new Promise((r) => stack.once('exit', r));
      stack.kill('SIGTERM');
      const timer = setTimeout(() => stack.kill('SIGKILL'), 15_000);
      await gone;
      clearTimeout(timer);
    }
    await admin.query(`DROP DATABASE IF EXISTS "${id}" WITH (FORCE)`);
    await admin.end();
    const nc = await connect({ servers: natsUrl });
    await (await nc.jetstreamManager()).streams.delete(stream).catch(() => undefined);
    await nc.close();
  };

  try {
    for (const deadline = Date.now() + 120_000; ; ) {
      if (exited) throw new Error(`the stack exited (${exited.code ?? exited.signal}) while starting:\n${log}`);
      if (Date.now() > deadline) throw new Error('the stack was not ready within 120 s');
      const status = await login('superadmin')
        .then((cookie) => api('/api/system/status', { cookie }))
        .then((r) => (r.ok ? r.json() : undefined))
        .catch(() => undefined);
      if (status?.allReady) break;
      await sleep(250);
    }
  } catch (err) {
    await stop();
    throw err;
  }
  return { url, env, api, login, password, stop, log: () => log };
}
