import { z } from 'zod';
import { RpcError } from '@lws/messaging';
import { DURESS_ONLY_TYPES, SUBSCRIBABLE_TYPES, type WebhookEventType } from './event-catalogue';

/**
 * What the contract cannot say about a command's input: event types from the catalogue, a name
 * that is not blank, teams listed once, one target to replay. Each rule names the field it refuses.
 */
const name = z.string().trim().min(1, 'name is required').max(100, 'name must be at most 100 characters');

const eventTypes = z
  .array(
    z.string().refine(
      (t) => (SUBSCRIBABLE_TYPES as string[]).includes(t),
      (t) => ({ message: `"${t}" is not a webhook event type: choose among ${SUBSCRIBABLE_TYPES.join(', ')}` }),
    ),
  )
  .min(1, 'choose at least one event type')
  .transform((types) => [...new Set(types)] as WebhookEventType[]);

const teams = z
  .object({ teamIds: z.array(z.number().int().min(1)).min(1, 'choose at least one team, or every team') })
  .transform((t) => ({ teamIds: [...new Set(t.teamIds)].sort((a, b) => a - b) }));

/** A duress-only type is useless, and misleading on a screen, to an endpoint not allowed duress. */
const duressTypesAllowed = (types: readonly string[] | undefined, receivesDuress: boolean | undefined) =>
  !types?.some((t) => DURESS_ONLY_TYPES.has(t)) || receivesDuress === true;
const DURESS_TYPES_NEED_DURESS = {
  message: 'duress.raised.v1 goes only to an endpoint allowed duress (receivesDuress)',
  path: ['eventTypes'],
};

export const createEndpointSchema = z
  .object({ name, eventTypes, teams: teams.optional(), receivesDuress: z.boolean().optional() })
  .passthrough()
  .refine((r) => duressTypesAllowed(r.eventTypes, r.receivesDuress), DURESS_TYPES_NEED_DURESS);

export const updateEndpointSchema = z
  .object({
    name: name.optional(),
    eventTypes: z.object({ types: eventTypes }).optional(),
    teams: teams.optional(),
    allTeams: z.boolean().optional(),
  })
  .passthrough()
  .refine((r) => !(r.teams && r.allTeams), { message: 'give teams or allTeams, not both', path: ['allTeams'] })
  .refine((r) => r.allTeams !== false, { message: 'allTeams can only be true: to limit the teams, give teams', path: ['allTeams'] });

export const replaySchema = z
  .object({ deliveryId: z.string().optional(), messageId: z.string().optional() })
  .passthrough()
  .refine((r) => (r.deliveryId === undefined) !== (r.messageId === undefined), {
    message: 'give a deliveryId or a messageId',
    path: ['deliveryId'],
  });

/** The request with the schema's rules applied (trimmed, deduplicated); a broken rule is a 400 naming its field. */
export function validated<T>(schema: z.ZodTypeAny, req: T): T {
  const parsed = schema.safeParse(req);
  if (parsed.success) return parsed.data as T;
  const issue = parsed.error.issues[0];
  const field = issue.path.filter((p) => typeof p === 'string').join('.') || undefined;
  throw new RpcError(400, issue.message, { field });
}

export { duressTypesAllowed };
