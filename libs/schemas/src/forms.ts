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

/** A required line of text, trimmed, named by its label in the message. */
const requiredText = (label: string, max = 100) =>
  z
    .string({ required_error: `${label} is required`, invalid_type_error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(max, `${label} must be at most ${max} characters`);

/** POST /api/kiosks: the Kiosks tab's "Enrol This Device". */
export const enrolKioskSchema = z.object({ name: requiredText('Kiosk name'), location: requiredText('Location') }).strict();
export type EnrolKioskForm = z.input<typeof enrolKioskSchema>;

export const LOCATION_NAME_MAX = 100;
/** A location's name (spec section 5: trimmed, non-empty, also when edited). */
export const locationName = requiredText('Location name', LOCATION_NAME_MAX);
/** The Locations tab's "Add Location" (POST /api/locations takes the same name). */
export const addLocationSchema = z.object({ name: locationName }).strict();
export type AddLocationForm = z.input<typeof addLocationSchema>;

const CURRENT_PASSWORD_REQUIRED = 'Current password is required';
const NEW_PASSWORD_TOO_SHORT = 'New password must be at least 6 characters';

/** POST /api/auth/change-password (spec section 5): the rules in the spec's order, on trimmed values. */
export const changePasswordSchema = z
  .object({
    currentPassword: z
      .string({ required_error: CURRENT_PASSWORD_REQUIRED, invalid_type_error: CURRENT_PASSWORD_REQUIRED })
      .trim()
      .min(1, CURRENT_PASSWORD_REQUIRED)
      .max(200, 'Password is too long'),
    newPassword: z
      .string({ required_error: NEW_PASSWORD_TOO_SHORT, invalid_type_error: NEW_PASSWORD_TOO_SHORT })
      .trim()
      .min(6, NEW_PASSWORD_TOO_SHORT)
      .regex(/[A-Z]/, 'Password must contain at least one uppercase letter')
      .regex(/[0-9]/, 'Password must contain at least one number')
      .max(200, 'Password is too long'),
  })
  .strict();

export const PASSWORD_CONFIRM_REQUIRED = 'Please confirm your password';
export const PASSWORDS_DIFFER = "Passwords don't match";

/**
 * The Change Password form: the request's fields and their confirmation, which never leaves the
 * browser. The confirmation is checked even while another field is still wrong.
 */
export const changePasswordFormSchema = changePasswordSchema
  .extend({ confirmPassword: z.string().trim() })
  .superRefine((form, ctx) => {
    if (!form.confirmPassword) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['confirmPassword'], message: PASSWORD_CONFIRM_REQUIRED });
    else if (form.confirmPassword !== form.newPassword) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['confirmPassword'], message: PASSWORDS_DIFFER });
  });
export type ChangePasswordForm = z.input<typeof changePasswordFormSchema>;
