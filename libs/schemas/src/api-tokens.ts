import { z } from 'zod';
import { msg } from './msg';

/**
 * What a machine's API token may do. Each gateway route that accepts a token names one of these;
 * a route that names none is for people only and refuses every token.
 */
export const API_SCOPES = ['alarms:read', 'alarms:write', 'shifts:read', 'users:read', 'webhooks:manage'] as const;
export type ApiScope = (typeof API_SCOPES)[number];

/** Longest a token may live: a year, so a forgotten integration stops by itself. */
export const API_TOKEN_MAX_DAYS = 365;

export const API_TOKEN_NAME_REQUIRED = msg('Name the token after the system that will use it');
export const API_TOKEN_SCOPE_REQUIRED = msg('Choose at least one scope');
export const API_TOKEN_SCOPE_TWICE = msg('Each scope may be chosen once');
export const API_TOKEN_EXPIRY = msg('The token must expire in 1 to 365 days');

/** POST /api/api-tokens: a name the activity log shows as the actor, its scopes and when it expires. */
export const createApiTokenSchema = z
  .object({
    name: z
      .string({ required_error: API_TOKEN_NAME_REQUIRED, invalid_type_error: API_TOKEN_NAME_REQUIRED })
      .trim()
      .min(1, API_TOKEN_NAME_REQUIRED)
      .max(100, msg('The name must be at most 100 characters')),
    scopes: z
      .array(z.enum(API_SCOPES, { errorMap: () => ({ message: msg('Choose scopes from the list') }) }), {
        required_error: API_TOKEN_SCOPE_REQUIRED,
        invalid_type_error: API_TOKEN_SCOPE_REQUIRED,
      })
      .min(1, API_TOKEN_SCOPE_REQUIRED)
      .max(API_SCOPES.length, API_TOKEN_SCOPE_TWICE)
      .refine((s) => new Set(s).size === s.length, API_TOKEN_SCOPE_TWICE),
    expiresInDays: z
      .number({ required_error: API_TOKEN_EXPIRY, invalid_type_error: API_TOKEN_EXPIRY })
      .int(API_TOKEN_EXPIRY)
      .min(1, API_TOKEN_EXPIRY)
      .max(API_TOKEN_MAX_DAYS, API_TOKEN_EXPIRY),
  })
  .strict();
export type CreateApiTokenRequest = z.infer<typeof createApiTokenSchema>;
