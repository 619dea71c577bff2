import { z } from 'zod';
import {
  checkInIntervalGiven,
  CONTACT_NUMBER_INVALID,
  contactNumberText,
  contactRelation,
  numericText,
  optionalContactNumber,
} from '@lws/schemas';
import { possibleE164 } from '../common/possible-phone';
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
 * A primary or secondary contact: the number escalation texts and calls in an emergency (digits and
 * separators only, as the settings form checks too), stored in E.164. Anything else
 * (`javascript:alert(1)//` was stored) is refused.
 */
const contactNumber = contactNumberText.transform(possibleE164(CONTACT_NUMBER_INVALID));

const settingsFields = {
  primaryContact: contactNumber,
  /** Optional: absent, null or blank means none. */
  secondaryContact: optionalContactNumber(contactNumber),
  /** Absent: the interval that applies now (the worker's own, else their team's default). */
  checkInInterval: checkInIntervalGiven.optional(),
};

export const settingsSchema = z.object(settingsFields, { errorMap: unknownFieldErrors }).strict();
export const upsertSettingsSchema = z.object({ userId, ...settingsFields }, { errorMap: unknownFieldErrors }).strict();
