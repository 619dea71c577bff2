import { randomUUID } from 'node:crypto';
import { EventMap, EventSubject, parseEvent } from '@lws/contracts';
import { PgDatabase } from 'drizzle-orm/pg-core';
import { EventEnvelope } from './envelope';
import { MessagingTables } from './tables';

export interface OutboxOptions {
  tables: MessagingTables;
  /** Service name written into every envelope. */
  producer: string;
  clock?: () => Date;
}

/**
 * Writes events into the producer's own database inside the caller's transaction, so an event
 * exists exactly when the state change it describes was committed. Publishing is the relay's job.
 */
export class Outbox {
  private readonly clock: () => Date;

  constructor(private readonly options: OutboxOptions) {
    this.clock = options.clock ?? (() => new Date());
  }

  /**
   * Validates the data against the subject's contract (throwing ContractError, which rolls back
   * the caller's transaction) and inserts the envelope in that same transaction.
   */
  async enqueue<S extends EventSubject>(
    tx: PgDatabase<any, any, any>,
    subject: S,
    data: EventMap[S],
  ): Promise<EventEnvelope<S>> {
    const parsed = parseEvent(subject, data);
    const now = this.clock();
    const envelope: EventEnvelope<S> = {
      id: randomUUID(),
      subject,
      occurredAt: now.toISOString(),
      producer: this.options.producer,
      data: parsed,
    };
    await tx.insert(this.options.tables.outbox).values({
      id: envelope.id,
      subject,
      payload: envelope,
      createdAt: now,
    });
    return envelope;
  }
}
