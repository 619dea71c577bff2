import { ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ContractError } from '@lws/contracts';
import { eventually, testServers, uniqueId } from '@lws/testing';
import { ConsumerHandle, EventBus } from './bus';
import { AnyEventEnvelope } from './envelope';
import { JetStreamBus } from './jetstream-bus';
import { Outbox } from './outbox';
import { sql } from 'drizzle-orm';
import { claimUnpublished, INDEX_ORDER, OutboxRelay } from './outbox-relay';
import { deleteStream, messagingTestDb, MessagingTestDb, recordingLogger, userCreated } from './testing/support';

describe('Outbox and OutboxRelay on JetStream', () => {
  let t: MessagingTestDb;
  let prefix: string;
  let stream: string;
  let bus: JetStreamBus;
  let logger: ReturnType<typeof recordingLogger>;
  let outbox: Outbox;
  const cleanups: Array<() => Promise<void>> = [];

  beforeAll(async () => {
    t = await messagingTestDb();
  });

  beforeEach(async () => {
    prefix = `${uniqueId()}.`;
    stream = uniqueId('LWS_T_');
    logger = recordingLogger();
    bus = await JetStreamBus.connect({ natsUrl: testServers.natsUrl, stream, subjectPrefix: prefix, logger, name: 'relay-spec' });
    outbox = new Outbox({ tables: t.tables, producer: 'relay-spec' });
    await t.pool.query('DELETE FROM msgtest.outbox');
  });

  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    await bus.close();
    await deleteStream(stream);
  });

  afterAll(async () => {
    await t.close();
  });

  function startRelay(options: { bus?: EventBus; logger?: ReturnType<typeof recordingLogger>; batchSize?: number } = {}) {
    const relay = new OutboxRelay({
      db: t.db,
      tables: t.tables,
      bus: options.bus ?? bus,
      logger: options.logger ?? logger,
      pollIntervalMs: 50,
      maxBackoffMs: 400,
      batchSize: options.batchSize,
    });
    cleanups.push(() => relay.stop());
    return relay.start().then(() => relay);
  }

  /** Every event that reaches the stream, in stream order. */
  async function received(subjects = ['identity.>']): Promise<AnyEventEnvelope[]> {
    const events: AnyEventEnvelope[] = [];
    const handle: ConsumerHandle = await bus.consume({
      durable: 'observer',
      subjects,
      handler: async (m) => {
        events.push(m.data as AnyEventEnvelope);
      },
    });
    cleanups.push(() => handle.stop());
    return events;
  }

  async function outboxRows() {
    const r = await t.pool.query('SELECT id, published_at, attempts FROM msgtest.outbox ORDER BY seq');
    return r.rows as Array<{ id: string; published_at: Date | null; attempts: number }>;
  }

  it('writes the envelope in the caller transaction and publishes it in order', async () => {
    const events = await received();
    await startRelay();
    const written = await t.db.transaction(async (tx) => [
      await outbox.enqueue(tx, 'identity.user.created.v1', userCreated(1)),
      await outbox.enqueue(tx, 'identity.user.deleted.v1', { userId: 1, deletedBy: 2 }),
    ]);
    expect(written[0]).toMatchObject({ subject: 'identity.user.created.v1', producer: 'relay-spec', data: userCreated(1) });
    expect(Date.parse(written[0].occurredAt)).not.toBeNaN();

    await eventually(() => events.length === 2);
    expect(events).toEqual(written);
    // The relay marks rows published in the transaction that publishes them, which commits a moment
    // after the consumer may already have the events.
    await eventually(async () => (await outboxRows()).every((r) => r.published_at !== null));
  });

  it('rejects data that breaks the contract, naming the field, and rolls the transaction back', async () => {
    const attempt = t.db.transaction(async (tx) => {
      await outbox.enqueue(tx, 'identity.user.created.v1', userCreated(1));
      await outbox.enqueue(tx, 'identity.user.created.v1', { ...userCreated(2), userId: -5 });
    });
    await expect(attempt).rejects.toBeInstanceOf(ContractError);
    await expect(attempt).rejects.toMatchObject({ field: 'userId' });
    expect(await outboxRows()).toEqual([]);
  });

  it('enqueueMany writes the envelopes enqueue writes, in order, and the relay publishes batches of them in that order', async () => {
    const events = await received();
    await startRelay({ batchSize: 40 });
    const written = await t.db.transaction((tx) =>
      outbox.enqueueMany(
        tx,
        Array.from({ length: 150 }, (_, i) =>
          i % 2 === 0
            ? { subject: 'identity.user.created.v1' as const, data: userCreated(i + 1) }
            : { subject: 'identity.user.deleted.v1' as const, data: { userId: i, deletedBy: 2 } },
        ),
      ),
    );
    expect(written[0]).toMatchObject({ subject: 'identity.user.created.v1', producer: 'relay-spec', data: userCreated(1) });
    expect(new Set(written.map((e) => e.id)).size).toBe(150);
    const rows = await t.pool.query('SELECT id, subject, payload, created_at FROM msgtest.outbox ORDER BY seq');
    expect(rows.rows.map((r) => r.payload)).toEqual(written);
    expect(rows.rows.map((r) => [r.id, r.subject, r.created_at.toISOString()])).toEqual(
      written.map((e) => [e.id, e.subject, e.occurredAt]),
    );

    await eventually(() => events.length === 150);
    expect(events).toEqual(written);
    await eventually(async () => (await outboxRows()).every((r) => r.published_at !== null));
  });

  it("publishes an emergency's events before a backlog written earlier, and reminders after everything else", async () => {
    const events = await received(['>']);
    const request = (i: number, purpose: 'reminder_5min' | 'missed_check_in') => ({
      requestId: randomUUID(),
      channel: 'sms' as const,
      toPhone: '+447911000001',
      purpose,
      title: '',
      body: `message ${i}`,
      userId: i + 1,
    });
    const reminders = Array.from({ length: 120 }, (_, i) => ({
      subject: 'escalation.notification.requested.v1' as const,
      data: request(i, 'reminder_5min'),
    }));
    const missed = Array.from({ length: 60 }, (_, i) => ({
      subject: 'escalation.notification.requested.v1' as const,
      data: request(i, 'missed_check_in'),
    }));
    await t.db.transaction((tx) => outbox.enqueueMany(tx, [...reminders, ...missed]));
    const [urgent] = await t.db.transaction((tx) =>
      outbox.enqueueMany(tx, [
        { subject: 'escalation.notification.urgent.v1', data: { request: { ...request(999, 'missed_check_in'), purpose: 'emergency' } } },
      ]),
    );
    await startRelay({ batchSize: 40 });
    await eventually(() => events.length === 181);
    // Written last, published on its own lane: before the backlog's last batches at the latest.
    expect(events.findIndex((e) => e.id === urgent.id)).toBeLessThan(41);
    const rest = events.filter((e) => e.id !== urgent.id);
    // The missed check-ins' messages before the reminders written before them.
    const purposes = rest.map((e) => (e.data as { purpose: string }).purpose);
    expect(purposes).toEqual([...missed.map(() => 'missed_check_in'), ...reminders.map(() => 'reminder_5min')]);
    // In the order written within each priority.
    expect(rest.slice(0, 60).map((e) => (e.data as { body: string }).body)).toEqual(missed.map((m) => m.data.body));
  });

  it("publishes an emergency's event while a batch of the rest is still being published, not after it", async () => {
    // A bus that holds the missed check-ins' publishes until released: the other lane's batch in flight.
    const held: (() => void)[] = [];
    const slowBus: EventBus = Object.create(bus, {
      publish: {
        value: (envelope: AnyEventEnvelope) =>
          envelope.subject === 'escalation.notification.urgent.v1'
            ? bus.publish(envelope)
            : new Promise<void>((resolve, reject) => held.push(() => bus.publish(envelope).then(resolve, reject))),
      },
    });
    const events = await received(['>']);
    const request = (i: number, purpose: 'missed_check_in' | 'emergency') => ({
      requestId: randomUUID(),
      channel: 'sms' as const,
      toPhone: '+447911000001',
      purpose,
      title: '',
      body: `message ${i}`,
      userId: i + 1,
    });
    const missed = Array.from({ length: 30 }, (_, i) => ({
      subject: 'escalation.notification.requested.v1' as const,
      data: request(i, 'missed_check_in'),
    }));
    await t.db.transaction((tx) => outbox.enqueueMany(tx, missed));
    const relay = await startRelay({ bus: slowBus });
    // Registered after the relay's stop, so it runs first: a failing test must not leave it waiting.
    cleanups.push(async () => {
      for (const release of held.splice(0)) release();
    });
    await eventually(() => held.length === 30);

    const [urgent] = await t.db.transaction((tx) =>
      outbox.enqueueMany(tx, [{ subject: 'escalation.notification.urgent.v1', data: { request: request(99, 'emergency') } }]),
    );
    relay.kick({ urgent: true });
    // Before: one loop, so the emergency waited for the held batch's last acknowledgement.
    await eventually(() => events.some((e) => e.id === urgent.id), 3000);
    expect(events.map((e) => e.id)).toEqual([urgent.id]);
    const rows = await outboxRows();
    expect(rows.find((r) => r.id === urgent.id)?.published_at).not.toBeNull();
    expect(rows.filter((r) => r.published_at === null)).toHaveLength(30);

    for (const release of held.splice(0)) release();
    await eventually(() => events.length === 31);
    expect(events.slice(1).map((e) => (e.data as { body: string }).body)).toEqual(missed.map((m) => m.data.body));
    await eventually(async () => (await outboxRows()).every((r) => r.published_at !== null));
  });

  it('publishes urgent events as they are committed, without waiting for their lane, and marks them published; never one rolled back', async () => {
    const events = await received(['>']);
    // Lanes that would not look again for a minute: only committed() can publish it in time.
    const relay = new OutboxRelay({ db: t.db, tables: t.tables, bus, logger, pollIntervalMs: 60_000 });
    cleanups.push(() => relay.stop());
    await relay.start();
    const urgent = await t.db.transaction((tx) =>
      outbox.enqueueMany(tx, [
        {
          subject: 'escalation.notification.urgent.v1',
          data: {
            request: {
              requestId: randomUUID(),
              channel: 'sms',
              toPhone: '+447911000001',
              purpose: 'emergency',
              title: '',
              body: 'Emergency',
            },
          },
        },
      ]),
    );
    // Written in a savepoint that was rolled back, though its transaction committed.
    const undone = await t.db.transaction(async (tx) => {
      let written: AnyEventEnvelope[] = [];
      await tx
        .transaction(async (sp) => {
          written = await outbox.enqueueMany(sp, [
            {
              subject: 'escalation.notification.urgent.v1',
              data: {
                request: {
                  requestId: randomUUID(),
                  channel: 'sms',
                  toPhone: '+447911000002',
                  purpose: 'emergency',
                  title: '',
                  body: 'Undone',
                },
              },
            },
          ]);
          throw new Error('step failed');
        })
        .catch(() => undefined);
      return written;
    });
    relay.committed({ urgent: [...undone, ...urgent], other: false });
    await eventually(() => events.some((e) => e.id === urgent[0].id), 3000);
    await eventually(async () => (await outboxRows()).every((r) => r.published_at !== null), 3000);
    await new Promise((r) => setTimeout(r, 300));
    expect(events.map((e) => e.id)).toEqual([urgent[0].id]);
  });

  it('leaves an urgent event its publish-at-commit could not send to its lane, which sends it once', async () => {
    let refuse = true;
    const flakyBus: EventBus = Object.create(bus, {
      publish: {
        value: (envelope: AnyEventEnvelope) => {
          if (!refuse) return bus.publish(envelope);
          refuse = false;
          return Promise.reject(new Error('no responders'));
        },
      },
    });
    const events = await received(['>']);
    const lines = recordingLogger();
    // Lanes that look again only when woken: the first publish fails whoever tries it, and it is committed()'s.
    const relay = new OutboxRelay({ db: t.db, tables: t.tables, bus: flakyBus, logger: lines, pollIntervalMs: 60_000 });
    cleanups.push(() => relay.stop());
    await relay.start();
    // Each lane looks once as it starts: that look must be over (it finds nothing) before the event
    // is written, or the lane may claim it first and take the refused publish (seen once in CI).
    await new Promise((r) => setTimeout(r, 500));
    const urgent = await t.db.transaction((tx) =>
      outbox.enqueueMany(tx, [
        {
          subject: 'escalation.notification.urgent.v1',
          data: {
            request: {
              requestId: randomUUID(),
              channel: 'sms',
              toPhone: '+447911000001',
              purpose: 'emergency',
              title: '',
              body: 'Emergency',
            },
          },
        },
      ]),
    );
    relay.committed({ urgent, other: false });
    await eventually(() => events.some((e) => e.id === urgent[0].id), 5000);
    await eventually(async () => (await outboxRows()).every((r) => r.published_at !== null), 5000);
    expect(events.map((e) => e.id)).toEqual([urgent[0].id]);
    expect(lines.lines('warn').some((l) => /their lane publishes them/.test(l.msg ?? ''))).toBe(true);
  });

  it('enqueueMany checks every event before writing: one that breaks the contract writes none', async () => {
    const attempt = t.db.transaction((tx) =>
      outbox.enqueueMany(tx, [
        { subject: 'identity.user.created.v1', data: userCreated(1) },
        { subject: 'identity.user.created.v1', data: { ...userCreated(2), userId: -5 } },
      ]),
    );
    await expect(attempt).rejects.toMatchObject({ field: 'userId' });
    await expect(attempt).rejects.toBeInstanceOf(ContractError);
    expect(await outboxRows()).toEqual([]);
  });

  it('claims from the unpublished index in order even when the planner costs a sort of every unpublished row as cheaper', async () => {
    // In bench/escalation/to-person.mjs at 500 alarms a second, statistics from before the burst
    // costed a bitmap scan and a sort of all 170,000 unpublished rows below the index scan: half a
    // second a claim. Here costs that favour it the same way (random_page_cost) stand in for them.
    await t.pool.query(`insert into msgtest.outbox (id, subject, payload, created_at, priority)
      select gen_random_uuid(), 'identity.user.created.v1', '{}'::jsonb, now(), g % 2 from generate_series(1, 20000) g`);
    await t.pool.query('analyze msgtest.outbox');
    for (const lane of ['urgent', 'other'] as const) {
      const plan = await t.db.transaction(async (tx) => {
        await tx.execute(sql`set local random_page_cost = 1000`);
        await tx.execute(INDEX_ORDER);
        const { rows } = (await tx.execute(sql`explain (format json) ${claimUnpublished(t.tables.outbox, 100, lane)}`)) as unknown as {
          rows: Record<string, unknown>[];
        };
        return JSON.stringify(rows);
      });
      expect(plan).toContain('"Index Scan"');
      expect(plan).toContain('outbox_unpublished_idx');
      expect(plan).not.toContain('"Sort"');
    }
  });

  it('(c) never publishes an event whose transaction rolled back', async () => {
    const events = await received();
    const relay = await startRelay();
    let rolledBack: AnyEventEnvelope | undefined;
    await expect(
      t.db.transaction(async (tx) => {
        rolledBack = await outbox.enqueue(tx, 'identity.user.created.v1', userCreated(1));
        relay.kick();
        throw new Error('the state change failed');
      }),
    ).rejects.toThrow('the state change failed');
    const committed = await t.db.transaction((tx) => outbox.enqueue(tx, 'identity.user.created.v1', userCreated(2)));
    relay.kick();

    // The committed event is written after the rolled-back one and published in order, so once it
    // has arrived the rolled-back one would have too.
    await eventually(() => events.some((e) => e.id === committed.id));
    expect(events.map((e) => e.id)).toEqual([committed.id]);
    expect(rolledBack).toBeDefined();
    expect((await outboxRows()).map((r) => r.id)).toEqual([committed.id]);
  });

  it('two relays on one database never publish the same row twice', async () => {
    const published: string[] = [];
    const counting: EventBus = {
      persistent: true,
      publish: async (envelope) => {
        published.push(envelope.id);
        await bus.publish(envelope);
      },
      consume: (o) => bus.consume(o),
      ping: () => bus.ping(),
      lag: (durable, subjects) => bus.lag(durable, subjects),
      close: async () => undefined,
    };
    await startRelay({ bus: counting, batchSize: 5 });
    await startRelay({ bus: counting, batchSize: 5 });
    const ids: string[] = [];
    for (let i = 1; i <= 60; i++) {
      const e = await t.db.transaction((tx) => outbox.enqueue(tx, 'identity.user.created.v1', userCreated(i)));
      ids.push(e.id);
    }
    await eventually(async () => (await outboxRows()).every((r) => r.published_at !== null));
    expect([...published].sort()).toEqual([...ids].sort());
  });

  describe('when NATS goes away', () => {
    let nats: PrivateNats;

    beforeEach(async () => {
      nats = await PrivateNats.start();
    });

    afterEach(async () => {
      for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
      await nats.stop();
      nats.removeStore();
    });

    it('keeps events in the outbox, logs the outage once, and publishes them when NATS is back', async () => {
      const relayLogger = recordingLogger();
      const ownBus = await JetStreamBus.connect({
        natsUrl: nats.url,
        stream: 'LWS',
        logger: relayLogger,
        name: 'outage-spec',
        publishTimeoutMs: 300,
        reconnectTimeWaitMs: 100,
      });
      cleanups.push(() => ownBus.close());
      // A consumer that lives through the outage, as a running service's would.
      const seen: string[] = [];
      const handle = await ownBus.consume({
        durable: 'through-outage',
        subjects: ['identity.>'],
        handler: async (m) => {
          seen.push((m.data as AnyEventEnvelope).id);
        },
      });
      cleanups.push(() => handle.stop());
      await startRelay({ bus: ownBus, logger: relayLogger });
      const before = await t.db.transaction((tx) => outbox.enqueue(tx, 'identity.user.created.v1', userCreated(1)));
      await eventually(async () => (await outboxRows())[0]?.published_at !== null);

      await nats.stop();
      const during = await t.db.transaction(async (tx) => [
        await outbox.enqueue(tx, 'identity.user.created.v1', userCreated(2)),
        await outbox.enqueue(tx, 'identity.user.created.v1', userCreated(3)),
      ]);
      // Several failed attempts, still one line for the operator.
      await eventually(async () => (await outboxRows()).find((r) => r.id === during[0].id)!.attempts >= 3, 15000);
      expect((await outboxRows()).filter((r) => r.published_at === null).map((r) => r.id)).toEqual(during.map((e) => e.id));
      const outageLines = relayLogger.lines('error').filter((l) => l.msg?.startsWith('outbox relay cannot publish'));
      expect(outageLines).toHaveLength(1);

      await nats.restart();
      await eventually(async () => (await outboxRows()).every((r) => r.published_at !== null), 20000);
      expect(relayLogger.lines('info').some((l) => l.msg === 'outbox relay publishing again')).toBe(true);

      // Each event arrives exactly once, in order, even if a publish that timed out had landed.
      // The bus is at-least-once: an ack lost in the outage brings a redelivery (DurableConsumer
      // dedupes those by event id). What must hold: every event arrives, in order of first arrival.
      await eventually(() => new Set(seen).size === 3, 20000);
      expect([...new Set(seen)]).toEqual([before.id, ...during.map((e) => e.id)]);
      const stream = await ownBus.connection.jetstreamManager().then((jsm) => jsm.streams.info('LWS'));
      expect(stream.state.messages).toBe(3);
    });
  });

  it('parks a row the bus refuses for good, with its attempts and error, and publishes the rows behind it', async () => {
    const events = await received();
    const before = await t.db.transaction((tx) => outbox.enqueue(tx, 'identity.user.created.v1', userCreated(1)));
    // Bigger than the stream's 1 MiB message limit: no retry can ever publish it.
    const huge = { ...before, id: '00000000-0000-4000-8000-000000000001', data: { ...userCreated(2), name: 'x'.repeat(1_200_000) } };
    await t.pool.query('INSERT INTO msgtest.outbox (id, subject, payload) VALUES ($1, $2, $3)', [
      huge.id,
      huge.subject,
      JSON.stringify(huge),
    ]);
    const after = await t.db.transaction((tx) => outbox.enqueue(tx, 'identity.user.created.v1', userCreated(3)));
    await startRelay();

    const row = async () =>
      (await t.pool.query('SELECT attempts, last_error, parked_at, published_at FROM msgtest.outbox WHERE id = $1', [huge.id])).rows;
    await eventually(async () => (await row())[0].parked_at !== null, 10_000);
    await eventually(async () => (await outboxRows()).filter((r) => r.published_at === null).length === 1);
    // Once each: what landed while the huge row was being retried is dropped by the bus as a repeat.
    expect(events.map((e) => e.id)).toEqual([before.id, after.id]);
    const rows = await row();
    expect(rows[0]).toMatchObject({ attempts: 3, published_at: null });
    expect(rows[0].parked_at).toBeInstanceOf(Date);
    expect(rows[0].last_error).toMatch(/payload|size|exceed/i);
    const parkedLine = logger.lines('error').find((l) => /outbox row parked/.test(l.msg ?? ''));
    expect(parkedLine?.msg).toContain(huge.id);
  });
});

/** A NATS server of the test's own, on a free port, that the test can stop and start again. */
class PrivateNats {
  private process?: ChildProcess;

  private constructor(
    private readonly port: number,
    private readonly storeDir: string,
  ) {}

  get url(): string {
    return `nats://127.0.0.1:${this.port}`;
  }

  static async start(): Promise<PrivateNats> {
    const port = await freePort();
    const nats = new PrivateNats(port, mkdtempSync(join(tmpdir(), 'lws-nats-')));
    await nats.restart();
    return nats;
  }

  async restart(): Promise<void> {
    this.process = spawn('nats-server', ['-a', '127.0.0.1', '-p', String(this.port), '-js', '-sd', this.storeDir], {
      stdio: 'ignore',
    });
    await eventually(() => canConnect(this.port), 10000);
  }

  async stop(): Promise<void> {
    const child = this.process;
    this.process = undefined;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }

  removeStore(): void {
    rmSync(this.storeDir, { recursive: true, force: true });
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (address && typeof address === 'object' ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.connect(port, '127.0.0.1');
  });
}
