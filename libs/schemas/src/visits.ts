import { z } from 'zod';
import { msg } from './msg';

/** A timed visit lasts this many minutes at least and at most. */
export const VISIT_MIN_MINUTES = 5;
export const VISIT_MAX_MINUTES = 240;
/** The lengths the worker's Start a Visit form offers. */
export const VISIT_MINUTES = [15, 30, 45, 60, 90, 120] as const;
export const VISIT_DEFAULT_MINUTES = 30;
export const VISIT_WHERE_MAX = 200;
export const VISIT_NOTE_MAX = 1000;

export const VISIT_WHERE_REQUIRED = msg('Say where the visit is: an address or a location');
export const VISIT_WHERE_TOO_LONG = msg('Where the visit is must be at most 200 characters');
export const VISIT_MINUTES_INVALID = msg('The visit must last from 5 to 240 minutes');
export const VISIT_NOTE_INVALID = msg('The note must be text of at most 1000 characters');
export const VISIT_TYPE_UNKNOWN = msg("That visit type is not one of your team's");

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what these fields refuse.
const DISGUISING = /[\u0000-\u0008\u000b-\u001f\u007f\u202a-\u202e\u2066-\u2069]/;

/**
 * Starting a timed visit (`POST /api/users/{id}/start-visit`): where, for how long, and an
 * optional note that is sealed until an alarm of the visit opens. Control and bidirectional-
 * override characters are refused, as they would disguise what monitors read; the note may hold
 * line breaks.
 */
export const startVisitSchema = z
  .object({
    where: z
      .string({ required_error: VISIT_WHERE_REQUIRED, invalid_type_error: VISIT_WHERE_REQUIRED })
      .trim()
      .min(1, VISIT_WHERE_REQUIRED)
      .max(VISIT_WHERE_MAX, VISIT_WHERE_TOO_LONG)
      .refine((v) => !DISGUISING.test(v) && !/[\n\t]/.test(v), VISIT_WHERE_REQUIRED),
    minutes: z.preprocess(
      (v) => (typeof v === 'string' && /^\d{1,3}$/.test(v.trim()) ? Number(v) : v),
      z
        .number({ required_error: VISIT_MINUTES_INVALID, invalid_type_error: VISIT_MINUTES_INVALID })
        .int(VISIT_MINUTES_INVALID)
        .min(VISIT_MIN_MINUTES, VISIT_MINUTES_INVALID)
        .max(VISIT_MAX_MINUTES, VISIT_MINUTES_INVALID),
    ),
    note: z
      .string({ invalid_type_error: VISIT_NOTE_INVALID })
      .trim()
      .max(VISIT_NOTE_MAX, VISIT_NOTE_INVALID)
      .refine((v) => !DISGUISING.test(v), VISIT_NOTE_INVALID)
      .optional()
      .transform((v) => (v ? v : undefined)),
    /** One of the worker's team's visit types (its risk level); absent: none. */
    visitTypeId: z
      .string({ invalid_type_error: VISIT_TYPE_UNKNOWN })
      .regex(/^[A-Za-z0-9-]{1,64}$/, VISIT_TYPE_UNKNOWN)
      .optional(),
  })
  .strict();
export type StartVisitForm = z.input<typeof startVisitSchema>;
export type StartVisitRequest = z.output<typeof startVisitSchema>;
