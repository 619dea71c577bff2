import { z } from 'zod';
import { enrolKioskSchema } from '@lws/schemas';
import { PIN_FORMAT } from '../credentials/credentials.schema';

export const KIOSK_NOT_FOUND = 'Kiosk not found';
/** An admin of some teams enrols kiosks at those teams' locations only. */
export const NOT_YOUR_LOCATION = 'Choose a location of one of your teams';
export const LOCATION_NOT_FOUND = 'Location not found';

/** The Kiosks tab's enrolment form checks with the same schema. */
export { enrolKioskSchema };

const locationId = z
  .number({ invalid_type_error: 'Invalid location ID' })
  .int('Invalid location ID')
  .min(1, 'Invalid location ID')
  .max(2147483647, 'Invalid location ID');

/**
 * POST /api/kiosks: `{name, locationId}`, or `{name, location}` naming the location (in any letter
 * case), as the enrolment form and older clients send it. Either way the kiosk is bound to the id.
 */
export const enrolKioskRequestSchema = z
  .object({ name: enrolKioskSchema.shape.name, location: enrolKioskSchema.shape.location.optional(), locationId: locationId.optional() })
  .strict()
  .refine((b) => b.location !== undefined || b.locationId !== undefined, { message: 'Location is required', path: ['location'] });

export const WHO_FIRST = 'Choose your name first';

/** `{userId | username, pin}`: who, picked on the kiosk's roster or typed, then the PIN. */
export const pinLoginSchema = z
  .object({
    pin: z.string({ required_error: PIN_FORMAT, invalid_type_error: PIN_FORMAT }).regex(/^\d{4}$/, PIN_FORMAT),
    userId: z
      .number({ invalid_type_error: 'Invalid user ID' })
      .int('Invalid user ID')
      .min(1, 'Invalid user ID')
      .max(2147483647, 'Invalid user ID')
      .optional(),
    username: z
      .string({ invalid_type_error: 'Username must be text' })
      .trim()
      .min(1, WHO_FIRST)
      .max(100, 'Username is too long')
      .optional(),
  })
  .strict()
  .refine((b) => b.userId !== undefined || b.username !== undefined, { message: WHO_FIRST, path: ['userId'] });
