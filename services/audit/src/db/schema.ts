import { bigserial, boolean, index, integer, pgSchema, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { messagingTables } from '@lws/messaging';

/** Every table of the audit service lives in its own PostgreSQL schema. */
export const auditSchema = pgSchema('audit');
export const messaging = messagingTables(auditSchema);
export const { outbox, processedEvents, deadLetters } = messaging;

/**
 * The activity log. Append-only: the code has no update path, and the only delete is the purge
 * of one user's entries when identity deletes that user.
 */
export const entries = auditSchema.table(
  'entries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** Absent on system-level entries. */
    userId: integer('user_id'),
    /** The username known when the entry was written; null when audit had not heard of the user yet. */
    username: text('username'),
    type: text('type').notNull(),
    details: text('details').notNull(),
    location: text('location'),
    // Milliseconds, as the events carry them: the paging cursor holds the exact value.
    at: timestamp('at', { withTimezone: true, precision: 3 }).notNull(),
    /** The event the entry was written for: an event redelivered after its dedupe row was pruned still writes nothing. */
    sourceEventId: uuid('source_event_id').unique('entries_source_event_id_key'),
    /**
     * For monitors only, never the worker it is about: anything of a duress alarm, whose worker's
     * phone may be in the hands of the person threatening them.
     */
    monitorsOnly: boolean('monitors_only').notNull().default(false),
  },
  (t) => [index('entries_at_idx').on(t.at.desc(), t.id.desc()), index('entries_user_at_idx').on(t.userId, t.at.desc(), t.id.desc())],
);

/**
 * What audit knows of each user, from identity's events: the username entries show, and a
 * marker once the user is deleted (names cleared), so an event about them arriving later writes
 * nothing.
 */
export const users = auditSchema.table('users', {
  userId: integer('user_id').primaryKey(),
  username: text('username'),
  name: text('name'),
  deletedAt: timestamp('deleted_at', { withTimezone: true }),
  /** identity's version of the user whose name this is (0: none heard with a version). */
  version: integer('version').notNull().default(0),
});

/**
 * Provider updates of one message arrive as several events (queued, sent, delivered, failed...):
 * the log keeps the first and the first failure of each message, not every status change.
 */
export const loggedMessages = auditSchema.table(
  'logged_messages',
  {
    messageId: uuid('message_id').notNull(),
    stage: text('stage', { enum: ['first', 'failure'] }).notNull(),
    loggedAt: timestamp('logged_at', { withTimezone: true }).notNull().default(sql`now()`),
  },
  (t) => [primaryKey({ columns: [t.messageId, t.stage] })],
);

export type EntryRow = typeof entries.$inferSelect;
