import { pgSchema } from 'drizzle-orm/pg-core';
import { messagingTables } from '@lws/messaging';

/** Every table of the shifts service lives in its own PostgreSQL schema. */
export const shiftsSchema = pgSchema('shifts');
export const messaging = messagingTables(shiftsSchema);
export const { outbox, processedEvents } = messaging;
