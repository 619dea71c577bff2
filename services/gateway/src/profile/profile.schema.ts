import { z } from 'zod';
import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { contactRelation } from '@lws/schemas';
import { profileName, profilePhone, unknownFieldErrors } from '../users/users.schema';

export const CHECK_IN_INTERVALS = [30, 50, 60, 120, 240] as const;
const INTERVAL_MESSAGE = 'Check-in interval must be 30, 50, 60, 120 or 240 minutes';
const PHONE_TOO_SHORT = 'Phone number is too short';

/** The spec's clients send ids and intervals as numbers or as numeric strings. */
const numeric = (v: unknown) => (typeof v === 'string' && /^\s*\d{1,10}\s*$/.test(v) ? Number(v) : v);

const userId = z.preprocess(
  numeric,
  z
    .number({ required_error: 'Invalid user ID', invalid_type_error: 'Invalid user ID' })
    .int('Invalid user ID')
    .min(1, 'Invalid user ID')
    .max(2147483647, 'Invalid user ID'),
);

/** The contact dialog's rule, from @lws/schemas. */
const relation = contactRelation;

export const createContactSchema = z
  .object({ userId, name: profileName, phone: profilePhone, relation }, { errorMap: unknownFieldErrors })
  .strict();

/** Any of the fields; userId may be repeated (the spec's client sends it) but a contact never changes owner. */
export const updateContactSchema = z
  .object(
    { userId: userId.optional(), name: profileName.optional(), phone: profilePhone.optional(), relation: relation.optional() },
    { errorMap: unknownFieldErrors },
  )
  .strict()
  .refine((b) => b.name !== undefined || b.phone !== undefined || b.relation !== undefined, 'Nothing to update');

export const CONTACT_NUMBER_INVALID = 'Please enter a valid phone number, e.g. +447700900123';

/**
 * A primary or secondary contact: the number escalation texts and calls in an emergency, so a phone
 * number (digits and separators only, a length libphonenumber-js accepts for its country; a national
 * number is read as UK), stored in E.164. Possible rather than "valid", as escalation dials it: a
 * range the library's metadata does not know yet is still worth calling. Anything else
 * (`javascript:alert(1)//` was stored) is refused.
 */
const contactNumber = z
  .string({ required_error: PHONE_TOO_SHORT, invalid_type_error: PHONE_TOO_SHORT })
  .trim()
  .min(10, PHONE_TOO_SHORT)
  .max(30, 'Phone number is too long')
  .transform((v, ctx) => {
    const parsed = /^[+0-9\s().-]+$/.test(v) ? parsePhoneNumberFromString(v.replace(/[\s().-]/g, ''), 'GB') : undefined;
    if (!parsed?.isPossible()) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: CONTACT_NUMBER_INVALID });
      return z.NEVER;
    }
    return parsed.number;
  });

const settingsFields = {
  primaryContact: contactNumber,
  /** Optional: absent, null or blank means none. */
  secondaryContact: z
    .string({ invalid_type_error: PHONE_TOO_SHORT })
    .trim()
    .nullable()
    .optional()
    .transform((v) => v || null)
    .pipe(contactNumber.nullable()),
  checkInInterval: z
    .preprocess(
      numeric,
      z
        .number({ invalid_type_error: INTERVAL_MESSAGE })
        .refine((v) => (CHECK_IN_INTERVALS as readonly number[]).includes(v), INTERVAL_MESSAGE),
    )
    .optional()
    .transform((v) => v ?? 60),
};

export const settingsSchema = z.object(settingsFields, { errorMap: unknownFieldErrors }).strict();
export const upsertSettingsSchema = z.object({ userId, ...settingsFields }, { errorMap: unknownFieldErrors }).strict();
