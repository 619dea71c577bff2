import { sql } from 'drizzle-orm';
import {
  bigint,
  index,
  integer,
  jsonb,
  PgDatabase,
  PgSchema,
  PgTransaction,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

/** A service's database (@lws/platform's Db), whichever driver opened it: node-postgres or PGlite. */
// biome-ignore lint/suspicious/noExplicitAny: the two drivers type `execute`'s result differently; this takes either.
export type MessagingDb = PgDatabase<any, any, any>;

/** A transaction on a MessagingDb. */
// biome-ignore lint/suspicious/noExplicitAny: as MessagingDb, either driver's.
export type DbTransaction = PgTransaction<any, any, any>;

/**
 * The outbox and the consumer dedupe table, placed in the calling service's own schema so
 * drizzle-kit generates them into that service's migrations.
 */
export function messagingTables(schema: PgSchema<string>) {
  const outbox = schema.table(
    'outbox',
    {
      // Insertion order: events written in one transaction are published in the order written,
      // which created_at alone cannot promise when two share a timestamp.
      seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity().notNull(),
      id: uuid('id').primaryKey(),
      subject: text('subject').notNull(),
      payload: jsonb('payload').notNull(),
      createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
      publishedAt: timestamp('published_at', { withTimezone: true, mode: 'date' }),
      attempts: integer('attempts').notNull().default(0),
      lastError: text('last_error'),
      /** Set when the bus refused the row for good: the relay passes over it, an operator replays or discards it. */
      parkedAt: timestamp('parked_at', { withTimezone: true, mode: 'date' }),
      /** Publishing order (eventPriority): an emergency's events first, then the rest, reminders last. */
      priority: smallint('priority').notNull().default(1),
    },
    (t) => [
      index('outbox_unpublished_idx').on(t.priority, t.seq).where(sql`published_at is null and parked_at is null`),
      index('outbox_parked_idx').on(t.parkedAt).where(sql`parked_at is not null`),
      index('outbox_created_at_idx').on(t.createdAt),
    ],
  );

  const processedEvents = schema.table(
    'processed_events',
    {
      consumer: text('consumer').notNull(),
      eventId: uuid('event_id').notNull(),
      processedAt: timestamp('processed_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    },
    (t) => [primaryKey({ columns: [t.consumer, t.eventId] }), index('processed_events_processed_at_idx').on(t.processedAt)],
  );

  /**
   * Events a consumer could not apply and will not retry by itself: they break their contract, a
   * handler called them poison, or a handler kept failing on them (a bug). An infrastructure fault
   * never lands here: it is retried until it heals. An operator replays (through the consumer's
   * normal, idempotent path) or discards each; resolved rows stay as the record.
   */
  const deadLetters = schema.table(
    'dead_letters',
    {
      id: uuid('id').primaryKey(),
      consumer: text('consumer').notNull(),
      subject: text('subject').notNull(),
      eventId: uuid('event_id'),
      envelope: jsonb('envelope').notNull(),
      error: text('error').notNull(),
      attempts: integer('attempts').notNull(),
      firstSeenAt: timestamp('first_seen_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
      resolvedAt: timestamp('resolved_at', { withTimezone: true, mode: 'date' }),
      resolution: text('resolution', { enum: ['replayed', 'discarded'] }),
      resolvedBy: integer('resolved_by'),
    },
    (t) => [
      uniqueIndex('dead_letters_open_event_idx').on(t.consumer, t.eventId).where(sql`resolved_at is null`),
      index('dead_letters_open_idx').on(t.firstSeenAt).where(sql`resolved_at is null`),
    ],
  );

  return { outbox, processedEvents, deadLetters };
}

export type MessagingTables = ReturnType<typeof messagingTables>;
