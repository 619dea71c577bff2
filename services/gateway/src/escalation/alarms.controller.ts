import { Body, Controller, Get, HttpCode, Inject, Param, Post, Query, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import type { RpcClient } from '@lws/messaging';
import { actorOf } from '../common/access';
import { RPC } from '../common/rpc';
import { Roles, type AuthedRequest } from '../common/session.guard';
import { parseInput } from '../common/validation';
import { NEXT_CURSOR_HEADER } from '../shifts/dashboards.controller';
import { alarmScope } from './alarm-scope';
import { browserAlarm } from './alarm.view';
import { AlarmIdPipe, alarmListQuery, DEFAULT_ALARM_LIMIT, resolveAlarmSchema } from './escalation.schema';

/**
 * Alarms of missed check-ins and emergencies, and the monitors who own them until resolved. An admin
 * sees and answers the alarms of their teams (the worker's team when the alarm opened); another
 * team's alarm is a 404.
 */
@Controller('api/alarms')
@Roles('admin', 'superadmin')
export class AlarmsController {
  constructor(@Inject(RPC) private readonly rpc: RpcClient) {}

  /** Newest first; open (not yet resolved) unless `open=false`. */
  @Get()
  async list(@Query() query: unknown, @Req() req: AuthedRequest, @Res({ passthrough: true }) res: Response) {
    const { open, limit, cursor } = parseInput(alarmListQuery, query);
    const reply = await this.rpc.send('escalation.alarm.list.v1', {
      openOnly: open,
      limit: limit ?? DEFAULT_ALARM_LIMIT,
      ...(cursor ? { cursor } : {}),
      ...(await alarmScope(this.rpc, actorOf(req))),
    });
    if (reply.nextCursor) res.setHeader(NEXT_CURSOR_HEADER, reply.nextCursor);
    return reply.alarms.map(browserAlarm);
  }

  /** The signed-in monitor takes the alarm; acknowledging again answers the first acknowledgement. */
  @Post(':id/acknowledge')
  @HttpCode(200)
  async acknowledge(@Param('id', new AlarmIdPipe()) id: string, @Req() req: AuthedRequest) {
    const actor = actorOf(req);
    const { alarm } = await this.rpc.send('escalation.alarm.acknowledge.v1', {
      alarmId: id,
      byUserId: actor.userId,
      ...(await alarmScope(this.rpc, actor)),
    });
    return browserAlarm(alarm);
  }

  /** Closes the alarm with a verdict and a note (acknowledging it too, if nobody had). */
  @Post(':id/resolve')
  @HttpCode(200)
  async resolve(@Param('id', new AlarmIdPipe()) id: string, @Body() body: unknown, @Req() req: AuthedRequest) {
    const { verdict, note } = parseInput(resolveAlarmSchema, body);
    const actor = actorOf(req);
    const { alarm } = await this.rpc.send('escalation.alarm.resolve.v1', {
      alarmId: id,
      byUserId: actor.userId,
      verdict,
      note,
      ...(await alarmScope(this.rpc, actor)),
    });
    return browserAlarm(alarm);
  }
}
