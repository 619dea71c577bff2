import { z } from 'zod';
import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { DEFAULT_REPEAT_AFTER_SECONDS, policyOverrideSchema, type PolicySettings } from './alarms/policy';

const e164 = z
  .string()
  .trim()
  .refine((v) => {
    const parsed = parsePhoneNumberFromString(v);
    // Possible, not valid: Ofcom's drama range (+447700900xxx) stays usable for test deployments.
    return !!parsed?.isPossible() && parsed.number === v;
  }, 'must be a valid phone number in E.164 form, e.g. +447700900123');

const policyJson = z.string().transform((text, ctx) => {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    ctx.addIssue({ code: z.ZodIssueCode.custom, message: 'must be JSON' });
    return z.NEVER;
  }
});

/** Escalation's own variables, on top of the common ones. */
export const escalationConfigShape = {
  /** How often the scheduler looks for due deadlines. */
  ESCALATION_TICK_MS: z.coerce.number().int().min(10).max(60_000).default(250),
  /** Deadlines claimed per scheduler transaction. */
  ESCALATION_BATCH_SIZE: z.coerce.number().int().min(1).max(1000).default(500),
  /**
   * Scheduler passes that may run at once (each its own transaction over different rows, holding
   * one database connection). A pass fires its alarms one after another, so when many fall due
   * together more lanes reach people sooner (bench/escalation/to-person.mjs, 50 alarms/s among
   * 100,000 on shift: alarm opened p99 6.0 s with 2 lanes, 1.4 s with 4, 0.7 s with 6). Each holds a
   * connection while it fires: keep DATABASE_POOL_SIZE (10) above it for the consumers and relay.
   */
  ESCALATION_CONCURRENCY: z.coerce.number().int().min(1).max(8).default(6),
  ESCALATION_AUDIT_INTERVAL_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  /** When, London time (HH:mm), the daily notice of the next 48 hours' gaps in the on-call rotas goes out. */
  ON_CALL_GAP_NOTICE_AT: z
    .string()
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be a time of day, HH:mm')
    .default('08:00'),
  /** How often device positions past their retention (30 days after the shift ended) are deleted. */
  POSITIONS_PURGE_INTERVAL_SECONDS: z.coerce.number().int().min(1).max(86_400).default(3600),
  /**
   * How long notifications has to confirm it took one of an alarm's requests (a delivery status for
   * it) before escalation asks again with the same request id; after 3 unanswered asks it raises a
   * system alert, and keeps asking while the alarm is open.
   */
  ESCALATION_REQUEST_CONFIRM_SECONDS: z.coerce.number().int().min(5).max(600).default(30),
  /**
   * How often escalation compares its copy of shifts (who is on shift, each deadline, emergencies)
   * with what shifts holds and repairs any difference (also at start-up; one replica at a time).
   */
  ESCALATION_RECONCILE_INTERVAL_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  /** A difference this young is left to its event, which is likely on its way; the next round repairs it if not. */
  ESCALATION_RECONCILE_GRACE_SECONDS: z.coerce.number().int().min(0).max(600).default(15),
  /** Buckets the workers are digested into: a round fetches only the buckets that differ. */
  ESCALATION_RECONCILE_BUCKETS: z.coerce.number().int().min(1).max(65536).default(4096),
  /** How long a missed check-in waits for shifts to confirm the deadline before the alarm is raised anyway. */
  ESCALATION_OWNER_CHECK_TIMEOUT_MS: z.coerce.number().int().min(100).max(10_000).default(2000),
  /** JSON overriding the default steps per alarm kind, e.g. {"missed_check_in":[...],"repeatAfterSeconds":300}. */
  ESCALATION_POLICY: policyJson.pipe(policyOverrideSchema).optional(),
  EMERGENCY_NUMBER_1: e164.optional(),
  EMERGENCY_NUMBER_2: e164.optional(),
  EMERGENCY_NUMBER_3: e164.optional(),
  EMERGENCY_CALL_TIMEOUT_SECONDS: z.coerce.number().int().min(10).max(600).default(60),
  /** An alarm nobody acknowledged this long after it opened calls the emergency numbers. */
  ALARM_ACK_TIMEOUT_SECONDS: z.coerce.number().int().min(0).max(3600).default(120),
  ALARM_REPEAT_AFTER_SECONDS: z.coerce
    .number()
    .int()
    .min(30)
    .max(24 * 3600)
    .default(DEFAULT_REPEAT_AFTER_SECONDS),
  /** Channels of the 5 and 2 minute reminders: sms, whatsapp, or both comma-separated. */
  REMINDER_CHANNELS: z
    .string()
    .transform((v) =>
      v
        .split(',')
        .map((c) => c.trim())
        .filter(Boolean),
    )
    .pipe(
      z
        .array(z.enum(['sms', 'whatsapp']))
        .min(1)
        .transform((cs) => [...new Set(cs)]),
    )
    .default('sms'),
};

export type EscalationConfig = z.infer<z.ZodObject<typeof escalationConfigShape>>;

export interface EscalationSettings {
  tickMs: number;
  batchSize: number;
  concurrency: number;
  auditIntervalMs: number;
  /** HH:mm, London time. */
  gapNoticeAt: string;
  ownerCheckTimeoutMs: number;
  requestConfirmMs: number;
  reconcileIntervalMs: number;
  reconcileGraceMs: number;
  reconcileBuckets: number;
  reminderChannels: ('sms' | 'whatsapp')[];
  policy: PolicySettings;
}

export function settingsFrom(config: EscalationConfig): EscalationSettings {
  const numbers = [config.EMERGENCY_NUMBER_1, config.EMERGENCY_NUMBER_2, config.EMERGENCY_NUMBER_3].filter((n): n is string => !!n);
  return {
    tickMs: config.ESCALATION_TICK_MS,
    batchSize: config.ESCALATION_BATCH_SIZE,
    concurrency: config.ESCALATION_CONCURRENCY,
    auditIntervalMs: config.ESCALATION_AUDIT_INTERVAL_SECONDS * 1000,
    gapNoticeAt: config.ON_CALL_GAP_NOTICE_AT,
    ownerCheckTimeoutMs: config.ESCALATION_OWNER_CHECK_TIMEOUT_MS,
    requestConfirmMs: config.ESCALATION_REQUEST_CONFIRM_SECONDS * 1000,
    reconcileIntervalMs: config.ESCALATION_RECONCILE_INTERVAL_SECONDS * 1000,
    reconcileGraceMs: config.ESCALATION_RECONCILE_GRACE_SECONDS * 1000,
    reconcileBuckets: config.ESCALATION_RECONCILE_BUCKETS,
    reminderChannels: config.REMINDER_CHANNELS,
    policy: {
      override: config.ESCALATION_POLICY ?? {},
      emergencyNumbers: numbers,
      callTimeoutSeconds: config.EMERGENCY_CALL_TIMEOUT_SECONDS,
      ackTimeoutSeconds: config.ALARM_ACK_TIMEOUT_SECONDS,
      repeatAfterSeconds: config.ALARM_REPEAT_AFTER_SECONDS,
    },
  };
}

export const SETTINGS = Symbol('ESCALATION_SETTINGS');

/** The service's name: the producer in its envelopes. */
export const SERVICE_NAME = 'escalation';
