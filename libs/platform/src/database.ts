import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { PgDatabase } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { PoolClient } from 'pg';

/** Either driver: node-postgres against a real server, or PGlite embedded in the process. */
// biome-ignore lint/suspicious/noExplicitAny: node-postgres and PGlite type `execute`'s result differently; code reads `.rows` from either.
export type Db = PgDatabase<any, any, any>;

export interface Database {
  db: Db;
  kind: 'postgres' | 'pglite';
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  service: string;
  databaseUrl?: string;
  dataDir: string;
  migrationsFolder: string;
  logger: Logger;
  /** Pool size per process against PostgreSQL. */
  poolSize?: number;
  /**
   * Embedded only: where the empty PGlite cluster that new service directories are copied from is
   * kept (default: inside dataDir). Stacks that start often (tests) share one across data dirs.
   */
  templateDir?: string;
}

/**
 * drizzle's transaction() sends BEGIN before its try/finally, so a BEGIN that fails (the server
 * cut the connection as the transaction started, as a failover does) never releases the client:
 * each such cut would keep one pool slot for good, until the service waits for connections that
 * never come back and its shutdown waits for clients that are never released. A failed BEGIN
 * releases its client here, as broken, so the pool drops it.
 */
function releaseOnFailedBegin(client: PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  (client as { query: unknown }).query = (...args: unknown[]) => {
    const result = query(...args);
    const first = args[0];
    const text = typeof first === 'string' ? first : (first as { text?: unknown } | undefined)?.text;
    if (typeof text === 'string' && /^\s*begin\b/i.test(text) && result instanceof Promise) {
      return result.catch((err: unknown) => {
        client.release(err instanceof Error ? err : new Error(String(err)));
        throw err;
      });
    }
    return result;
  };
}

/**
 * Opens the service's own database and applies its committed migrations. Against PostgreSQL
 * the migration is serialised with an advisory lock, so replicas starting together (or the
 * Helm hook job racing a pod) apply each migration once.
 */
export async function openDatabase(opts: OpenDatabaseOptions): Promise<Database> {
  const migrationConfig = {
    migrationsFolder: opts.migrationsFolder,
    migrationsSchema: 'drizzle',
    migrationsTable: `${opts.service}_migrations`,
  };
  if (opts.databaseUrl) {
    const { Pool } = await import('pg');
    const { drizzle } = await import('drizzle-orm/node-postgres');
    const { migrate } = await import('drizzle-orm/node-postgres/migrator');
    const pool = new Pool({
      connectionString: opts.databaseUrl,
      max: opts.poolSize ?? 10,
      application_name: `lws-${opts.service}`,
      // Waiting for a connection never hangs: after 10 s it is an error the caller retries.
      connectionTimeoutMillis: 10_000,
      // A server that vanished without closing its sockets (a failed node) is noticed in seconds, not hours.
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
    });
    pool.on('error', (err) => opts.logger.error({ err }, 'idle database connection failed'));
    // A connection the server cuts while it is checked out but between queries (a transaction
    // waiting on NATS, say) emits 'error' on the client itself; unheard, that kills the process.
    // The work using it fails on its next query and is retried; the pool drops the client on release.
    pool.on('connect', (client) => {
      client.on('error', (err) => opts.logger.warn({ error: err.message }, 'database connection lost while in use'));
      releaseOnFailedBegin(client);
    });
    const db = drizzle({ client: pool });
    const lockClient = await pool.connect();
    try {
      await lockClient.query('SELECT pg_advisory_lock(hashtext($1))', [`lws-migrate-${opts.service}`]);
      await migrate(db, migrationConfig);
    } finally {
      await lockClient.query('SELECT pg_advisory_unlock(hashtext($1))', [`lws-migrate-${opts.service}`]).catch(() => undefined);
      lockClient.release();
    }
    opts.logger.info({ driver: 'postgres' }, 'database ready, migrations applied');
    return {
      db,
      kind: 'postgres',
      ping: async () => {
        await db.execute(sql`select 1`);
      },
      close: () => pool.end(),
    };
  }

  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  const dir = resolve(join(opts.dataDir, opts.service));
  if (!existsSync(join(dir, 'PG_VERSION'))) {
    const template = await emptyCluster(resolve(opts.templateDir ?? join(opts.dataDir, '.pglite-template')), PGlite);
    mkdirSync(dirname(dir), { recursive: true });
    rmSync(dir, { recursive: true, force: true });
    cpSync(template, dir, { recursive: true });
  }
  const client = new PGlite(dir);
  await client.waitReady;
  const db = drizzle({ client });
  await migrate(db, migrationConfig);
  opts.logger.info({ driver: 'pglite', dir }, 'embedded database ready, migrations applied');
  return {
    db,
    kind: 'pglite',
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    close: () => client.close(),
  };
}

/**
 * Creating a PGlite cluster (its initdb) costs seconds of CPU, the same for every service: it is
 * done once per PGlite version, closed cleanly, and each new service directory starts as a copy.
 * Built aside and renamed into place, so processes starting together never copy a half-made one.
 */
async function emptyCluster(root: string, PGlite: typeof import('@electric-sql/pglite').PGlite): Promise<string> {
  const pkg = join(dirname(require.resolve('@electric-sql/pglite')), '..', 'package.json');
  const { version } = JSON.parse(readFileSync(pkg, 'utf8')) as { version: string };
  const template = join(root, `pglite-${version}`);
  if (existsSync(join(template, 'PG_VERSION'))) return template;
  mkdirSync(root, { recursive: true });
  const aside = mkdtempSync(join(root, 'building-'));
  try {
    const client = new PGlite(aside);
    await client.waitReady;
    await client.close();
    try {
      renameSync(aside, template);
    } catch (err) {
      // Another process put its own in place first: theirs is as good.
      if (!existsSync(join(template, 'PG_VERSION'))) throw err;
    }
  } finally {
    rmSync(aside, { recursive: true, force: true });
  }
  return template;
}

/**
 * True when a write failed on the unique index or constraint named. Drivers wrap the PostgreSQL
 * error (drizzle puts it in `cause`), so the chain is walked.
 */
export function isUniqueViolation(err: unknown, constraint: string): boolean {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const { code, constraint: named, message } = e as { code?: unknown; constraint?: unknown; message?: unknown };
    if (code === '23505' && (named === constraint || (typeof message === 'string' && message.includes(constraint)))) return true;
  }
  return false;
}
