import { check, pgSchema, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { messagingTables } from '@lws/messaging';

/** Every table of the identity service lives in its own PostgreSQL schema. */
export const identitySchema = pgSchema('identity');
export const messaging = messagingTables(identitySchema);
export const { outbox, processedEvents } = messaging;

export const ROLES = ['worker', 'admin', 'superadmin'] as const;
export type Role = (typeof ROLES)[number];

export const users = identitySchema.table(
  'users',
  {
    id: serial('id').primaryKey(),
    /** Always stored lower-cased: usernames are case-insensitive for people. */
    username: text('username').notNull().unique(),
    passwordHash: text('password_hash').notNull(),
    name: text('name').notNull(),
    phone: text('phone'),
    role: text('role', { enum: ROLES }).notNull().default('worker'),
    medicalInfo: text('medical_info'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('users_role_check', sql`${t.role} in ('worker', 'admin', 'superadmin')`),
    check('users_username_lower', sql`${t.username} = lower(${t.username})`),
  ],
);

export type UserRow = typeof users.$inferSelect;
