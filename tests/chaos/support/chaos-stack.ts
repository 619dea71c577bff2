import { randomUUID } from 'node:crypto';
import { connect } from 'nats';
import { Pool } from 'pg';
import type { EventMap, EventSubject } from '@lws/contracts';
import { JetStreamBus, RemoteError, RpcClient, type EventEnvelope } from '@lws/messaging';
import { createTestDatabase, eventually, uniqueId, type TestDatabase } from '@lws/testing';
import { ServiceProcess, type NatsServerProcess } from './processes';

/** Quiet: the chaos is expected, its warnings are not news. Failures print the tail of each log. */
const silentLogger = { debug() {}, info() {}, warn() {}, error() {} };

export interface StoredEvent {
  id: string;
  subject: string;
  occurredAt: string;
  producer: string;
  data: Record<string, unknown>;
}

/**
 * The real services of one scenario, each in its own process, on a database, stream and subject
 * prefix of their own and on the test file's own NATS server: shifts (where shifts start, check-ins
 * and deadline moves happen, as the gateway would ask for them) and one or more escalation
 * processes. Identity and locations are not run: the test publishes their events itself, which is
 * all shifts and escalation ever learn from them.
 */
export class ChaosStack {
  readonly shifts: ServiceProcess[] = [];
  readonly escalations: ServiceProcess[] = [];
  readonly others: ServiceProcess[] = [];
  private rpcClient?: RpcClient;
  private seedBus?: JetStreamBus;
  private pool?: Pool;
  private shiftsPool?: Pool;

  private constructor(
    readonly nats: NatsServerProcess,
    readonly db: TestDatabase,
    readonly prefix: string,
    readonly stream: string,
    private readonly escalationEnv: NodeJS.ProcessEnv,
    /** Escalation's own database when it is not the shared one (a server the test can stop). */
    private readonly escalationDatabaseUrl?: string,
  ) {}

  static async create(
    nats: NatsServerProcess,
    escalationEnv: NodeJS.ProcessEnv = {},
    options: { escalationDatabaseUrl?: string } = {},
  ): Promise<ChaosStack> {
    const id = uniqueId('c');
    const db = await createTestDatabase('lws_chaos_');
    return new ChaosStack(nats, db, `${id}.`, `LWS_${id.toUpperCase()}`, escalationEnv, options.escalationDatabaseUrl);
  }

  private env(): NodeJS.ProcessEnv {
    return { DATABASE_URL: this.db.url, NATS_URL: this.nats.url, EVENTS_STREAM: this.stream, SUBJECT_PREFIX: this.prefix };
  }

  async startShifts(): Promise<ServiceProcess> {
    const proc = await ServiceProcess.start(`shifts-${this.shifts.length + 1}`, 'shifts', this.env());
    this.shifts.push(proc);
    return proc;
  }

  /** identity, for scenarios about its data (most publish identity's events themselves). */
  async startIdentity(): Promise<ServiceProcess> {
    const proc = await ServiceProcess.start('identity-1', 'identity', this.env());
    this.others.push(proc);
    return proc;
  }

  /** notifications, sending through the real Twilio SDK to a fake provider at `fakeTwilioUrl`. */
  async startNotifications(fakeTwilioUrl: string): Promise<ServiceProcess> {
    const proc = await ServiceProcess.start('notifications-1', 'notifications', { ...this.env(), FAKE_TWILIO_URL: fakeTwilioUrl });
    this.others.push(proc);
    return proc;
  }

  /**
   * Deletes from the stream every message after sequence `afterSeq` whose subject starts with
   * `subjectStart` (without the prefix), as a lost write would lose it; answers their subjects.
   */
  async loseFromStream(afterSeq: number, subjectStart: string): Promise<string[]> {
    const nc = await connect({ servers: this.nats.url });
    try {
      const jsm = await nc.jetstreamManager();
      const lastSeq = (await jsm.streams.info(this.stream)).state.last_seq;
      const lost: string[] = [];
      for (let seq = afterSeq + 1; seq <= lastSeq; seq++) {
        const msg = await jsm.streams.getMessage(this.stream, { seq }).catch(() => undefined);
        if (!msg?.subject.startsWith(`${this.prefix}${subjectStart}`)) continue;
        if (!(await jsm.streams.deleteMessage(this.stream, seq))) throw new Error(`could not delete message ${seq}`);
        lost.push(msg.subject.slice(this.prefix.length));
      }
      return lost;
    } finally {
      await nc.close();
    }
  }

  /** The stream's last sequence number: what `loseFromStream` counts from. */
  async streamLastSeq(): Promise<number> {
    const nc = await connect({ servers: this.nats.url });
    try {
      return (await (await nc.jetstreamManager()).streams.info(this.stream)).state.last_seq;
    } finally {
      await nc.close();
    }
  }

  async startEscalation(): Promise<ServiceProcess> {
    const proc = await ServiceProcess.start(`escalation-${this.escalations.length + 1}`, 'escalation', {
      ...this.env(),
      ...(this.escalationDatabaseUrl ? { DATABASE_URL: this.escalationDatabaseUrl } : {}),
      ...this.escalationEnv,
    });
    this.escalations.push(proc);
    return proc;
  }

  async rpc(): Promise<RpcClient> {
    this.rpcClient ??= await RpcClient.create({ mode: 'nats', natsUrl: this.nats.url, subjectPrefix: this.prefix, logger: silentLogger });
    return this.rpcClient;
  }

  /** Publishes an event as its producing service would have (same envelope, msgID = event id). */
  async publish<S extends EventSubject>(producer: string, subject: S, data: EventMap[S]): Promise<string> {
    this.seedBus ??= await JetStreamBus.connect({
      natsUrl: this.nats.url,
      stream: this.stream,
      subjectPrefix: this.prefix,
      logger: silentLogger,
      name: 'chaos-seed',
    });
    const envelope: EventEnvelope<S> = { id: randomUUID(), subject, occurredAt: new Date().toISOString(), producer, data };
    await this.seedBus.publish(envelope as never);
    return envelope.id;
  }

  /** Whether escalation has handled (and committed) the event with this id. */
  async escalationHandled(eventId: string): Promise<boolean> {
    const { rows } = await this.db_().query(`select 1 from escalation.processed_events where event_id = $1`, [eventId]);
    return rows.length > 0;
  }

  /** An active location, as the locations service announces it. */
  async seedLocation(name: string): Promise<void> {
    await this.publish('locations', 'locations.location.created.v1', { locationId: 1, name, isActive: true });
  }

  /** Workers with valid UK mobile numbers, as identity announces them: escalation texts reminders to them. */
  async seedWorkers(userIds: number[]): Promise<void> {
    await inBatches(userIds, 50, (userId) =>
      this.publish('identity', 'identity.user.created.v1', {
        userId,
        username: `worker${userId}`,
        name: `Worker ${userId}`,
        role: 'worker',
        phone: `+447911${String(userId % 1_000_000).padStart(6, '0')}`,
      }),
    );
  }

  /** Starts each worker's shift through shifts' own command, retrying until shifts knows the location. */
  async startShiftsFor(userIds: number[], location: string): Promise<void> {
    const rpc = await this.rpc();
    await eventually(
      async () => {
        await rpc.send('shifts.shift.start.v1', { userId: userIds[0], location });
        return true;
      },
      30_000,
      200,
    );
    await inBatches(userIds, 20, (userId) => rpc.send('shifts.shift.start.v1', { userId, location }));
  }

  /**
   * Moves a worker's deadline to `at` with the superadmin test tool (shifts.deadline.set.v1), as
   * POST /api/simulate-specific-time does; answers the deadline shifts actually set.
   */
  async setDeadline(userId: number, at: Date): Promise<Date> {
    const rpc = await this.rpc();
    const minutesUntilDue = Math.max(0, (at.getTime() - Date.now()) / 60_000);
    const reply = await rpc.send('shifts.deadline.set.v1', { userId, mode: 'minutes_until_due', minutesUntilDue, byUserId: 1 });
    if (!reply.worker.nextCheckInAt) throw new Error(`shifts set no deadline for worker ${userId}`);
    return new Date(reply.worker.nextCheckInAt);
  }

  /**
   * A worker's check-in as the worker app sends it: one idempotency key per press, and the same
   * request again until the server accepts it. Answers when it was accepted and how many tries it took.
   */
  async checkInRetrying(userId: number, giveUpAt: number): Promise<{ acceptedAt: Date; attempts: number; nextCheckInAt: Date }> {
    const rpc = await this.rpc();
    const idempotencyKey = `chaos-${userId}-${randomUUID()}`;
    for (let attempts = 1; ; attempts++) {
      try {
        const reply = await rpc.send('shifts.checkin.record.v1', { userId, idempotencyKey }, { timeoutMs: 1500 });
        return { acceptedAt: new Date(), attempts, nextCheckInAt: new Date(reply.checkIn.nextCheckInAt) };
      } catch (err) {
        // 503: nothing answered (NATS is down or shifts cannot be reached); anything else is a real refusal.
        if (!(err instanceof RemoteError) || err.status !== 503 || Date.now() > giveUpAt) throw err;
        await new Promise((r) => setTimeout(r, 500));
      }
    }
  }

  /** Escalation's database. */
  private db_(): Pool {
    if (!this.pool) {
      this.pool = new Pool({ connectionString: this.escalationDatabaseUrl ?? this.db.url, max: 2 });
      // An idle connection cut when the database is dropped (or its server stopped) is not a test failure.
      this.pool.on('error', () => undefined);
    }
    return this.pool;
  }

  /** Reads escalation's own tables, as an operator with psql would. */
  escalationQuery<R extends Record<string, unknown>>(text: string, params: unknown[] = []): Promise<R[]> {
    return this.db_()
      .query<R>(text, params)
      .then((r) => r.rows);
  }

  /** Reads shifts' tables: the truth escalation's copy must match. */
  shiftsQuery<R extends Record<string, unknown>>(text: string, params: unknown[] = []): Promise<R[]> {
    if (!this.shiftsPool) {
      this.shiftsPool = new Pool({ connectionString: this.db.url, max: 2 });
      this.shiftsPool.on('error', () => undefined);
    }
    return this.shiftsPool.query<R>(text, params).then((r) => r.rows);
  }

  /**
   * Every event escalation committed, from its own outbox: a step "fired" exactly when its
   * transaction wrote these rows, whether or not NATS has carried them yet.
   */
  async escalationOutbox(): Promise<StoredEvent[]> {
    const { rows } = await this.db_().query<{ payload: StoredEvent }>(`select payload from escalation.outbox order by seq`);
    return rows.map((r) => r.payload);
  }

  /** Events escalation's relay has marked published: each must be on the stream. */
  async escalationPublished(): Promise<StoredEvent[]> {
    const { rows } = await this.db_().query<{ payload: StoredEvent }>(
      `select payload from escalation.outbox where published_at is not null order by seq`,
    );
    return rows.map((r) => r.payload);
  }

  /** Rows of escalation's outbox not yet on the stream. */
  async escalationUnpublished(): Promise<number> {
    const { rows } = await this.db_().query<{ n: string }>(`select count(*) as n from escalation.outbox where published_at is null`);
    return Number(rows[0].n);
  }

  /** Every message on the stream under `<prefix>escalation.>`: what notifications and the dashboards receive. */
  async escalationStreamEvents(): Promise<StoredEvent[]> {
    const nc = await connect({ servers: this.nats.url });
    try {
      const filter = `${this.prefix}escalation.>`;
      // The stream says how many it holds; a read that stops at the first quiet second would come
      // up short on a busy machine and look like a lost message.
      const info = await (await nc.jetstreamManager()).streams.info(this.stream, { subjects_filter: filter });
      const held = Object.values(info.state.subjects ?? {}).reduce((sum, n) => sum + n, 0);
      const consumer = await nc.jetstream().consumers.get(this.stream, { filterSubjects: filter });
      const events: StoredEvent[] = [];
      const until = Date.now() + 30_000;
      while (events.length < held && Date.now() < until) {
        const msg = await consumer.next({ expires: 1000 });
        if (msg) events.push(msg.json<StoredEvent>());
      }
      return events;
    } finally {
      await nc.close();
    }
  }

  /** Logs of every process, for a failure message. */
  logs(): string {
    return [...this.shifts, ...this.escalations, ...this.others]
      .map((p) => `==== ${p.name} (port ${p.healthPort}) ====\n${p.log()}`)
      .join('\n');
  }

  async close(): Promise<void> {
    for (const p of [...this.escalations, ...this.shifts, ...this.others]) await p.kill();
    await this.rpcClient?.close().catch(() => undefined);
    await this.seedBus?.close().catch(() => undefined);
    await this.pool?.end().catch(() => undefined);
    await this.shiftsPool?.end().catch(() => undefined);
    await this.db.drop();
    if (this.nats.running) {
      const nc = await connect({ servers: this.nats.url });
      await (await nc.jetstreamManager()).streams.delete(this.stream).catch(() => undefined);
      await nc.close();
    }
  }
}

/** Runs `fn` over items, `width` at a time: fast enough for hundreds of workers, gentle on 2 cores. */
export async function inBatches<T>(items: T[], width: number, fn: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: Math.min(width, items.length) }, async () => {
    while (next < items.length) await fn(items[next++]);
  });
  await Promise.all(lanes);
}
