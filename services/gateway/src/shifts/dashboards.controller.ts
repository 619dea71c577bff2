import { Controller, Get, Inject, Query, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import type { RpcClient } from '@lws/messaging';
import { actorOf, scopeField, workerScope } from '../common/access';
import { RPC } from '../common/rpc';
import { Roles, type AuthedRequest } from '../common/session.guard';
import { parseInput } from '../common/validation';
import { dashboardQuery, DEFAULT_LIST_LIMIT, workerListQuery } from './shifts.schema';
import { browserWorker } from './worker.view';
import { TokenScope } from '../api-tokens/token-scope';

export const NEXT_CURSOR_HEADER = 'X-Next-Cursor';

/** The monitors' lists (spec section 2, Worker Dashboard), a page at a time; an admin's show their teams' workers. */
@Controller('api')
@Roles('admin', 'superadmin')
export class DashboardsController {
  constructor(@Inject(RPC) private readonly rpc: RpcClient) {}

  /** On shift. */
  @Get('workers/active')
  @TokenScope('shifts:read')
  active(@Query() query: unknown, @Req() req: AuthedRequest, @Res({ passthrough: true }) res: Response) {
    return this.page('active', query, req, res);
  }

  /** On shift, next check-in less than 15 minutes away and not passed. */
  @Get('workers/due')
  @TokenScope('shifts:read')
  due(@Query() query: unknown, @Req() req: AuthedRequest, @Res({ passthrough: true }) res: Response) {
    return this.page('due', query, req, res);
  }

  /** On shift, next check-in passed. */
  @Get('workers/missed')
  @TokenScope('shifts:read')
  missed(@Query() query: unknown, @Req() req: AuthedRequest, @Res({ passthrough: true }) res: Response) {
    return this.page('missed', query, req, res);
  }

  /** The first page of each list at one instant, with that instant. */
  @Get('dashboard-data')
  @TokenScope('shifts:read')
  async dashboard(@Query() query: unknown, @Req() req: AuthedRequest) {
    const { limit } = parseInput(dashboardQuery, query);
    const scope = await workerScope(this.rpc, actorOf(req));
    const reply = await this.rpc.send('shifts.dashboard.get.v1', { limit: limit ?? DEFAULT_LIST_LIMIT, ...scopeField(scope) });
    return {
      active: reply.active.map(browserWorker),
      due: reply.due.map(browserWorker),
      missed: reply.missed.map(browserWorker),
      timestamp: reply.now,
    };
  }

  private async page(list: 'active' | 'due' | 'missed', query: unknown, req: AuthedRequest, res: Response) {
    const { limit, cursor } = parseInput(workerListQuery, query);
    const scope = await workerScope(this.rpc, actorOf(req));
    const reply = await this.rpc.send('shifts.worker.list.v1', {
      list,
      limit: limit ?? DEFAULT_LIST_LIMIT,
      ...(cursor ? { cursor } : {}),
      ...scopeField(scope),
    });
    if (reply.nextCursor) res.setHeader(NEXT_CURSOR_HEADER, reply.nextCursor);
    return reply.workers.map(browserWorker);
  }
}
