import { z } from 'zod';
import { unknownFieldErrors } from '../users/users.schema';

/** Spec section 3. */
export const ENTRY_TYPES = [
  'check_in',
  'emergency',
  'missed_check_in',
  'start_shift',
  'end_shift',
  'sms_sent',
  'call_made',
  'system_alert',
] as const;

/**
 * What a worker's own screens record about themselves. The rest (missed check-ins, messages and
 * calls, system alerts) are the server's to write: a worker's browser cannot add a 'Call Made'
 * a monitor would trust.
 */
export const WORKER_ENTRY_TYPES: readonly string[] = ['check_in', 'start_shift', 'end_shift', 'emergency'];

export const DETAILS_MAX = 1000;
export const LOCATION_MAX = 100;
export const DEFAULT_ACTIVITY_LIMIT = 100;
export const ACTIVITY_LIMIT_MAX = 200;

const INVALID_USER = 'Invalid user ID';
const TYPE_MESSAGE = `type must be one of ${ENTRY_TYPES.join(', ')}`;
const DETAILS_REQUIRED = 'details is required';
const LIMIT = `limit must be a whole number from 1 to ${ACTIVITY_LIMIT_MAX}`;

/** A positive id, also as the numeric string a query string (or some of the spec's clients) carries. */
const positiveId = z.preprocess(
  (v) => (typeof v === 'string' && /^\d{1,10}$/.test(v) ? Number(v) : v),
  z
    .number({ required_error: INVALID_USER, invalid_type_error: INVALID_USER })
    .int(INVALID_USER)
    .min(1, INVALID_USER)
    .max(2147483647, INVALID_USER),
);

/** `GET /api/activity-logs?userId=&limit=&cursor=`; other parameters (cache busters) are ignored. */
export const activityListQuery = z.object({
  userId: positiveId.optional(),
  limit: z
    .string({ invalid_type_error: LIMIT })
    .regex(/^\d{1,4}$/, LIMIT)
    .transform(Number)
    .pipe(z.number().min(1, LIMIT).max(ACTIVITY_LIMIT_MAX, LIMIT))
    .optional(),
  cursor: z.string({ invalid_type_error: 'Invalid cursor' }).min(1, 'Invalid cursor').max(200, 'Invalid cursor').optional(),
});

/** The spec's `{userId, username, type, details, location}`. The username is checked, never trusted (see the controller). */
export const recordEntrySchema = z
  .object(
    {
      userId: positiveId,
      username: z.string({ invalid_type_error: 'username must be text' }).max(100, 'username must be at most 100 characters').nullish(),
      type: z.enum(ENTRY_TYPES, { errorMap: () => ({ message: TYPE_MESSAGE }) }),
      details: z
        .string({ required_error: DETAILS_REQUIRED, invalid_type_error: 'details must be text' })
        .trim()
        .min(1, DETAILS_REQUIRED)
        .max(DETAILS_MAX, `details must be at most ${DETAILS_MAX} characters`),
      location: z
        .string({ invalid_type_error: 'location must be text' })
        .trim()
        .max(LOCATION_MAX, `location must be at most ${LOCATION_MAX} characters`)
        .nullish()
        .transform((l) => (l ? l : undefined)),
    },
    { errorMap: unknownFieldErrors },
  )
  .strict();
