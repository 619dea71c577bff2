import { pgSchema } from 'drizzle-orm/pg-core';
import { messagingTables } from '@lws/messaging';

/** Every table of the notifications service lives in its own PostgreSQL schema. */
export const notificationsSchema = pgSchema('notifications');
export const messaging = messagingTables(notificationsSchema);
export const { outbox, processedEvents } = messaging;
