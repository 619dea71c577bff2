import { z } from 'zod';

export const loginSchema = z.object({
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
}).strict();

export const logoutSchema = z.object({
  fromKiosk: z.boolean({ invalid_type_error: 'fromKiosk must be true or false' }).optional().default(false),
}).strict();
