import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Patch, Post, Query, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import type { CommandMap } from '@lws/contracts';
import type { RpcClient } from '@lws/messaging';
import { createWebhookEndpointSchema, updateWebhookEndpointSchema, webhookDeliveriesQuery } from '@lws/schemas';
import { TokenScope } from '../api-tokens/token-scope';
import { adminTeams, actorOf } from '../common/access';
import { RPC } from '../common/rpc';
import { Roles, type AuthedRequest } from '../common/session.guard';
import { parseInput } from '../common/validation';
import { NEXT_CURSOR_HEADER } from '../shifts/dashboards.controller';
import { UuidPipe } from './uuid.pipe';

type EndpointView = CommandMap['notifications.webhook_endpoint.list.v1']['reply']['endpoints'][number];
type DeliveryView = CommandMap['notifications.webhook_delivery.list.v1']['reply']['deliveries'][number];

/** An endpoint as screens and machines see it: every field present, null where there is nothing; never its secret. */
export function browserEndpoint(e: EndpointView) {
  return {
    id: e.id,
    name: e.name,
    url: e.url,
    eventTypes: e.eventTypes,
    teamIds: e.teams?.teamIds ?? null,
    receivesDuress: e.receivesDuress,
    enabled: e.enabled,
    disabledAt: e.disabledAt ?? null,
    disabledReason: e.disabledReason ?? null,
    createdBy: e.createdBy,
    createdAt: e.createdAt,
    lastDelivery: e.lastDelivery
      ? {
          deliveryId: e.lastDelivery.deliveryId,
          eventType: e.lastDelivery.eventType,
          status: e.lastDelivery.status,
          at: e.lastDelivery.at,
          httpStatus: e.lastDelivery.httpStatus ?? null,
        }
      : null,
    pending: e.pending,
  };
}

export function browserDelivery(d: DeliveryView) {
  return {
    id: d.id,
    messageId: d.messageId,
    eventType: d.eventType,
    status: d.status,
    attempts: d.attempts,
    nextAttemptAt: d.nextAttemptAt ?? null,
    lastHttpStatus: d.lastHttpStatus ?? null,
    lastLatencyMs: d.lastLatencyMs ?? null,
    lastError: d.lastError ?? null,
    createdAt: d.createdAt,
    updatedAt: d.updatedAt,
    payload: d.payload,
    attemptLog: d.attemptLog.map((a) => ({
      attempt: a.attempt,
      at: a.at,
      latencyMs: a.latencyMs,
      httpStatus: a.httpStatus ?? null,
      responseExcerpt: a.responseExcerpt ?? null,
      error: a.error ?? null,
      outcome: a.outcome,
    })),
  };
}

/**
 * Signed outbound webhooks (docs/webhooks.md): the endpoints an organisation's systems receive
 * LWS's events at, and the log of every delivery. An admin manages the endpoints of their teams,
 * the superadmin every one; a machine with a `webhooks:manage` token does what its creator may.
 */
@Controller('api/webhooks')
@Roles('admin', 'superadmin')
export class WebhooksController {
  constructor(@Inject(RPC) private readonly rpc: RpcClient) {}

  @Get('event-types')
  @TokenScope('webhooks:manage')
  async eventTypes() {
    const { eventTypes } = await this.rpc.send('notifications.webhook_event_type.list.v1', {});
    return eventTypes;
  }

  @Get('endpoints')
  @TokenScope('webhooks:manage')
  async list(@Req() req: AuthedRequest) {
    const { endpoints } = await this.rpc.send('notifications.webhook_endpoint.list.v1', await this.caller(req));
    return endpoints.map(browserEndpoint);
  }

  /** 201 with the signing secret (`whsec_…`), shown this once. */
  @Post('endpoints')
  @TokenScope('webhooks:manage')
  async create(@Body() body: unknown, @Req() req: AuthedRequest) {
    const { teamIds, ...input } = parseInput(createWebhookEndpointSchema, body);
    const { endpoint, secret } = await this.rpc.send('notifications.webhook_endpoint.create.v1', {
      ...(await this.caller(req)),
      ...input,
      ...(teamIds ? { teams: { teamIds } } : {}),
    });
    return { endpoint: browserEndpoint(endpoint), secret };
  }

  /** Disabling (`enabled: false`) cancels what waits for it; enabling again sends new events only. */
  @Patch('endpoints/:id')
  @TokenScope('webhooks:manage')
  async update(@Param('id', new UuidPipe()) id: string, @Body() body: unknown, @Req() req: AuthedRequest) {
    const { teamIds, eventTypes, ...input } = parseInput(updateWebhookEndpointSchema, body);
    const { endpoint } = await this.rpc.send('notifications.webhook_endpoint.update.v1', {
      ...(await this.caller(req)),
      endpointId: id,
      ...input,
      ...(teamIds ? { teams: { teamIds } } : {}),
      ...(eventTypes ? { eventTypes: { types: eventTypes } } : {}),
    });
    return browserEndpoint(endpoint);
  }

  /** A new secret, shown this once; the old one signs beside it for 24 hours. */
  @Post('endpoints/:id/rotate-secret')
  @TokenScope('webhooks:manage')
  @HttpCode(200)
  async rotate(@Param('id', new UuidPipe()) id: string, @Req() req: AuthedRequest) {
    const { endpoint, secret } = await this.rpc.send('notifications.webhook_endpoint.rotate_secret.v1', {
      ...(await this.caller(req)),
      endpointId: id,
    });
    return { endpoint: browserEndpoint(endpoint), secret };
  }

  @Delete('endpoints/:id')
  @TokenScope('webhooks:manage')
  remove(@Param('id', new UuidPipe()) id: string, @Req() req: AuthedRequest) {
    return this.caller(req).then((c) => this.rpc.send('notifications.webhook_endpoint.delete.v1', { ...c, endpointId: id }));
  }

  /** Sends `webhook.test.v1` to the endpoint now: its delivery shows in the log like any other. */
  @Post('endpoints/:id/test')
  @TokenScope('webhooks:manage')
  @HttpCode(202)
  async test(@Param('id', new UuidPipe()) id: string, @Req() req: AuthedRequest) {
    return this.rpc.send('notifications.webhook_endpoint.test.v1', { ...(await this.caller(req)), endpointId: id });
  }

  /** The delivery log, newest first; `X-Next-Cursor` carries the next page's cursor. */
  @Get('endpoints/:id/deliveries')
  @TokenScope('webhooks:manage')
  async deliveries(
    @Param('id', new UuidPipe()) id: string,
    @Query() query: unknown,
    @Req() req: AuthedRequest,
    @Res({ passthrough: true }) res: Response,
  ) {
    const { limit, cursor, status } = parseInput(webhookDeliveriesQuery, query);
    const reply = await this.rpc.send('notifications.webhook_delivery.list.v1', {
      ...(await this.caller(req)),
      endpointId: id,
      limit: limit ?? 20,
      ...(cursor ? { cursor } : {}),
      ...(status ? { status } : {}),
    });
    if (reply.nextCursor) res.setHeader(NEXT_CURSOR_HEADER, reply.nextCursor);
    return reply.deliveries.map(browserDelivery);
  }

  /** Sends a failed or canceled delivery again at once, on a new run of the retry schedule. */
  @Post('deliveries/:id/replay')
  @TokenScope('webhooks:manage')
  @HttpCode(200)
  async replay(@Param('id', new UuidPipe()) id: string, @Req() req: AuthedRequest) {
    return this.rpc.send('notifications.webhook_delivery.replay.v1', { ...(await this.caller(req)), deliveryId: id });
  }

  /** Who asks, and the teams notifications may let them see: every team for the superadmin. */
  private async caller(req: AuthedRequest) {
    const actor = actorOf(req);
    const teams = await adminTeams(this.rpc, actor, false);
    return { actorId: actor.userId, scope: !teams || teams.all ? { all: true, teamIds: [] } : { all: false, teamIds: teams.teamIds } };
  }
}
