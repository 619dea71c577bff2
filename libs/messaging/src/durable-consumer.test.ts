import { randomUUID } from 'node:crypto';
import { EventSubject } from '@lws/contracts';
import { eventually, testServers, uniqueId } from '@lws/testing';
import { sql } from 'drizzle-orm';
import { connect } from 'nats';
import { DurableConsumer } from './durable-consumer';
import { AnyEventEnvelope, EventEnvelope } from './envelope';
import { PoisonMessageError } from './failures';
import { InProcessBus } from './in-process-bus';
import { JetStreamBus } from './jetstream-bus';
import { Outbox } from './outbox';
import { OutboxRelay } from './outbox-relay';
import {
  deleteStream,
  messagingTestDb,
  MessagingTestDb,
  parkedLetters,
  recordingLogger,
  userCreated,
  type ParkedLetter,
} from './testing/support';

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
    await eventually(async () => {
      letters = await parkedLetters(t, 'poisoned');
      return letters.length === 2;
    }, 10000);
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
    await eventually(async () => {
      letters = await parkedLetters(t, 'mendable');
      return letters.length === 1;
    }, 10_000);
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

/**
 * Batches (one transaction per event cannot keep up with an alarm flood): a consumer with a batch handler takes the events of one pull in one
 * transaction, on either bus, and falls back to one at a time for a batch that fails.
 */
describe.each(['JetStream', 'in-process'] as const)('DurableConsumer batches on the %s bus', (kind) => {
  let t: MessagingTestDb;
  let prefix: string;
  let stream: string;
  let bus: JetStreamBus | InProcessBus;
  let logger: ReturnType<typeof recordingLogger>;
  const cleanups: Array<() => Promise<void>> = [];

  beforeAll(async () => {
    t = await messagingTestDb();
    // xid: the transaction that wrote the row.
    await t.pool.query(
      'CREATE TABLE msgtest.batched (consumer text NOT NULL, event_id uuid NOT NULL, user_id int NOT NULL, xid bigint NOT NULL)',
    );
  });

  beforeEach(async () => {
    prefix = `${uniqueId()}.`;
    stream = uniqueId('LWS_T_');
    logger = recordingLogger();
    bus =
      kind === 'JetStream'
        ? await JetStreamBus.connect({
            natsUrl: testServers.natsUrl,
            stream,
            subjectPrefix: prefix,
            logger,
            name: 'batch-spec',
            ackWaitMs: 1500,
          })
        : // No duplicate window: a copy published again reaches the consumer, as JetStream's would outside its window.
          new InProcessBus({ logger, duplicateWindowMs: 0 });
  });

  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    await bus.close();
    if (kind === 'JetStream') await deleteStream(stream);
  });

  afterAll(async () => {
    await t.close();
  });

  function envelope(data: unknown): AnyEventEnvelope {
    return { id: randomUUID(), subject: CREATED, occurredAt: new Date().toISOString(), producer: 'spec', data } as AnyEventEnvelope;
  }

  /** Publishes the envelope again past the bus's own dedupe, as the relay would after a crash. */
  function publishAgain(e: AnyEventEnvelope): Promise<void> {
    return bus instanceof JetStreamBus ? bus.publish(e, { msgId: randomUUID() }) : bus.publish(e);
  }

  /** A projecting consumer with a set-based batch handler (one statement per batch) and the one-at-a-time handler. */
  function batchingConsumer(name: string, options: { failOn?: number; maxDeliver?: number; backoffMs?: number[] } = {}) {
    const batches: Array<{ eventIds: string[]; deliveredAt: number }> = [];
    const singles: Array<{ eventId: string; at: number }> = [];
    const observed: Array<{ size: number; outcome: string }> = [];
    const consumer = new DurableConsumer({
      db: t.db,
      tables: t.tables,
      bus,
      name,
      subjects: ['identity.user.created.v1'],
      logger,
      maxDeliver: options.maxDeliver,
      backoffMs: options.backoffMs ?? [50, 100],
      batchSize: 50,
      observeBatch: (size, outcome) => observed.push({ size, outcome }),
      batchHandler: async (events, tx) => {
        batches.push({ eventIds: events.map((e) => e.id), deliveredAt: Date.now() });
        await tx.execute(sql`
          INSERT INTO msgtest.batched (consumer, event_id, user_id, xid)
          SELECT ${name}, (e->>'id')::uuid, (e->'data'->>'userId')::int, txid_current()
          FROM jsonb_array_elements(${JSON.stringify(events)}::jsonb) e`);
        const bad = events.find((e) => e.data.userId === options.failOn);
        if (bad) throw new Error(`cannot project user ${bad.data.userId}`);
      },
      handler: async (event, tx) => {
        singles.push({ eventId: event.id, at: Date.now() });
        await tx.execute(
          sql`INSERT INTO msgtest.batched (consumer, event_id, user_id, xid) VALUES (${name}, ${event.id}, ${event.data.userId}, txid_current())`,
        );
        if (event.data.userId === options.failOn) throw new Error(`cannot project user ${event.data.userId}`);
      },
    });
    cleanups.push(() => consumer.stop());
    return { consumer, batches, singles, observed };
  }

  async function rows(consumer: string): Promise<Array<{ event_id: string; user_id: number; xid: string }>> {
    return (await t.pool.query('SELECT event_id, user_id, xid FROM msgtest.batched WHERE consumer = $1 ORDER BY user_id', [consumer])).rows;
  }

  it('(a) applies a batch of events in one transaction, and skips an event redelivered in a later batch', async () => {
    const name = `applied-${kind}`;
    const events = Array.from({ length: 30 }, (_, i) => envelope(userCreated(i + 1)));
    for (const e of events) await bus.publish(e);
    const { consumer, batches, singles, observed } = batchingConsumer(name);
    await consumer.start();
    await eventually(async () => (await rows(name)).length === 30);

    expect((await rows(name)).map((r) => r.user_id)).toEqual(events.map((_, i) => i + 1));
    expect(singles).toEqual([]);
    expect(batches.flatMap((b) => b.eventIds)).toEqual(events.map((e) => e.id));
    // One transaction per batch; the 30 events came in a handful of batches at most (the in-process bus: one).
    const transactions = new Set((await rows(name)).map((r) => r.xid));
    expect(transactions.size).toBe(batches.length);
    expect(batches.length).toBeLessThanOrEqual(kind === 'in-process' ? 1 : 5);
    expect(observed.every((o) => o.outcome === 'committed')).toBe(true);

    // A copy of event 3 arrives again (the relay republished it) in one pull with two new events.
    await consumer.stop();
    const fresh = [envelope(userCreated(31)), envelope(userCreated(32))];
    await publishAgain(events[2]);
    for (const e of fresh) await bus.publish(e);
    await consumer.start();
    await eventually(async () => (await rows(name)).length === 32);
    await eventually(() => logger.lines('debug').some((l) => ((l.obj as { eventIds?: string[] }).eventIds ?? []).includes(events[2].id)));

    const later = batches.slice(-1)[0];
    expect(later.eventIds).toEqual(fresh.map((e) => e.id));
    expect((await rows(name)).filter((r) => r.event_id === events[2].id)).toHaveLength(1);
    expect(singles).toEqual([]);
    const processed = await t.pool.query('SELECT count(*)::int AS n FROM msgtest.processed_events WHERE consumer = $1', [name]);
    expect(processed.rows[0].n).toBe(32);
  });

  it('(b) a batch that fails goes one at a time: the failing and the poison event are parked, the others applied once', async () => {
    const name = `fallback-${kind}`;
    const before = [1, 2, 3].map((u) => envelope(userCreated(u)));
    const failing = envelope(userCreated(666));
    const invalid = envelope({ userId: 'not-a-number', username: 'x', name: 'x', role: 'worker' });
    const after = [4, 5, 6].map((u) => envelope(userCreated(u)));
    for (const e of [...before, failing, invalid, ...after]) await bus.publish(e);
    const { consumer, batches, singles, observed } = batchingConsumer(name, { failOn: 666, maxDeliver: 3, backoffMs: [300] });
    await consumer.start();

    let letters: ParkedLetter[] = [];
    await eventually(async () => {
      letters = await parkedLetters(t, name);
      return letters.length === 2;
    }, 15_000);
    const good = [...before, ...after];
    // Each good event is applied exactly once: the failed batch's writes were rolled back.
    expect((await rows(name)).map((r) => r.user_id)).toEqual([1, 2, 3, 4, 5, 6]);
    // The batch with the failing event (all eight on the in-process bus; a busy JetStream may hand
    // the stream over in more than one pull) went one at a time; any other batch committed whole.
    const failedBatch = batches.find((b) => b.eventIds.includes(failing.id))!;
    if (kind === 'in-process') expect(failedBatch.eventIds).toHaveLength(7);
    for (const e of good) expect(singles.filter((s) => s.eventId === e.id)).toHaveLength(failedBatch.eventIds.includes(e.id) ? 1 : 0);
    expect(batches.flatMap((b) => b.eventIds)).not.toContain(invalid.id);
    expect(observed.filter((o) => o.outcome === 'fallback')).toEqual([{ size: failedBatch.eventIds.length, outcome: 'fallback' }]);
    expect(observed.filter((o) => o.outcome !== 'fallback').every((o) => o.outcome === 'committed')).toBe(true);
    expect(logger.lines('warn').some((l) => l.msg === 'event batch failed; applying its events one at a time')).toBe(true);

    const byEvent = new Map(letters.map((l) => [(l.envelope as { id: string }).id, l]));
    expect(byEvent.get(invalid.id)).toMatchObject({ consumer: name, subject: CREATED, deliveries: 1 });
    expect(byEvent.get(invalid.id)!.error).toContain('userId');
    const failed = byEvent.get(failing.id)!;
    expect(failed).toMatchObject({ consumer: name, subject: CREATED, deliveries: 3, error: 'cannot project user 666' });
    // Its retries went one at a time (and failed there), never again in a batch with others.
    expect(singles.filter((s) => s.eventId === failing.id)).toHaveLength(3);
    expect(batches.filter((b) => b.eventIds.includes(failing.id))).toHaveLength(1);
    // The good events did not wait for the failing one's retries.
    expect(Math.max(...singles.filter((s) => good.some((g) => g.id === s.eventId)).map((s) => s.at))).toBeLessThan(failed.receivedAt);
  });

  it('(c) the bus hands a pull over together and settles each message by its own outcome', async () => {
    const durable = `raw-${kind}`;
    const events = [1, 2, 3, 4, 5].map((u) => envelope(userCreated(u)));
    for (const e of events) await bus.publish(e);
    const calls: Array<Array<{ userId: number; deliveries: number }>> = [];
    let singleCalls = 0;
    const handle = await bus.consume({
      durable,
      subjects: [CREATED],
      backoffMs: [50],
      batchSize: 10,
      handler: async () => {
        singleCalls++;
      },
      batchHandler: async (messages) => {
        calls.push(messages.map((m) => ({ userId: (m.data as { data: { userId: number } }).data.userId, deliveries: m.deliveries })));
        return messages.map((m): PromiseSettledResult<void> => {
          const userId = (m.data as { data: { userId: number } }).data.userId;
          if (userId === 2 && m.deliveries === 1) return { status: 'rejected', reason: new Error('try again') };
          if (userId === 4) return { status: 'rejected', reason: new PoisonMessageError('never') };
          return { status: 'fulfilled', value: undefined };
        });
      },
    });
    cleanups.push(() => handle.stop());

    await eventually(() => calls.flat().some((c) => c.userId === 2 && c.deliveries === 2), 10_000);
    await eventually(async () => (await bus.lag(durable, [CREATED])).pending === 0, 10_000);
    const first = calls.flat().filter((c) => c.deliveries === 1);
    expect(first.map((c) => c.userId)).toEqual([1, 2, 3, 4, 5]);
    expect(calls.length).toBeLessThan(first.length);
    if (kind === 'in-process') expect(calls[0]).toHaveLength(5);
    // Only the rejected message came again; the poison one was dead-lettered, the rest acknowledged once.
    expect(calls.flat().filter((c) => c.deliveries > 1)).toEqual([{ userId: 2, deliveries: 2 }]);
    expect(logger.lines('error').filter((l) => /event dead-lettered/.test(l.msg ?? ''))).toHaveLength(1);
    expect(singleCalls).toBe(0);
  });
});
