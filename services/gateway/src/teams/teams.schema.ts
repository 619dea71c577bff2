import { z } from 'zod';
import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { policyOverrideSchema } from '@lws/platform';

const INTERVALS = [30, 50, 60, 120, 240] as const;
const INTERVAL = 'Check-in intervals must be 30, 50, 60, 120 or 240 minutes';
const id = (message: string) => z.number({ required_error: message, invalid_type_error: message }).int(message).min(1, message).max(2147483647, message);
const interval = z.number({ required_error: INTERVAL, invalid_type_error: INTERVAL }).refine((v) => (INTERVALS as readonly number[]).includes(v), INTERVAL);
const e164 = z
  .string({ invalid_type_error: 'Emergency numbers must be phone numbers' })
  .trim()
  .transform((v, ctx) => {
    const parsed = /^[+0-9\s().-]{7,30}$/.test(v) ? parsePhoneNumberFromString(v.replace(/[\s().-]/g, ''), 'GB') : undefined;
    if (!parsed?.isPossible()) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: 'Emergency numbers must be phone numbers, e.g. +447700900123' });
      return z.NEVER;
    }
    return parsed.number;
  });

/**
 * A team as the superadmin writes it (`POST /api/teams`; `PATCH /api/teams/{id}` takes any of the
 * fields). Monitors are admins, in the order they are told, each with an optional deputy.
 */
export const teamFields = {
  name: z.string({ required_error: 'Team name is required', invalid_type_error: 'Team name is required' }).trim().min(1, 'Team name is required').max(100, 'Team name must be at most 100 characters'),
  locationIds: z.array(id('Invalid location ID'), { invalid_type_error: 'locationIds must be a list of location IDs' }).max(500, 'At most 500 locations'),
  monitors: z
    .array(z.object({ userId: id('Invalid monitor ID'), deputyUserId: id('Invalid deputy ID').optional() }).strict(), { invalid_type_error: 'monitors must be a list' })
    .max(50, 'At most 50 monitors'),
  checkInPolicy: z
    .object({ defaultInterval: interval, allowedIntervals: z.array(interval).min(1, 'At least one check-in interval must be allowed').max(5) })
    .strict(),
  /** The organisation's policy when null or absent (ESCALATION_POLICY's form). */
  escalationPolicy: policyOverrideSchema.nullable(),
  emergencyNumbers: z.array(e164, { invalid_type_error: 'emergencyNumbers must be a list' }).max(3, 'At most 3 emergency numbers'),
  /** Issue 13: a call 2 minutes before each deadline that takes the PIN on the keypad. */
  voiceReminder: z.boolean({ invalid_type_error: 'voiceReminder must be true or false' }),
};

export const createTeamSchema = z
  .object({
    name: teamFields.name,
    locationIds: teamFields.locationIds.default([]),
    monitors: teamFields.monitors.default([]),
    checkInPolicy: teamFields.checkInPolicy.default({ defaultInterval: 60, allowedIntervals: [...INTERVALS] }),
    escalationPolicy: teamFields.escalationPolicy.optional(),
    emergencyNumbers: teamFields.emergencyNumbers.default([]),
    voiceReminder: teamFields.voiceReminder.default(false),
  })
  .strict();

export const updateTeamSchema = z
  .object({
    name: teamFields.name.optional(),
    locationIds: teamFields.locationIds.optional(),
    monitors: teamFields.monitors.optional(),
    checkInPolicy: teamFields.checkInPolicy.optional(),
    escalationPolicy: teamFields.escalationPolicy.optional(),
    emergencyNumbers: teamFields.emergencyNumbers.optional(),
    voiceReminder: teamFields.voiceReminder.optional(),
  })
  .strict()
  .refine((b) => Object.values(b).some((v) => v !== undefined), 'Nothing to update');

/** `POST /api/users/{id}/away`; the profile's Away form ends in the same rule. */
export { awaySchema } from '@lws/schemas';
