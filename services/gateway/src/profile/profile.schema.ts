import { z } from 'zod';
import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { checkInInterval, CONTACT_NUMBER_INVALID, contactNumberText, contactRelation, numericText, optionalContactNumber } from '@lws/schemas';
import { profileName, profilePhone, unknownFieldErrors } from '../users/users.schema';

export { CHECK_IN_INTERVALS, CONTACT_NUMBER_INVALID } from '@lws/schemas';

/** The spec's clients send ids as numbers or as numeric strings. */
const userId = z.preprocess(
  numericText,
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

/**
 * A primary or secondary contact: the number escalation texts and calls in an emergency, so a phone
 * number (digits and separators only, as the settings form checks too, and a length
 * libphonenumber-js accepts for its country; a national number is read as UK), stored in E.164.
 * Possible rather than "valid", as escalation dials it: a range the library's metadata does not know
 * yet is still worth calling. Anything else (`javascript:alert(1)//` was stored) is refused.
 */
const contactNumber = contactNumberText.transform((v, ctx) => {
  const parsed = parsePhoneNumberFromString(v.replace(/[\s().-]/g, ''), 'GB');
  if (!parsed?.isPossible()) {
    ctx.addIssue({ code: z.ZodIssueCode.custom, message: CONTACT_NUMBER_INVALID });
    return z.NEVER;
  }
  return parsed.number;
});

const settingsFields = {
  primaryContact: contactNumber,
  /** Optional: absent, null or blank means none. */
  secondaryContact: optionalContactNumber(contactNumber),
  checkInInterval,
};

export const settingsSchema = z.object(settingsFields, { errorMap: unknownFieldErrors }).strict();
export const upsertSettingsSchema = z.object({ userId, ...settingsFields }, { errorMap: unknownFieldErrors }).strict();
