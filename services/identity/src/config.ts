import { z } from 'zod';
import { configTypes } from '@lws/platform';

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
  /** Encrypts secrets kept in the database (the SSO client secret set on the screen). */
  SECRETS_KEY: z.string().min(32, 'must be at least 32 characters').max(512).optional(),
  /**
   * Single sign-on from the environment (Helm values): when SSO_ISSUER is set, these settings
   * replace the screen's at every start and the screen shows them read-only.
   */
  SSO_ISSUER: z.string().url("must be the provider's issuer URL").optional(),
  SSO_CLIENT_ID: z.string().min(1).max(500).optional(),
  SSO_CLIENT_SECRET: z.string().min(1).max(2000).optional(),
  SSO_DISPLAY_NAME: z.string().min(1).max(100).default('your organisation'),
  SSO_SUBJECT_CLAIM: z.enum(['sub', 'oid']).default('sub'),
  /** Comma-separated; empty: any domain. */
  SSO_EMAIL_DOMAINS: z.string().max(5000).default(''),
  SSO_PASSWORD_LOGIN: z.enum(['everyone', 'break_glass']).default('everyone'),
  SSO_JIT: configTypes.bool.default('false'),
  SSO_GROUPS_CLAIM: z.string().min(1).max(100).default('groups'),
  /** "group=teamId" pairs, comma-separated, first match wins: e.g. "lws-north=2,lws-south=3". */
  SSO_GROUP_TEAMS: z
    .string()
    .max(20000)
    .regex(/^(\s*[^=,]+=\d+\s*(,\s*[^=,]+=\d+\s*)*)?$/, 'must be group=teamId pairs separated by commas')
    .default(''),
  SSO_LINK_BY_EMAIL: configTypes.bool.default('false'),
};

export type IdentityConfig = z.infer<z.ZodObject<typeof identityConfigShape>>;
