import { z } from 'zod';

/** Shifts' own variables, on top of the common ones. */
export const shiftsConfigShape = {
  /**
   * How many times a worker may press "+15 min" in one shift; 0 turns extensions off.
   * A shift keeps the allowance it started with.
   */
  SHIFT_EXTENSIONS: z.coerce.number().int().min(0).max(10).default(2),
  /** How many minutes of extensions one shift may have in all. */
  SHIFT_EXTENSION_MINUTES: z.coerce.number().int().min(0).max(240).default(60),
  /** How often device positions past their retention (30 days after the shift ended) are deleted. */
  POSITIONS_PURGE_INTERVAL_SECONDS: z.coerce.number().int().min(1).max(86_400).default(3600),
  /** Encrypts the sealed notes of timed visits; production needs it before a note can be kept. */
  SECRETS_KEY: z.string().min(32, 'must be at least 32 characters').max(512).optional(),
};

export type ShiftsConfig = z.infer<z.ZodObject<typeof shiftsConfigShape>>;
