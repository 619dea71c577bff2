import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import type { CommandMap } from '@lws/contracts';
import { Command } from '@lws/messaging';
import { VisitsService } from './visits.service';

type Req<P extends keyof CommandMap> = CommandMap[P]['request'];

@Controller()
export class VisitsController {
  constructor(private readonly visits: VisitsService) {}

  @Command('shifts.visit.start.v1')
  async start(@Payload() req: Req<'shifts.visit.start.v1'>) {
    return { worker: await this.visits.start(req) };
  }

  @Command('shifts.visit.end.v1')
  async end(@Payload() req: Req<'shifts.visit.end.v1'>) {
    return { worker: await this.visits.end(req.userId, req.duress === true) };
  }

  @Command('shifts.visit.reveal_note.v1')
  revealNote(@Payload() req: Req<'shifts.visit.reveal_note.v1'>) {
    return this.visits.revealNote(req);
  }
}
