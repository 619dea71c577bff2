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
});
