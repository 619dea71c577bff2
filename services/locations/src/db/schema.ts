import { boolean, check, pgSchema, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { messagingTables } from '@lws/messaging';

/** Every table of the locations service lives in its own PostgreSQL schema. */
export const locationsSchema = pgSchema('locations');
export const messaging = messagingTables(locationsSchema);
export const { outbox, processedEvents, deadLetters } = messaging;

export const LOCATION_NAME_UNIQUE = 'location_options_name_lower_unique';

export const locationOptions = locationsSchema.table(
  'location_options',
  {
    id: serial('id').primaryKey(),
    /** Stored trimmed, as typed; "Depot" and "depot" are the same place to a worker picking from a list. */
    name: text('name').notNull(),
    isActive: boolean('is_active').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex(LOCATION_NAME_UNIQUE).on(sql`lower(${t.name})`),
    check('location_options_name_check', sql`${t.name} = btrim(${t.name}) and char_length(${t.name}) between 1 and 100`),
  ],
);

export type LocationRow = typeof locationOptions.$inferSelect;

/**
 * One row per start-up step that must happen once per deployment (not once per start): the
 * default location is created on the very first start only, so deleting it stays deleted.
 */
export const seedSteps = locationsSchema.table('seed_steps', {
  step: text('step').primaryKey(),
  doneAt: timestamp('done_at', { withTimezone: true }).notNull().defaultNow(),
});
