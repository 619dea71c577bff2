import { z } from 'zod';
import { PIN_FORMAT } from '../credentials/credentials.schema';

const text = (label: string) =>
  z
    .string({ required_error: `${label} is required`, invalid_type_error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(100, `${label} must be at most 100 characters`);

export const enrolKioskSchema = z.object({ name: text('Name'), location: text('Location') }).strict();

export const pinLoginSchema = z.object({
  pin: z.string({ required_error: PIN_FORMAT, invalid_type_error: PIN_FORMAT }).regex(/^\d{4}$/, PIN_FORMAT),
}).strict();
