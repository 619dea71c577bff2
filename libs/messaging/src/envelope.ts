import { ContractError, EventMap, EventSubject, isEventSubject, parseEvent } from '@lws/contracts';
import { z } from 'zod';

/** What travels on the bus and sits in the outbox: the event data plus where and when it came from. */
export interface EventEnvelope<S extends EventSubject = EventSubject> {
  /** UUID; the dedupe key for JetStream (msgID) and for every consumer. */
  id: string;
  subject: S;
  /** ISO-8601 UTC. */
  occurredAt: string;
  /** Name of the service that wrote the event. */
  producer: string;
  data: EventMap[S];
  /** W3C trace context of the transaction that wrote it (only while tracing is on). */
  trace?: Record<string, string>;
}

/** One envelope per subject in S, discriminated by `subject`, so a handler can switch on it. */
export type EnvelopeOf<S extends EventSubject> = { [K in S]: EventEnvelope<K> }[S];

export type AnyEventEnvelope = EnvelopeOf<EventSubject>;

// Not strict: a later producer may add envelope fields (e.g. trace context) that older consumers ignore.
const envelopeShape = z.object({
  id: z.string().uuid(),
  subject: z.string(),
  occurredAt: z.string().datetime({ offset: true }),
  producer: z.string().min(1),
  data: z.unknown(),
  trace: z.record(z.string()).optional(),
});

/**
 * Validates a received envelope and its data against the contract of the subject it arrived on.
 * Throws ContractError naming the offending field.
 */
export function parseEnvelope(subject: string, raw: unknown): AnyEventEnvelope {
  const shape = envelopeShape.safeParse(raw);
  if (!shape.success) {
    throw new ContractError(
      subject,
      shape.error.issues.map((i) => ({ path: ['envelope', ...i.path].join('.'), message: i.message })),
    );
  }
  const envelope = shape.data;
  if (envelope.subject !== subject) {
    throw new ContractError(subject, [
      { path: 'envelope.subject', message: `Envelope says "${envelope.subject}" but arrived on "${subject}"` },
    ]);
  }
  if (!isEventSubject(subject)) {
    throw new ContractError(subject, [{ path: 'envelope.subject', message: `Unknown event subject "${subject}"` }]);
  }
  const data = parseEvent(subject, envelope.data);
  return {
    id: envelope.id,
    subject,
    occurredAt: envelope.occurredAt,
    producer: envelope.producer,
    data,
    ...(envelope.trace ? { trace: envelope.trace } : {}),
  } as AnyEventEnvelope;
}
