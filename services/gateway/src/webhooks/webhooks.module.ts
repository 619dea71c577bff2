import { Module } from '@nestjs/common';
import { WebhooksController } from './webhooks.controller';

/** Signed outbound webhooks: the endpoints and their delivery log, kept by the notifications service. */
@Module({ controllers: [WebhooksController] })
export class WebhooksModule {}
