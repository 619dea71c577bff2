import { z } from 'zod';

const text = (field: string, max: number) =>
  z
    .string({ required_error: `${field} is required`, invalid_type_error: `${field} must be text` })
    .max(max, `${field} must be at most ${max} characters`);
const flag = (field: string) => z.boolean({ required_error: `${field} is required`, invalid_type_error: `${field} must be true or false` });

/** PUT /api/system/sso: the whole form; an absent clientSecret keeps the stored one. */
export const ssoSettingsSchema = z
  .object({
    enabled: flag('enabled'),
    displayName: text('displayName', 100),
    issuer: text('issuer', 500),
    clientId: text('clientId', 500),
    clientSecret: text('clientSecret', 2000).min(1, 'clientSecret must not be empty: leave it out to keep the stored one').optional(),
    subjectClaim: z.enum(['sub', 'oid'], { errorMap: () => ({ message: 'subjectClaim must be sub or oid' }) }),
    emailDomains: z
      .array(text('emailDomains', 253), { invalid_type_error: 'emailDomains must be a list' })
      .max(50, 'At most 50 e-mail domains'),
    passwordLogin: z.enum(['everyone', 'break_glass'], { errorMap: () => ({ message: 'passwordLogin must be everyone or break_glass' }) }),
    jitEnabled: flag('jitEnabled'),
    groupsClaim: text('groupsClaim', 100).min(1, 'groupsClaim is required'),
    groupTeams: z
      .array(
        z
          .object({
            group: text('group', 256).trim().min(1, 'A group is required'),
            teamId: z
              .number({ invalid_type_error: 'teamId must be a team ID' })
              .int('teamId must be a team ID')
              .min(1, 'teamId must be a team ID')
              .max(2147483647),
          })
          .strict(),
        { invalid_type_error: 'groupTeams must be a list' },
      )
      .max(200, 'At most 200 group mappings'),
    linkByEmail: flag('linkByEmail'),
  })
  .strict();
