import { api, apiResponse, msg } from '@lws/fe-ui';
import { WEBHOOK_DELIVERY_STATUSES, type CreateWebhookEndpointRequest, type UpdateWebhookEndpointRequest } from '@lws/schemas';

/** A row of GET /api/webhooks/event-types. */
export interface WebhookEventType {
  type: string;
  description: string;
  /** Sent only to an endpoint allowed duress (a receiving centre): duress is silent. */
  duressOnly: boolean;
}

export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

/** A row of GET /api/webhooks/endpoints: never its secret, which is shown once when made or rotated. */
export interface WebhookEndpoint {
  id: string;
  name: string;
  url: string;
  eventTypes: string[];
  /** null: every team. */
  teamIds: number[] | null;
  receivesDuress: boolean;
  enabled: boolean;
  disabledAt: string | null;
  disabledReason: string | null;
  createdBy: number;
  createdAt: string;
  lastDelivery: { deliveryId: string; eventType: string; status: WebhookDeliveryStatus; at: string; httpStatus: number | null } | null;
  pending: number;
}

export type AttemptOutcome = 'succeeded' | 'retrying' | 'failed' | 'gone';

export interface WebhookAttempt {
  attempt: number;
  at: string;
  latencyMs: number;
  httpStatus: number | null;
  /** The first kilobyte of the receiver's answer. */
  responseExcerpt: string | null;
  error: string | null;
  outcome: AttemptOutcome;
}

/** A row of an endpoint's delivery log. */
export interface WebhookDelivery {
  id: string;
  messageId: string;
  eventType: string;
  status: WebhookDeliveryStatus;
  attempts: number;
  nextAttemptAt: string | null;
  lastHttpStatus: number | null;
  lastLatencyMs: number | null;
  lastError: string | null;
  createdAt: string;
  updatedAt: string;
  /** The body as sent: JSON text. */
  payload: string;
  attemptLog: WebhookAttempt[];
}

export interface WebhookDeliveryPage {
  deliveries: WebhookDelivery[];
  nextCursor: string | null;
}

export const WEBHOOKS_KEY = ['webhooks'] as const;
export const WEBHOOK_ENDPOINTS_KEY = ['webhooks', 'endpoints'] as const;
export const WEBHOOK_EVENT_TYPES_KEY = ['webhooks', 'event-types'] as const;
/** One endpoint's log for one status filter (null: every status). */
export const webhookDeliveriesKey = (endpointId: string, status: WebhookDeliveryStatus | null) =>
  ['webhooks', 'deliveries', endpointId, status] as const;

export const DELIVERY_PAGE_SIZE = 20;

type Fields = Record<string, unknown>;
const record = (v: unknown): Fields | null => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Fields) : null);
const text = (v: unknown) => (typeof v === 'string' ? v : '');
const stringOrNull = (v: unknown) => (typeof v === 'string' ? v : null);
const numberOrNull = (v: unknown) => (typeof v === 'number' ? v : null);
const strings = (v: unknown) => (Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : []);
const isStatus = (v: unknown): v is WebhookDeliveryStatus => (WEBHOOK_DELIVERY_STATUSES as readonly unknown[]).includes(v);
const OUTCOMES: readonly AttemptOutcome[] = ['succeeded', 'retrying', 'failed', 'gone'];
const isOutcome = (v: unknown): v is AttemptOutcome => (OUTCOMES as readonly unknown[]).includes(v);

export function parseEventTypes(body: unknown): WebhookEventType[] {
  if (!Array.isArray(body)) throw new Error(msg('Expected a list of event types'));
  return body.flatMap((e: unknown) => {
    const v = record(e);
    return v && typeof v.type === 'string' ? [{ type: v.type, description: text(v.description), duressOnly: v.duressOnly === true }] : [];
  });
}

export function parseEndpoint(body: unknown): WebhookEndpoint | null {
  const v = record(body);
  if (!v || typeof v.id !== 'string' || typeof v.name !== 'string') return null;
  const last = record(v.lastDelivery);
  return {
    id: v.id,
    name: v.name,
    url: text(v.url),
    eventTypes: strings(v.eventTypes),
    teamIds: Array.isArray(v.teamIds) ? v.teamIds.filter((n): n is number => typeof n === 'number') : null,
    receivesDuress: v.receivesDuress === true,
    enabled: v.enabled === true,
    disabledAt: stringOrNull(v.disabledAt),
    disabledReason: stringOrNull(v.disabledReason),
    createdBy: typeof v.createdBy === 'number' ? v.createdBy : 0,
    createdAt: text(v.createdAt),
    lastDelivery:
      last && typeof last.deliveryId === 'string' && isStatus(last.status)
        ? {
            deliveryId: last.deliveryId,
            eventType: text(last.eventType),
            status: last.status,
            at: text(last.at),
            httpStatus: numberOrNull(last.httpStatus),
          }
        : null,
    pending: typeof v.pending === 'number' ? v.pending : 0,
  };
}

export function parseEndpoints(body: unknown): WebhookEndpoint[] {
  if (!Array.isArray(body)) throw new Error(msg('Expected a list of webhook endpoints'));
  return body.flatMap((e) => parseEndpoint(e) ?? []);
}

/** A new or rotated endpoint, with the secret the server never gives again. */
export function parseEndpointWithSecret(body: unknown): { endpoint: WebhookEndpoint; secret: string } {
  const v = record(body);
  const endpoint = parseEndpoint(v?.endpoint);
  if (!endpoint || typeof v?.secret !== 'string' || !v.secret) throw new Error(msg('Invalid webhook endpoint from the server'));
  return { endpoint, secret: v.secret };
}

function parseAttempt(body: unknown): WebhookAttempt | null {
  const v = record(body);
  if (!v || typeof v.attempt !== 'number' || !isOutcome(v.outcome)) return null;
  return {
    attempt: v.attempt,
    at: text(v.at),
    latencyMs: typeof v.latencyMs === 'number' ? v.latencyMs : 0,
    httpStatus: numberOrNull(v.httpStatus),
    responseExcerpt: stringOrNull(v.responseExcerpt),
    error: stringOrNull(v.error),
    outcome: v.outcome,
  };
}

export function parseDelivery(body: unknown): WebhookDelivery | null {
  const v = record(body);
  if (!v || typeof v.id !== 'string' || !isStatus(v.status)) return null;
  return {
    id: v.id,
    messageId: text(v.messageId),
    eventType: text(v.eventType),
    status: v.status,
    attempts: typeof v.attempts === 'number' ? v.attempts : 0,
    nextAttemptAt: stringOrNull(v.nextAttemptAt),
    lastHttpStatus: numberOrNull(v.lastHttpStatus),
    lastLatencyMs: numberOrNull(v.lastLatencyMs),
    lastError: stringOrNull(v.lastError),
    createdAt: text(v.createdAt),
    updatedAt: text(v.updatedAt),
    payload: text(v.payload),
    attemptLog: Array.isArray(v.attemptLog) ? v.attemptLog.flatMap((a) => parseAttempt(a) ?? []) : [],
  };
}

/** The payload as a person reads it: indented when it is JSON, as sent when it is not. */
export function prettyPayload(payload: string): string {
  try {
    return JSON.stringify(JSON.parse(payload), null, 2);
  } catch {
    return payload;
  }
}

/** Only a delivery that has stopped trying can be sent again: a pending one is still being tried. */
export const replayable = (d: Pick<WebhookDelivery, 'status'>) => d.status === 'failed' || d.status === 'canceled';

export const fetchEventTypes = async ({ signal }: { signal?: AbortSignal }) =>
  parseEventTypes(await api.get('/api/webhooks/event-types', { signal }));

export const fetchEndpoints = async ({ signal }: { signal?: AbortSignal }) =>
  parseEndpoints(await api.get('/api/webhooks/endpoints', { signal }));

export const createEndpoint = async (request: CreateWebhookEndpointRequest) =>
  parseEndpointWithSecret(await api.post('/api/webhooks/endpoints', request));

export async function updateEndpoint(id: string, request: UpdateWebhookEndpointRequest): Promise<WebhookEndpoint> {
  const endpoint = parseEndpoint(await api.patch(`/api/webhooks/endpoints/${encodeURIComponent(id)}`, request));
  if (!endpoint) throw new Error(msg('Invalid webhook endpoint from the server'));
  return endpoint;
}

export const rotateEndpointSecret = async (id: string) =>
  parseEndpointWithSecret(await api.post(`/api/webhooks/endpoints/${encodeURIComponent(id)}/rotate-secret`));

export const deleteEndpoint = async (id: string) => {
  await api.delete(`/api/webhooks/endpoints/${encodeURIComponent(id)}`);
};

export const sendTestEvent = async (id: string) => {
  await api.post(`/api/webhooks/endpoints/${encodeURIComponent(id)}/test`);
};

/** One page of an endpoint's log, newest first; `X-Next-Cursor` names the next. */
export async function fetchDeliveryPage({
  endpointId,
  status,
  cursor,
  signal,
}: {
  endpointId: string;
  status: WebhookDeliveryStatus | null;
  cursor: string | null;
  signal?: AbortSignal;
}): Promise<WebhookDeliveryPage> {
  const query = new URLSearchParams({ limit: String(DELIVERY_PAGE_SIZE) });
  if (status) query.set('status', status);
  if (cursor) query.set('cursor', cursor);
  const { body, headers } = await apiResponse(`/api/webhooks/endpoints/${encodeURIComponent(endpointId)}/deliveries?${query}`, { signal });
  if (!Array.isArray(body)) throw new Error(msg('Expected a list of webhook deliveries'));
  return { deliveries: body.flatMap((d) => parseDelivery(d) ?? []), nextCursor: headers.get('X-Next-Cursor') || null };
}

export const replayDelivery = async (id: string) => {
  await api.post(`/api/webhooks/deliveries/${encodeURIComponent(id)}/replay`);
};
