import { z } from 'zod';
import { policyOverrideSchema } from '@lws/platform';
import {
  CHECK_IN_INTERVALS,
  EMERGENCY_NUMBER_INVALID,
  emergencyNumberText,
  teamFormFields,
  visitTypeFormFields,
  visitTypeList,
} from '@lws/schemas';
import { possibleE164 } from '../common/possible-phone';

/** An emergency number as the editor checks it, stored in E.164. */
const e164 = emergencyNumberText.transform(possibleE164(EMERGENCY_NUMBER_INVALID));

/**
 * A team as the superadmin writes it (`POST /api/teams`; `PATCH /api/teams/{id}` takes any of the
 * fields). Monitors are admins, in the order they are told, each with an optional deputy. The team
 * editor checks the same fields (@lws/schemas) but the policy and the numbers' real-number check.
 */
export const teamFields = {
  ...teamFormFields,
  /** The organisation's policy when null or absent (ESCALATION_POLICY's form). */
  escalationPolicy: policyOverrideSchema.nullable(),
  emergencyNumbers: z.array(e164, { invalid_type_error: 'emergencyNumbers must be a list' }).max(3, 'At most 3 emergency numbers'),
  /** The kinds of timed visit (risk levels); each type's policy null or absent: the team's. */
  visitTypes: visitTypeList(z.object({ ...visitTypeFormFields, escalationPolicy: policyOverrideSchema.nullable().default(null) }).strict()),
};

export const createTeamSchema = z
  .object({
    name: teamFields.name,
    locationIds: teamFields.locationIds.default([]),
    monitors: teamFields.monitors.default([]),
    checkInPolicy: teamFields.checkInPolicy.default({ defaultInterval: 60, allowedIntervals: [...CHECK_IN_INTERVALS] }),
    escalationPolicy: teamFields.escalationPolicy.optional(),
    emergencyNumbers: teamFields.emergencyNumbers.default([]),
    voiceReminder: teamFields.voiceReminder.default(false),
    visitTypes: teamFields.visitTypes.default([]),
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
    visitTypes: teamFields.visitTypes.optional(),
  })
  .strict()
  .refine((b) => Object.values(b).some((v) => v !== undefined), 'Nothing to update');

/** `POST /api/users/{id}/away`; the profile's Away form ends in the same rule. */
export { awaySchema } from '@lws/schemas';
