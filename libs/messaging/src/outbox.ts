import { randomUUID } from 'node:crypto';
import { EventMap, EventSubject, parseEvent } from '@lws/contracts';
import { sql } from 'drizzle-orm';
import { PgDatabase } from 'drizzle-orm/pg-core';
import { AnyEventEnvelope, EventEnvelope } from './envelope';
import { MessagingTables } from './tables';
import { activeCarrier } from './tracing';

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
    const trace = activeCarrier();
    const envelope: EventEnvelope<S> = {
      id: randomUUID(),
      subject,
      occurredAt: now.toISOString(),
      producer: this.options.producer,
      data: parsed,
      ...(trace ? { trace } : {}),
    };
    // A template, not the query builder: every event pays for this statement inside its
    // transaction, and composing it with the builder costs about fifty times the CPU (bench/checkin).
    await tx.execute(sql`
      insert into ${this.options.tables.outbox} (id, subject, payload, created_at)
      values (${envelope.id}, ${subject}, ${JSON.stringify(envelope)}::jsonb, ${envelope.occurredAt}::timestamptz)`);
    return envelope;
  }

  /**
   * The batched form of enqueue: validates every event first (a ContractError inserts none) and
   * writes them all in one statement, in the order given, so the relay publishes them in that
   * order. The envelopes are the ones enqueue writes; they share one clock reading.
   */
  async enqueueMany(tx: PgDatabase<any, any, any>, events: readonly PendingEvent[]): Promise<AnyEventEnvelope[]> {
    if (events.length === 0) return [];
    const parsed = events.map((e) => ({ subject: e.subject, data: parseEvent(e.subject, e.data) }));
    const occurredAt = this.clock().toISOString();
    const trace = activeCarrier();
    const envelopes = parsed.map(
      (e) => ({ id: randomUUID(), subject: e.subject, occurredAt, producer: this.options.producer, data: e.data, ...(trace ? { trace } : {}) }) as AnyEventEnvelope,
    );
    // One parameter for the whole batch, unpacked by PostgreSQL; the ordinality keeps the seq order.
    await tx.execute(sql`
      insert into ${this.options.tables.outbox} (id, subject, payload, created_at)
      select (e->>'id')::uuid, e->>'subject', e, ${occurredAt}::timestamptz
      from jsonb_array_elements(${JSON.stringify(envelopes)}::jsonb) with ordinality as x(e, n)
      order by n`);
    return envelopes;
  }
}

/** An event not yet written: what enqueueMany takes. */
export type PendingEvent = { [S in EventSubject]: { subject: S; data: EventMap[S] } }[EventSubject];
