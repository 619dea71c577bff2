import { Writable } from 'node:stream';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'nats';
import { startStack, type RunningStack } from '@lws/stack';
import { createTestDatabase, testServers, uniqueId, type TestDatabase } from '@lws/testing';

export interface TestStack {
  stack: RunningStack;
  url: string;
  env: NodeJS.ProcessEnv;
  /** Every log line every service wrote, for asserting that no secret was logged. */
  logs: string[];
  /** One-time operator messages (the generated superadmin password). */
  announcements: string[];
  superadmin: { username: string; password: string };
  stop(): Promise<void>;
  /** Stops the services but keeps the database / data dir, for restart tests. */
  restart(): Promise<void>;
}

export interface TestStackOptions {
  embedded?: boolean;
  env?: NodeJS.ProcessEnv;
}

/** The whole backend in this process, against real servers with names of its own, or embedded in a temp dir. */
export async function startTestStack(opts: TestStackOptions = {}): Promise<TestStack> {
  const logs: string[] = [];
  const announcements: string[] = [];
  const superadmin = { username: 'superadmin', password: `Sup3r-${uniqueId('p')}` };
  let db: TestDatabase | undefined;
  let dataDir: string | undefined;
  const id = uniqueId('t');
  let env: NodeJS.ProcessEnv = {
    NODE_ENV: 'test',
    LOG_LEVEL: 'info',
    HOST: '127.0.0.1',
    PORT: '0',
    LWS_SUPERADMIN_USERNAME: superadmin.username,
    LWS_SUPERADMIN_PASSWORD: superadmin.password,
    OTEL_SDK_DISABLED: 'true',
  };
  if (opts.embedded) {
    dataDir = mkdtempSync(join(tmpdir(), 'lws-embedded-'));
    env.DATA_DIR = dataDir;
  } else {
    db = await createTestDatabase();
    env = {
      ...env,
      DATABASE_URL: db.url,
      NATS_URL: testServers.natsUrl,
      REDIS_URL: testServers.redisUrl,
      REDIS_KEY_PREFIX: `${id}:`,
      EVENTS_STREAM: `LWS_${id.toUpperCase()}`,
      SUBJECT_PREFIX: `${id}.`,
    };
  }
  env = { ...env, ...opts.env };
  const sink = new Writable({
    write(chunk, _enc, cb) {
      logs.push(String(chunk));
      cb();
    },
  });
  // pino writes to a destination stream; every service shares this one.
  const launch = () =>
    startStack({ env, healthPorts: 'random', announce: (m) => announcements.push(m), logDestination: sink });

  let stack = await launch();
  const result: TestStack = {
    stack,
    url: stack.url,
    env,
    logs,
    announcements,
    superadmin,
    async restart() {
      await stack.close();
      stack = await launch();
      result.stack = stack;
      result.url = stack.url;
    },
    async stop() {
      await stack.close();
      if (db) await db.drop();
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
      if (env.EVENTS_STREAM && env.NATS_URL) {
        const nc = await connect({ servers: env.NATS_URL });
        const jsm = await nc.jetstreamManager();
        await jsm.streams.delete(env.EVENTS_STREAM).catch(() => undefined);
        await nc.close();
      }
    },
  };
  return result;
}

export const XHR = { 'X-Requested-With': 'XMLHttpRequest' };
