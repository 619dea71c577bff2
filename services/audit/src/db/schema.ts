import { pgSchema } from 'drizzle-orm/pg-core';
import { messagingTables } from '@lws/messaging';

/** Every table of the audit service lives in its own PostgreSQL schema. */
export const auditSchema = pgSchema('audit');
export const messaging = messagingTables(auditSchema);
export const { outbox, processedEvents } = messaging;
