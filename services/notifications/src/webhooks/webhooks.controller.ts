import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import type { CommandMap } from '@lws/contracts';
import { Command } from '@lws/messaging';
import { WebhooksService } from './webhooks.service';

@Controller()
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Command('notifications.webhook.twilio.v1')
  twilio(@Payload() req: CommandMap['notifications.webhook.twilio.v1']['request']) {
    return this.webhooks.handle(req);
  }
}
