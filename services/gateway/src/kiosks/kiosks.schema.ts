import { z } from 'zod';
import { PIN_FORMAT } from '../credentials/credentials.schema';

export const KIOSK_NOT_FOUND = 'Kiosk not found';
/** An admin of some teams enrols kiosks at those teams' locations only. */
export const NOT_YOUR_LOCATION = "Choose a location of one of your teams";

/** The Kiosks tab's enrolment form checks with the same schema. */
export { enrolKioskSchema } from '@lws/schemas';

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
    username: z.string({ invalid_type_error: 'Username must be text' }).trim().min(1, WHO_FIRST).max(100, 'Username is too long').optional(),
  })
  .strict()
  .refine((b) => b.userId !== undefined || b.username !== undefined, { message: WHO_FIRST, path: ['userId'] });
