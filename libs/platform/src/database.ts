import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { PgDatabase } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import type { Logger } from 'pino';

/** Either driver: node-postgres against a real server, or PGlite embedded in the process. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
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
    });
    pool.on('error', (err) => opts.logger.error({ err }, 'idle database connection failed'));
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
  mkdirSync(dir, { recursive: true });
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
