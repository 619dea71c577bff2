import { z } from 'zod';

export const identityConfigShape = {
  LWS_SUPERADMIN_USERNAME: z
    .string()
    .min(3)
    .max(50)
    .regex(/^[a-z0-9._-]+$/, 'lower-case letters, digits, ".", "_" and "-" only')
    .default('superadmin'),
  LWS_SUPERADMIN_PASSWORD: z.string().min(12, 'must be at least 12 characters').max(200).optional(),
  /** HMAC key for PIN hashes; required in production (checked by the PIN hasher at start). */
  PIN_HASH_KEY: z.string().min(32, 'must be at least 32 characters').max(512).optional(),
};

export type IdentityConfig = z.infer<z.ZodObject<typeof identityConfigShape>>;
