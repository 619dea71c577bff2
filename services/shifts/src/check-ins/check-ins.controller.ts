import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import type { CommandMap } from '@lws/contracts';
import { Command } from '@lws/messaging';
import { CheckInsService } from './check-ins.service';

type Req<P extends keyof CommandMap> = CommandMap[P]['request'];

@Controller()
export class CheckInsController {
  constructor(private readonly checkIns: CheckInsService) {}

  @Command('shifts.checkin.record.v1')
  record(@Payload() req: Req<'shifts.checkin.record.v1'>) {
    return this.checkIns.record(req);
  }

  @Command('shifts.checkin.latest.v1')
  latest(@Payload() req: Req<'shifts.checkin.latest.v1'>) {
    return this.checkIns.latest(req.userId);
  }
}
