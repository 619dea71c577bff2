import { Module } from '@nestjs/common';
import { PushController } from './push.controller';
import { TestProviderController } from './test-provider.controller';
import { TestRemindersController } from './test-reminders.controller';
import { TwilioWebhooksController } from './twilio-webhooks.controller';

/** Web push, the superadmin messaging tools and Twilio's webhooks, served by the notifications service. */
@Module({ controllers: [PushController, TestRemindersController, TestProviderController, TwilioWebhooksController] })
export class NotificationsModule {}
