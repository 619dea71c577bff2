import { Body, Controller, Get, HttpCode, Inject, NotFoundException, Param, Post, Query, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import type { RpcClient } from '@lws/messaging';
import { actorOf } from '../common/access';
import { RPC } from '../common/rpc';
import { Roles, type AuthedRequest } from '../common/session.guard';
import { parseInput } from '../common/validation';
import { NEXT_CURSOR_HEADER } from '../shifts/dashboards.controller';
import { alarmScope } from './alarm-scope';
import { browserAlarm } from './alarm.view';
import {
  AlarmIdPipe,
  alarmListQuery,
  alarmMessageSchema,
  alarmNoteSchema,
  DEFAULT_ALARM_LIMIT,
  resolveAlarmSchema,
} from './escalation.schema';
import { TokenScope } from '../api-tokens/token-scope';

export const NO_SEALED_NOTE = 'This alarm has no sealed visit note';

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
  @TokenScope('alarms:read')
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
  @TokenScope('alarms:write')
  @HttpCode(200)
  async acknowledge(@Param('id', new AlarmIdPipe()) id: string, @Req() req: AuthedRequest) {
    const actor = actorOf(req);
    const { alarm } = await this.rpc.send('escalation.alarm.acknowledge.v1', {
      alarmId: id,
      byUserId: actor.userId,
      ...(actor.viaToken ? { viaToken: actor.viaToken } : {}),
      ...(await alarmScope(this.rpc, actor)),
    });
    return browserAlarm(alarm);
  }

  /**
   * Closes the alarm with its outcome (genuine with a severity, false with a reason, or a test) and
   * a note, acknowledging it too if nobody had.
   */
  @Post(':id/resolve')
  @TokenScope('alarms:write')
  @HttpCode(200)
  async resolve(@Param('id', new AlarmIdPipe()) id: string, @Body() body: unknown, @Req() req: AuthedRequest) {
    const outcome = parseInput(resolveAlarmSchema, body);
    const actor = actorOf(req);
    const { alarm } = await this.rpc.send('escalation.alarm.resolve.v1', {
      alarmId: id,
      byUserId: actor.userId,
      ...outcome,
      ...(actor.viaToken ? { viaToken: actor.viaToken } : {}),
      ...(await alarmScope(this.rpc, actor)),
    });
    return browserAlarm(alarm);
  }

  /**
   * A note on the alarm's history, open or resolved: what the monitor or the receiving centre did
   * or found ("Police attending, ETA 10 min"). Monitors read it; the worker's screen never does.
   */
  @Post(':id/notes')
  @TokenScope('alarms:write')
  @HttpCode(201)
  async addNote(@Param('id', new AlarmIdPipe()) id: string, @Body() body: unknown, @Req() req: AuthedRequest) {
    const { text } = parseInput(alarmNoteSchema, body);
    const actor = actorOf(req);
    const { alarm } = await this.rpc.send('escalation.alarm.add_note.v1', {
      alarmId: id,
      byUserId: actor.userId,
      text,
      ...(actor.viaToken ? { viaToken: actor.viaToken } : {}),
      ...(await alarmScope(this.rpc, actor)),
    });
    return browserAlarm(alarm);
  }

  /**
   * The sealed note of the timed visit the alarm opened on (its timer ran out, or an emergency
   * during it), for those who may see the alarm. Each read is on the activity log and the alarm's
   * history, naming who read it. 404 when the alarm has no sealed note; 410 once deleted with the
   * visit's data, 30 days after the shift ended.
   */
  @Post(':id/visit-note')
  @TokenScope('alarms:write')
  @HttpCode(200)
  async revealVisitNote(@Param('id', new AlarmIdPipe()) id: string, @Req() req: AuthedRequest) {
    const actor = actorOf(req);
    const { userId, visit } = await this.rpc.send('escalation.alarm.visit.v1', { alarmId: id, ...(await alarmScope(this.rpc, actor)) });
    if (!visit?.hasNote) throw new NotFoundException({ message: NO_SEALED_NOTE, code: 'no_note' });
    const { note } = await this.rpc.send('shifts.visit.reveal_note.v1', {
      visitId: visit.id,
      userId,
      alarmId: id,
      byUserId: actor.userId,
      ...(actor.viaToken ? { viaToken: actor.viaToken } : {}),
    });
    return { note };
  }

  /**
   * A message to the worker during the alarm: by push, and by SMS when their screen has not shown
   * it within a minute. 409 on a resolved alarm, and on a duress alarm (or one cancelled with the
   * duress PIN), whose worker is never written to.
   */
  @Post(':id/messages')
  @TokenScope('alarms:write')
  @HttpCode(201)
  async sendMessage(@Param('id', new AlarmIdPipe()) id: string, @Body() body: unknown, @Req() req: AuthedRequest) {
    const { text } = parseInput(alarmMessageSchema, body);
    const actor = actorOf(req);
    const { alarm } = await this.rpc.send('escalation.alarm.send_message.v1', {
      alarmId: id,
      byUserId: actor.userId,
      text,
      ...(actor.viaToken ? { viaToken: actor.viaToken } : {}),
      ...(await alarmScope(this.rpc, actor)),
    });
    return browserAlarm(alarm);
  }
}
