import { BadRequestException } from '@nestjs/common';
import { z } from 'zod';
import { PIN_FORMAT } from '../credentials/credentials.schema';

export const LOCATION_REQUIRED = 'Please select your current location to continue.';
const LOCATION_TOO_LONG = 'Location must be at most 100 characters';
const INVALID_CHECK_IN_USER = 'Invalid user ID for check-in';

const pin = z.string({ required_error: PIN_FORMAT, invalid_type_error: PIN_FORMAT }).regex(/^\d{4}$/, PIN_FORMAT);

/** A positive id, also as the numeric string some of the spec's clients send. */
const positiveId = (message: string) =>
  z.preprocess(
    (v) => (typeof v === 'string' && /^\d{1,10}$/.test(v) ? Number(v) : v),
    z.number({ required_error: message, invalid_type_error: message }).int(message).min(1, message).max(2147483647, message),
  );

const NOTE_INVALID = "Where you'll be must be text of at most 200 characters";

/**
 * "Where I'll be": optional, one line of plain text. Blank is no note; control and
 * bidirectional-override characters are refused, as they would disguise what monitors read.
 */
const shiftNote = z
  .string({ invalid_type_error: NOTE_INVALID })
  .trim()
  .max(200, NOTE_INVALID)
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what the note refuses.
  .refine((v) => !/[\u0000-\u001f\u007f\u202a-\u202e\u2066-\u2069]/.test(v), NOTE_INVALID)
  .optional()
  .transform((v) => (v ? v : undefined));

export const startShiftSchema = z
  .object({
    location: z
      .string({ required_error: LOCATION_REQUIRED, invalid_type_error: LOCATION_REQUIRED })
      .trim()
      .min(1, LOCATION_REQUIRED)
      .max(100, LOCATION_TOO_LONG),
    note: shiftNote,
  })
  .strict();

const MADE_AT_INVALID = 'madeAt must be a UTC time such as 2026-01-31T14:03:00.000Z';
const POSITION_INVALID = 'position must be {lat, lng, accuracy?} in degrees and metres';

/** The device's position at a check-in (browser geolocation, when the worker allows it). */
const position = z
  .object(
    {
      lat: z
        .number({ invalid_type_error: POSITION_INVALID, required_error: POSITION_INVALID })
        .finite()
        .min(-90, POSITION_INVALID)
        .max(90, POSITION_INVALID),
      lng: z
        .number({ invalid_type_error: POSITION_INVALID, required_error: POSITION_INVALID })
        .finite()
        .min(-180, POSITION_INVALID)
        .max(180, POSITION_INVALID),
      accuracy: z
        .number({ invalid_type_error: POSITION_INVALID })
        .finite()
        .min(0, POSITION_INVALID)
        .max(100_000, POSITION_INVALID)
        .optional(),
    },
    { invalid_type_error: POSITION_INVALID },
  )
  .strict(POSITION_INVALID)
  .optional();

export const endShiftSchema = z.object({ pin }).strict();

/** Ending a timed visit takes the PIN, as ending a shift does. */
export const endVisitSchema = z.object({ pin }).strict();

export { startVisitSchema } from '@lws/schemas';

/** "I'm safe now" on the worker's emergency screen. */
export const cancelEmergencySchema = z.object({ pin }).strict();

/** Read first, so the access rule is applied before anything else in the body is judged. */
export const checkInUserSchema = z.object({ userId: positiveId(INVALID_CHECK_IN_USER) });

/**
 * `{userId, location, pin}`; the spec's clients also send status 'safe' and a nextCheckInTime.
 * The server owns time, so nextCheckInTime is dropped here and never reaches the service.
 */
export const checkInSchema = z
  .object({
    userId: positiveId(INVALID_CHECK_IN_USER),
    location: z
      .string({ invalid_type_error: 'Location must be text' })
      .trim()
      .max(100, LOCATION_TOO_LONG)
      .optional()
      .transform((l) => (l ? l : undefined)),
    pin,
    status: z.literal('safe', { errorMap: () => ({ message: "Check-in status must be 'safe'" }) }).optional(),
    position,
    /**
     * When the worker made a check-in the app kept while offline: it counts from then, so
     * sending it late never buys time. Shifts bounds it by the shift and by the moment it arrived.
     */
    madeAt: z.string({ invalid_type_error: MADE_AT_INVALID }).datetime({ message: MADE_AT_INVALID }).optional(),
    /** Sent by the spec's clients; the server computes the next deadline itself. */
    nextCheckInTime: z.unknown().optional(),
  })
  .strict()
  .transform(({ nextCheckInTime: _dropped, ...rest }) => rest);

/** "+15 min": the worker's own, 15 minutes at a time. */
export const extendSchema = z
  .object({
    userId: positiveId('Invalid user ID'),
    minutes: z.literal(15, { errorMap: () => ({ message: 'minutes must be 15' }) }),
  })
  .strict();

export const emergencySchema = z
  .object({
    userId: positiveId('Invalid user ID'),
    emergency: z.literal(true, { errorMap: () => ({ message: 'emergency must be true' }) }),
  })
  .strict();

export const emergencyUserSchema = z.object({ userId: positiveId('Invalid user ID') });

const LIMIT = 'limit must be a whole number from 1 to 1000';

/** Query of the dashboard lists; other parameters (the spec's cache-busting timestamp) are ignored. */
export const workerListQuery = z.object({
  limit: z
    .string({ invalid_type_error: LIMIT })
    .regex(/^\d{1,4}$/, LIMIT)
    .transform(Number)
    .pipe(z.number().min(1, LIMIT).max(1000, LIMIT))
    .optional(),
  cursor: z.string({ invalid_type_error: 'Invalid cursor' }).min(1, 'Invalid cursor').max(200, 'Invalid cursor').optional(),
});

/** `GET /api/dashboard-data`: the first page of each list, so no cursor. */
export const dashboardQuery = workerListQuery.pick({ limit: true });

export const DEFAULT_LIST_LIMIT = 500;

const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,200}$/;

/** The optional Idempotency-Key header: 1 to 200 visible ASCII characters. */
export function parseIdempotencyKey(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  if (!IDEMPOTENCY_KEY.test(header)) {
    throw new BadRequestException({ message: 'Idempotency-Key must be 1 to 200 visible ASCII characters', field: 'Idempotency-Key' });
  }
  return header;
}
