import { z } from 'zod';
import { locationName } from '@lws/schemas';
import { unknownFieldErrors } from '../users/users.schema';

export { LOCATION_NAME_MAX } from '@lws/schemas';
const ACTIVE_BOOLEAN = 'isActive must be true or false';

/** Spec section 5: trimmed, non-empty (also when edited); the Locations tab checks the same. */
const name = locationName;

const isActive = z.boolean({ required_error: ACTIVE_BOOLEAN, invalid_type_error: ACTIVE_BOOLEAN });

const TEAM_IDS = 'teamIds must be a list of team IDs';
const teamId = z
  .number({ invalid_type_error: 'Invalid team ID' })
  .int('Invalid team ID')
  .min(1, 'Invalid team ID')
  .max(2147483647, 'Invalid team ID');

/**
 * `teamIds`: the teams the new location belongs to. An admin's are among their own teams and
 * default to all of them; the superadmin's default to none (the organisation's, shared).
 */
export const createLocationSchema = z
  .object(
    {
      name,
      isActive: isActive.optional(),
      teamIds: z.array(teamId, { invalid_type_error: TEAM_IDS }).max(500, 'At most 500 teams').optional(),
    },
    { errorMap: unknownFieldErrors },
  )
  .strict();

/** The spec's screen sends `{name}` from the inline edit and `{isActive}` from the toggle. */
export const updateLocationSchema = z
  .object({ name: name.optional(), isActive: isActive.optional() }, { errorMap: unknownFieldErrors })
  .strict()
  .refine((b) => b.name !== undefined || b.isActive !== undefined, 'Nothing to update');
