import {
  ConsumeOptions,
  ConsumerHandle,
  ConsumerLag,
  DeadLetter,
  deliver,
  deliverBatch,
  DeliveryOutcome,
  EventBus,
  resolveConsumeOptions,
  ResolvedConsumeOptions,
  subjectMatches,
} from './bus';
import { AnyEventEnvelope } from './envelope';
import { EventTailSource, processEpoch, TailHandle, TailOptions, validateTailOptions } from './event-tail';
import { errorMessage, MessagingLogger } from './logger';

export interface InProcessBusOptions {
  logger: MessagingLogger;
  /** Messages older than this are dropped. Default 24 h, matching the relay's replay window. */
  retentionMs?: number;
  /** Cap on stored messages; the oldest go first. Default 100,000. */
  maxMessages?: number;
  /** Window in which a repeated envelope id is dropped, like JetStream's duplicate window. Default 2 min. */
  duplicateWindowMs?: number;
}

/** What a request handler answers: Nest's reply packet without transport framing. */
export interface RpcReplyPacket {
  response?: unknown;
  err?: unknown;
}

export type RpcRequestHandler = (data: unknown) => Promise<RpcReplyPacket>;

export class NoResponderError extends Error {
  constructor(pattern: string) {
    super(`No service is answering ${pattern}`);
    this.name = 'NoResponderError';
  }
}

export class RequestTimeoutError extends Error {
  constructor(pattern: string, timeoutMs: number) {
    super(`${pattern} did not answer within ${timeoutMs} ms`);
    this.name = 'RequestTimeoutError';
  }
}

interface StoredMessage {
  seq: number;
  subject: string;
  body: string;
  storedAt: number;
}

interface PendingDelivery {
  deliveries: number;
  dueAt: number;
  inflight: boolean;
}

interface Subscription {
  options: ResolvedConsumeOptions;
  /** Deliveries running: messages, or batches with a batchHandler. */
  inflight: number;
  stopped: boolean;
  idle: Array<() => void>;
}

/** Position and unfinished messages of one durable consumer; kept across stop/start like a JetStream durable. */
interface DurableState {
  name: string;
  subjects: readonly string[];
  /** Next stream sequence not yet delivered. */
  cursor: number;
  pending: Map<number, PendingDelivery>;
  timer?: NodeJS.Timeout;
  active?: Subscription;
}

/**
 * The event bus for embedded mode, where every service runs in one Node process. It keeps an
 * in-memory stream with per-durable cursors so it behaves like JetStream: late consumers get
 * earlier events, failures are retried with backoff, poison messages are dead-lettered. The
 * stream does not survive a restart; the outbox relay replays recent events at start and
 * consumers deduplicate them.
 */
export class InProcessBus implements EventBus, EventTailSource {
  readonly persistent = false;
  /** Sequences start at 1 with every bus, so cursors from an earlier process must not match. */
  readonly epoch = processEpoch();
  private readonly tails = new Set<TailOptions>();
  private readonly stream: StoredMessage[] = [];
  private nextSeq = 1;
  private readonly recentIds = new Map<string, number>();
  private readonly durables = new Map<string, DurableState>();
  private readonly responders = new Map<string, RpcRequestHandler>();
  private readonly retentionMs: number;
  private readonly maxMessages: number;
  private readonly duplicateWindowMs: number;
  private closed = false;

  constructor(private readonly options: InProcessBusOptions) {
    this.retentionMs = options.retentionMs ?? 24 * 3600_000;
    this.maxMessages = options.maxMessages ?? 100_000;
    this.duplicateWindowMs = options.duplicateWindowMs ?? 2 * 60_000;
  }

  async publish(envelope: AnyEventEnvelope): Promise<void> {
    this.store(envelope.subject, envelope, envelope.id);
  }

  async consume(options: ConsumeOptions): Promise<ConsumerHandle> {
    if (this.closed) throw new Error('InProcessBus is closed');
    const resolved = resolveConsumeOptions(options);
    let state = this.durables.get(resolved.durable);
    if (state?.active) throw new Error(`Durable consumer "${resolved.durable}" is already running`);
    if (!state) {
      state = { name: resolved.durable, subjects: resolved.subjects, cursor: 0, pending: new Map() };
      this.durables.set(resolved.durable, state);
    }
    state.subjects = resolved.subjects;
    const sub: Subscription = { options: resolved, inflight: 0, stopped: false, idle: [] };
    state.active = sub;
    const durable = state;
    setImmediate(() => this.pump(durable));
    return {
      stop: async () => {
        sub.stopped = true;
        if (durable.active === sub) durable.active = undefined;
        if (durable.timer) clearTimeout(durable.timer);
        durable.timer = undefined;
        if (sub.inflight > 0) await new Promise<void>((resolve) => sub.idle.push(resolve));
      },
    };
  }

  /** Delivers matching events synchronously as they are stored, after any stored ones from `fromSequence`. */
  async tail(options: TailOptions): Promise<TailHandle> {
    if (this.closed) throw new Error('InProcessBus is closed');
    validateTailOptions(options);
    const tail: TailOptions = { ...options, subjects: [...options.subjects] };
    let startSequence = this.nextSeq;
    if (options.fromSequence !== undefined) {
      startSequence = Math.max(options.fromSequence, this.firstSeq());
      for (const stored of this.stream) if (stored.seq >= startSequence) this.deliverToTail(tail, stored);
    }
    this.tails.add(tail);
    return {
      epoch: this.epoch,
      startSequence,
      stop: async () => {
        this.tails.delete(tail);
      },
    };
  }

  /** Unfinished deliveries plus matching messages past the cursor; the oldest by when it was stored. */
  async lag(durable: string): Promise<ConsumerLag> {
    const state = this.durables.get(durable);
    if (!state) return { pending: 0, oldestAgeSeconds: 0 };
    let pending = 0;
    let oldest = Infinity;
    const count = (stored: StoredMessage | undefined) => {
      if (!stored) return;
      pending++;
      oldest = Math.min(oldest, stored.storedAt);
    };
    for (const seq of state.pending.keys()) count(this.message(seq));
    for (let seq = Math.max(state.cursor, this.firstSeq()); seq < this.nextSeq; seq++) {
      const stored = this.message(seq);
      if (stored && state.subjects.some((f) => subjectMatches(f, stored.subject))) count(stored);
    }
    return { pending, oldestAgeSeconds: pending === 0 ? 0 : (Date.now() - oldest) / 1000 };
  }

  async ping(): Promise<void> {
    if (this.closed) throw new Error('the in-process bus is closed');
  }

  async close(): Promise<void> {
    this.closed = true;
    this.tails.clear();
    const stops: Promise<void>[] = [];
    for (const state of this.durables.values()) {
      if (state.timer) clearTimeout(state.timer);
      state.timer = undefined;
      const sub = state.active;
      if (!sub) continue;
      sub.stopped = true;
      state.active = undefined;
      if (sub.inflight > 0) stops.push(new Promise<void>((resolve) => sub.idle.push(resolve)));
    }
    this.responders.clear();
    await Promise.all(stops);
  }

  /** Registers the single responder for a command pattern; returns a function that removes it. */
  serve(pattern: string, handler: RpcRequestHandler): () => void {
    if (this.responders.has(pattern)) throw new Error(`A responder for ${pattern} is already registered`);
    this.responders.set(pattern, handler);
    return () => {
      if (this.responders.get(pattern) === handler) this.responders.delete(pattern);
    };
  }

  /** Sends a command to its responder; data is copied as JSON both ways, as it would be on the wire. */
  async request(pattern: string, data: unknown, timeoutMs: number): Promise<RpcReplyPacket> {
    const responder = this.responders.get(pattern);
    if (!responder) throw new NoResponderError(pattern);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new RequestTimeoutError(pattern, timeoutMs)), timeoutMs);
    });
    try {
      const reply = await Promise.race([responder(jsonCopy(data)), timeout]);
      return jsonCopy(reply) as RpcReplyPacket;
    } finally {
      clearTimeout(timer);
    }
  }

  private store(subject: string, data: unknown, msgId: string): void {
    if (this.closed) throw new Error('InProcessBus is closed');
    const now = Date.now();
    this.trim(now);
    const seenAt = this.recentIds.get(msgId);
    if (seenAt !== undefined && now - seenAt < this.duplicateWindowMs) return;
    this.recentIds.delete(msgId);
    this.recentIds.set(msgId, now);
    const stored = { seq: this.nextSeq++, subject, body: JSON.stringify(data), storedAt: now };
    this.stream.push(stored);
    for (const tail of this.tails) this.deliverToTail(tail, stored);
    for (const state of this.durables.values()) {
      if (state.active && state.subjects.some((f) => subjectMatches(f, subject))) {
        const s = state;
        setImmediate(() => this.pump(s));
      }
    }
  }

  private deliverToTail(tail: TailOptions, stored: StoredMessage): void {
    if (!tail.subjects.some((f) => subjectMatches(f, stored.subject))) return;
    try {
      tail.handler({ subject: stored.subject, data: JSON.parse(stored.body) as unknown, sequence: stored.seq });
    } catch (err) {
      this.options.logger.error({ subject: stored.subject, sequence: stored.seq, error: errorMessage(err) }, 'event tail handler failed');
    }
  }

  private trim(now: number): void {
    while (this.stream.length > 0 && (this.stream.length >= this.maxMessages || now - this.stream[0].storedAt > this.retentionMs)) {
      this.stream.shift();
    }
    for (const [id, at] of this.recentIds) {
      if (now - at < this.duplicateWindowMs) break;
      this.recentIds.delete(id);
    }
  }

  private firstSeq(): number {
    return this.stream.length > 0 ? this.stream[0].seq : this.nextSeq;
  }

  private message(seq: number): StoredMessage | undefined {
    return this.stream[seq - this.firstSeq()];
  }

  /**
   * Starts as many deliveries as the subscription allows: due retries first, then new messages.
   * With a batchHandler each delivery is a batch of up to batchSize of them: what was published
   * in one turn of the event loop arrives together, since the pump waits for the next one.
   */
  private pump(state: DurableState): void {
    const sub = state.active;
    if (!sub || sub.stopped) return;
    const now = Date.now();
    const take = sub.options.batchHandler ? sub.options.batchSize : 1;
    while (sub.inflight < sub.options.concurrency) {
      const ready: Array<{ stored: StoredMessage; pending: PendingDelivery }> = [];
      while (ready.length < take) {
        const next = this.nextReady(state, now);
        if (!next) break;
        next.pending.inflight = true;
        ready.push(next);
      }
      if (ready.length === 0) break;
      if (sub.options.batchHandler) this.startBatch(state, sub, ready);
      else this.start(state, sub, ready[0].stored, ready[0].pending);
    }
    this.scheduleRetry(state);
  }

  /** The next message to deliver: a due retry, else the next matching one past the cursor. */
  private nextReady(state: DurableState, now: number): { stored: StoredMessage; pending: PendingDelivery } | undefined {
    for (;;) {
      let seq: number | undefined;
      for (const [s, p] of state.pending) {
        if (!p.inflight && p.dueAt <= now) {
          seq = s;
          break;
        }
      }
      if (seq === undefined) {
        state.cursor = Math.max(state.cursor, this.firstSeq());
        while (state.cursor < this.nextSeq) {
          const candidate = this.message(state.cursor)!;
          state.cursor++;
          if (state.subjects.some((f) => subjectMatches(f, candidate.subject))) {
            seq = candidate.seq;
            state.pending.set(seq, { deliveries: 0, dueAt: now, inflight: false });
            break;
          }
        }
      }
      if (seq === undefined) return undefined;
      const stored = this.message(seq);
      if (stored) return { stored, pending: state.pending.get(seq)! };
      // Trimmed by retention while waiting for a retry.
      state.pending.delete(seq);
    }
  }

  private start(state: DurableState, sub: Subscription, stored: StoredMessage, pending: PendingDelivery): void {
    pending.inflight = true;
    pending.deliveries++;
    const message = { subject: stored.subject, data: JSON.parse(stored.body) as unknown, deliveries: pending.deliveries };
    this.running(state, sub, [pending], async () =>
      this.settle(state, stored, pending, await deliver(sub.options, message, this.options.logger)),
    );
  }

  private startBatch(state: DurableState, sub: Subscription, ready: Array<{ stored: StoredMessage; pending: PendingDelivery }>): void {
    const messages = ready.map(({ stored, pending }) => {
      pending.deliveries++;
      return { subject: stored.subject, data: JSON.parse(stored.body) as unknown, deliveries: pending.deliveries };
    });
    this.running(
      state,
      sub,
      ready.map((r) => r.pending),
      async () => {
        const outcomes = await deliverBatch(sub.options, messages, this.options.logger);
        for (const [i, { stored, pending }] of ready.entries()) this.settle(state, stored, pending, outcomes[i]);
      },
    );
  }

  /** Runs one delivery (a message or a batch) in a slot of the subscription, then pumps again. */
  private running(state: DurableState, sub: Subscription, pending: PendingDelivery[], work: () => Promise<void>): void {
    sub.inflight++;
    void work()
      .catch((err) => {
        for (const p of pending) p.inflight = false;
        this.options.logger.error({ consumer: state.name, error: errorMessage(err) }, 'in-process delivery failed');
      })
      .finally(() => {
        sub.inflight--;
        if (sub.inflight === 0) {
          for (const resolve of sub.idle) resolve();
          sub.idle = [];
        }
        this.pump(state);
      });
  }

  private settle(state: DurableState, stored: StoredMessage, pending: PendingDelivery, outcome: DeliveryOutcome): void {
    pending.inflight = false;
    if (outcome.kind === 'ack') {
      state.pending.delete(stored.seq);
    } else if (outcome.kind === 'retry') {
      pending.dueAt = Date.now() + outcome.delayMs;
    } else {
      this.deadLetter(outcome.letter, stored.seq);
      state.pending.delete(stored.seq);
    }
  }

  private deadLetter(letter: DeadLetter, seq: number): void {
    if (this.closed) return;
    this.store(`dlq.${letter.consumer}`, letter, `dlq:${letter.consumer}:${seq}`);
  }

  private scheduleRetry(state: DurableState): void {
    if (state.timer) clearTimeout(state.timer);
    state.timer = undefined;
    if (!state.active || state.active.stopped) return;
    let next = Infinity;
    for (const p of state.pending.values()) if (!p.inflight) next = Math.min(next, p.dueAt);
    if (next === Infinity) return;
    state.timer = setTimeout(
      () => {
        state.timer = undefined;
        this.pump(state);
      },
      Math.max(0, next - Date.now()),
    );
  }
}

function jsonCopy(value: unknown): unknown {
  return value === undefined ? undefined : JSON.parse(JSON.stringify(value));
}
