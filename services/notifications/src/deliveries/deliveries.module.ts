import { Module, type OnModuleInit } from '@nestjs/common';
import type { EventMap, EventSubject } from '@lws/contracts';
import type { AnyEventEnvelope, EventEnvelope } from '@lws/messaging';
import { Consumers } from '@lws/platform';
import { OutboundWebhooksModule } from '../outbound-webhooks/outbound-webhooks.module';
import { PushModule } from '../push/push.module';
import { UsersProjection } from '../users/users.projection';
import { WebhooksController } from '../webhooks/webhooks.controller';
import { WebhooksService } from '../webhooks/webhooks.service';
import { PinCheckIn } from '../inbound/pin-check-in';
import { SmsCheckIn } from '../inbound/sms-check-in';
import { DeliveriesController } from './deliveries.controller';
import { DeliveriesRepository } from './deliveries.repository';
import { DeliveriesService } from './deliveries.service';
import { SenderService } from './sender.service';

/**
 * Notification requests are taken in batches (one transaction per request could not keep
 * up with an alarm flood): up to REQUEST_BATCH_SIZE per transaction, REQUEST_BATCHES of them at once.
 */
const REQUEST_BATCH_SIZE = 100;
const REQUEST_BATCHES = 4;

/** The requests a batch of escalation's events carries (an urgent one wraps its request). */
function requestsOf(
  events: readonly EventEnvelope<EventSubject>[],
  subject: 'escalation.notification.requested.v1' | 'escalation.notification.urgent.v1',
): EventMap['escalation.notification.requested.v1'][] {
  return (events as AnyEventEnvelope[]).flatMap((e) => {
    if (e.subject !== subject) return [];
    if (e.subject === 'escalation.notification.urgent.v1') return [e.data.request];
    return e.subject === 'escalation.notification.requested.v1' ? [e.data] : [];
  });
}

/** The delivery log: escalation's requests, the sender, the superadmin tools and Twilio's webhooks. */
@Module({
  imports: [PushModule, OutboundWebhooksModule],
  controllers: [DeliveriesController, WebhooksController],
  providers: [DeliveriesRepository, DeliveriesService, SenderService, WebhooksService, PinCheckIn, SmsCheckIn, UsersProjection],
})
export class DeliveriesModule implements OnModuleInit {
  constructor(
    private readonly consumers: Consumers,
    private readonly deliveries: DeliveriesService,
    private readonly sender: SenderService,
    private readonly users: UsersProjection,
  ) {}

  onModuleInit(): void {
    this.consumers.register({
      name: 'notification-requests',
      subjects: ['escalation.notification.requested.v1'],
      // Each request becomes its own delivery rows, deduplicated by request id: their order does
      // not matter, and one at a time could not keep up with the messages of many alarms at once.
      concurrency: REQUEST_BATCHES,
      batchSize: REQUEST_BATCH_SIZE,
      batchHandler: async (events, tx, emit, afterCommit) => {
        await this.deliveries.requestedMany(tx, emit, requestsOf(events, 'escalation.notification.requested.v1'), false, afterCommit);
        afterCommit(() => this.sender.kick());
      },
      handler: async (event, tx, emit, afterCommit) => {
        const e = event as AnyEventEnvelope;
        if (e.subject !== 'escalation.notification.requested.v1') return;
        await this.deliveries.requested(tx, emit, e.data, false, afterCommit);
        afterCommit(() => this.sender.kick());
      },
    });
    // An emergency's requests (duress included) on a consumer of their own: however many other
    // requests are queued, one of these is taken at once, and its deliveries are sent first.
    this.consumers.register({
      name: 'notification-requests-urgent',
      subjects: ['escalation.notification.urgent.v1'],
      concurrency: REQUEST_BATCHES,
      batchSize: REQUEST_BATCH_SIZE,
      batchHandler: async (events, tx, emit, afterCommit) => {
        await this.deliveries.requestedMany(tx, emit, requestsOf(events, 'escalation.notification.urgent.v1'), true, afterCommit);
        afterCommit(() => this.sender.kick());
      },
      handler: async (event, tx, emit, afterCommit) => {
        const e = event as AnyEventEnvelope;
        if (e.subject !== 'escalation.notification.urgent.v1') return;
        await this.deliveries.requested(tx, emit, e.data.request, true, afterCommit);
        afterCommit(() => this.sender.kick());
      },
    });
    this.consumers.register({
      name: 'alarm-outcomes',
      subjects: ['escalation.alarm.resolved.v1'],
      // A resolved alarm needs no more messages: those still waiting out a provider outage are withdrawn.
      handler: async (event, tx, emit) => {
        const e = event as AnyEventEnvelope;
        if (e.subject !== 'escalation.alarm.resolved.v1') return;
        await this.deliveries.alarmResolved(tx, emit, e.data);
      },
    });
    this.consumers.register({
      name: 'identity-users',
      subjects: ['identity.user.created.v1', 'identity.user.updated.v1', 'identity.user.deleted.v1'],
      handler: async (event, tx) => {
        const e = event as AnyEventEnvelope;
        switch (e.subject) {
          case 'identity.user.created.v1':
            return this.users.created(tx, e.data);
          case 'identity.user.updated.v1':
            return this.users.updated(tx, e.data);
          case 'identity.user.deleted.v1':
            return this.users.deleted(tx, e.data);
        }
      },
    });
  }
}
