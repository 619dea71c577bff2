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
    // Every embedded stack of the run copies one empty PGlite cluster instead of creating seven.
    env.PGLITE_TEMPLATE_DIR = join(tmpdir(), 'lws-pglite-templates');
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
  const launch = () => startStack({ env, healthPorts: 'random', announce: (m) => announcements.push(m), logDestination: sink });

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
      // Each step is bounded so that one that hangs (once seen in CI: 60 s in login.test.ts, after
      // every test had passed) says which it was, with the stack's last log lines, and the rest of
      // the cleanup still runs, instead of the suite failing on a bare hook timeout.
      await bounded('closing the stack', 30_000, () => stack.close(), logs);
      if (db) await bounded('dropping the test database', 10_000, () => db!.drop(), logs);
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
      const { NATS_URL: natsUrl, EVENTS_STREAM: stream } = env;
      if (stream && natsUrl) {
        await bounded(
          'deleting the test stream',
          10_000,
          async () => {
            const nc = await connect({ servers: natsUrl });
            const jsm = await nc.jetstreamManager();
            await jsm.streams.delete(stream).catch(() => undefined);
            await nc.close();
          },
          logs,
        );
      }
    },
  };
  return result;
}

/**
 * Waits for `step` at most `ms`. Past that it writes to stderr what did not finish, with the stack's
 * last log lines, and returns; the step goes on in the background. A step that fails still throws.
 */
async function bounded(what: string, ms: number, step: () => Promise<unknown>, logs: string[]): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), ms);
  });
  try {
    const outcome = await Promise.race([step().then(() => 'done' as const), late]);
    if (outcome === 'late')
      process.stderr.write(
        `test stack: ${what} did not finish within ${ms / 1000} s; going on. The stack's last log lines:\n${logs.slice(-40).join('')}\n`,
      );
  } finally {
    clearTimeout(timer);
  }
}

export const XHR = { 'X-Requested-With': 'XMLHttpRequest' };
