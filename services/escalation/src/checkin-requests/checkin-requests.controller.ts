import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import type { CommandMap } from '@lws/contracts';
import { Command } from '@lws/messaging';
import { CheckinRequestsService } from './checkin-requests.service';

type Req<P extends keyof CommandMap> = CommandMap[P]['request'];

@Controller()
export class CheckinRequestsController {
  constructor(private readonly requests: CheckinRequestsService) {}

  @Command('escalation.checkin_request.create.v1')
  create(@Payload() req: Req<'escalation.checkin_request.create.v1'>) {
    return this.requests.create(req);
  }

  @Command('escalation.checkin_request.get.v1')
  get(@Payload() req: Req<'escalation.checkin_request.get.v1'>) {
    return this.requests.get(req);
  }

  @Command('escalation.checkin_request.list.v1')
  list(@Payload() req: Req<'escalation.checkin_request.list.v1'>) {
    return this.requests.list(req);
  }

  @Command('escalation.checkin_request.own.v1')
  own(@Payload() req: Req<'escalation.checkin_request.own.v1'>) {
    return this.requests.own(req);
  }
}
