import { randomUUID } from 'node:crypto';
import { ContractError, EventSubject } from '@lws/contracts';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { assertDurableName, BusMessage, ConsumerHandle, DEFAULT_MAX_DELIVER, EventBus } from './bus';
import { classifyFailure, PoisonMessageError, type RetryBackoff } from './failures';
import { EnvelopeOf, parseEnvelope } from './envelope';
import { errorMessage, MessagingLogger } from './logger';
import { contextOf, inSpan, linksTo, SpanKind, type TraceCarrier } from './tracing';
import { DbTransaction, MessagingDb, MessagingTables } from './tables';

export type { DbTransaction };

/** Registers work to run once the transaction has committed (never if it rolls back). */
export type AfterCommit = (work: () => void) => void;

export interface DurableConsumerOptions<S extends EventSubject> {
  db: MessagingDb;
  tables: MessagingTables;
  bus: EventBus;
  /** Durable name and dedupe key, e.g. `escalation-shifts`. Letters, digits, `-` and `_`. */
  name: string;
  subjects: readonly S[];
  /**
   * Runs inside the transaction that records the event as processed: its writes and the dedupe row
   * commit together. What must follow the commit (waking a loop that reads those writes) goes to
   * `afterCommit`.
   */
  handler: (event: EnvelopeOf<S>, tx: DbTransaction, afterCommit: AfterCommit) => Promise<void>;
  /**
   * The set-based form of `handler`: the events of one pull that were not applied before, in one
   * transaction with their dedupe rows. Its effect must be the handler's for each event, in
   * order. If it throws, the same events go through `handler` one at a time (each in its own
   * transaction, retried and parked as usual), so one bad event costs its batch only a retry.
   */
  batchHandler?: (events: EnvelopeOf<S>[], tx: DbTransaction, afterCommit: AfterCommit) => Promise<void>;
  /** Most events in one batch. Default 100. */
  batchSize?: number;
  logger: MessagingLogger;
  maxDeliver?: number;
  backoffMs?: readonly number[];
  infrastructureBackoff?: RetryBackoff;
  concurrency?: number;
  /** Told what became of each delivery (metrics). */
  observe?: (outcome: ConsumerOutcome) => void;
  /** Told of each batch: its events and whether it committed or fell back to one at a time (metrics). */
  observeBatch?: (size: number, outcome: BatchOutcome) => void;
}

export type BatchOutcome = 'committed' | 'fallback';

/** What became of one delivery: applied, skipped as already applied, handed back to the bus for a retry, or parked. */
export type ConsumerOutcome = 'handled' | 'duplicate' | 'retried' | 'parked';

/** What a replay of a dead letter came to. */
export type ReplayOutcome = { replayed: true } | { replayed: false; error: string };

/**
 * Handles each event exactly once in effect: the event id is recorded in processed_events in the
 * same transaction as the handler's writes, so a redelivered event (a crash before the ack, or
 * the relay publishing twice) finds its id and is acknowledged without running the handler again.
 *
 * An infrastructure fault is thrown back to the bus, which retries it until it heals. An event
 * that can never be applied (poison, or a handler that failed on it `maxDeliver` times) is parked
 * in the service's dead_letters table, where it is counted and shown, and replayed or discarded
 * by a person; the events behind it flow on.
 */
export class DurableConsumer<S extends EventSubject> {
  private handle?: ConsumerHandle;

  constructor(private readonly options: DurableConsumerOptions<S>) {
    assertDurableName(options.name);
  }

  async start(): Promise<void> {
    if (this.handle) return;
    const { bus, name, subjects, maxDeliver, backoffMs, concurrency, infrastructureBackoff, batchHandler, batchSize } = this.options;
    this.handle = await bus.consume({
      durable: name,
      subjects,
      maxDeliver,
      backoffMs,
      concurrency,
      infrastructureBackoff,
      handler: (message) => this.receive(message),
      ...(batchHandler ? { batchHandler: (messages: readonly BusMessage[]) => this.receiveBatch(messages), batchSize } : {}),
    });
  }

  get name(): string {
    return this.options.name;
  }

  /**
   * Runs a parked event through the normal path (dedupe included: one handled meanwhile is only
   * marked replayed). A failure leaves it parked with the new error.
   */
  async replay(deadLetterId: string, byUserId: number | null): Promise<ReplayOutcome> {
    const { db, tables, name } = this.options;
    const t = tables.deadLetters;
    const [letter] = await db
      .select()
      .from(t)
      .where(and(eq(t.id, deadLetterId), eq(t.consumer, name), isNull(t.resolvedAt)));
    if (!letter) return { replayed: false, error: 'no such open dead letter' };
    try {
      await this.process(letter.subject, letter.envelope);
    } catch (err) {
      const error = errorMessage(err).slice(0, 2000);
      await db
        .update(t)
        .set({ error, attempts: sql`${t.attempts} + 1` })
        .where(eq(t.id, letter.id));
      return { replayed: false, error };
    }
    await db.update(t).set({ resolvedAt: new Date(), resolution: 'replayed', resolvedBy: byUserId }).where(eq(t.id, letter.id));
    this.options.logger.info({ consumer: name, subject: letter.subject, eventId: letter.eventId }, 'dead letter replayed');
    return { replayed: true };
  }

  /** In a consumer span when the event carries a trace (the publisher's headers, or the envelope's own). */
  private receive(message: BusMessage): Promise<void> {
    const trace = message.trace ?? traceOf(message.data);
    if (!trace) return this.receiveOnce(message);
    return inSpan(
      `consume ${message.subject}`,
      SpanKind.CONSUMER,
      contextOf(trace),
      { 'messaging.consumer.group.name': this.options.name, 'messaging.message.id': eventIdOf(message.data) ?? '' },
      () => this.receiveOnce(message),
    );
  }

  private async receiveOnce(message: BusMessage): Promise<void> {
    const observe = this.options.observe ?? (() => undefined);
    try {
      observe((await this.process(message.subject, message.data)) ? 'handled' : 'duplicate');
    } catch (err) {
      const kind = classifyFailure(err);
      // Thrown back: the bus retries a fault that heals for as long as it lasts, and gives a
      // failing handler its tries before the event is parked here.
      if (kind === 'infrastructure' || (kind === 'error' && message.deliveries < (this.options.maxDeliver ?? DEFAULT_MAX_DELIVER))) {
        observe('retried');
        throw err;
      }
      await this.park(message, err);
      observe('parked');
    }
  }

  /**
   * The events of one pull in one transaction. What cannot go in it goes one at a time, after it:
   * an event that breaks its contract (to be parked), and one delivered before (it may have
   * failed, and would then fail the batch again on each of its retries). When the batch fails,
   * every event of it goes one at a time, in order: the handler's own errors are then told apart
   * from the others' events, and retried or parked exactly as without batches.
   */
  private async receiveBatch(messages: readonly BusMessage[]): Promise<PromiseSettledResult<void>[]> {
    const { name, logger } = this.options;
    const observe = this.options.observeBatch ?? (() => undefined);
    const results: PromiseSettledResult<void>[] = new Array(messages.length);
    const batch: Array<{ index: number; event: EnvelopeOf<S> }> = [];
    let single: number[] = [];
    for (const [index, message] of messages.entries()) {
      let event: EnvelopeOf<S> | undefined;
      try {
        if (message.deliveries === 1) event = parseEnvelope(message.subject, message.data) as EnvelopeOf<S>;
      } catch {
        // Poison: parked by the one-at-a-time path.
      }
      if (event) batch.push({ index, event });
      else single.push(index);
    }
    if (batch.length > 0) {
      try {
        const handled = await inSpan(
          `consume ${name} batch`,
          SpanKind.CONSUMER,
          contextOf(undefined),
          { 'messaging.consumer.group.name': name, 'messaging.batch.message_count': batch.length },
          () => this.processBatch(batch.map((b) => b.event)),
          linksTo(batch.map((b) => messages[b.index].trace ?? b.event.trace)),
        );
        for (const b of batch) {
          this.options.observe?.(handled.has(b.event) ? 'handled' : 'duplicate');
          results[b.index] = { status: 'fulfilled', value: undefined };
        }
        observe(batch.length, 'committed');
      } catch (err) {
        logger.warn(
          { consumer: name, events: batch.length, error: errorMessage(err) },
          'event batch failed; applying its events one at a time',
        );
        observe(batch.length, 'fallback');
        single = [...single, ...batch.map((b) => b.index)].sort((a, b) => a - b);
      }
    }
    for (const index of single) {
      try {
        await this.receive(messages[index]);
        results[index] = { status: 'fulfilled', value: undefined };
      } catch (reason) {
        results[index] = { status: 'rejected', reason };
      }
    }
    return results;
  }

  /**
   * Records the events as processed in one statement and hands those it inserted (the ones not
   * applied before) to the batch handler, in the same transaction. Returns the events handled.
   */
  private async processBatch(events: EnvelopeOf<S>[]): Promise<Set<EnvelopeOf<S>>> {
    const { db, tables, name, batchHandler, logger } = this.options;
    const committed: (() => void)[] = [];
    const fresh = await db.transaction(async (tx) => {
      const ids = [...new Set(events.map((e) => e.id))];
      // Ids are UUIDs (parseEnvelope checked them): safe in an array literal.
      const { rows } = (await tx.execute(sql`
        insert into ${tables.processedEvents} (consumer, event_id)
        select ${name}, unnest(${`{${ids.join(',')}}`}::uuid[])
        on conflict do nothing
        returning event_id`)) as unknown as { rows: { event_id: string }[] };
      const inserted = new Set(rows.map((r) => r.event_id));
      // The first copy of an event that came twice in this batch is applied; the second is a duplicate.
      const fresh = events.filter((e) => inserted.delete(e.id));
      if (fresh.length > 0) await batchHandler!(fresh, tx, (work) => committed.push(work));
      return fresh;
    });
    if (fresh.length < events.length) {
      const applied = new Set(fresh);
      logger.debug(
        { consumer: name, eventIds: events.filter((e) => !applied.has(e)).map((e) => e.id) },
        'events of a batch already processed; skipped',
      );
    }
    runAfterCommit(committed, logger);
    return new Set(fresh);
  }

  /** Parks the event; if the database cannot take it, that is an infrastructure fault the bus retries. */
  private async park(message: BusMessage, err: unknown): Promise<void> {
    const { db, tables, name, logger } = this.options;
    const error = errorMessage(err).slice(0, 2000);
    const eventId = eventIdOf(message.data);
    await db
      .insert(tables.deadLetters)
      .values({
        id: randomUUID(),
        consumer: name,
        subject: message.subject,
        eventId,
        envelope: message.data ?? null,
        error,
        attempts: message.deliveries,
      })
      .onConflictDoNothing();
    logger.error(
      { consumer: name, subject: message.subject, eventId, deliveries: message.deliveries, error },
      `event parked as a dead letter: consumer ${name}, subject ${message.subject}, event ${eventId ?? '(no id)'}: ${error}`,
    );
  }

  async stop(): Promise<void> {
    const handle = this.handle;
    this.handle = undefined;
    await handle?.stop();
  }

  /** Applies the event once; false when it had been applied already. */
  private async process(subject: string, data: unknown): Promise<boolean> {
    let event: EnvelopeOf<S>;
    try {
      event = parseEnvelope(subject, data) as EnvelopeOf<S>;
    } catch (err) {
      if (err instanceof ContractError) throw new PoisonMessageError(`invalid event: ${err.message}`, { cause: err });
      throw err;
    }
    const { db, tables, name, handler, logger } = this.options;
    const committed: (() => void)[] = [];
    const handled = await db.transaction(async (tx) => {
      const inserted = await tx
        .insert(tables.processedEvents)
        .values({ consumer: name, eventId: event.id })
        .onConflictDoNothing()
        .returning({ eventId: tables.processedEvents.eventId });
      if (inserted.length === 0) return false;
      await handler(event, tx, (work) => committed.push(work));
      return true;
    });
    if (!handled) logger.debug({ consumer: name, subject, eventId: event.id }, 'event already processed; skipped');
    runAfterCommit(committed, logger);
    return handled;
  }
}

/** Runs after-commit work; the commit stands whatever it throws, so a failure is only logged. */
export function runAfterCommit(work: readonly (() => void)[], logger: MessagingLogger): void {
  for (const w of work) {
    try {
      w();
    } catch (err) {
      logger.error({ err }, 'after-commit work failed');
    }
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function eventIdOf(data: unknown): string | null {
  const id = data && typeof data === 'object' ? (data as { id?: unknown }).id : undefined;
  return typeof id === 'string' && UUID.test(id) ? id : null;
}

function traceOf(data: unknown): TraceCarrier | undefined {
  const trace = data && typeof data === 'object' ? (data as { trace?: unknown }).trace : undefined;
  return trace && typeof trace === 'object' ? (trace as TraceCarrier) : undefined;
}
