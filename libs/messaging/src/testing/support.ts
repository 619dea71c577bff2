import { createTestDatabase, testServers, TestDatabase } from '@lws/testing';
import { drizzle, NodePgDatabase } from 'drizzle-orm/node-postgres';
import { pgSchema } from 'drizzle-orm/pg-core';
import { connect } from 'nats';
import { Pool } from 'pg';
import { MessagingLogger } from '../logger';
import { messagingTables, MessagingTables } from '../tables';

export interface LogEntry {
  level: 'info' | 'warn' | 'error' | 'debug';
  obj: unknown;
  msg?: string;
}

/** A logger that keeps every line so a test can check what an operator would read. */
export function recordingLogger(): MessagingLogger & { entries: LogEntry[]; lines(level: LogEntry['level']): LogEntry[] } {
  const entries: LogEntry[] = [];
  const at = (level: LogEntry['level']) => (obj: unknown, msg?: string) => {
    entries.push({ level, obj, msg });
  };
  return {
    entries,
    lines: (level) => entries.filter((e) => e.level === level),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    debug: at('debug'),
  };
}

/** The messaging tables in schema `msgtest` and the DDL drizzle-kit generates for them. */
async function messagingDdl(): Promise<{ tables: MessagingTables; statements: string[] }> {
  const schema = pgSchema('msgtest');
  const tables = messagingTables(schema);
  const kit = await import('drizzle-kit/api');
  const statements = await kit.generateMigration(kit.generateDrizzleJson({}), kit.generateDrizzleJson({ schema, ...tables }));
  return { tables, statements };
}

export interface MessagingTestDb {
  db: NodePgDatabase;
  pool: Pool;
  tables: MessagingTables;
  close(): Promise<void>;
}

/**
 * A fresh database holding the messaging tables in schema `msgtest`, created from the DDL
 * drizzle-kit generates for messagingTables, i.e. what a service's migration will contain.
 */
export async function messagingTestDb(): Promise<MessagingTestDb> {
  const database: TestDatabase = await createTestDatabase('lws_msg_');
  const pool = new Pool({ connectionString: database.url, max: 8 });
  // Dropping the database at the end ends idle connections; that is expected, not a failure.
  pool.on('error', () => undefined);
  const { tables, statements } = await messagingDdl();
  for (const statement of statements) await pool.query(statement);
  return {
    db: drizzle(pool),
    pool,
    tables,
    async close() {
      await pool.end();
      await database.drop();
    },
  };
}

export async function deleteStream(stream: string): Promise<void> {
  const nc = await connect({ servers: testServers.natsUrl });
  try {
    const jsm = await nc.jetstreamManager();
    await jsm.streams.delete(stream).catch(() => undefined);
  } finally {
    await nc.drain();
  }
}

export const userCreated = (userId: number) => ({
  userId,
  username: `user${userId}`,
  name: `User ${userId}`,
  role: 'worker' as const,
});
