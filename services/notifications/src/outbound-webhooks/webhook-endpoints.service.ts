import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { CommandMap } from '@lws/contracts';
import { RpcError } from '@lws/messaging';
import { CLOCK, CONFIG, UnitOfWork, type BaseConfig, type Clock } from '@lws/platform';
import type { NotificationsConfig } from '../config';
import { DELIVERY_PRIORITY } from '../db/schema';
import { hostAddressesAllowed, type AddressPolicy } from '../outbound/public-address';
import { decodeDeliveryCursor, encodeDeliveryCursor } from './delivery-cursor';
import { DURESS_ONLY_TYPES, SUBSCRIBABLE_TYPES, TEST_EVENT_TYPE, WEBHOOK_EVENT_TYPES } from './event-catalogue';
import { disableEndpoints } from './finish-attempts';
import { newSigningSecret } from './signing';
import { urlProblem } from './webhook-http';
import {
  WebhookEndpointsRepository,
  type AttemptRow,
  type DeliveryRow,
  type EndpointRow,
  type EndpointSummary,
  type NewEndpointRow,
  type Visibility,
} from './webhook-endpoints.repository';
import { WebhookQueue } from './webhook-queue';
import { WebhookSecrets } from './webhook-secrets';
import { duressTypesAllowed } from './webhooks.schema';

type Req<K extends keyof CommandMap> = CommandMap[K]['request'];
type Reply<K extends keyof CommandMap> = CommandMap[K]['reply'];
type EndpointView = Reply<'notifications.webhook_endpoint.list.v1'>['endpoints'][number];
type DeliveryView = Reply<'notifications.webhook_delivery.list.v1'>['deliveries'][number];

/** How long a rotated-out secret keeps signing beside the new one. */
export const ROTATION_GRACE_MS = 24 * 3600_000;

const NOT_FOUND = () => new RpcError(404, 'Webhook endpoint not found', { field: 'endpointId', code: 'webhook_endpoint_not_found' });

function visibility(scope: Req<'notifications.webhook_endpoint.list.v1'>['scope']): Visibility {
  return { all: scope.all, teamIds: scope.teamIds };
}

/**
 * The commands on webhook endpoints and their deliveries. A caller sees and changes an endpoint
 * when their scope is every team, or when the endpoint is limited to teams all of which are theirs:
 * an endpoint of every team, or of a team they do not monitor, could tell them of workers they may
 * not see.
 */
@Injectable()
export class WebhookEndpointsService {
  private readonly policy: AddressPolicy;

  constructor(
    private readonly repo: WebhookEndpointsRepository,
    private readonly secrets: WebhookSecrets,
    private readonly queue: WebhookQueue,
    private readonly uow: UnitOfWork,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(CONFIG) config: NotificationsConfig & BaseConfig,
  ) {
    this.policy = { allowLoopback: config.WEBHOOKS_ALLOW_LOOPBACK };
  }

  eventTypes(): Reply<'notifications.webhook_event_type.list.v1'> {
    return {
      eventTypes: SUBSCRIBABLE_TYPES.map((type) => ({
        type,
        description: WEBHOOK_EVENT_TYPES[type],
        duressOnly: DURESS_ONLY_TYPES.has(type),
      })),
    };
  }

  async create(req: Req<'notifications.webhook_endpoint.create.v1'>): Promise<Reply<'notifications.webhook_endpoint.create.v1'>> {
    const url = await this.checkedUrl(req.url);
    const teamIds = this.teamsFor(req.scope, req.teams?.teamIds, !req.teams);
    const secret = newSigningSecret();
    const now = this.clock();
    const row: NewEndpointRow = {
      id: randomUUID(),
      name: req.name,
      url,
      secretSealed: this.secrets.seal(secret),
      eventTypes: req.eventTypes,
      teamIds,
      receivesDuress: req.receivesDuress === true,
      enabled: true,
      createdBy: req.actorId,
      createdAt: now,
      updatedAt: now,
    };
    const saved = await this.uow.run((tx) => this.repo.insert(tx, row));
    return { endpoint: endpointView({ endpoint: saved, pending: 0 }), secret };
  }

  async list(req: Req<'notifications.webhook_endpoint.list.v1'>): Promise<Reply<'notifications.webhook_endpoint.list.v1'>> {
    return { endpoints: (await this.repo.list(visibility(req.scope))).map(endpointView) };
  }

  async update(req: Req<'notifications.webhook_endpoint.update.v1'>): Promise<Reply<'notifications.webhook_endpoint.update.v1'>> {
    const url = req.url !== undefined ? await this.checkedUrl(req.url) : undefined;
    const v = visibility(req.scope);
    await this.uow.run(async (tx) => {
      const current = await this.repo.find(req.endpointId, v, tx, true);
      if (!current) throw NOT_FOUND();
      const now = this.clock();
      const eventTypes = req.eventTypes?.types ?? current.eventTypes;
      const receivesDuress = req.receivesDuress ?? current.receivesDuress;
      if (!duressTypesAllowed(eventTypes, receivesDuress)) {
        throw new RpcError(400, 'duress.raised.v1 goes only to an endpoint allowed duress (receivesDuress)', { field: 'eventTypes' });
      }
      const changes: Partial<NewEndpointRow> = {
        ...(req.name !== undefined ? { name: req.name } : {}),
        ...(url !== undefined ? { url } : {}),
        ...(req.eventTypes ? { eventTypes } : {}),
        ...(req.teams || req.allTeams ? { teamIds: this.teamsFor(req.scope, req.teams?.teamIds, false) } : {}),
        ...(req.receivesDuress !== undefined ? { receivesDuress } : {}),
        ...(req.enabled === true && !current.enabled ? { enabled: true, disabledAt: null, disabledReason: null } : {}),
        updatedAt: now,
      };
      await this.repo.update(tx, current.id, changes);
      if (req.enabled === false && current.enabled) await disableEndpoints(tx, [current.id], `Disabled by user ${req.actorId}`, now);
    });
    return { endpoint: endpointView((await this.repo.summary(req.endpointId))!) };
  }

  async rotateSecret(
    req: Req<'notifications.webhook_endpoint.rotate_secret.v1'>,
  ): Promise<Reply<'notifications.webhook_endpoint.rotate_secret.v1'>> {
    const secret = newSigningSecret();
    await this.uow.run(async (tx) => {
      const current = await this.repo.find(req.endpointId, visibility(req.scope), tx, true);
      if (!current) throw NOT_FOUND();
      const now = this.clock();
      // A secret that can no longer be opened (SECRETS_KEY changed) is not kept: it could not sign.
      const previousOpens = this.secrets.open(current.secretSealed) !== undefined;
      await this.repo.update(tx, current.id, {
        secretSealed: this.secrets.seal(secret),
        previousSecretSealed: previousOpens ? current.secretSealed : null,
        previousSecretUntil: previousOpens ? new Date(now.getTime() + ROTATION_GRACE_MS) : null,
        updatedAt: now,
      });
    });
    return { endpoint: endpointView((await this.repo.summary(req.endpointId))!), secret };
  }

  async delete(req: Req<'notifications.webhook_endpoint.delete.v1'>): Promise<Reply<'notifications.webhook_endpoint.delete.v1'>> {
    await this.uow.run(async (tx) => {
      const current = await this.repo.find(req.endpointId, visibility(req.scope), tx, true);
      if (!current) throw NOT_FOUND();
      await this.repo.delete(tx, current.id);
    });
    return { ok: true };
  }

  /** A webhook.test.v1 message to the endpoint alone, sent at once. */
  async test(req: Req<'notifications.webhook_endpoint.test.v1'>): Promise<Reply<'notifications.webhook_endpoint.test.v1'>> {
    return this.uow.run(async (tx, _emit, afterCommit) => {
      const endpoint = await this.repo.find(req.endpointId, visibility(req.scope), tx);
      if (!endpoint) throw NOT_FOUND();
      if (!endpoint.enabled) throw new RpcError(409, 'The endpoint is disabled: enable it first', { code: 'webhook_endpoint_disabled' });
      const sent = await this.queue.enqueueDirect(
        tx,
        endpoint.id,
        TEST_EVENT_TYPE,
        { endpointId: endpoint.id, requestedBy: req.actorId, message: 'A test event from LWS: your endpoint received and can verify it.' },
        { priority: DELIVERY_PRIORITY.reminder, afterCommit, duress: false },
      );
      if (!sent) throw new RpcError(409, 'The endpoint is disabled: enable it first', { code: 'webhook_endpoint_disabled' });
      return sent;
    });
  }

  async deliveries(req: Req<'notifications.webhook_delivery.list.v1'>): Promise<Reply<'notifications.webhook_delivery.list.v1'>> {
    const endpoint = await this.repo.find(req.endpointId, visibility(req.scope));
    if (!endpoint) throw NOT_FOUND();
    const after = req.cursor !== undefined ? decodeDeliveryCursor(req.cursor) : undefined;
    if (req.cursor !== undefined && !after) throw new RpcError(400, 'cursor is not one this list handed out', { field: 'cursor' });
    const rows = await this.repo.deliveries(endpoint.id, req.limit + 1, after, req.status);
    const page = rows.slice(0, req.limit);
    const attempts = new Map<string, AttemptRow[]>();
    for (const a of await this.repo.attempts(page.map((d) => d.id))) attempts.set(a.deliveryId, [...(attempts.get(a.deliveryId) ?? []), a]);
    const last = page.at(-1);
    return {
      deliveries: page.map((d) => deliveryView(d, attempts.get(d.id) ?? [])),
      ...(rows.length > req.limit && last ? { nextCursor: encodeDeliveryCursor({ at: last.createdAt, id: last.id }) } : {}),
    };
  }

  async replay(req: Req<'notifications.webhook_delivery.replay.v1'>): Promise<Reply<'notifications.webhook_delivery.replay.v1'>> {
    const v = visibility(req.scope);
    return this.uow.run(async (tx, _emit, afterCommit) => {
      let ids: string[];
      if (req.deliveryId !== undefined) {
        const found = await this.repo.delivery(tx, req.deliveryId, v);
        if (!found) throw new RpcError(404, 'Webhook delivery not found', { field: 'deliveryId', code: 'webhook_delivery_not_found' });
        if (!found.endpoint.enabled) {
          throw new RpcError(409, 'The endpoint is disabled: enable it first', { code: 'webhook_endpoint_disabled' });
        }
        ids = [found.deliveryId];
      } else {
        const messageId = req.messageId!;
        if (!(await this.repo.messageVisible(tx, messageId, v))) {
          throw new RpcError(404, 'Webhook message not found', { field: 'messageId', code: 'webhook_message_not_found' });
        }
        ids = await this.repo.replayableOfMessage(tx, messageId, v);
      }
      const requeued = await this.repo.requeue(tx, ids, this.clock());
      if (requeued.length > 0) afterCommit(() => this.queue.wakeSender());
      return { deliveryIds: requeued };
    });
  }

  /** Refuses (400, field url) a URL the sender may not POST to; answers it as stored. */
  private async checkedUrl(raw: string): Promise<string> {
    const problem = urlProblem(raw, this.policy);
    if (problem) throw new RpcError(400, problem, { field: 'url' });
    const url = new URL(raw);
    const host = url.hostname.toLowerCase();
    const addresses = await hostAddressesAllowed(host, this.policy);
    if (addresses === 'unresolved') throw new RpcError(400, `url's host ${host} could not be resolved`, { field: 'url' });
    if (addresses === 'forbidden') throw new RpcError(400, 'url must be on a public address', { field: 'url' });
    return url.toString();
  }

  /**
   * The teams an endpoint may be limited to. Every team (null) only for a caller of every team; a
   * caller limited to some teams gets theirs when none are asked for, and is refused any other.
   */
  private teamsFor(scope: Visibility, asked: readonly number[] | undefined, defaulted: boolean): number[] | null {
    if (asked === undefined) {
      if (scope.all) return null;
      if (!defaulted) throw new RpcError(403, "Only an administrator of every team can send every team's events", { field: 'allTeams' });
      if (scope.teamIds.length === 0) throw new RpcError(403, 'You monitor no team', { field: 'teams' });
      return [...scope.teamIds].sort((a, b) => a - b);
    }
    const outside = asked.filter((t) => !scope.all && !scope.teamIds.includes(t));
    if (outside.length > 0) throw new RpcError(403, `Team ${outside[0]} is not one of yours`, { field: 'teams' });
    return [...asked];
  }
}

export function endpointView(s: EndpointSummary): EndpointView {
  const e: EndpointRow = s.endpoint;
  return {
    id: e.id,
    name: e.name,
    url: e.url,
    eventTypes: e.eventTypes,
    ...(e.teamIds ? { teams: { teamIds: e.teamIds } } : {}),
    receivesDuress: e.receivesDuress,
    enabled: e.enabled,
    ...(e.disabledAt ? { disabledAt: e.disabledAt.toISOString() } : {}),
    ...(e.disabledReason ? { disabledReason: e.disabledReason } : {}),
    createdBy: e.createdBy,
    createdAt: e.createdAt.toISOString(),
    ...(s.last
      ? {
          lastDelivery: {
            deliveryId: s.last.deliveryId,
            eventType: s.last.eventType,
            status: s.last.status,
            at: s.last.at.toISOString(),
            ...(s.last.httpStatus !== null ? { httpStatus: s.last.httpStatus } : {}),
          },
        }
      : {}),
    pending: s.pending,
  };
}

function deliveryView(d: DeliveryRow, attempts: readonly AttemptRow[]): DeliveryView {
  return {
    id: d.id,
    messageId: d.messageId,
    eventType: d.eventType,
    status: d.status,
    attempts: d.attempts,
    ...(d.status === 'pending' && d.nextAttemptAt ? { nextAttemptAt: d.nextAttemptAt.toISOString() } : {}),
    ...(d.lastHttpStatus !== null ? { lastHttpStatus: d.lastHttpStatus } : {}),
    ...(d.lastLatencyMs !== null ? { lastLatencyMs: d.lastLatencyMs } : {}),
    ...(d.lastError !== null ? { lastError: d.lastError } : {}),
    createdAt: d.createdAt.toISOString(),
    updatedAt: d.updatedAt.toISOString(),
    payload: JSON.stringify(d.payload),
    attemptLog: attempts.map((a) => ({
      attempt: a.attempt,
      at: a.startedAt.toISOString(),
      latencyMs: a.latencyMs,
      ...(a.httpStatus !== null ? { httpStatus: a.httpStatus } : {}),
      ...(a.responseExcerpt !== null ? { responseExcerpt: a.responseExcerpt } : {}),
      ...(a.error !== null ? { error: a.error } : {}),
      outcome: a.outcome,
    })),
  };
}
