import { Body, Controller, Get, HttpCode, Inject, Post, Req } from '@nestjs/common';
import type { CommandMap } from '@lws/contracts';
import type { RpcClient } from '@lws/messaging';
import { actorOf } from '../common/access';
import { RPC } from '../common/rpc';
import type { AuthedRequest } from '../common/session.guard';
import { parseInput } from '../common/validation';
import { browserMessage } from './alarm.view';
import { alarmMessageSchema } from './escalation.schema';

type Thread = CommandMap['escalation.alarm.worker_thread.v1']['reply'];

/** The worker's thread as their screen shows it, or `{ thread: null }` when no alarm of theirs is open. */
export function browserThread({ thread }: Thread) {
  return { thread: thread ? { alarmId: thread.alarmId, kind: thread.kind, messages: thread.messages.map(browserMessage) } : null };
}

/**
 * The signed-in worker's side of the messages during their alarm (docs/api-escalation.md): read,
 * answer, and say their screen has shown them. Never a duress alarm's: whoever holds the phone
 * must see nothing of it.
 */
@Controller('api/profile/alarm-messages')
export class OwnAlarmMessagesController {
  constructor(@Inject(RPC) private readonly rpc: RpcClient) {}

  @Get()
  async thread(@Req() req: AuthedRequest) {
    return browserThread(await this.rpc.send('escalation.alarm.worker_thread.v1', { userId: actorOf(req).userId }));
  }

  /** 409 when no alarm of theirs is open. */
  @Post()
  @HttpCode(201)
  async reply(@Body() body: unknown, @Req() req: AuthedRequest) {
    const { text } = parseInput(alarmMessageSchema, body);
    return browserThread(await this.rpc.send('escalation.alarm.worker_message.v1', { userId: actorOf(req).userId, text }));
  }

  /** Their screen showed the monitors' messages: no SMS of them follows. */
  @Post('seen')
  @HttpCode(200)
  async seen(@Req() req: AuthedRequest) {
    return browserThread(await this.rpc.send('escalation.alarm.worker_seen.v1', { userId: actorOf(req).userId }));
  }
}
