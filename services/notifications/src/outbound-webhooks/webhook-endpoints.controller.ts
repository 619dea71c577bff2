import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import type { CommandMap } from '@lws/contracts';
import { Command } from '@lws/messaging';
import { WebhookEndpointsService } from './webhook-endpoints.service';
import { createEndpointSchema, replaySchema, updateEndpointSchema, validated } from './webhooks.schema';

type Req<K extends keyof CommandMap> = CommandMap[K]['request'];

/** Outbound webhooks' commands: each request is checked against its contract (@Command), then its rules here. */
@Controller()
export class WebhookEndpointsController {
  constructor(private readonly endpoints: WebhookEndpointsService) {}

  @Command('notifications.webhook_event_type.list.v1')
  eventTypes() {
    return this.endpoints.eventTypes();
  }

  @Command('notifications.webhook_endpoint.create.v1')
  create(@Payload() req: Req<'notifications.webhook_endpoint.create.v1'>) {
    return this.endpoints.create(validated(createEndpointSchema, req));
  }

  @Command('notifications.webhook_endpoint.list.v1')
  list(@Payload() req: Req<'notifications.webhook_endpoint.list.v1'>) {
    return this.endpoints.list(req);
  }

  @Command('notifications.webhook_endpoint.update.v1')
  update(@Payload() req: Req<'notifications.webhook_endpoint.update.v1'>) {
    return this.endpoints.update(validated(updateEndpointSchema, req));
  }

  @Command('notifications.webhook_endpoint.rotate_secret.v1')
  rotateSecret(@Payload() req: Req<'notifications.webhook_endpoint.rotate_secret.v1'>) {
    return this.endpoints.rotateSecret(req);
  }

  @Command('notifications.webhook_endpoint.delete.v1')
  delete(@Payload() req: Req<'notifications.webhook_endpoint.delete.v1'>) {
    return this.endpoints.delete(req);
  }

  @Command('notifications.webhook_endpoint.test.v1')
  test(@Payload() req: Req<'notifications.webhook_endpoint.test.v1'>) {
    return this.endpoints.test(req);
  }

  @Command('notifications.webhook_delivery.list.v1')
  deliveries(@Payload() req: Req<'notifications.webhook_delivery.list.v1'>) {
    return this.endpoints.deliveries(req);
  }

  @Command('notifications.webhook_delivery.replay.v1')
  replay(@Payload() req: Req<'notifications.webhook_delivery.replay.v1'>) {
    return this.endpoints.replay(validated(replaySchema, req));
  }
}
