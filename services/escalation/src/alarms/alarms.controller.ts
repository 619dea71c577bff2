import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import type { CommandMap } from '@lws/contracts';
import { Command } from '@lws/messaging';
import { AlarmCommands } from './alarm-commands';
import { AlarmMessages } from './alarm-messages';
import { AlarmViews } from './alarm-views';
import { VisitNoteReads } from './visit-notes';

type Req<P extends keyof CommandMap> = CommandMap[P]['request'];

@Controller()
export class AlarmsController {
  constructor(
    private readonly commands: AlarmCommands,
    private readonly views: AlarmViews,
    private readonly messages: AlarmMessages,
    private readonly visits: VisitNoteReads,
  ) {}

  @Command('escalation.alarm.visit.v1')
  visit(@Payload() req: Req<'escalation.alarm.visit.v1'>) {
    return this.visits.visitOf(req);
  }

  @Command('escalation.alarm.list.v1')
  list(@Payload() req: Req<'escalation.alarm.list.v1'>) {
    return this.views.list(req);
  }

  @Command('escalation.alarm.acknowledge.v1')
  acknowledge(@Payload() req: Req<'escalation.alarm.acknowledge.v1'>) {
    return this.commands.acknowledge(req);
  }

  @Command('escalation.alarm.resolve.v1')
  resolve(@Payload() req: Req<'escalation.alarm.resolve.v1'>) {
    return this.commands.resolve(req);
  }

  @Command('escalation.alarm.add_note.v1')
  addNote(@Payload() req: Req<'escalation.alarm.add_note.v1'>) {
    return this.commands.addNote(req);
  }

  @Command('escalation.alarm.own.v1')
  own(@Payload() req: Req<'escalation.alarm.own.v1'>) {
    return this.commands.own(req);
  }

  @Command('escalation.alarm.mark_safe.v1')
  markSafe(@Payload() req: Req<'escalation.alarm.mark_safe.v1'>) {
    return this.commands.markSafe(req);
  }

  @Command('escalation.alarm.send_message.v1')
  sendMessage(@Payload() req: Req<'escalation.alarm.send_message.v1'>) {
    return this.messages.send(req);
  }

  @Command('escalation.alarm.worker_thread.v1')
  workerThread(@Payload() req: Req<'escalation.alarm.worker_thread.v1'>) {
    return this.messages.thread(req);
  }

  @Command('escalation.alarm.worker_message.v1')
  workerMessage(@Payload() req: Req<'escalation.alarm.worker_message.v1'>) {
    return this.messages.reply(req);
  }

  @Command('escalation.alarm.worker_seen.v1')
  workerSeen(@Payload() req: Req<'escalation.alarm.worker_seen.v1'>) {
    return this.messages.seen(req);
  }
}
