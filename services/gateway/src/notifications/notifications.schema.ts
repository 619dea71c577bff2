import { z } from 'zod';

const positiveId = (message: string) =>
  z.preprocess(
    (v) => (typeof v === 'string' && /^\d{1,10}$/.test(v) ? Number(v) : v),
    z.number({ required_error: message, invalid_type_error: message }).int(message).min(1, message).max(2147483647, message),
  );

export const subscribeSchema = z
  .object({
    endpoint: z
      .string({ required_error: 'endpoint is required', invalid_type_error: 'endpoint must be a URL' })
      .min(1, 'endpoint is required')
      .max(1000, 'endpoint is too long'),
    keys: z
      .object(
        {
          p256dh: z
            .string({ required_error: 'keys.p256dh is required' })
            .min(1, 'keys.p256dh is required')
            .max(200, 'keys.p256dh is too long'),
          auth: z.string({ required_error: 'keys.auth is required' }).min(1, 'keys.auth is required').max(100, 'keys.auth is too long'),
        },
        { required_error: 'keys is required', invalid_type_error: 'keys must be an object' },
      )
      .strict(),
    /** What a browser's PushSubscription.toJSON() also carries; not used. */
    expirationTime: z.number({ invalid_type_error: 'expirationTime must be a number or null' }).nullable().optional(),
  })
  .strict();

export const reminderTestSchema = z.object({ userId: positiveId('Invalid user ID') }).strict();

/** The System Testing form checks the test call with the same schema. */
export { PHONE_REQUIRED, testCallSchema } from '@lws/schemas';

/** The keys the test provider's callee presses: 1 to accept an alarm call, or a PIN. */
export const answerSchema = z
  .object({
    digits: z
      .string({ invalid_type_error: 'digits must be keypad keys' })
      .regex(/^[0-9*#]{1,8}$/, 'digits must be 1 to 8 keypad keys')
      .optional(),
  })
  .strict();

/** The test provider's Text LWS form checks with the same schema. */
export { inboundSmsSchema } from '@lws/schemas';

const LIMIT = 'limit must be a whole number from 1 to 500';

export const deliveriesQuery = z.object({
  limit: z
    .string({ invalid_type_error: LIMIT })
    .regex(/^\d{1,3}$/, LIMIT)
    .transform(Number)
    .pipe(z.number().min(1, LIMIT).max(500, LIMIT))
    .optional(),
  userId: z
    .string({ invalid_type_error: 'Invalid user ID' })
    .regex(/^\d{1,10}$/, 'Invalid user ID')
    .transform(Number)
    .pipe(z.number().min(1, 'Invalid user ID').max(2147483647, 'Invalid user ID'))
    .optional(),
});

export const callSidParam = z.string().regex(/^CA[0-9a-fA-F]{32}$/, 'Invalid call SID');

export const REMINDER_TEXT = {
  fiveMinutes: 'LWS reminder: your next check-in is due in 5 minutes. Please check in to confirm you are safe.',
  twoMinutes: 'LWS reminder: your next check-in is due in 2 minutes. Please check in now to confirm you are safe.',
};
