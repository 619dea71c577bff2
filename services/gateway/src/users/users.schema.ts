import { z } from 'zod';
import { isLanguage, languages } from '@lws/i18n';

const LANGUAGE_UNKNOWN = 'Language must be one LWS speaks';
import { parsePhoneNumberFromString } from 'libphonenumber-js';
import {
  PHONE_NOT_IN_USE,
  medicalInfoText,
  createUserSchema as sharedCreateUserSchema,
  creationPhone as sharedCreationPhone,
  profileName,
  profilePhone as sharedProfilePhone,
  unknownFieldErrors,
} from '@lws/schemas';

/** A number the screens' checks pass is also a real UK one (libphonenumber-js, kept out of the screens). */
const realUkNumber = (p: string) => !!parsePhoneNumberFromString(p)?.isValid();

/** Creation form rules (spec section 5), as the create-user form checks them, and a real number. */
export const creationPhone = sharedCreationPhone.refine(realUkNumber, PHONE_NOT_IN_USE);

/** Profile and emergency-contact rules (spec section 5), as the profile form checks them, and a real number. */
export const profilePhone = sharedProfilePhone.refine(realUkNumber, PHONE_NOT_IN_USE);

export { profileName, unknownFieldErrors };

/** `{name, phone}` and/or `{medicalInfo}`; null or an empty medicalInfo clears it. */
/** A language LWS speaks: English, or one with its file in libs/i18n/locales. */
export const spokenLanguage = z
  .string({ invalid_type_error: LANGUAGE_UNKNOWN })
  .refine(isLanguage, () => ({ message: `${LANGUAGE_UNKNOWN}: ${languages().join(', ')}` }));

export const updateProfileSchema = z
  .object(
    {
      name: profileName.optional(),
      phone: profilePhone.optional(),
      medicalInfo: medicalInfoText.nullable().optional(),
      language: spokenLanguage.optional(),
    },
    { errorMap: unknownFieldErrors },
  )
  .strict()
  .refine(
    (b) => b.name !== undefined || b.phone !== undefined || b.medicalInfo !== undefined || b.language !== undefined,
    'Nothing to update',
  );

/** Identity's words for a team that does not exist; an admin's other teams read the same. */
export const TEAM_NOT_FOUND = 'Team not found';
export const NO_TEAM = 'You monitor no team yet: ask the superadmin to add you to one';

export const PIN_CHANGE_FIELDS = ['currentPin', 'pinCode'] as const;

/** POST /api/users: the create-user form's schema, with the real-number check on the phone. */
export const createUserSchema = sharedCreateUserSchema.extend({ phone: creationPhone, language: spokenLanguage.optional() });

/** Moving a worker to another team travels alone (PATCH /api/users/{id}), and only the superadmin does it. */
export const moveTeamSchema = z
  .object({
    teamId: z
      .number({ required_error: 'Invalid team ID', invalid_type_error: 'Invalid team ID' })
      .int('Invalid team ID')
      .min(1, 'Invalid team ID')
      .max(2147483647, 'Invalid team ID'),
  })
  .strict();
