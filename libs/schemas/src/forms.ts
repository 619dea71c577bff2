import { z } from 'zod';
import { creationPhone, profilePhone } from './phone';

/** Fields a client may not send are refused by name rather than silently ignored. */
export function unknownFieldErrors(issue: z.ZodIssueOptionalMessage, ctx: z.ErrorMapCtx) {
  if (issue.code === 'unrecognized_keys') return { message: `Unknown field: ${issue.keys.join(', ')}` };
  return { message: ctx.defaultError };
}

/** POST /api/auth/login: the username is matched lower-cased. */
export const loginSchema = z
  .object({
    username: z
      .string({ required_error: 'Username is required', invalid_type_error: 'Username is required' })
      .trim()
      .min(1, 'Username is required')
      .max(100, 'Username is too long')
      .transform((u) => u.toLowerCase()),
    password: z
      .string({ required_error: 'Password is required', invalid_type_error: 'Password is required' })
      .min(1, 'Password is required')
      .max(200, 'Password is too long'),
    rememberMe: z.boolean({ invalid_type_error: 'rememberMe must be true or false' }).optional().default(false),
  })
  .strict();

export const PIN_FORMAT = 'PIN must be exactly 4 digits';
const blankAsAbsent = (v: unknown) => (v === '' || v === null ? undefined : v);

/** The roles a monitor may create (spec section 5); the superadmin is never created. */
export const CREATABLE_ROLES = ['worker', 'admin'] as const;
export type CreatableRole = (typeof CREATABLE_ROLES)[number];

/**
 * POST /api/users (spec section 5, "User creation"). A blank PIN asks identity to generate one,
 * shown once; blank medical information is left out.
 */
export const createUserSchema = z
  .object({
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
    role: z.enum(CREATABLE_ROLES, { errorMap: () => ({ message: 'Role must be worker or admin' }) }).default('worker'),
    medicalInfo: z.preprocess(
      (v) => (typeof v === 'string' && !v.trim() ? undefined : v),
      z.string({ invalid_type_error: 'Medical information must be text' }).trim().max(2000, 'Medical information must be at most 2000 characters').optional(),
    ),
    pinCode: z.preprocess(blankAsAbsent, z.string({ invalid_type_error: PIN_FORMAT }).regex(/^\d{4}$/, PIN_FORMAT).optional()),
    /** A worker's team; without it the oldest team (an upgraded deployment's "Default"). */
    teamId: z.number({ invalid_type_error: 'Invalid team ID' }).int('Invalid team ID').min(1, 'Invalid team ID').max(2147483647, 'Invalid team ID').optional(),
  })
  .strict();
export type CreateUserForm = z.input<typeof createUserSchema>;
export type CreateUserRequest = z.output<typeof createUserSchema>;

export const profileName = z
  .string({ required_error: 'Name is too short', invalid_type_error: 'Name is too short' })
  .trim()
  .min(2, 'Name is too short')
  .max(100, 'Name must be at most 100 characters');

/** The profile's "Edit Details" (PATCH /api/users/{id} with a name and phone). */
export const profileDetailsSchema = z.object({ name: profileName, phone: profilePhone }, { errorMap: unknownFieldErrors }).strict();
export type ProfileDetailsForm = z.input<typeof profileDetailsSchema>;

/** An emergency contact's relation to the worker ("Partner", "Parent", "Friend"). */
export const contactRelation = z
  .string({ required_error: 'Relation is required', invalid_type_error: 'Relation is required' })
  .trim()
  .min(1, 'Relation is required')
  .max(50, 'Relation must be at most 50 characters');

/** The emergency contact dialog (POST and PATCH /api/emergency-contacts add the owner's id). */
export const contactDetailsSchema = z.object({ name: profileName, phone: profilePhone, relation: contactRelation }, { errorMap: unknownFieldErrors }).strict();
export type ContactDetailsForm = z.input<typeof contactDetailsSchema>;
