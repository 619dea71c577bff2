import { bigserial, boolean, index, integer, jsonb, pgSchema, smallint, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { messagingTables } from '@lws/messaging';

/** Every table of the notifications service lives in its own PostgreSQL schema. */
export const notificationsSchema = pgSchema('notifications');
export const messaging = messagingTables(notificationsSchema);
export const { outbox, processedEvents, deadLetters } = messaging;

const at = (name: string) => timestamp(name, { withTimezone: true });

/** webhook: only a hand-off that could never be queued is a row here (failed); the rest live in webhook_deliveries. */
export const CHANNELS = ['sms', 'whatsapp', 'voice', 'push', 'webhook'] as const;
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
    /** A worker's team (identity's), which decides which organisations' webhooks hear of their shifts; null: none or not known yet. */
    teamId: integer('team_id'),
    /** identity's version of the phone, language and team kept here: an older event changes none of them. */
    version: integer('version'),
  },
  (t) => [index('users_phone_idx').on(t.phone).where(sql`${t.phone} is not null`)],
);

/** Development-only generated secrets (VAPID keys, the fake provider's credentials), kept across restarts. */
export const localSecrets = notificationsSchema.table('local_secrets', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
});

/**
 * Organisations' HTTPS endpoints that receive LWS events signed per Standard Webhooks. The secret
 * (`whsec_...`) is sealed under SECRETS_KEY and shown once, when made; while a rotation's grace
 * lasts, the previous secret signs too, so a receiver can move to the new one without a gap.
 */
export const webhookEndpoints = notificationsSchema.table(
  'webhook_endpoints',
  {
    id: uuid('id').primaryKey(),
    name: text('name').notNull(),
    url: text('url').notNull(),
    secretSealed: text('secret_sealed').notNull(),
    previousSecretSealed: text('previous_secret_sealed'),
    previousSecretUntil: at('previous_secret_until'),
    /** Webhook event types it receives (`alarm.opened.v1`, ...). */
    eventTypes: text('event_types').array().notNull(),
    /** null: every team's events; else only those of workers of these teams. */
    teamIds: integer('team_ids').array(),
    /** Duress is silent: only an endpoint explicitly allowed ever hears of it. */
    receivesDuress: boolean('receives_duress').notNull().default(false),
    enabled: boolean('enabled').notNull().default(true),
    disabledAt: at('disabled_at'),
    disabledReason: text('disabled_reason'),
    createdBy: integer('created_by').notNull(),
    createdAt: at('created_at').notNull(),
    updatedAt: at('updated_at').notNull(),
  },
  (t) => [index('webhook_endpoints_enabled_idx').on(t.enabled)],
);

/**
 * One webhook message: its id is the `webhook-id` header, the same on every attempt and every
 * endpoint, so a receiver dedupes on it. The payload is `{ type, timestamp, data }`.
 */
export const webhookMessages = notificationsSchema.table(
  'webhook_messages',
  {
    id: text('id').primaryKey(),
    eventType: text('event_type').notNull(),
    payload: jsonb('payload').notNull(),
    /** The LWS event it was made from; null for a test ping or a message addressed to one endpoint. */
    sourceEventId: uuid('source_event_id'),
    /** A hand-off's alarm: its deliveries still waiting are withdrawn when the alarm is resolved. */
    alarmId: uuid('alarm_id'),
    createdAt: at('created_at').notNull(),
  },
  (t) => [
    index('webhook_messages_created_idx').on(t.createdAt),
    // A hand-off is looked up by its request id: taken once, and reported to escalation.
    index('webhook_messages_source_idx').on(t.sourceEventId),
    index('webhook_messages_alarm_idx').on(t.alarmId).where(sql`${t.alarmId} is not null`),
  ],
);

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'succeeded', 'failed', 'canceled'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

/**
 * A message to one endpoint. 'pending' until it succeeds, fails for good (the retry schedule ran
 * out, or it can never be sent) or is canceled (its endpoint was disabled). The sender leases a row
 * by moving next_attempt_at past the attempt's timeout (locked_until says so), so a sender that dies
 * mid-send leaves a row that falls due again.
 */
export const webhookDeliveries = notificationsSchema.table(
  'webhook_deliveries',
  {
    id: uuid('id').primaryKey(),
    endpointId: uuid('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    messageId: text('message_id')
      .notNull()
      .references(() => webhookMessages.id, { onDelete: 'cascade' }),
    status: text('status', { enum: WEBHOOK_DELIVERY_STATUSES }).notNull(),
    /** Claim order, as deliveries' (DELIVERY_PRIORITY): an emergency's and duress first. */
    priority: smallint('priority').notNull().default(1),
    /** Attempts made, replays included. */
    attempts: integer('attempts').notNull().default(0),
    /** `attempts` when it was last replayed: the retry schedule starts again from there. */
    replayedAtAttempt: integer('replayed_at_attempt').notNull().default(0),
    nextAttemptAt: at('next_attempt_at'),
    /** While an attempt is under way: when its lease ends. */
    lockedUntil: at('locked_until'),
    lastHttpStatus: integer('last_http_status'),
    lastLatencyMs: integer('last_latency_ms'),
    lastError: text('last_error'),
    createdAt: at('created_at').notNull(),
    updatedAt: at('updated_at').notNull(),
    completedAt: at('completed_at'),
  },
  (t) => [
    uniqueIndex('webhook_deliveries_endpoint_message_key').on(t.endpointId, t.messageId),
    index('webhook_deliveries_due_idx').on(t.priority, t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
    index('webhook_deliveries_endpoint_created_idx').on(t.endpointId, t.createdAt),
    index('webhook_deliveries_message_idx').on(t.messageId),
  ],
);

export const WEBHOOK_ATTEMPT_OUTCOMES = ['succeeded', 'retrying', 'failed', 'gone'] as const;
export type WebhookAttemptOutcome = (typeof WEBHOOK_ATTEMPT_OUTCOMES)[number];

/** The delivery log: every attempt, kept, with what the endpoint answered (the first KB of it). */
export const webhookAttempts = notificationsSchema.table(
  'webhook_attempts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    deliveryId: uuid('delivery_id')
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    attempt: integer('attempt').notNull(),
    startedAt: at('started_at').notNull(),
    latencyMs: integer('latency_ms').notNull(),
    httpStatus: integer('http_status'),
    responseExcerpt: text('response_excerpt'),
    error: text('error'),
    outcome: text('outcome', { enum: WEBHOOK_ATTEMPT_OUTCOMES }).notNull(),
  },
  (t) => [index('webhook_attempts_delivery_idx').on(t.deliveryId, t.attempt)],
);
