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

/** A dead letter as a parked row shows it; `receivedAt` is when it was parked (ms). */
export interface ParkedLetter {
  id: string;
  consumer: string;
  subject: string;
  envelope: unknown;
  error: string;
  deliveries: number;
  receivedAt: number;
  resolution: string | null;
}

/** The dead letters a consumer parked in the test database, oldest first. */
export async function parkedLetters(t: MessagingTestDb, consumer: string): Promise<ParkedLetter[]> {
  const r = await t.pool.query(
    `SELECT id, consumer, subject, envelope, error, attempts, first_seen_at, resolution FROM msgtest.dead_letters
     WHERE consumer = $1 ORDER BY first_seen_at`,
    [consumer],
  );
  return r.rows.map((row) => ({
    id: row.id,
    consumer: row.consumer,
    subject: row.subject,
    envelope: row.envelope,
    error: row.error,
    deliveries: row.attempts,
    receivedAt: new Date(row.first_seen_at).getTime(),
    resolution: row.resolution,
  }));
}
