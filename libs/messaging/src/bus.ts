import { AnyEventEnvelope } from './envelope';
import { backoffDelay, classifyFailure, INFRASTRUCTURE_BACKOFF, PoisonMessageError, type RetryBackoff } from './failures';
import { errorMessage, MessagingLogger } from './logger';

/** Event domains captured by the stream; `dlq` holds dead letters. */
export const STREAM_DOMAINS = ['identity', 'locations', 'shifts', 'escalation', 'notifications', 'audit', 'dlq'] as const;

export const DEFAULT_MAX_DELIVER = 5;
export const DEFAULT_BACKOFF_MS: readonly number[] = [1000, 5000, 15000, 30000];

/** A message as a consumer's handler sees it. */
export interface BusMessage {
  /** Subject without the deployment's subject prefix, e.g. `identity.user.created.v1`. */
  readonly subject: string;
  /** Decoded JSON body; `undefined` if the body was not JSON. */
  readonly data: unknown;
  /** 1 on first delivery. */
  readonly deliveries: number;
  /** Trace context the publisher sent along (NATS headers), if any. */
  readonly trace?: Record<string, string>;
}

/** Resolve to acknowledge; throw to be retried (see deliver); throw PoisonMessageError to dead-letter at once. */
export type BusHandler = (message: BusMessage) => Promise<void>;

/**
 * Takes the messages of one pull together and settles each, in the order given: fulfilled to
 * acknowledge it, rejected with what a BusHandler would have thrown for it (retried or
 * dead-lettered as deliver decides). A throw rejects every message of the batch with it.
 */
export type BusBatchHandler = (messages: readonly BusMessage[]) => Promise<readonly PromiseSettledResult<void>[]>;

export interface ConsumeOptions {
  /** Durable name: the consumer's position survives restarts. Letters, digits, `-` and `_`. */
  durable: string;
  /** Subjects without prefix; `*` and `>` wildcards follow NATS rules. */
  subjects: readonly string[];
  handler: BusHandler;
  /** Deliveries before a message whose handler keeps failing (not for an infrastructure fault) is dead-lettered. Default 5. */
  maxDeliver?: number;
  /** Delay before delivery n+1 after the n-th failed; the last value repeats. */
  backoffMs?: readonly number[];
  /** Backoff while an infrastructure fault lasts (retried without limit). Default 1 s doubling to 30 s. */
  infrastructureBackoff?: RetryBackoff;
  /** Messages handled at the same time (per subject on JetStream). Default 1. With a batchHandler: batches. */
  concurrency?: number;
  /**
   * When set, messages that arrive together (up to `batchSize`) go to this instead of `handler`,
   * and each is still acknowledged, retried or dead-lettered by its own outcome.
   */
  batchHandler?: BusBatchHandler;
  /** Most messages in one batch. Default 100. */
  batchSize?: number;
}

export type ResolvedConsumeOptions = Required<Omit<ConsumeOptions, 'batchHandler'>> & Pick<ConsumeOptions, 'batchHandler'>;

export const DEFAULT_BATCH_SIZE = 100;

export interface ConsumerHandle {
  /** Stops taking messages and waits for the ones being handled. */
  stop(): Promise<void>;
}

export interface EventBus {
  /** False when the bus forgets its messages on restart (the in-process bus): the relay then replays recent events. */
  readonly persistent: boolean;
  /** Resolves once the bus has stored the event; the envelope id deduplicates repeated publishes. */
  publish(envelope: AnyEventEnvelope): Promise<void>;
  consume(options: ConsumeOptions): Promise<ConsumerHandle>;
  /** Resolves when the bus can take events now (readiness); rejects while it cannot. */
  ping(): Promise<void>;
  /** How far behind a durable consumer is (metrics): events not yet acknowledged and the age of the oldest. */
  lag(durable: string, subjects: readonly string[]): Promise<ConsumerLag>;
  close(): Promise<void>;
}

export interface ConsumerLag {
  pending: number;
  /** 0 when nothing is pending. */
  oldestAgeSeconds: number;
}

/** What lands on `dlq.<durable>`. */
export interface DeadLetter {
  envelope: unknown;
  consumer: string;
  subject: string;
  error: string;
  deliveries: number;
}

export { PoisonMessageError };

export type DeliveryOutcome = { kind: 'ack' } | { kind: 'retry'; delayMs: number } | { kind: 'dead-letter'; letter: DeadLetter };

const DURABLE_NAME = /^[A-Za-z0-9_-]+$/;

export function assertDurableName(name: string): void {
  if (!DURABLE_NAME.test(name)) {
    throw new Error(`Invalid durable consumer name "${name}": use letters, digits, "-" and "_"`);
  }
}

export function resolveConsumeOptions(options: ConsumeOptions): ResolvedConsumeOptions {
  assertDurableName(options.durable);
  if (options.subjects.length === 0) throw new Error(`Consumer "${options.durable}" has no subjects`);
  const maxDeliver = options.maxDeliver ?? DEFAULT_MAX_DELIVER;
  const backoffMs = options.backoffMs ?? DEFAULT_BACKOFF_MS;
  const concurrency = options.concurrency ?? 1;
  if (!Number.isInteger(maxDeliver) || maxDeliver < 1) throw new Error('maxDeliver must be a positive integer');
  if (backoffMs.length === 0 || backoffMs.some((d) => !(d >= 0))) throw new Error('backoffMs needs at least one delay >= 0');
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new Error('concurrency must be a positive integer');
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new Error('batchSize must be a positive integer');
  const infrastructureBackoff = options.infrastructureBackoff ?? INFRASTRUCTURE_BACKOFF;
  if (!(infrastructureBackoff.initialMs > 0) || !(infrastructureBackoff.maxMs >= infrastructureBackoff.initialMs)) {
    throw new Error('infrastructureBackoff needs 0 < initialMs <= maxMs');
  }
  return { ...options, maxDeliver, backoffMs, concurrency, infrastructureBackoff, batchSize };
}

function eventIdOf(data: unknown): string | undefined {
  if (data && typeof data === 'object' && typeof (data as { id?: unknown }).id === 'string') {
    return (data as { id: string }).id;
  }
  return undefined;
}

/** Infrastructure retries logged at warn: the first, then one in this many (the rest at debug). */
const INFRA_WARN_EVERY = 10;

/**
 * Runs a handler and decides what happens to the message. Both buses share this so retries,
 * backoff and dead-lettering behave the same in embedded mode and on JetStream.
 *
 * A fault that heals (database or bus unreachable, a deadlock, a timeout) is retried with capped
 * backoff for as long as it lasts and is never dead-lettered: a shift start that waits out a
 * database outage must still arrive. A message that can never succeed is dead-lettered at once;
 * any other error is retried `maxDeliver` times first, since a deploy may mend it.
 */
export async function deliver(options: ResolvedConsumeOptions, message: BusMessage, logger: MessagingLogger): Promise<DeliveryOutcome> {
  try {
    await options.handler(message);
    return { kind: 'ack' };
  } catch (err) {
    return failed(options, message, err, logger);
  }
}

/** deliver for the messages of one batch (options.batchHandler): an outcome each, in their order. */
export async function deliverBatch(
  options: ResolvedConsumeOptions,
  messages: readonly BusMessage[],
  logger: MessagingLogger,
): Promise<DeliveryOutcome[]> {
  let settled: readonly PromiseSettledResult<void>[];
  try {
    settled = await options.batchHandler!(messages);
  } catch (err) {
    settled = messages.map(() => ({ status: 'rejected', reason: err }));
  }
  return messages.map((message, i) => {
    const s = settled[i] ?? { status: 'rejected', reason: new Error('the batch handler gave this message no outcome') };
    return s.status === 'fulfilled' ? { kind: 'ack' } : failed(options, message, s.reason, logger);
  });
}

function failed(options: ResolvedConsumeOptions, message: BusMessage, err: unknown, logger: MessagingLogger): DeliveryOutcome {
  const kind = classifyFailure(err);
  const context = {
    consumer: options.durable,
    subject: message.subject,
    eventId: eventIdOf(message.data),
    deliveries: message.deliveries,
    failure: kind,
  };
  if (kind === 'infrastructure') {
    const delayMs = backoffDelay(options.infrastructureBackoff, message.deliveries);
    const level = message.deliveries === 1 || message.deliveries % INFRA_WARN_EVERY === 0 ? 'warn' : 'debug';
    logger[level](
      { ...context, error: errorMessage(err), retryInMs: delayMs },
      'event handler hit an infrastructure fault; retrying until it heals',
    );
    return { kind: 'retry', delayMs };
  }
  if (kind === 'error' && message.deliveries < options.maxDeliver) {
    const delayMs = options.backoffMs[Math.min(message.deliveries - 1, options.backoffMs.length - 1)];
    logger.warn({ ...context, err, retryInMs: delayMs }, 'event handler failed; will retry');
    return { kind: 'retry', delayMs };
  }
  const error = errorMessage(err);
  logger.error(
    { ...context, error },
    `event dead-lettered: consumer ${context.consumer}, subject ${context.subject}, event ${context.eventId ?? '(no id)'}: ${error}`,
  );
  return {
    kind: 'dead-letter',
    letter: { envelope: message.data, consumer: options.durable, subject: message.subject, error, deliveries: message.deliveries },
  };
}

/**
 * subjectMatches() for a fixed set of filters, as one test per subject: a tail reads every event
 * of the stream (the server this runs on filters one subject at most), so it runs per event.
 */
export function subjectFilter(filters: readonly string[]): (subject: string) => boolean {
  const exact = new Set(filters.filter((f) => !f.includes('*') && !f.includes('>')));
  const wild = filters.filter((f) => !exact.has(f));
  return (subject) => exact.has(subject) || wild.some((f) => subjectMatches(f, subject));
}

/** NATS subject matching: `*` matches one token, `>` one or more trailing tokens. */
export function subjectMatches(filter: string, subject: string): boolean {
  const f = filter.split('.');
  const s = subject.split('.');
  for (let i = 0; i < f.length; i++) {
    if (f[i] === '>') return s.length > i;
    if (i >= s.length) return false;
    if (f[i] !== '*' && f[i] !== s[i]) return false;
  }
  return f.length === s.length;
}
