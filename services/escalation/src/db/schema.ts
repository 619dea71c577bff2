import { pgSchema } from 'drizzle-orm/pg-core';
import { messagingTables } from '@lws/messaging';

/** Every table of the escalation service lives in its own PostgreSQL schema. */
export const escalationSchema = pgSchema('escalation');
export const messaging = messagingTables(escalationSchema);
export const { outbox, processedEvents } = messaging;
