import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import type { CommandMap } from '@lws/contracts';
import { Command } from '@lws/messaging';
import { DeadlinesService } from './deadlines.service';

@Controller()
export class DeadlinesController {
  constructor(private readonly deadlines: DeadlinesService) {}

  @Command('shifts.deadline.set.v1')
  set(@Payload() req: CommandMap['shifts.deadline.set.v1']['request']) {
    return this.deadlines.set(req);
  }

  @Command('shifts.deadline.extend.v1')
  extend(@Payload() req: CommandMap['shifts.deadline.extend.v1']['request']) {
    return this.deadlines.extend(req);
  }
}
