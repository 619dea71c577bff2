import { z } from 'zod';
import { unknownFieldErrors } from '../users/users.schema';

export const LOCATION_NAME_MAX = 100;
const NAME_REQUIRED = 'Location name is required';
const ACTIVE_BOOLEAN = 'isActive must be true or false';

/** Spec section 5: trimmed, non-empty (also when edited). */
const name = z
  .string({ required_error: NAME_REQUIRED, invalid_type_error: NAME_REQUIRED })
  .trim()
  .min(1, NAME_REQUIRED)
  .max(LOCATION_NAME_MAX, `Location name must be at most ${LOCATION_NAME_MAX} characters`);

const isActive = z.boolean({ required_error: ACTIVE_BOOLEAN, invalid_type_error: ACTIVE_BOOLEAN });

export const createLocationSchema = z.object({ name, isActive: isActive.optional() }, { errorMap: unknownFieldErrors }).strict();

/** The spec's screen sends `{name}` from the inline edit and `{isActive}` from the toggle. */
export const updateLocationSchema = z
  .object({ name: name.optional(), isActive: isActive.optional() }, { errorMap: unknownFieldErrors })
  .strict()
  .refine((b) => b.name !== undefined || b.isActive !== undefined, 'Nothing to update');
