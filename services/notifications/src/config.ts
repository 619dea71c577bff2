import { z } from 'zod';
import { DEFAULT_PUSH_ENDPOINT_HOSTS } from './push/endpoint-policy';
import { DEFAULT_RETRY_SCHEDULE, parseRetrySchedule } from './outbound-webhooks/retry-schedule';

const e164 = z.string().regex(/^\+[1-9][0-9]{1,14}$/, 'must be an E.164 phone number, e.g. +447700900123');
const httpUrl = z
  .string()
  .url()
  .refine((u) => /^https?:\/\//.test(u), 'must be an http:// or https:// URL')
  .transform((u) => u.replace(/\/+$/, ''));

/**
 * Twilio and web push. Outside production every variable may be left unset: the SDK then talks to
 * the local fake provider and VAPID keys are generated once and kept in the database. In
 * production the Twilio and VAPID variables are required (checked at start by ProviderSettings
 * and VapidKeys, naming the missing variable).
 */
export const notificationsConfigShape = {
  TWILIO_ACCOUNT_SID: z
    .string()
    .regex(/^AC[0-9a-fA-F]{32}$/, 'must be a Twilio account SID (AC followed by 32 hex digits)')
    .optional(),
  TWILIO_AUTH_TOKEN: z.string().min(16, 'must be at least 16 characters').max(200).optional(),
  TWILIO_FROM_NUMBER: e164.optional(),
  /** The WhatsApp sender (or sandbox number); defaults to TWILIO_FROM_NUMBER. */
  TWILIO_WHATSAPP_FROM: e164.optional(),
  /** Where Twilio reaches the gateway's /webhooks/twilio routes; defaults to the local gateway outside production. */
  PUBLIC_BASE_URL: httpUrl.optional(),
  /** An already running fake provider (tests); otherwise one is started in-process when no Twilio account is set. */
  FAKE_TWILIO_URL: httpUrl.optional(),
  /** Push services the server may POST to (comma-separated; `*.example.com` for any name under it). */
  PUSH_ENDPOINT_HOSTS: z
    .string()
    .regex(/^(\*\.)?[a-z0-9.-]+(,\s*(\*\.)?[a-z0-9.-]+)*$/i, 'must be comma-separated host names, e.g. fcm.googleapis.com,*.push.apple.com')
    .default(DEFAULT_PUSH_ENDPOINT_HOSTS),
  /** Tests only (refused in production): a fake push service's origin, allowed over http on this machine. */
  PUSH_TEST_ENDPOINT_ORIGIN: httpUrl.optional(),
  VAPID_PUBLIC_KEY: z
    .string()
    .regex(/^[A-Za-z0-9_-]{80,100}$/, 'must be a URL-safe base64 P-256 public key')
    .optional(),
  VAPID_PRIVATE_KEY: z
    .string()
    .regex(/^[A-Za-z0-9_-]{40,50}$/, 'must be a URL-safe base64 P-256 private key')
    .optional(),
  VAPID_SUBJECT: z
    .string()
    .refine((s) => /^mailto:[^\s@]+@[^\s@]+$/.test(s) || /^https:\/\/\S+$/.test(s), 'must be a mailto: address or an https:// URL')
    .optional(),
  /**
   * Deliveries the sender keeps going at once (each mostly waits on the provider). The Twilio
   * client's connection pool is sized to it.
   */
  NOTIFICATIONS_SENDER_IN_FLIGHT: z.coerce.number().int().min(1).max(1000).default(100),
  /** Due deliveries taken per claim (most urgent first); the sender claims again as each one ends. */
  NOTIFICATIONS_SENDER_CLAIM_SIZE: z.coerce.number().int().min(1).max(500).default(50),
  /**
   * SMS, WhatsApp messages and calls started per second, per notifications replica (0: no limit
   * but the provider's own 429s). Set it to what the Twilio account and numbers allow: when it is
   * short, an emergency's messages take it first and reminders wait. Web push is not counted.
   */
  NOTIFICATIONS_PROVIDER_MAX_PER_SECOND: z.coerce.number().min(0).max(10_000).default(0),
  /**
   * Encrypts secrets kept in the database (webhook endpoints' signing secrets), 32+ characters.
   * Unset in production: no webhook endpoint can be made. Elsewhere a key is generated once and kept
   * in the database.
   */
  SECRETS_KEY: z.string().min(32, 'must be at least 32 characters').max(512).optional(),
  /** How long a webhook endpoint has to answer before the attempt counts as failed (at most 15 s). */
  WEBHOOKS_TIMEOUT_MS: z.coerce.number().int().min(100).max(15_000).default(15_000),
  /**
   * The waits before each attempt of a webhook (the first counted from the event), then it is given
   * up: Standard Webhooks' schedule by default. Tests shorten it to run an outage in seconds.
   */
  WEBHOOKS_RETRY_SCHEDULE: z
    .string()
    .default(DEFAULT_RETRY_SCHEDULE)
    .transform((text, ctx) => {
      try {
        return parseRetrySchedule(text);
      } catch (err) {
        ctx.addIssue({ code: z.ZodIssueCode.custom, message: (err as Error).message });
        return z.NEVER;
      }
    }),
  /** The longest wait a receiver's Retry-After can ask for; a longer one is cut to this. */
  WEBHOOKS_RETRY_AFTER_MAX_SECONDS: z.coerce.number().int().min(1).max(86_400).default(3600),
  /** Webhook requests kept going at once, per replica (each mostly waits on the receiver). */
  WEBHOOKS_IN_FLIGHT: z.coerce.number().int().min(1).max(500).default(32),
  /**
   * Tests and development only (refused in production): webhook endpoints on this machine
   * (127.0.0.1, ::1), over http too. Every other private address stays refused.
   */
  WEBHOOKS_ALLOW_LOOPBACK: z
    .enum(['true', 'false'], { errorMap: () => ({ message: 'must be true or false' }) })
    .default('false')
    .transform((v) => v === 'true'),
};

export type NotificationsConfig = z.infer<z.ZodObject<typeof notificationsConfigShape>>;

export const DEFAULT_PUBLIC_BASE_URL = 'http://127.0.0.1:8080';
