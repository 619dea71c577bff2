import type { EventMap, EventSubject } from '@lws/contracts';
import type { AnyEventEnvelope, EventBus, EventEnvelope, Outbox, OutboxRelay, PendingEvent } from '@lws/messaging';
import { DurableConsumer, messagingTables } from '@lws/messaging';
import type { Logger } from 'pino';
import type { Db } from './database';

/** DI tokens for what every service gets from the platform. */
export const CONFIG = Symbol('LWS_CONFIG');
export const LOGGER = Symbol('LWS_LOGGER');
export const DB = Symbol('LWS_DB');
export const CLOCK = Symbol('LWS_CLOCK');
export const ANNOUNCE = Symbol('LWS_ANNOUNCE');

/** Prints a one-time message to the operator's terminal, outside the structured log. */
export type Announce = (message: string) => void;

export type Clock = () => Date;
export type MessagingTables = ReturnType<typeof messagingTables>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type Emit = (<S extends EventSubject>(subject: S, data: EventMap[S]) => Promise<EventEnvelope<S>>) & {
  /** Many events in one outbox statement, in order; validated first, so a bad one writes none. */
  many(events: readonly PendingEvent[]): Promise<AnyEventEnvelope[]>;
};

/** An Emit writing to `outbox` inside `tx`; `onEmit` learns that something was written. */
function emitter(outbox: Outbox, tx: Tx, onEmit: () => void): Emit {
  const emit = ((subject, data) => {
    onEmit();
    return outbox.enqueue(tx, subject, data);
  }) as Emit;
  emit.many = (events) => {
    if (events.length > 0) onEmit();
    return outbox.enqueueMany(tx, events);
  };
  return emit;
}

/**
 * A state change and the events it causes commit together: events are written to the
 * service's outbox inside the same transaction, and the relay is woken only after commit (and
 * only when there is something to publish: a wake-up costs the relay a transaction).
 */
export class UnitOfWork {
  constructor(
    private readonly db: Db,
    private readonly outbox: Outbox,
    private readonly relay: OutboxRelay,
  ) {}

  async run<T>(work: (tx: Tx, emit: Emit) => Promise<T>): Promise<T> {
    let emitted = false;
    const result = await this.db.transaction(async (tx) =>
      work(
        tx,
        emitter(this.outbox, tx, () => (emitted = true)),
      ),
    );
    if (emitted) this.relay.kick();
    return result;
  }
}

export interface ConsumerRegistration {
  /** Durable name, unique within the service; the service name is prefixed. */
  name: string;
  subjects: EventSubject[];
  /** Runs once per event id; its writes and the events it emits commit with the dedupe record. */
  handler: (event: EventEnvelope<EventSubject>, tx: Tx, emit: Emit) => Promise<void>;
}

/** Durable consumers declared by feature modules; started once the app is initialised. */
export class Consumers {
  private readonly registrations: ConsumerRegistration[] = [];
  private readonly running: DurableConsumer<EventSubject>[] = [];
  private started = false;

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
      const consumer = new DurableConsumer({
        db: this.deps.db,
        tables: this.deps.tables,
        bus: this.deps.bus,
        logger: this.deps.logger,
        name: `${this.service}-${r.name}`,
        subjects: r.subjects,
        handler: async (event, tx) => {
          let emitted = false;
          await r.handler(
            event as EventEnvelope<EventSubject>,
            tx,
            emitter(this.deps.outbox, tx, () => (emitted = true)),
          );
          // Committed a moment later by the consumer; the relay's next poll picks it up if this kick is early.
          if (emitted) this.deps.relay.kick();
        },
      });
      await consumer.start();
      this.running.push(consumer);
    }
  }

  async stopAll(): Promise<void> {
    await Promise.all(this.running.splice(0).map((c) => c.stop()));
  }
}
