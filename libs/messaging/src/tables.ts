import { sql } from 'drizzle-orm';
import { bigint, index, integer, jsonb, PgSchema, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';

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
    },
    (t) => [
      index('outbox_unpublished_idx').on(t.seq).where(sql`published_at is null`),
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

  return { outbox, processedEvents };
}

export type MessagingTables = ReturnType<typeof messagingTables>;
