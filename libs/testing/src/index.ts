import { randomBytes } from 'node:crypto';
import { Client, type Pool, type PoolClient } from 'pg';

/** The servers every integration test talks to for real. */
export const testServers = {
  postgresAdminUrl: process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  natsUrl: process.env.TEST_NATS_URL ?? 'nats://127.0.0.1:4222',
  redisUrl: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
};

/** A short unique token so concurrent test runs never share a database, stream or subject. */
export function uniqueId(prefix = 't'): string {
  return `${prefix}${Date.now().toString(36)}${randomBytes(4).toString('hex')}`;
}

export interface TestDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

/** Creates a fresh PostgreSQL database for one test file; drop() removes it. */
export async function createTestDatabase(prefix = 'lws_test_'): Promise<TestDatabase> {
  const name = uniqueId(prefix).toLowerCase();
  const admin = new Client({ connectionString: testServers.postgresAdminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(testServers.postgresAdminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    async drop() {
      const c = new Client({ connectionString: testServers.postgresAdminUrl });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}

/** Polls until check() returns a truthy value or the timeout passes. */
export async function eventually<T>(check: () => Promise<T> | T, timeoutMs = 10000, intervalMs = 50): Promise<T> {
  const started = Date.now();
  let lastError: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value) return value;
    } catch (err) {
      lastError = err;
    }
    if (Date.now() - started > timeoutMs) {
      throw new Error(`condition not met within ${timeoutMs} ms${lastError ? `: ${String(lastError)}` : ''}`);
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

/** A statement a pool ran: its text and its parameters. */
export interface Statement {
  text: string;
  values: unknown[];
}

/**
 * Hands `seen` every statement a service's pool runs from now on (each client wrapped as it is
 * checked out); answers the function that stops watching.
 */
export function watchStatements(pool: Pool, seen: (statement: Statement) => void): () => void {
  let watching = true;
  const wrapped = new WeakSet<PoolClient>();
  const wrap = (client: PoolClient) => {
    if (wrapped.has(client)) return;
    wrapped.add(client);
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as { query: unknown }).query = (...args: unknown[]) => {
      if (watching) {
        const q = args[0] as string | { text?: string; values?: unknown[] };
        const values = (typeof q === 'string' ? undefined : q.values) ?? (Array.isArray(args[1]) ? (args[1] as unknown[]) : []);
        seen({ text: typeof q === 'string' ? q : (q.text ?? ''), values });
      }
      return query(...args);
    };
  };
  pool.on('acquire', wrap);
  return () => {
    watching = false;
    pool.off('acquire', wrap);
  };
}
export { startReceivers, type Answer, type Received } from './webhook-receiver';
