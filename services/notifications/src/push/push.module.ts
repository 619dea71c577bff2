import { Module } from '@nestjs/common';
import { PushController } from './push.controller';
import { PushService } from './push.service';
import { SubscriptionsRepository } from './subscriptions.repository';
import { VapidKeys } from './vapid-keys';

/** Web push: VAPID keys, browsers' subscriptions, and sending to them. */
@Module({
  controllers: [PushController],
  providers: [PushService, SubscriptionsRepository, VapidKeys],
  exports: [PushService, SubscriptionsRepository],
})
export class PushModule {}
