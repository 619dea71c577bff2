import { ContractError, EventSubject } from '@lws/contracts';
import { PgDatabase, PgTransaction } from 'drizzle-orm/pg-core';
import { assertDurableName, ConsumerHandle, EventBus, PoisonMessageError } from './bus';
import { EnvelopeOf, parseEnvelope } from './envelope';
import { MessagingLogger } from './logger';
import { MessagingTables } from './tables';

export type DbTransaction = PgTransaction<any, any, any>;

export interface DurableConsumerOptions<S extends EventSubject> {
  db: PgDatabase<any, any, any>;
  tables: MessagingTables;
  bus: EventBus;
  /** Durable name and dedupe key, e.g. `escalation-shifts`. Letters, digits, `-` and `_`. */
  name: string;
  subjects: readonly S[];
  /** Runs inside the transaction that records the event as processed: its writes and the dedupe row commit together. */
  handler: (event: EnvelopeOf<S>, tx: DbTransaction) => Promise<void>;
  logger: MessagingLogger;
  maxDeliver?: number;
  backoffMs?: readonly number[];
  concurrency?: number;
}

/**
 * Handles each event exactly once in effect: the event id is recorded in processed_events in the
 * same transaction as the handler's writes, so a redelivered event (a crash before the ack, or
 * the relay publishing twice) finds its id and is acknowledged without running the handler again.
 */
export class DurableConsumer<S extends EventSubject> {
  private handle?: ConsumerHandle;

  constructor(private readonly options: DurableConsumerOptions<S>) {
    assertDurableName(options.name);
  }

  async start(): Promise<void> {
    if (this.handle) return;
    const { bus, name, subjects, maxDeliver, backoffMs, concurrency } = this.options;
    this.handle = await bus.consume({
      durable: name,
      subjects,
      maxDeliver,
      backoffMs,
      concurrency,
      handler: (message) => this.process(message.subject, message.data),
    });
  }

  async stop(): Promise<void> {
    const handle = this.handle;
    this.handle = undefined;
    await handle?.stop();
  }

  private async process(subject: string, data: unknown): Promise<void> {
    let event: EnvelopeOf<S>;
    try {
      event = parseEnvelope(subject, data) as EnvelopeOf<S>;
    } catch (err) {
      if (err instanceof ContractError) throw new PoisonMessageError(`invalid event: ${err.message}`, { cause: err });
      throw err;
    }
    const { db, tables, name, handler, logger } = this.options;
    const handled = await db.transaction(async (tx) => {
      const inserted = await tx
        .insert(tables.processedEvents)
        .values({ consumer: name, eventId: event.id })
        .onConflictDoNothing()
        .returning({ eventId: tables.processedEvents.eventId });
      if (inserted.length === 0) return false;
      await handler(event, tx);
      return true;
    });
    if (!handled) logger.debug({ consumer: name, subject, eventId: event.id }, 'event already processed; skipped');
  }
}
