import { randomUUID } from 'node:crypto';
import { EventMap, EventSubject, parseEvent } from '@lws/contracts';
import { sql } from 'drizzle-orm';
import { AnyEventEnvelope, EventEnvelope } from './envelope';
import { MessagingDb, MessagingTables } from './tables';
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
  async enqueue<S extends EventSubject>(tx: MessagingDb, subject: S, data: EventMap[S]): Promise<EventEnvelope<S>> {
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
      insert into ${this.options.tables.outbox} (id, subject, payload, created_at, priority)
      values (${envelope.id}, ${subject}, ${JSON.stringify(envelope)}::jsonb, ${envelope.occurredAt}::timestamptz, ${eventPriority(subject, parsed)})`);
    return envelope;
  }

  /**
   * The batched form of enqueue: validates every event first (a ContractError inserts none) and
   * writes them all in one statement, in the order given, so the relay publishes them in that
   * order. The envelopes are the ones enqueue writes; they share one clock reading.
   */
  async enqueueMany(tx: MessagingDb, events: readonly PendingEvent[]): Promise<AnyEventEnvelope[]> {
    if (events.length === 0) return [];
    const parsed = events.map((e) => ({ subject: e.subject, data: parseEvent(e.subject, e.data) }));
    const occurredAt = this.clock().toISOString();
    const trace = activeCarrier();
    const envelopes = parsed.map(
      (e) =>
        ({
          id: randomUUID(),
          subject: e.subject,
          occurredAt,
          producer: this.options.producer,
          data: e.data,
          ...(trace ? { trace } : {}),
        }) as AnyEventEnvelope,
    );
    // One parameter for the envelopes and one for their priorities, unpacked by PostgreSQL; the
    // ordinality keeps the seq order.
    const priorities = envelopes.map((e) => eventPriority(e.subject, e.data));
    await tx.execute(sql`
      insert into ${this.options.tables.outbox} (id, subject, payload, created_at, priority)
      select (e->>'id')::uuid, e->>'subject', e, ${occurredAt}::timestamptz, (${JSON.stringify(priorities)}::jsonb ->> (n - 1)::int)::smallint
      from jsonb_array_elements(${JSON.stringify(envelopes)}::jsonb) with ordinality as x(e, n)
      order by n`);
    return envelopes;
  }
}

/** An event not yet written: what enqueueMany takes. */
export type PendingEvent = { [S in EventSubject]: { subject: S; data: EventMap[S] } }[EventSubject];

/**
 * The relay publishes the most urgent events first (then in the order written): an emergency's
 * (its alarm opening, its messages) ahead of everything, reminders behind everything. Order is
 * kept within a priority; across subjects it never was (each subject has a consumer of its own).
 */
export const EVENT_PRIORITY = { urgent: 0, normal: 1, routine: 2 } as const;

export function eventPriority(subject: EventSubject, data: unknown): number {
  const d = data as { kind?: string; purpose?: string };
  switch (subject) {
    case 'escalation.notification.urgent.v1':
    case 'shifts.emergency.raised.v1':
      return EVENT_PRIORITY.urgent;
    case 'escalation.alarm.opened.v1':
      return d.kind === 'emergency' ? EVENT_PRIORITY.urgent : EVENT_PRIORITY.normal;
    case 'escalation.notification.requested.v1':
      return d.purpose?.startsWith('reminder_') ? EVENT_PRIORITY.routine : EVENT_PRIORITY.normal;
    case 'escalation.reminder.fired.v1':
      return EVENT_PRIORITY.routine;
    default:
      return EVENT_PRIORITY.normal;
  }
}
