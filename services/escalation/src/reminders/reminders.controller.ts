import { Controller } from '@nestjs/common';
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
  processDue() {
    return this.reminders.processDue();
  }

  @Command('escalation.config.get.v1')
  config() {
    return this.reminders.config();
  }
}
