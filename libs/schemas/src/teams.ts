import { z } from 'zod';
import { CHECK_IN_INTERVALS } from './forms';
import { msg } from './msg';

// A team as the superadmin edits it (POST /api/teams, PATCH /api/teams/{id}). The gateway adds what
// the screens leave to it: libphonenumber-js's check of each emergency number (stored in E.164) and
// the escalation policy's schema, which lives with the escalation service's code.

const INTERVALS_MESSAGE = msg('Check-in intervals must be 30, 50, 60, 120 or 240 minutes');
export const EMERGENCY_NUMBER_INVALID = msg('Emergency numbers must be phone numbers, e.g. +447700900123');

const id = (message: string) =>
  z.number({ required_error: message, invalid_type_error: message }).int(message).min(1, message).max(2147483647, message);
const interval = z
  .number({ required_error: INTERVALS_MESSAGE, invalid_type_error: INTERVALS_MESSAGE })
  .refine((v) => (CHECK_IN_INTERVALS as readonly number[]).includes(v), INTERVALS_MESSAGE);

/** An emergency number as typed: digits and separators, 7 to 30 characters. */
export const emergencyNumberText = z
  .string({ invalid_type_error: msg('Emergency numbers must be phone numbers') })
  .trim()
  .regex(/^[+0-9\s().-]{7,30}$/, EMERGENCY_NUMBER_INVALID);

export const VISIT_TYPES_MAX = 20;
const VISIT_TYPE_MINUTES = msg('A visit type lasts from 5 to 240 minutes');
const VISIT_TYPE_INTERVAL = msg('Check-ins during a visit must be from 5 to 240 minutes apart');

/**
 * A kind of timed visit (a risk level) as the editor writes it, but its own escalation policy:
 * its name, how long it lasts unless the worker says otherwise, how often they check in while it
 * lasts (null: their own interval), and whether reminders go by SMS too. A new type has no id yet.
 */
export const visitTypeFormFields = {
  id: z
    .string({ invalid_type_error: msg('Invalid visit type ID') })
    .regex(/^[A-Za-z0-9-]{1,64}$/, msg('Invalid visit type ID'))
    .optional(),
  name: z
    .string({ required_error: msg('Visit type name is required'), invalid_type_error: msg('Visit type name is required') })
    .trim()
    .min(1, msg('Visit type name is required'))
    .max(60, msg('Visit type name must be at most 60 characters')),
  minutes: z
    .number({ required_error: VISIT_TYPE_MINUTES, invalid_type_error: VISIT_TYPE_MINUTES })
    .int(VISIT_TYPE_MINUTES)
    .min(5, VISIT_TYPE_MINUTES)
    .max(240, VISIT_TYPE_MINUTES),
  checkInInterval: z
    .number({ invalid_type_error: VISIT_TYPE_INTERVAL })
    .int(VISIT_TYPE_INTERVAL)
    .min(5, VISIT_TYPE_INTERVAL)
    .max(240, VISIT_TYPE_INTERVAL)
    .nullable()
    .default(null),
  smsToo: z.boolean({ invalid_type_error: msg('smsToo must be true or false') }).default(false),
};

/** A list of visit types with its own rules: at most 20, each name once (whatever its case). */
export function visitTypeList<T extends z.ZodTypeAny>(item: T) {
  return z
    .array(item, { invalid_type_error: msg('visitTypes must be a list') })
    .max(VISIT_TYPES_MAX, msg('At most 20 visit types'))
    .superRefine((types, ctx) => {
      const seen = new Set<string>();
      (types as { name: string }[]).forEach((t, i) => {
        const key = t.name.toLowerCase();
        if (seen.has(key))
          ctx.addIssue({ code: z.ZodIssueCode.custom, message: msg('Each visit type needs its own name'), path: [i, 'name'] });
        seen.add(key);
      });
    });
}

/** The team's fields but its escalation policy, each as the gateway checks it. */
export const teamFormFields = {
  name: z
    .string({ required_error: msg('Team name is required'), invalid_type_error: msg('Team name is required') })
    .trim()
    .min(1, msg('Team name is required'))
    .max(100, msg('Team name must be at most 100 characters')),
  locationIds: z
    .array(id(msg('Invalid location ID')), { invalid_type_error: msg('locationIds must be a list of location IDs') })
    .max(500, msg('At most 500 locations')),
  monitors: z
    .array(z.object({ userId: id(msg('Invalid monitor ID')), deputyUserId: id(msg('Invalid deputy ID')).optional() }).strict(), {
      invalid_type_error: msg('monitors must be a list'),
    })
    .max(50, msg('At most 50 monitors')),
  checkInPolicy: z
    .object({
      defaultInterval: interval,
      allowedIntervals: z.array(interval).min(1, msg('At least one check-in interval must be allowed')).max(5),
    })
    .strict(),
  emergencyNumbers: z
    .array(emergencyNumberText, { invalid_type_error: msg('emergencyNumbers must be a list') })
    .max(3, msg('At most 3 emergency numbers')),
  /** A call 2 minutes before each deadline that takes the PIN on the keypad. */
  voiceReminder: z.boolean({ invalid_type_error: msg('voiceReminder must be true or false') }),
};

/** The superadmin's team editor, checked before it sends (the policy has its own editor's checks). */
export const teamFormSchema = z.object(teamFormFields).strict();
export type TeamForm = z.input<typeof teamFormSchema>;
