import type { EventMap, EventSubject } from '@lws/contracts';
import type {
  AfterCommit,
  AnyEventEnvelope,
  ConsumerLag,
  EventBus,
  EventEnvelope,
  Outbox,
  OutboxRelay,
  PendingEvent,
} from '@lws/messaging';
import { DurableConsumer, EVENT_PRIORITY, eventPriority, messagingTables, runAfterCommit, type Written } from '@lws/messaging';
import type { Logger } from 'pino';
import type { Db } from './database';
import { metrics, oncePerScrape } from './metrics';

/** DI tokens for what every service gets from the platform. */
export const CONFIG = Symbol('LWS_CONFIG');
export const LOGGER = Symbol('LWS_LOGGER');
export const DB = Symbol('LWS_DB');
export const CLOCK = Symbol('LWS_CLOCK');
export const ANNOUNCE = Symbol('LWS_ANNOUNCE');
/** An RpcClient on the service's own transport, for asking another service (the owner of a fact). */
export const RPC = Symbol('LWS_RPC');

/** Prints a one-time message to the operator's terminal, outside the structured log. */
export type Announce = (message: string) => void;

export type Clock = () => Date;
export type MessagingTables = ReturnType<typeof messagingTables>;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type Emit = (<S extends EventSubject>(subject: S, data: EventMap[S]) => Promise<EventEnvelope<S>>) & {
  /** Many events in one outbox statement, in order; validated first, so a bad one writes none. */
  many(events: readonly PendingEvent[]): Promise<AnyEventEnvelope[]>;
};

/** An Emit writing to `outbox` inside `tx`; `written` keeps its urgent events and notes the rest. */
function emitter(outbox: Outbox, tx: Tx, written: Written): Emit {
  const note = (e: AnyEventEnvelope) => {
    if (eventPriority(e.subject, e.data) === EVENT_PRIORITY.urgent) written.urgent.push(e);
    else written.other = true;
  };
  const emit = (async (subject, data) => {
    const envelope = await outbox.enqueue(tx, subject, data);
    note(envelope as AnyEventEnvelope);
    return envelope;
  }) as Emit;
  emit.many = async (events) => {
    const envelopes = await outbox.enqueueMany(tx, events);
    envelopes.forEach(note);
    return envelopes;
  };
  return emit;
}

const nothingWritten = (): Written => ({ urgent: [], other: false });
const wroteAny = (written: Written) => written.urgent.length > 0 || written.other;

export type { AfterCommit };

/**
 * A state change and the events it causes commit together: events are written to the
 * service's outbox inside the same transaction, and the relay is woken only after commit (and
 * only when there is something to publish: a wake-up costs the relay a transaction). Other work
 * that must see the commit (waking the scheduler) goes to `afterCommit`.
 */
export class UnitOfWork {
  constructor(
    private readonly db: Db,
    private readonly outbox: Outbox,
    private readonly relay: OutboxRelay,
    private readonly logger: Logger,
  ) {}

  async run<T>(work: (tx: Tx, emit: Emit, afterCommit: AfterCommit) => Promise<T>): Promise<T> {
    const written = nothingWritten();
    const committed: (() => void)[] = [];
    const result = await this.db.transaction(async (tx) => work(tx, emitter(this.outbox, tx, written), (w) => committed.push(w)));
    if (wroteAny(written)) this.relay.committed(written);
    runAfterCommit(committed, this.logger);
    return result;
  }
}

export interface ConsumerRegistration {
  /** Durable name, unique within the service; the service name is prefixed. */
  name: string;
  subjects: EventSubject[];
  /** Runs once per event id; its writes and the events it emits commit with the dedupe record. */
  handler: (event: EventEnvelope<EventSubject>, tx: Tx, emit: Emit, afterCommit: AfterCommit) => Promise<void>;
  /**
   * The set-based form of `handler` for a flood: the new events of one pull, in one transaction
   * with their dedupe records; the same effect as `handler` on each, in order. When it throws, the
   * events go through `handler` one at a time (DurableConsumer), which stays the path of retries
   * and dead letters.
   */
  batchHandler?: (events: EventEnvelope<EventSubject>[], tx: Tx, emit: Emit, afterCommit: AfterCommit) => Promise<void>;
  /** Most events in one batch (default 100). */
  batchSize?: number;
  /**
   * Events handled at once (default 1, in stream order), or batches with a batchHandler. More only
   * where events are independent of each other's order, each one's effect keyed by its own id.
   */
  concurrency?: number;
}

/** Durable consumers declared by feature modules; started once the app is initialised. */
export class Consumers {
  private readonly registrations: ConsumerRegistration[] = [];
  private readonly running: DurableConsumer<EventSubject>[] = [];
  private readonly unsample: (() => void)[] = [];
  private started = false;
  private markRunning!: () => void;
  /** Resolves once every registered consumer has started (work that compares against them waits for it). */
  readonly allRunning: Promise<void> = new Promise((resolve) => (this.markRunning = resolve));

  constructor(
    private readonly service: string,
    private readonly deps: { db: Db; tables: MessagingTables; bus: EventBus; logger: Logger; outbox: Outbox; relay: OutboxRelay },
  ) {}

  register(registration: ConsumerRegistration): void {
    // A consumer registered late would silently never run: fail loudly instead.
    if (this.started) throw new Error('consumers must be registered before the service starts (in onModuleInit)');
    this.registrations.push(registration);
  }

  async startAll(): Promise<void> {
    this.started = true;
    for (const r of this.registrations) {
      const name = `${this.service}-${r.name}`;
      const labels = { service: this.service, consumer: name };
      const consumer = new DurableConsumer({
        db: this.deps.db,
        tables: this.deps.tables,
        bus: this.deps.bus,
        logger: this.deps.logger,
        name,
        subjects: r.subjects,
        concurrency: r.concurrency,
        observe: (outcome) => metrics.consumerEvents.inc({ ...labels, outcome }),
        observeBatch: (_size, outcome) => metrics.consumerBatches.inc({ ...labels, outcome }),
        handler: async (event, tx, afterCommit) => {
          const written = nothingWritten();
          await r.handler(event as EventEnvelope<EventSubject>, tx, emitter(this.deps.outbox, tx, written), afterCommit);
          if (wroteAny(written)) afterCommit(() => this.deps.relay.committed(written));
        },
        ...(r.batchHandler ? { batchHandler: this.batched(r.batchHandler), batchSize: r.batchSize } : {}),
      });
      await consumer.start();
      this.running.push(consumer);
      const lag = oncePerScrape(() => this.deps.bus.lag(name, r.subjects));
      this.unsample.push(
        metrics.consumerPending.sample(async (g) => g.set(labels, (await lag()).pending)),
        metrics.consumerOldestAge.sample(async (g) => g.set(labels, (await lag()).oldestAgeSeconds)),
      );
    }
    this.markRunning();
  }

  /** A batch handler with an Emit into the batch's transaction; the relay is woken after commit when it wrote events. */
  private batched(handler: NonNullable<ConsumerRegistration['batchHandler']>) {
    return async (events: EventEnvelope<EventSubject>[], tx: Tx, afterCommit: AfterCommit): Promise<void> => {
      const written = nothingWritten();
      await handler(events, tx, emitter(this.deps.outbox, tx, written), afterCommit);
      if (wroteAny(written)) afterCommit(() => this.deps.relay.committed(written));
    };
  }

  /** How far a registered consumer (by its registration name) is behind the stream. */
  async lag(name: string): Promise<ConsumerLag> {
    const r = this.registrations.find((x) => x.name === name);
    if (!r) throw new Error(`no consumer registered as ${name}`);
    return this.deps.bus.lag(`${this.service}-${name}`, r.subjects);
  }

  /** A running consumer by its durable name (`<service>-<name>`), for replaying its dead letters. */
  byName(durable: string): DurableConsumer<EventSubject> | undefined {
    return this.running.find((c) => c.name === durable);
  }

  async stopAll(): Promise<void> {
    for (const remove of this.unsample.splice(0)) remove();
    await Promise.all(this.running.splice(0).map((c) => c.stop()));
  }
}
