import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import type { CommandMap } from '@lws/contracts';
import { Command } from '@lws/messaging';
import { DeliveriesService } from './deliveries.service';

type Req<K extends keyof CommandMap> = CommandMap[K]['request'];

@Controller()
export class DeliveriesController {
  constructor(private readonly deliveries: DeliveriesService) {}

  @Command('notifications.message.send.v1')
  send(@Payload() req: Req<'notifications.message.send.v1'>) {
    return this.deliveries.sendNow(req);
  }

  @Command('notifications.call.test.v1')
  testCall(@Payload() req: Req<'notifications.call.test.v1'>) {
    return this.deliveries.testCall(req);
  }

  @Command('notifications.requests.taken.v1')
  async taken(@Payload() req: Req<'notifications.requests.taken.v1'>) {
    return this.deliveries.taken(req.requestIds);
  }

  @Command('notifications.delivery.list.v1')
  list(@Payload() req: Req<'notifications.delivery.list.v1'>) {
    return this.deliveries.list(req);
  }
}
