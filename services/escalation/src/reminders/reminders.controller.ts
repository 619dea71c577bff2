import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import type { CommandMap } from '@lws/contracts';
import { Command } from '@lws/messaging';
import { RemindersService } from './reminders.service';

@Controller()
export class RemindersController {
  constructor(private readonly reminders: RemindersService) {}

  @Command('escalation.reminder.status.v1')
  status() {
    return this.reminders.status();
  }

  @Command('escalation.deadline.process_due.v1')
  processDue(@Payload() req: CommandMap['escalation.deadline.process_due.v1']['request']) {
    return this.reminders.processDue(req);
  }

  @Command('escalation.config.get.v1')
  config() {
    return this.reminders.config();
  }
}
