import { Body, Controller, ForbiddenException, Get, Inject, Post, Query, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import type { RpcClient } from '@lws/messaging';
import { actorOf, authorizeUserAccess, scopeField, workerScope } from '../common/access';
import { RPC } from '../common/rpc';
import type { AuthedRequest } from '../common/session.guard';
import { parseInput } from '../common/validation';
import { DEFAULT_ACTIVITY_LIMIT, activityListQuery, recordEntrySchema, WORKER_ENTRY_TYPES } from './activity.schema';
import { browserEntry } from './activity.view';
import { TokenScope } from '../api-tokens/token-scope';

export const NEXT_CURSOR_HEADER = 'X-Next-Cursor';
export const NOT_YOURS = 'Not allowed for your role';
export const WORKER_TYPES_ONLY = `Workers may record only ${WORKER_ENTRY_TYPES.join(', ')} entries`;

/**
 * The activity log (spec sections 2 and 7). The superadmin reads everyone's, an admin their teams'
 * workers'; a worker reads and writes only their own.
 */
@Controller('api/activity-logs')
export class ActivityController {
  constructor(@Inject(RPC) private readonly rpc: RpcClient) {}

  /** Newest first; `X-Next-Cursor` when older entries follow. */
  @Get()
  @TokenScope('shifts:read')
  async list(@Query() query: unknown, @Req() req: AuthedRequest, @Res({ passthrough: true }) res: Response) {
    const { userId, limit, cursor } = parseInput(activityListQuery, query);
    const actor = actorOf(req);
    if (actor.role === 'worker' && userId !== undefined && userId !== actor.userId) throw new ForbiddenException({ message: NOT_YOURS });
    const only = actor.role === 'worker' ? actor.userId : userId;
    // An admin of some teams reads their workers' entries and their own; entries of nobody in
    // particular (system alerts) are the superadmin's.
    const scope = await workerScope(this.rpc, actor);
    const reply = await this.rpc.send('audit.entry.list.v1', {
      limit: limit ?? DEFAULT_ACTIVITY_LIMIT,
      ...(cursor ? { cursor } : {}),
      ...(only !== undefined ? { userId: only } : {}),
      ...scopeField(scope && { userIds: [...scope.userIds, actor.userId] }),
      // A worker's own log leaves out what only monitors may read, above all a duress alarm's record.
      ...(actor.role === 'worker' ? { workerView: true } : {}),
    });
    if (reply.nextCursor) res.setHeader(NEXT_CURSOR_HEADER, reply.nextCursor);
    return reply.entries.map(browserEntry);
  }

  /**
   * An entry a client writes. The username is the account's own whatever the body says, so an
   * entry cannot be passed off under another name.
   */
  @Post()
  async record(@Body() body: unknown, @Req() req: AuthedRequest) {
    const input = parseInput(recordEntrySchema, body);
    const actor = actorOf(req);
    const user = await authorizeUserAccess(this.rpc, actor, input.userId);
    if (actor.role === 'worker' && !WORKER_ENTRY_TYPES.includes(input.type)) {
      throw new ForbiddenException({ message: WORKER_TYPES_ONLY, field: 'type' });
    }
    const { entry } = await this.rpc.send('audit.entry.record.v1', {
      userId: user.id,
      username: user.username,
      type: input.type,
      details: input.details,
      ...(input.location ? { location: input.location } : {}),
    });
    return browserEntry(entry);
  }
}
