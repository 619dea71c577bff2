import { z } from 'zod';
import { msg } from './msg';

export const WEBHOOK_NAME_REQUIRED = msg('Name the endpoint after the system that receives it');
export const WEBHOOK_URL_INVALID = msg('Enter the full address of the endpoint, starting https://');
export const WEBHOOK_EVENTS_REQUIRED = msg('Choose at least one event');
export const WEBHOOK_TEAMS_REQUIRED = msg('Choose at least one team, or every team');
export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'succeeded', 'failed', 'canceled'] as const;

const name = z
  .string({ required_error: WEBHOOK_NAME_REQUIRED, invalid_type_error: WEBHOOK_NAME_REQUIRED })
  .trim()
  .min(1, WEBHOOK_NAME_REQUIRED)
  .max(100, msg('The name must be at most 100 characters'));

/**
 * Where the events go. Only the address's form is checked here: the notifications service decides
 * whether it may be reached (public addresses only), on every connection.
 */
const url = z
  .string({ required_error: WEBHOOK_URL_INVALID, invalid_type_error: WEBHOOK_URL_INVALID })
  .trim()
  .max(2000, WEBHOOK_URL_INVALID)
  .url(WEBHOOK_URL_INVALID)
  .refine((u) => /^https?:\/\/[^/]/i.test(u), WEBHOOK_URL_INVALID);

const eventTypes = z
  .array(z.string({ invalid_type_error: WEBHOOK_EVENTS_REQUIRED }).min(1, WEBHOOK_EVENTS_REQUIRED).max(60, WEBHOOK_EVENTS_REQUIRED), {
    required_error: WEBHOOK_EVENTS_REQUIRED,
    invalid_type_error: WEBHOOK_EVENTS_REQUIRED,
  })
  .min(1, WEBHOOK_EVENTS_REQUIRED)
  .max(20, WEBHOOK_EVENTS_REQUIRED);

const teamIds = z
  .array(z.number({ invalid_type_error: WEBHOOK_TEAMS_REQUIRED }).int(WEBHOOK_TEAMS_REQUIRED).min(1, WEBHOOK_TEAMS_REQUIRED), {
    invalid_type_error: WEBHOOK_TEAMS_REQUIRED,
  })
  .min(1, WEBHOOK_TEAMS_REQUIRED)
  .max(500, WEBHOOK_TEAMS_REQUIRED);

/** POST /api/webhooks/endpoints. `teamIds` absent: every team the caller covers. */
export const createWebhookEndpointSchema = z
  .object({
    name,
    url,
    eventTypes,
    teamIds: teamIds.optional(),
    /** Duress is silent: only an endpoint made for it (a receiving centre) ever hears of one. */
    receivesDuress: z.boolean({ invalid_type_error: msg('receivesDuress must be true or false') }).optional(),
  })
  .strict();
export type CreateWebhookEndpointRequest = z.infer<typeof createWebhookEndpointSchema>;

/** PATCH /api/webhooks/endpoints/:id: what is sent changes; `allTeams: true` widens it to every team. */
export const updateWebhookEndpointSchema = z
  .object({
    name: name.optional(),
    url: url.optional(),
    eventTypes: eventTypes.optional(),
    teamIds: teamIds.optional(),
    allTeams: z
      .literal(true, { errorMap: () => ({ message: msg('allTeams can only be true: to limit the teams, give teamIds') }) })
      .optional(),
    receivesDuress: z.boolean({ invalid_type_error: msg('receivesDuress must be true or false') }).optional(),
    enabled: z.boolean({ invalid_type_error: msg('enabled must be true or false') }).optional(),
  })
  .strict()
  .refine((r) => !(r.teamIds && r.allTeams), { message: msg('Give teamIds or allTeams, not both'), path: ['allTeams'] })
  .refine((r) => Object.keys(r).length > 0, { message: msg('Nothing to change') });
export type UpdateWebhookEndpointRequest = z.infer<typeof updateWebhookEndpointSchema>;

const LIMIT = msg('limit must be a whole number from 1 to 100');
/** GET /api/webhooks/endpoints/:id/deliveries: newest first, a page at a time. */
export const webhookDeliveriesQuery = z
  .object({
    limit: z
      .string({ invalid_type_error: LIMIT })
      .regex(/^\d{1,3}$/, LIMIT)
      .transform(Number)
      .pipe(z.number().min(1, LIMIT).max(100, LIMIT))
      .optional(),
    cursor: z
      .string({ invalid_type_error: msg('Invalid cursor') })
      .min(1, msg('Invalid cursor'))
      .max(200, msg('Invalid cursor'))
      .optional(),
    status: z
      .enum(WEBHOOK_DELIVERY_STATUSES, { errorMap: () => ({ message: msg('status must be pending, succeeded, failed or canceled') }) })
      .optional(),
  })
  .strict();
