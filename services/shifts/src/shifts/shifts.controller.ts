import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import type { CommandMap } from '@lws/contracts';
import { Command } from '@lws/messaging';
import { ShiftsService } from './shifts.service';

type Req<P extends keyof CommandMap> = CommandMap[P]['request'];

@Controller()
export class ShiftsController {
  constructor(private readonly shifts: ShiftsService) {}

  @Command('shifts.shift.start.v1')
  async start(@Payload() req: Req<'shifts.shift.start.v1'>) {
    return { worker: await this.shifts.start(req.userId, req.location, req.note, req.startedBy) };
  }

  @Command('shifts.shift.end.v1')
  async end(@Payload() req: Req<'shifts.shift.end.v1'>) {
    return { worker: await this.shifts.end(req.userId, req.duress === true) };
  }

  @Command('shifts.shift.force_end.v1')
  async forceEnd(@Payload() req: Req<'shifts.shift.force_end.v1'>) {
    return { worker: await this.shifts.forceEnd(req.userId, req.endedBy) };
  }
}
