import { z } from 'zod';

/** POST /api/system/scim-tokens: the provisioning client's name, as the activity log will show it. */
export const createScimTokenSchema = z
  .object({
    name: z
      .string({ required_error: 'name is required', invalid_type_error: 'name must be text' })
      .trim()
      .min(1, 'name is required')
      .max(100, 'name must be at most 100 characters'),
  })
  .strict();
