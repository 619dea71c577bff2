import { Body, Controller, Get, Inject, Param, Post, Req } from '@nestjs/common';
import type { CheckInRequestBatch } from '@lws/contracts';
import type { RpcClient } from '@lws/messaging';
import { CLOCK, type Clock } from '@lws/platform';
import { TokenScope } from '../api-tokens/token-scope';
import { actorOf } from '../common/access';
import { RPC } from '../common/rpc';
import { Roles, type AuthedRequest } from '../common/session.guard';
import { UuidPipe } from '../webhooks/uuid.pipe';
import { alarmScope } from './alarm-scope';
import { parseCheckInRequest } from './escalation.schema';

const DAY_MS = 86_400_000;
/** How many of the last day's batches the monitors' card lists. */
const RECENT_BATCHES = 20;

/** A batch as the browser sees it: every field present, with the count of workers who answered. */
export function browserCheckInRequest(b: CheckInRequestBatch) {
  return {
    id: b.id,
    requestedBy: b.requestedBy,
    requestedByName: b.requestedByName ?? null,
    requestedAt: b.requestedAt,
    dueAt: b.dueAt,
    teamId: b.teamId ?? null,
    answered: b.workers.filter((w) => w.state === 'answered').length,
    total: b.workers.length,
    workers: b.workers.map((w) => ({
      requestId: w.requestId,
      userId: w.userId,
      name: w.name ?? null,
      state: w.state,
      answeredAt: w.answeredAt ?? null,
      alarmId: w.alarmId ?? null,
    })),
  };
}

/**
 * "Check in now" (docs/api-escalation.md): a monitor asks one worker, or every worker of a team on
 * shift, to check in; unanswered in time, a missed check-in alarm opens. An admin asks and sees
 * the workers of their teams only.
 */
@Controller('api')
export class CheckInRequestsController {
  constructor(
    @Inject(RPC) private readonly rpc: RpcClient,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Post('check-in-requests')
  @Roles('admin', 'superadmin')
  @TokenScope('alarms:write')
  async create(@Body() body: unknown, @Req() req: AuthedRequest) {
    const ask = parseCheckInRequest(body);
    const actor = actorOf(req);
    const { batch } = await this.rpc.send('escalation.checkin_request.create.v1', {
      byUserId: actor.userId,
      ...ask,
      ...(actor.viaToken ? { viaToken: actor.viaToken } : {}),
      ...(await alarmScope(this.rpc, actor)),
    });
    return browserCheckInRequest(batch);
  }

  /** The last day's batches, newest first, each with only the caller's workers. */
  @Get('check-in-requests')
  @Roles('admin', 'superadmin')
  @TokenScope('alarms:read')
  async list(@Req() req: AuthedRequest) {
    const { batches } = await this.rpc.send('escalation.checkin_request.list.v1', {
      since: new Date(this.clock().getTime() - DAY_MS).toISOString(),
      limit: RECENT_BATCHES,
      ...(await alarmScope(this.rpc, actorOf(req))),
    });
    return batches.map(browserCheckInRequest);
  }

  @Get('check-in-requests/:id')
  @Roles('admin', 'superadmin')
  @TokenScope('alarms:read')
  async get(@Param('id', new UuidPipe()) id: string, @Req() req: AuthedRequest) {
    const { batch } = await this.rpc.send('escalation.checkin_request.get.v1', {
      batchId: id,
      ...(await alarmScope(this.rpc, actorOf(req))),
    });
    return browserCheckInRequest(batch);
  }

  /** The signed-in worker's request still waiting for their check-in, or `{ request: null }`. */
  @Get('profile/check-in-request')
  async own(@Req() req: AuthedRequest) {
    const { request } = await this.rpc.send('escalation.checkin_request.own.v1', { userId: actorOf(req).userId });
    return {
      request: request
        ? { id: request.id, requestedAt: request.requestedAt, dueAt: request.dueAt, requestedByName: request.requestedByName ?? null }
        : null,
    };
  }
}
