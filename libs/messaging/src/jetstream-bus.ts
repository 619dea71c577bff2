import {
  AckPolicy,
  connect,
  Consumer,
  ConsumerMessages,
  DeliverPolicy,
  DiscardPolicy,
  headers,
  JetStreamClient,
  JetStreamManager,
  JsMsg,
  MsgHdrs,
  NatsConnection,
  NatsError,
  nanos,
  ReplayPolicy,
  RetentionPolicy,
  StorageType,
  StreamConfig,
} from 'nats';
import {
  BusMessage,
  ConsumeOptions,
  ConsumerLag,
  ConsumerHandle,
  DeadLetter,
  deliver,
  deliverBatch,
  DeliveryOutcome,
  EventBus,
  PoisonMessageError,
  resolveConsumeOptions,
  ResolvedConsumeOptions,
  STREAM_DOMAINS,
  subjectFilter,
} from './bus';
import type { EventSubject } from '@lws/contracts';
import { AnyEventEnvelope } from './envelope';
import { EventTailSource, TailHandle, TailOptions, validateTailOptions } from './event-tail';
import { errorMessage, MessagingLogger } from './logger';
import { EVENT_PRIORITY, eventPriority } from './outbox';
import { activeCarrier, carrierOfHeaders } from './tracing';
import { urgency } from './urgency';

export interface JetStreamBusOptions {
  natsUrl: string;
  /** Stream name, e.g. `LWS`. */
  stream: string;
  /** Put in front of every subject, e.g. `t1ab2.`, so concurrent test runs never share subjects. Default ''. */
  subjectPrefix?: string;
  logger: MessagingLogger;
  /** Connection name shown by the NATS server, usually the service name. */
  name: string;
  /** How long the server waits for an ack before redelivering. Default 30 s. */
  ackWaitMs?: number;
  /** How long publish waits for the PubAck. Default 5 s. */
  publishTimeoutMs?: number;
  /** Window in which a repeated msgID is dropped by the server. Default 2 min. */
  duplicateWindowMs?: number;
  /** Messages older than this are discarded. Default 7 days. */
  maxAgeMs?: number;
  /** Stream size cap; the oldest messages go first. Default 1 GiB. */
  maxBytes?: number;
  /** Stream replicas in a clustered NATS. Default 1. */
  replicas?: number;
  /** Pause between reconnect attempts. Default 1 s. */
  reconnectTimeWaitMs?: number;
}

const STREAM_NOT_FOUND = 10059;
const CONSUMER_NOT_FOUND = 10014;
/** How long one pull request waits on the server for messages; also bounds how long stop() waits for it. */
const PULL_EXPIRES_MS = 5000;
const DRAIN_TIMEOUT_MS = 5000;

function apiErrorCode(err: unknown): number | undefined {
  return err instanceof NatsError ? err.api_error?.err_code : undefined;
}

/** JetStream consumer names cannot contain `.`, `*` or `>`. */
function consumerName(durable: string, subject: string): string {
  return `${durable}__${subject
    .replace(/\*/g, 'star')
    .replace(/>/g, 'all')
    .replace(/[^A-Za-z0-9_-]/g, '_')}`;
}

/**
 * The event bus on NATS JetStream: events are stored in a file-backed stream and read by
 * durable pull consumers, so nothing is lost while a consumer or service is down.
 */
export class JetStreamBus implements EventBus, EventTailSource {
  readonly persistent = true;
  private readonly consumers = new Set<ConsumerHandle>();
  private readonly tails = new Set<TailHandle>();
  private closing?: Promise<void>;

  private constructor(
    private readonly nc: NatsConnection,
    private readonly js: JetStreamClient,
    private readonly jsm: JetStreamManager,
    private readonly options: Required<JetStreamBusOptions>,
  ) {}

  /** Connects and makes sure the stream exists; fails at once when NATS is unreachable. */
  static async connect(options: JetStreamBusOptions): Promise<JetStreamBus> {
    const resolved: Required<JetStreamBusOptions> = {
      subjectPrefix: '',
      ackWaitMs: 30_000,
      publishTimeoutMs: 5000,
      duplicateWindowMs: 2 * 60_000,
      maxAgeMs: 7 * 24 * 3600_000,
      maxBytes: 1024 ** 3,
      replicas: 1,
      reconnectTimeWaitMs: 1000,
      ...options,
    };
    let nc: NatsConnection;
    try {
      nc = await connect({
        servers: resolved.natsUrl,
        name: resolved.name,
        maxReconnectAttempts: -1,
        reconnectTimeWait: resolved.reconnectTimeWaitMs,
        // Without it the client builds two errors with stack traces for every request, each
        // publish's acknowledgement and each RPC included, in case it times out: 4.5% of the
        // one-process stack's CPU in a flood (bench/escalation/to-person.mjs --cpu-prof). Our own
        // errors say which publish or command timed out.
        noAsyncTraces: true,
      });
    } catch (err) {
      throw new Error(`Cannot connect to NATS at ${resolved.natsUrl}: ${errorMessage(err)}`, { cause: err });
    }
    try {
      const jsm = await nc.jetstreamManager();
      const bus = new JetStreamBus(nc, nc.jetstream(), jsm, resolved);
      await bus.ensureStream();
      bus.watchConnection();
      return bus;
    } catch (err) {
      await nc.close();
      throw err;
    }
  }

  /** The underlying connection, for health checks. */
  get connection(): NatsConnection {
    return this.nc;
  }

  get subjectPrefix(): string {
    return this.options.subjectPrefix;
  }

  /** A JetStream API round trip: the server is reachable and JetStream answers. */
  async ping(): Promise<void> {
    if (this.nc.isClosed()) throw new Error('NATS connection closed');
    await this.jsm.getAccountInfo();
  }

  /**
   * Pending = delivered but not acknowledged plus not yet delivered, over the durable's subject
   * consumers. The oldest age is read from the first stream message past the ack floor, which may
   * belong to another subject: an upper bound, close enough to page on.
   */
  async lag(durable: string, subjects: readonly string[]): Promise<ConsumerLag> {
    let pending = 0;
    let oldestAgeSeconds = 0;
    for (const subject of subjects) {
      const info = await this.jsm.consumers.info(this.options.stream, consumerName(durable, subject));
      const behind = info.num_pending + info.num_ack_pending;
      pending += behind;
      if (behind === 0) continue;
      try {
        const first = await this.jsm.streams.getMessage(this.options.stream, { seq: info.ack_floor.stream_seq + 1 });
        oldestAgeSeconds = Math.max(oldestAgeSeconds, (Date.now() - first.time.getTime()) / 1000);
      } catch {
        // Removed by retention meanwhile: the count stands, the age is unknown.
      }
    }
    return { pending, oldestAgeSeconds };
  }

  /**
   * `msgId` replaces the event id as JetStream's deduplication key: a deliberate second publish
   * (republishing a time range) must not be dropped as a duplicate; consumers still deduplicate
   * by the event id.
   */
  async publish(envelope: AnyEventEnvelope, opts: { msgId?: string } = {}): Promise<void> {
    const carrier = activeCarrier();
    let traceHeaders: MsgHdrs | undefined;
    if (carrier) {
      traceHeaders = headers();
      for (const [k, v] of Object.entries(carrier)) traceHeaders.set(k, v);
    }
    await this.js.publish(this.options.subjectPrefix + envelope.subject, JSON.stringify(envelope), {
      msgID: opts.msgId ?? envelope.id,
      timeout: this.options.publishTimeoutMs,
      ...(traceHeaders ? { headers: traceHeaders } : {}),
    });
  }

  async consume(options: ConsumeOptions): Promise<ConsumerHandle> {
    const resolved = resolveConsumeOptions(options);
    // One JetStream consumer per subject: multi-subject filters need NATS 2.10, and the
    // deployment targets 2.9 as well.
    const loops: PullLoop[] = [];
    for (const subject of resolved.subjects) {
      const name = consumerName(resolved.durable, subject);
      await this.ensureConsumer(name, this.options.subjectPrefix + subject);
      const consumer = await this.js.consumers.get(this.options.stream, name);
      loops.push(new PullLoop(consumer, resolved, this, this.options.logger));
    }
    for (const l of loops) l.start();
    const handle: ConsumerHandle = {
      stop: async () => {
        this.consumers.delete(handle);
        await Promise.all(loops.map((l) => l.stop()));
      },
    };
    this.consumers.add(handle);
    return handle;
  }

  /**
   * Reads the stream through an ordered consumer: ephemeral, in memory on the server, no acks. The
   * client re-creates it from the last sequence it saw after a gap or a lost connection, so the
   * handler sees every matching event once and in order while the tail runs. NATS 2.9 takes one
   * filter subject per consumer, so several subjects are read as the whole stream and filtered here
   * (one consumer keeps a single order; the stream holds only this deployment's subjects).
   */
  async tail(options: TailOptions): Promise<TailHandle> {
    validateTailOptions(options);
    const subjects = [...options.subjects];
    const wanted = subjectFilter(subjects);
    const info = await this.jsm.streams.info(this.options.stream);
    const startSequence =
      options.fromSequence === undefined ? info.state.last_seq + 1 : Math.max(options.fromSequence, info.state.first_seq);
    const consumer = await this.js.consumers.get(this.options.stream, {
      deliver_policy: DeliverPolicy.StartSequence,
      opt_start_seq: startSequence,
      ...(subjects.length === 1 ? { filterSubjects: this.options.subjectPrefix + subjects[0] } : {}),
    });
    const logger = this.options.logger;
    const messages = await consumer.consume({
      callback: (msg) => {
        const subject = this.stripPrefix(msg.subject);
        if (!wanted(subject)) return;
        let data: unknown;
        try {
          data = msg.json();
        } catch {
          data = undefined;
        }
        try {
          options.handler({ subject, data, sequence: msg.seq });
        } catch (err) {
          logger.error({ subject, sequence: msg.seq, error: errorMessage(err) }, 'event tail handler failed');
        }
      },
    });
    const handle: TailHandle = {
      // The creation time changes when the stream is re-created and its sequences start again.
      epoch: Date.parse(info.created).toString(36),
      startSequence,
      stop: async () => {
        if (!this.tails.delete(handle)) return;
        await messages.close().catch(() => undefined);
        await consumer.delete().catch(() => undefined);
      },
    };
    this.tails.add(handle);
    return handle;
  }

  /** Stops every consumer (waiting for messages being handled), then drains the connection. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      await Promise.all([...this.tails].map((t) => t.stop()));
      await Promise.all([...this.consumers].map((c) => c.stop()));
      if (this.nc.isClosed()) return;
      // Draining needs the server; during an outage give up after a while rather than hang shutdown.
      let timer: NodeJS.Timeout | undefined;
      const gaveUp = new Promise<void>((resolve) => (timer = setTimeout(resolve, DRAIN_TIMEOUT_MS)));
      await Promise.race([this.nc.drain().catch(() => undefined), gaveUp]);
      clearTimeout(timer);
      if (!this.nc.isClosed()) await this.nc.close();
    })();
    return this.closing;
  }

  /** @internal used by the pull loops. */
  stripPrefix(subject: string): string {
    const prefix = this.options.subjectPrefix;
    return prefix && subject.startsWith(prefix) ? subject.slice(prefix.length) : subject;
  }

  /** @internal */
  get ackWaitMs(): number {
    return this.options.ackWaitMs;
  }

  /** @internal stores a dead letter; the msgID keeps a retried dead-lettering from storing it twice. */
  async publishDeadLetter(letter: DeadLetter, streamSequence: number): Promise<void> {
    await this.js.publish(`${this.options.subjectPrefix}dlq.${letter.consumer}`, JSON.stringify(letter), {
      msgID: `dlq:${letter.consumer}:${streamSequence}`,
      timeout: this.options.publishTimeoutMs,
    });
  }

  private streamConfig(): Partial<StreamConfig> & { name: string; subjects: string[] } {
    const o = this.options;
    return {
      name: o.stream,
      subjects: STREAM_DOMAINS.map((d) => `${o.subjectPrefix}${d}.>`),
      storage: StorageType.File,
      retention: RetentionPolicy.Limits,
      discard: DiscardPolicy.Old,
      duplicate_window: nanos(o.duplicateWindowMs),
      max_age: nanos(o.maxAgeMs),
      max_bytes: o.maxBytes,
      max_msg_size: 1024 * 1024,
      num_replicas: o.replicas,
    };
  }

  private async ensureStream(): Promise<void> {
    const wanted = this.streamConfig();
    try {
      const info = await this.jsm.streams.info(wanted.name);
      const have = [...info.config.subjects].sort().join(',');
      if (have !== [...wanted.subjects].sort().join(',') || info.config.num_replicas !== wanted.num_replicas) {
        // A cluster moves an existing stream to the replicas asked for; a single server refuses more than 1.
        await this.jsm.streams.update(wanted.name, { ...info.config, subjects: wanted.subjects, num_replicas: wanted.num_replicas });
        this.options.logger.info({ stream: wanted.name, subjects: wanted.subjects, replicas: wanted.num_replicas }, 'event stream updated');
      }
    } catch (err) {
      if (apiErrorCode(err) !== STREAM_NOT_FOUND) throw err;
      await this.jsm.streams.add(wanted);
      this.options.logger.info({ stream: wanted.name, subjects: wanted.subjects }, 'event stream created');
    }
  }

  private async ensureConsumer(name: string, filterSubject: string): Promise<void> {
    try {
      await this.jsm.consumers.info(this.options.stream, name);
    } catch (err) {
      if (apiErrorCode(err) !== CONSUMER_NOT_FOUND) throw err;
      await this.jsm.consumers.add(this.options.stream, {
        durable_name: name,
        filter_subject: filterSubject,
        ack_policy: AckPolicy.Explicit,
        // A durable created after events were published still receives them.
        deliver_policy: DeliverPolicy.All,
        replay_policy: ReplayPolicy.Instant,
        ack_wait: nanos(this.options.ackWaitMs),
        // Unlimited on the server: the client dead-letters after maxDeliver, so the server never
        // silently drops a message a crashing consumer could not finish.
        max_deliver: -1,
        // More than one message may be unacknowledged, so a message waiting for its retry never blocks the rest.
        max_ack_pending: 1000,
      });
    }
  }

  private watchConnection(): void {
    const logger = this.options.logger;
    void (async () => {
      for await (const status of this.nc.status()) {
        if (status.type === 'disconnect') logger.warn({ server: status.data }, 'NATS connection lost; reconnecting');
        else if (status.type === 'reconnect') logger.info({ server: status.data }, 'NATS connection restored');
        else if (status.type === 'error') logger.error({ error: String(status.data) }, 'NATS connection error');
      }
    })().catch(() => undefined);
  }
}

/**
 * Pulls from one JetStream consumer, handling at most `concurrency` messages at a time; with a
 * batchHandler, `concurrency` batches of up to `batchSize` messages, and one batch more is pulled
 * meanwhile so the next can start at once.
 */
class PullLoop {
  private stopped = false;
  /** Messages taken from the server and not yet settled. */
  private inflight = 0;
  private slotFreed?: () => void;
  private batch?: ConsumerMessages;
  private running?: Promise<void>;
  private readonly idle: Set<() => void> = new Set();
  /** Batch mode: messages received and waiting for a batch, in stream order. */
  private queued: JsMsg[] = [];
  private batchesRunning = 0;
  private flushScheduled = false;
  /** Batch mode: every message held (queued or in a batch), told it is being worked on. */
  private readonly held = new Set<JsMsg>();
  private keepAlive?: NodeJS.Timeout;

  constructor(
    private readonly consumer: Consumer,
    private readonly options: ResolvedConsumeOptions,
    private readonly bus: JetStreamBus,
    private readonly logger: MessagingLogger,
  ) {}

  private get capacity(): number {
    return this.options.batchHandler ? this.options.batchSize * (this.options.concurrency + 1) : this.options.concurrency;
  }

  start(): void {
    if (this.options.batchHandler) {
      // Long batches and messages waiting for one tell the server they are alive so it does not redeliver meanwhile.
      this.keepAlive = setInterval(
        () => {
          for (const msg of this.held) safely(() => msg.working());
        },
        Math.max(1000, this.bus.ackWaitMs / 3),
      );
      this.keepAlive.unref();
    }
    this.running = this.run();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.slotFreed?.();
    this.batch?.stop();
    await this.running;
    // Received but not yet in a batch: handed back at once instead of after ack_wait.
    for (const msg of this.queued.splice(0)) {
      safely(() => msg.nak());
      this.held.delete(msg);
      this.settled(1);
    }
    if (this.inflight > 0) await new Promise<void>((resolve) => this.idle.add(resolve));
    clearInterval(this.keepAlive);
  }

  private async run(): Promise<void> {
    let failing = false;
    while (!this.stopped) {
      if (this.inflight >= this.capacity) {
        await new Promise<void>((resolve) => (this.slotFreed = resolve));
        continue;
      }
      try {
        this.batch = await this.consumer.fetch({
          max_messages: this.capacity - this.inflight,
          expires: PULL_EXPIRES_MS,
        });
        if (this.stopped) this.batch.stop();
        for await (const msg of this.batch) {
          // Stopped while the pull was open: hand the message back at once instead of after ack_wait.
          if (this.stopped) msg.nak();
          else if (this.options.batchHandler) this.enqueue(msg);
          else this.handle(msg);
        }
        if (failing) {
          failing = false;
          this.logger.info({ consumer: this.options.durable }, 'event consumer pulling again');
        }
      } catch (err) {
        if (this.stopped) break;
        if (!failing) {
          failing = true;
          this.logger.warn({ consumer: this.options.durable, error: errorMessage(err) }, 'event consumer cannot pull; retrying');
        }
        await new Promise((r) => setTimeout(r, 1000));
      } finally {
        this.batch = undefined;
      }
    }
  }

  private settled(count: number): void {
    this.inflight -= count;
    const freed = this.slotFreed;
    this.slotFreed = undefined;
    freed?.();
    if (this.inflight === 0) {
      for (const resolve of this.idle) resolve();
      this.idle.clear();
    }
  }

  private handle(msg: JsMsg): void {
    this.inflight++;
    void this.process(msg).finally(() => this.settled(1));
  }

  /**
   * Batch mode: the messages that arrive together (one read from the socket; they are yielded
   * before the next macrotask) become one batch, or several when more than batchSize came.
   */
  private enqueue(msg: JsMsg): void {
    this.inflight++;
    this.held.add(msg);
    this.queued.push(msg);
    if (this.queued.length >= this.options.batchSize) this.flush();
    else if (!this.flushScheduled) {
      this.flushScheduled = true;
      setImmediate(() => {
        this.flushScheduled = false;
        this.flush();
      });
    }
  }

  private flush(): void {
    while (!this.stopped && this.batchesRunning < this.options.concurrency && this.queued.length > 0) {
      const msgs = this.queued.splice(0, this.options.batchSize);
      this.batchesRunning++;
      void this.processBatch(msgs).finally(() => {
        this.batchesRunning--;
        for (const msg of msgs) this.held.delete(msg);
        this.settled(msgs.length);
        this.flush();
      });
    }
  }

  private message(msg: JsMsg): { message: BusMessage; json: boolean } {
    let data: unknown;
    try {
      data = JSON.parse(msg.string());
    } catch {
      data = undefined;
    }
    const trace = carrierOfHeaders(msg.headers);
    const message: BusMessage = {
      subject: this.bus.stripPrefix(msg.subject),
      data: data === undefined ? msg.string() : data,
      deliveries: msg.info.redeliveryCount,
      ...(trace ? { trace } : {}),
    };
    return { message, json: data !== undefined };
  }

  private async process(msg: JsMsg): Promise<void> {
    const { message, json } = this.message(msg);
    await this.gated(json && urgentMessage(message), () => this.processOne(msg, message, json));
  }

  /** Urgent work shuts the process's gate while it runs; the rest passes it first (Urgency). */
  private async gated(urgent: boolean, work: () => Promise<void>): Promise<void> {
    if (urgent) return urgency.during(work);
    await urgency.pass();
    return work();
  }

  private async processOne(msg: JsMsg, message: BusMessage, json: boolean): Promise<void> {
    // Long handlers tell the server they are alive so it does not redeliver meanwhile.
    const keepAlive = setInterval(() => safely(() => msg.working()), Math.max(1000, this.bus.ackWaitMs / 3));
    const options = json ? this.options : { ...this.options, handler: notJson };
    let outcome: DeliveryOutcome;
    try {
      outcome = await deliver(options, message, this.logger);
    } finally {
      clearInterval(keepAlive);
    }
    await this.settle(msg, message, outcome);
  }

  /** A body that is not JSON never reaches the batch handler: it is dead-lettered as poison, as one at a time. */
  private async processBatch(msgs: JsMsg[]): Promise<void> {
    const parsed = msgs.map((msg) => ({ msg, ...this.message(msg) }));
    await this.gated(
      parsed.some((p) => p.json && urgentMessage(p.message)),
      () => this.processParsed(parsed),
    );
  }

  private async processParsed(parsed: { msg: JsMsg; message: BusMessage; json: boolean }[]): Promise<void> {
    const json = parsed.filter((p) => p.json);
    const outcomes =
      json.length > 0
        ? await deliverBatch(
            this.options,
            json.map((p) => p.message),
            this.logger,
          )
        : [];
    const settling = json.map((p, i) => this.settle(p.msg, p.message, outcomes[i]));
    for (const p of parsed) {
      if (!p.json)
        settling.push(deliver({ ...this.options, handler: notJson }, p.message, this.logger).then((o) => this.settle(p.msg, p.message, o)));
    }
    await Promise.all(settling);
  }

  private async settle(msg: JsMsg, message: BusMessage, outcome: DeliveryOutcome): Promise<void> {
    if (outcome.kind === 'ack') {
      safely(
        () => msg.ack(),
        (err) =>
          this.logger.warn(
            { consumer: this.options.durable, error: errorMessage(err) },
            'ack failed; the event will be redelivered and deduplicated',
          ),
      );
    } else if (outcome.kind === 'retry') {
      safely(() => msg.nak(outcome.delayMs));
    } else {
      try {
        await this.bus.publishDeadLetter(outcome.letter, msg.seq);
        msg.term();
      } catch (err) {
        const delay = this.options.backoffMs[this.options.backoffMs.length - 1];
        this.logger.error(
          { consumer: this.options.durable, subject: message.subject, error: errorMessage(err) },
          'cannot store dead letter; the event stays on its consumer and is retried',
        );
        safely(() => msg.nak(delay));
      }
    }
  }
}

const notJson = () => Promise.reject(new PoisonMessageError('message body is not JSON'));

/** An emergency's event (eventPriority): its consumer runs it with the process's gate shut. */
function urgentMessage(message: BusMessage): boolean {
  const envelope = message.data as { data?: unknown } | undefined;
  return eventPriority(message.subject as EventSubject, envelope?.data) === EVENT_PRIORITY.urgent;
}

function safely(action: () => void, onError?: (err: unknown) => void): void {
  try {
    action();
  } catch (err) {
    onError?.(err);
  }
}
