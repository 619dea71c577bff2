import { Inject, Module, type OnModuleInit } from '@nestjs/common';
import { sql } from 'drizzle-orm';
import type { AnyEventEnvelope } from '@lws/messaging';
import { Chores, CLOCK, Consumers, DB, LOGGER, type Clock, type Db, type Logger } from '@lws/platform';
import { webhookDeliveries, webhookMessages } from '../db/schema';
import { FEED_SUBJECTS } from './event-catalogue';
import { HandOffs } from './hand-offs';
import { WebhookEndpointsController } from './webhook-endpoints.controller';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository';
import { WebhookEndpointsService } from './webhook-endpoints.service';
import { WebhookQueue } from './webhook-queue';
import { WebhookSecrets } from './webhook-secrets';
import { WebhookSender } from './webhook-sender';

/** Events per feed transaction: a flood of alarms becomes its webhook messages a hundred at a time. */
const FEED_BATCH_SIZE = 100;
/** A message (its deliveries and their attempts) is kept this long after it was made, once none is still being tried. */
const RETENTION_MS = 30 * 24 * 3600_000;
const PRUNE_EVERY_MS = 3600_000;
/** Messages deleted per statement, so a prune never holds a long lock. */
const PRUNE_BATCH = 1000;

/**
 * Signed outbound webhooks (Standard Webhooks): organisations' endpoints, the feed turning LWS
 * events into messages, the sender and its queue, and the commands behind the screens. docs/webhooks.md.
 */
@Module({
  controllers: [WebhookEndpointsController],
  providers: [WebhookEndpointsRepository, WebhookEndpointsService, WebhookQueue, WebhookSecrets, WebhookSender, HandOffs],
  exports: [WebhookQueue, HandOffs],
})
export class OutboundWebhooksModule implements OnModuleInit {
  constructor(
    private readonly consumers: Consumers,
    private readonly chores: Chores,
    private readonly queue: WebhookQueue,
    @Inject(DB) private readonly db: Db,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onModuleInit(): void {
    this.consumers.register({
      name: 'webhooks-feed',
      subjects: [...FEED_SUBJECTS],
      batchSize: FEED_BATCH_SIZE,
      batchHandler: async (events, tx, _emit, afterCommit) => {
        await this.queue.enqueueEvents(tx, events as AnyEventEnvelope[], afterCommit);
      },
      handler: async (event, tx, _emit, afterCommit) => {
        await this.queue.enqueueEvents(tx, [event as AnyEventEnvelope], afterCommit);
      },
    });
    this.chores.every('webhooks-prune', PRUNE_EVERY_MS, () => this.prune());
  }

  /** Deletes messages past their retention none of whose deliveries is still being tried. */
  private async prune(): Promise<void> {
    const before = new Date(this.clock().getTime() - RETENTION_MS).toISOString();
    let total = 0;
    for (;;) {
      const { rows } = (await this.db.execute(sql`
        delete from ${webhookMessages} where id in (
          select m.id from ${webhookMessages} m
          where m.created_at < ${before}::timestamptz
            and not exists (select 1 from ${webhookDeliveries} d where d.message_id = m.id and d.status = 'pending')
          limit ${PRUNE_BATCH})
        returning id`)) as unknown as { rows: unknown[] };
      total += rows.length;
      if (rows.length < PRUNE_BATCH) break;
    }
    if (total > 0) this.logger.info({ messages: total }, 'pruned old webhook messages and their deliveries');
  }
}
