import { pgSchema } from 'drizzle-orm/pg-core';
import { messagingTables } from '@lws/messaging';

/** Every table of the locations service lives in its own PostgreSQL schema. */
export const locationsSchema = pgSchema('locations');
export const messaging = messagingTables(locationsSchema);
export const { outbox, processedEvents } = messaging;
