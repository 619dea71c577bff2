import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import type { CommandMap } from '@lws/contracts';
import { Command } from '@lws/messaging';
import { PushService } from './push.service';
import { VapidKeys } from './vapid-keys';

@Controller()
export class PushController {
  constructor(
    private readonly push: PushService,
    private readonly vapid: VapidKeys,
  ) {}

  @Command('notifications.push.public_key.v1')
  publicKey() {
    return { publicKey: this.vapid.publicKey };
  }

  @Command('notifications.push.subscribe.v1')
  async subscribe(@Payload() req: CommandMap['notifications.push.subscribe.v1']['request']) {
    return { subscriptionId: await this.push.subscribe(req.userId, req.endpoint, req.keys) };
  }
}
