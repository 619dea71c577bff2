import { z } from 'zod';
import { parsePhoneNumberFromString } from 'libphonenumber-js';

/** Creation form rules (spec section 5): whitespace removed, a leading 44 gets its +. */
export const creationPhone = z
  .string({ required_error: 'Phone number must include country code', invalid_type_error: 'Phone number must include country code' })
  .transform((p) => p.replace(/\s+/g, ''))
  .transform((p) => (p.startsWith('44') ? `+${p}` : p))
  .pipe(
    z
      .string()
      .min(5, 'Phone number must include country code')
      .refine((p) => p.startsWith('+44'), 'Phone should start with +44 for UK format')
      .refine((p) => /^\+44\d{10}$/.test(p) && !!parsePhoneNumberFromString(p)?.isValid(), 'Phone number must be in format +44 followed by 10 digits'),
  );

/**
 * Profile and emergency-contact rules (spec section 5): the spec's input normalisation (a
 * leading 0 becomes +44, a leading 44 gets its +, anything else without + gets +44), then its
 * three checks in order; libphonenumber-js confirms the number is a real UK one.
 */
export const profilePhone = z
  .string({ required_error: 'Phone number must include country code', invalid_type_error: 'Phone number must include country code' })
  .transform(normaliseUkPhone)
  .pipe(
    z
      .string()
      .min(12, 'Phone number must include country code')
      .refine((p) => p.startsWith('+44'), 'Phone number must start with +44 (UK format)')
      .refine((p) => /^\+44\d{10}$/.test(p) && !!parsePhoneNumberFromString(p)?.isValid(), 'Phone number must be in format +44 followed by 10 digits'),
  );

function normaliseUkPhone(input: string): string {
  const p = input.replace(/\s+/g, '');
  if (p.startsWith('0')) return `+44${p.slice(1)}`;
  if (p.startsWith('44')) return `+${p}`;
  if (!p.startsWith('+')) return `+44${p}`;
  return p;
}

/** Fields a client may not send are refused by name rather than silently ignored. */
export function unknownFieldErrors(issue: z.ZodIssueOptionalMessage, ctx: z.ErrorMapCtx) {
  if (issue.code === 'unrecognized_keys') return { message: `Unknown field: ${issue.keys.join(', ')}` };
  return { message: ctx.defaultError };
}

export const profileName = z
  .string({ required_error: 'Name is too short', invalid_type_error: 'Name is too short' })
  .trim()
  .min(2, 'Name is too short')
  .max(100, 'Name must be at most 100 characters');

/** `{name, phone}` and/or `{medicalInfo}`; null or an empty medicalInfo clears it. */
export const updateProfileSchema = z
  .object(
    {
      name: profileName.optional(),
      phone: profilePhone.optional(),
      medicalInfo: z
        .string({ invalid_type_error: 'Medical information must be text' })
        .max(2000, 'Medical information must be at most 2000 characters')
        .nullable()
        .optional(),
    },
    { errorMap: unknownFieldErrors },
  )
  .strict()
  .refine((b) => b.name !== undefined || b.phone !== undefined || b.medicalInfo !== undefined, 'Nothing to update');

/** Identity's words for a team that does not exist; an admin's other teams read the same. */
export const TEAM_NOT_FOUND = 'Team not found';
export const NO_TEAM = 'You monitor no team yet: ask the superadmin to add you to one';

export const PIN_CHANGE_FIELDS = ['currentPin', 'pinCode'] as const;

export const createUserSchema = z.object({
  username: z
    .string({ required_error: 'Username must be at least 3 characters' })
    .trim()
    .toLowerCase()
    .min(3, 'Username must be at least 3 characters')
    .max(50, 'Username must be at most 50 characters')
    .regex(/^[a-z0-9._-]+$/, 'Username may contain only letters, digits, ".", "_" and "-"'),
  password: z
    .string({ required_error: 'Password must be at least 6 characters' })
    .min(6, 'Password must be at least 6 characters')
    .max(200, 'Password must be at most 200 characters'),
  name: z
    .string({ required_error: 'Name must be at least 2 characters' })
    .trim()
    .min(2, 'Name must be at least 2 characters')
    .max(100, 'Name must be at most 100 characters'),
  phone: creationPhone,
  role: z.enum(['worker', 'admin'], { errorMap: () => ({ message: 'Role must be worker or admin' }) }).default('worker'),
  medicalInfo: z.string().max(2000, 'Medical information must be at most 2000 characters').optional(),
  /** Optional (an empty form field counts as absent): without it identity generates a PIN and returns it once. */
  pinCode: z.preprocess(
    (v) => (v === '' || v === null ? undefined : v),
    z.string({ invalid_type_error: 'PIN must be exactly 4 digits' }).regex(/^\d{4}$/, 'PIN must be exactly 4 digits').optional(),
  ),
  /** A worker's team; without it the oldest team (an upgraded deployment's "Default"). */
  teamId: z.number({ invalid_type_error: 'Invalid team ID' }).int('Invalid team ID').min(1, 'Invalid team ID').max(2147483647, 'Invalid team ID').optional(),
}).strict();

/** Moving a worker to another team travels alone (PATCH /api/users/{id}), and only the superadmin does it. */
export const moveTeamSchema = z
  .object({ teamId: z.number({ required_error: 'Invalid team ID', invalid_type_error: 'Invalid team ID' }).int('Invalid team ID').min(1, 'Invalid team ID').max(2147483647, 'Invalid team ID') })
  .strict();
