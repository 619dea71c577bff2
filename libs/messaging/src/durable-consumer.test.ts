import { randomUUID } from 'node:crypto';
import { EventSubject } from '@lws/contracts';
import { eventually, testServers, uniqueId } from '@lws/testing';
import { sql } from 'drizzle-orm';
import { connect } from 'nats';
import { DurableConsumer } from './durable-consumer';
import { AnyEventEnvelope, EventEnvelope } from './envelope';
import { JetStreamBus } from './jetstream-bus';
import { Outbox } from './outbox';
import { OutboxRelay } from './outbox-relay';
import { deleteStream, messagingTestDb, MessagingTestDb, parkedLetters, recordingLogger, userCreated, type ParkedLetter } from './testing/support';

const CREATED: EventSubject = 'identity.user.created.v1';

describe('DurableConsumer on JetStream', () => {
  let t: MessagingTestDb;
  // Each test gets its own stream and subjects, so a new durable sees only that test's events.
  let prefix: string;
  let stream: string;
  let bus: JetStreamBus;
  let logger: ReturnType<typeof recordingLogger>;
  const cleanups: Array<() => Promise<void>> = [];

  beforeAll(async () => {
    t = await messagingTestDb();
    await t.pool.query('CREATE TABLE msgtest.handled (consumer text NOT NULL, event_id uuid NOT NULL, user_id int NOT NULL)');
  });

  beforeEach(async () => {
    prefix = `${uniqueId()}.`;
    stream = uniqueId('LWS_T_');
    logger = recordingLogger();
    bus = await connectBus('durable-consumer-spec');
  });

  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    await bus.close();
    await deleteStream(stream);
  });

  afterAll(async () => {
    await t.close();
  });

  function connectBus(name: string): Promise<JetStreamBus> {
    return JetStreamBus.connect({ natsUrl: testServers.natsUrl, stream, subjectPrefix: prefix, logger, name, ackWaitMs: 1500 });
  }

  function envelope(data: unknown, subject: string = CREATED): AnyEventEnvelope {
    return { id: randomUUID(), subject, occurredAt: new Date().toISOString(), producer: 'spec', data } as AnyEventEnvelope;
  }

  /** A consumer whose handler writes a row per handled event, like a service's projection. */
  function projectingConsumer(
    name: string,
    options: {
      onEvent?: (event: EventEnvelope<'identity.user.created.v1'>) => Promise<void> | void;
      onBus?: JetStreamBus;
      maxDeliver?: number;
      backoffMs?: number[];
      infrastructureBackoff?: { initialMs: number; maxMs: number };
    } = {},
  ) {
    const calls: Array<{ eventId: string; at: number }> = [];
    const consumer = new DurableConsumer({
      db: t.db,
      tables: t.tables,
      bus: options.onBus ?? bus,
      name,
      subjects: ['identity.user.created.v1'],
      logger,
      maxDeliver: options.maxDeliver,
      backoffMs: options.backoffMs ?? [50, 100],
      infrastructureBackoff: options.infrastructureBackoff,
      handler: async (event, tx) => {
        calls.push({ eventId: event.id, at: Date.now() });
        await tx.execute(
          sql`INSERT INTO msgtest.handled (consumer, event_id, user_id) VALUES (${name}, ${event.id}, ${event.data.userId})`,
        );
        await options.onEvent?.(event);
      },
    });
    cleanups.push(() => consumer.stop());
    return { consumer, calls };
  }

  async function handledRows(consumer: string): Promise<Array<{ event_id: string; user_id: number }>> {
    const result = await t.pool.query('SELECT event_id, user_id FROM msgtest.handled WHERE consumer = $1 ORDER BY user_id', [consumer]);
    return result.rows;
  }

  async function consumerState(name: string) {
    const nc = await connect({ servers: testServers.natsUrl });
    try {
      const jsm = await nc.jetstreamManager();
      const info = await jsm.consumers.info(stream, `${name}__identity_user_created_v1`);
      return { ackPending: info.num_ack_pending, pending: info.num_pending };
    } finally {
      await nc.drain();
    }
  }

  it('(a) handles an event published while its consumer was stopped, once it starts', async () => {
    const outbox = new Outbox({ tables: t.tables, producer: 'spec' });
    const relay = new OutboxRelay({ db: t.db, tables: t.tables, bus, logger, pollIntervalMs: 50 });
    await relay.start();
    cleanups.push(() => relay.stop());
    const { consumer, calls } = projectingConsumer('late-starter');
    await consumer.start();
    await consumer.stop();

    const event = await t.db.transaction((tx) => outbox.enqueue(tx, 'identity.user.created.v1', userCreated(7)));
    relay.kick();
    await eventually(async () => {
      const r = await t.pool.query('SELECT published_at FROM msgtest.outbox WHERE id = $1', [event.id]);
      return r.rows[0]?.published_at;
    });
    expect(calls).toHaveLength(0);

    await consumer.start();
    await eventually(async () => (await handledRows('late-starter')).length === 1);
    expect(await handledRows('late-starter')).toEqual([{ event_id: event.id, user_id: 7 }]);
  });

  it('(a) a durable consumer created after events were published still receives them', async () => {
    const first = envelope(userCreated(1));
    const second = envelope(userCreated(2));
    await bus.publish(first);
    await bus.publish(second);

    const { consumer } = projectingConsumer('brand-new');
    await consumer.start();
    await eventually(async () => (await handledRows('brand-new')).length === 2);
    expect((await handledRows('brand-new')).map((r) => r.event_id)).toEqual([first.id, second.id]);
  });

  it('(b) handles an event published twice under the same envelope id only once', async () => {
    const event = envelope(userCreated(3));
    // A raw publish without msgID gets past JetStream's dedupe, as a publish outside its window would.
    const nc = await connect({ servers: testServers.natsUrl });
    const js = nc.jetstream();
    await js.publish(`${prefix}${CREATED}`, JSON.stringify(event));
    await js.publish(`${prefix}${CREATED}`, JSON.stringify(event));
    await nc.drain();

    const { consumer, calls } = projectingConsumer('twice');
    await consumer.start();
    await eventually(async () => {
      const s = await consumerState('twice');
      return s.pending === 0 && s.ackPending === 0;
    });
    expect(calls).toHaveLength(1);
    expect(await handledRows('twice')).toHaveLength(1);
    expect(logger.lines('debug').some((l) => (l.obj as { eventId?: string }).eventId === event.id)).toBe(true);
  });

  it('(b) an event redelivered after a crash between commit and ack is handled once', async () => {
    const doomed = await connectBus('doomed');
    cleanups.push(() => doomed.close());
    // The connection dies while the handler runs: its writes commit, the ack never reaches NATS.
    const first = projectingConsumer('crashy', { onBus: doomed, onEvent: () => doomed.connection.close() });
    await first.consumer.start();
    const event = envelope(userCreated(4));
    await bus.publish(event);
    await eventually(() => doomed.connection.isClosed() && first.calls.length === 1);

    const second = projectingConsumer('crashy');
    await second.consumer.start();
    // The redelivery finds the event already processed and is acknowledged without running the handler.
    await eventually(() => logger.lines('debug').some((l) => (l.obj as { eventId?: string }).eventId === event.id), 15000);
    await eventually(async () => {
      const s = await consumerState('crashy');
      return s.ackPending === 0 && s.pending === 0;
    });
    expect(second.calls).toHaveLength(0);
    expect(await handledRows('crashy')).toEqual([{ event_id: event.id, user_id: 4 }]);
  });

  it('(d) retries a failing handler with backoff and rolls back each failed attempt', async () => {
    let failuresLeft = 2;
    const { consumer, calls } = projectingConsumer('flaky', {
      backoffMs: [200, 400],
      onEvent: () => {
        if (failuresLeft-- > 0) throw new Error('database hiccup');
      },
    });
    await consumer.start();
    const event = envelope(userCreated(5));
    await bus.publish(event);

    await eventually(async () => (await handledRows('flaky')).length === 1, 10000);
    expect(calls).toHaveLength(3);
    const gaps = [calls[1].at - calls[0].at, calls[2].at - calls[1].at];
    expect(gaps[0]).toBeGreaterThanOrEqual(180);
    expect(gaps[1]).toBeGreaterThanOrEqual(380);
    const retries = logger.lines('warn').filter((l) => (l.obj as { eventId?: string }).eventId === event.id);
    expect(retries.map((l) => (l.obj as { retryInMs: number }).retryInMs)).toEqual([200, 400]);
  });

  it('(d) parks poison messages as dead letters with a log line and keeps handling the others', async () => {
    const { consumer, calls } = projectingConsumer('poisoned', {
      maxDeliver: 3,
      backoffMs: [300],
      onEvent: (event) => {
        if (event.data.userId === 666) throw new Error('cannot project user 666');
      },
    });
    await consumer.start();

    const alwaysFails = envelope(userCreated(666));
    const invalid = envelope({ userId: 'not-a-number', username: 'x', name: 'x', role: 'worker' });
    const good = [envelope(userCreated(10)), envelope(userCreated(11)), envelope(userCreated(12))];
    await bus.publish(alwaysFails);
    await bus.publish(invalid);
    for (const e of good) await bus.publish(e);

    let letters: ParkedLetter[] = [];
    await eventually(async () => (letters = await parkedLetters(t, 'poisoned')).length === 2, 10000);
    await eventually(async () => (await handledRows('poisoned')).length === 3);
    const byEvent = new Map(letters.map((l) => [(l.envelope as { id: string }).id, l]));

    const invalidLetter = byEvent.get(invalid.id)!;
    expect(invalidLetter).toMatchObject({ consumer: 'poisoned', subject: CREATED, deliveries: 1 });
    expect(invalidLetter.error).toContain('userId');
    expect(calls.some((c) => c.eventId === invalid.id)).toBe(false);

    const failedLetter = byEvent.get(alwaysFails.id)!;
    expect(failedLetter).toMatchObject({ consumer: 'poisoned', subject: CREATED, deliveries: 3, error: 'cannot project user 666' });
    expect(calls.filter((c) => c.eventId === alwaysFails.id)).toHaveLength(3);

    // The good events did not wait for the failing one to exhaust its retries.
    expect((await handledRows('poisoned')).map((r) => r.user_id)).toEqual([10, 11, 12]);
    const goodDone = Math.max(...calls.filter((c) => good.some((g) => g.id === c.eventId)).map((c) => c.at));
    expect(goodDone).toBeLessThan(failedLetter.receivedAt);

    for (const id of [invalid.id, alwaysFails.id]) {
      const line = logger.lines('error').find((l) => (l.obj as { eventId?: string }).eventId === id);
      expect(line?.msg).toContain('consumer poisoned');
      expect(line?.msg).toContain(`subject ${CREATED}`);
      expect(line?.msg).toContain(`event ${id}`);
    }
    await eventually(async () => {
      const s = await consumerState('poisoned');
      return s.ackPending === 0 && s.pending === 0;
    });
  });

  it('retries an infrastructure fault past maxDeliver until it heals, and never parks it', async () => {
    let outage = 6;
    const { consumer, calls } = projectingConsumer('outage', {
      maxDeliver: 2,
      infrastructureBackoff: { initialMs: 50, maxMs: 200 },
      onEvent: () => {
        // What node-postgres throws while the server restarts (SQLSTATE 57P01, admin shutdown).
        if (outage-- > 0) throw Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });
      },
    });
    await consumer.start();
    const event = envelope(userCreated(21));
    await bus.publish(event);

    await eventually(async () => (await handledRows('outage')).length === 1, 15_000);
    expect(calls.filter((c) => c.eventId === event.id)).toHaveLength(7);
    expect(await parkedLetters(t, 'outage')).toEqual([]);
    // Backed off, doubling up to the cap: 50 + 100 + 200 + 200 + 200 + 200 ms at least.
    const times = calls.filter((c) => c.eventId === event.id).map((c) => c.at);
    expect(times[6] - times[0]).toBeGreaterThanOrEqual(900);
    expect(logger.lines('error')).toEqual([]);
    expect(logger.lines('warn').some((l) => /infrastructure fault/.test(l.msg ?? ''))).toBe(true);
  });

  it('replays a parked event through the normal path once the cause is mended, and only once', async () => {
    let broken = true;
    const { consumer } = projectingConsumer('mendable', {
      maxDeliver: 2,
      backoffMs: [50],
      onEvent: () => {
        if (broken) throw new Error('projection bug');
      },
    });
    await consumer.start();
    const event = envelope(userCreated(31));
    await bus.publish(event);
    let letters: ParkedLetter[] = [];
    await eventually(async () => (letters = await parkedLetters(t, 'mendable')).length === 1, 10_000);
    expect(letters[0]).toMatchObject({ subject: CREATED, error: 'projection bug', deliveries: 2, resolution: null });

    expect(await consumer.replay(letters[0].id, 1)).toEqual({ replayed: false, error: 'projection bug' });
    expect(await handledRows('mendable')).toEqual([]);

    broken = false;
    expect(await consumer.replay(letters[0].id, 1)).toEqual({ replayed: true });
    expect((await handledRows('mendable')).map((r) => r.user_id)).toEqual([31]);
    expect((await parkedLetters(t, 'mendable'))[0]).toMatchObject({ resolution: 'replayed', deliveries: 3 });
    expect(await consumer.replay(letters[0].id, 1)).toEqual({ replayed: false, error: 'no such open dead letter' });
  });
});
