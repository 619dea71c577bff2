import { z } from 'zod';

/** POST /api/auth/login, as the login form checks it. */
export { loginSchema } from '@lws/schemas';

export const logoutSchema = z
  .object({
    fromKiosk: z.boolean({ invalid_type_error: 'fromKiosk must be true or false' }).optional().default(false),
  })
  .strict();
