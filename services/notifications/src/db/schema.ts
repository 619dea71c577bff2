import { boolean, index, integer, pgSchema, smallint, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { messagingTables } from '@lws/messaging';

/** Every table of the notifications service lives in its own PostgreSQL schema. */
export const notificationsSchema = pgSchema('notifications');
export const messaging = messagingTables(notificationsSchema);
export const { outbox, processedEvents, deadLetters } = messaging;

const at = (name: string) => timestamp(name, { withTimezone: true });

export const CHANNELS = ['sms', 'whatsapp', 'voice', 'push'] as const;
export type Channel = (typeof CHANNELS)[number];

/**
 * The delivery log: one row per message, call or push (a push to a role or a user with several
 * browsers is one row per subscription). A row is written as 'pending' by whoever asks, claimed by
 * the sender ('sending'), and then carries the provider's statuses. request_id + fanout_key is
 * unique, so a notification request delivered twice is stored, and sent, once.
 */
export const deliveries = notificationsSchema.table(
  'deliveries',
  {
    id: uuid('id').primaryKey(),
    requestId: uuid('request_id'),
    /** '' except for push, where it is the subscription id. */
    fanoutKey: text('fanout_key').notNull().default(''),
    channel: text('channel', { enum: CHANNELS }).notNull(),
    to: text('to_address').notNull(),
    purpose: text('purpose').notNull(),
    title: text('title').notNull().default(''),
    body: text('body').notNull(),
    status: text('status').notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: at('next_attempt_at'),
    /** While 'sending': when the claim lapses (the sender died mid-send). */
    claimedUntil: at('claimed_until'),
    providerSid: text('provider_sid'),
    errorCode: integer('error_code'),
    errorMessage: text('error_message'),
    /** Set when the alarm was resolved while this row was being sent: a failed attempt is then withdrawn, not retried. */
    withdrawnReason: text('withdrawn_reason'),
    userId: integer('user_id'),
    alarmId: uuid('alarm_id'),
    callTimeoutSeconds: integer('call_timeout_seconds'),
    /** Voice: the callee pressed 1. */
    accepted: boolean('accepted').notNull().default(false),
    /** Voice: set once, when call.completed is published. */
    outcome: text('outcome'),
    /** The order the sender claims in (DELIVERY_PRIORITY): an emergency's first, a reminder last. */
    priority: smallint('priority').notNull().default(1),
    /** When what it is about fell due (the press, the deadline): lws_due_to_provider_seconds counts from it. */
    dueSince: at('due_since'),
    /** The language the body is written in and a call speaks (the worker's); null: English. */
    language: text('language'),
    createdAt: at('created_at').notNull(),
    updatedAt: at('updated_at').notNull(),
  },
  (t) => [
    uniqueIndex('deliveries_request_fanout_key').on(t.requestId, t.fanoutKey).where(sql`${t.requestId} is not null`),
    index('deliveries_due_idx').on(t.priority, t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
    index('deliveries_sending_idx').on(t.claimedUntil).where(sql`${t.status} = 'sending'`),
    index('deliveries_open_calls_idx')
      .on(t.updatedAt)
      .where(sql`${t.channel} = 'voice' and ${t.outcome} is null and ${t.providerSid} is not null`),
    index('deliveries_provider_sid_idx').on(t.providerSid),
    index('deliveries_created_idx').on(t.createdAt),
    index('deliveries_user_created_idx').on(t.userId, t.createdAt),
  ],
);

/**
 * Sending order, most urgent first: an emergency's messages (duress included) never wait behind a
 * flood of missed check-ins', nor those behind a flood of reminders.
 */
export const DELIVERY_PRIORITY = { emergency: 0, alarm: 1, reminder: 2 } as const;
export const DELIVERY_PRIORITIES = [DELIVERY_PRIORITY.emergency, DELIVERY_PRIORITY.alarm, DELIVERY_PRIORITY.reminder] as const;

/** Browsers' web push subscriptions; a 404/410 from the push service deletes the row. */
export const pushSubscriptions = notificationsSchema.table(
  'push_subscriptions',
  {
    id: uuid('id').primaryKey(),
    userId: integer('user_id').notNull(),
    endpoint: text('endpoint').notNull(),
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    createdAt: at('created_at').notNull(),
  },
  (t) => [uniqueIndex('push_subscriptions_endpoint_key').on(t.endpoint), index('push_subscriptions_user_idx').on(t.userId)],
);

/** Who is who, from identity's events: the monitors (admins and superadmins) receive role pushes. */
export const users = notificationsSchema.table(
  'users',
  {
    userId: integer('user_id').primaryKey(),
    role: text('role'),
    deleted: boolean('deleted').notNull().default(false),
    /** Their phone and language, so a text from that phone is answered in their language. */
    phone: text('phone'),
    language: text('language'),
    /** identity's version of the phone and language kept here: an older event changes neither. */
    version: integer('version'),
  },
  (t) => [index('users_phone_idx').on(t.phone).where(sql`${t.phone} is not null`)],
);

/** Development-only generated secrets (VAPID keys, the fake provider's credentials), kept across restarts. */
export const localSecrets = notificationsSchema.table('local_secrets', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
});
