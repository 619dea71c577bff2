import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post, Put, Query, Req } from '@nestjs/common';
import type { RpcClient } from '@lws/messaging';
import { ON_CALL_TIMELINE_MAX_DAYS, onCallAtQuery, onCallOverrideSchema, onCallTimelineQuery, putOnCallScheduleSchema } from '@lws/schemas';
import { RPC } from '../common/rpc';
import { Roles, type AuthedRequest } from '../common/session.guard';
import { parseInput } from '../common/validation';
import { UuidPipe } from '../webhooks/uuid.pipe';
import { browserTeam, teamId, visibleTeam } from './teams.controller';

class OverrideIdPipe extends UuidPipe {
  protected override readonly field = 'overrideId';
}

const DAY_MS = 86_400_000;
/** A timeline asked for without a range: the next 14 days, the editor's two weeks. */
const DEFAULT_TIMELINE_DAYS = 14;

/**
 * A team's on-call rota (docs/api-teams.md): the superadmin sets it and its overrides; the team's
 * monitors and deputies read who is on call and the resolved timeline. Identity resolves it.
 */
@Controller('api/teams/:id')
export class OnCallController {
  constructor(@Inject(RPC) private readonly rpc: RpcClient) {}

  @Get('on-call')
  @Roles('admin', 'superadmin')
  async now(@Param('id', teamId()) id: number, @Query() query: unknown, @Req() req: AuthedRequest) {
    const { at } = parseInput(onCallAtQuery, query);
    await visibleTeam(this.rpc, id, req);
    return this.rpc.send('identity.team.on_call.v1', { teamId: id, ...(at ? { at: new Date(at).toISOString() } : {}) });
  }

  @Get('on-call/timeline')
  @Roles('admin', 'superadmin')
  async timeline(@Param('id', teamId()) id: number, @Query() query: unknown, @Req() req: AuthedRequest) {
    const q = parseInput(onCallTimelineQuery, query);
    await visibleTeam(this.rpc, id, req);
    const from = q.from ? new Date(q.from) : new Date();
    const to = q.to ? new Date(q.to) : new Date(from.getTime() + DEFAULT_TIMELINE_DAYS * DAY_MS);
    if (to.getTime() - from.getTime() > ON_CALL_TIMELINE_MAX_DAYS * DAY_MS || to <= from) {
      // Only one end given: the other is the default's, which may not fit.
      parseInput(onCallTimelineQuery, { from: from.toISOString(), to: to.toISOString() });
    }
    return this.rpc.send('identity.team.on_call_timeline.v1', { teamId: id, from: from.toISOString(), to: to.toISOString() });
  }

  /** Sets the rota (schedule null: none) and whether a shift needs cover; its overrides stay. */
  @Put('on-call-schedule')
  @Roles('superadmin')
  async put(@Param('id', teamId()) id: number, @Body() body: unknown, @Req() req: AuthedRequest) {
    const input = parseInput(putOnCallScheduleSchema, body);
    const { team } = await this.rpc.send('identity.team.set_on_call.v1', {
      teamId: id,
      ...(input.schedule ? { schedule: JSON.stringify(input.schedule) } : {}),
      coverRequired: input.coverRequired,
      actorId: req.session!.userId,
    });
    return browserTeam(team);
  }

  @Post('on-call/overrides')
  @Roles('superadmin')
  async addOverride(@Param('id', teamId()) id: number, @Body() body: unknown, @Req() req: AuthedRequest) {
    const input = parseInput(onCallOverrideSchema, body);
    const { override } = await this.rpc.send('identity.team.add_on_call_override.v1', {
      teamId: id,
      layer: input.layer,
      userId: input.userId,
      start: new Date(input.start).toISOString(),
      end: new Date(input.end).toISOString(),
      actorId: req.session!.userId,
    });
    return override;
  }

  @Delete('on-call/overrides/:overrideId')
  @HttpCode(200)
  @Roles('superadmin')
  async removeOverride(
    @Param('id', teamId()) id: number,
    @Param('overrideId', OverrideIdPipe) overrideId: string,
    @Req() req: AuthedRequest,
  ) {
    await this.rpc.send('identity.team.remove_on_call_override.v1', { teamId: id, overrideId, actorId: req.session!.userId });
    return { ok: true as const };
  }
}
