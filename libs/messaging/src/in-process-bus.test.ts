import { randomUUID } from 'node:crypto';
import { eventually } from '@lws/testing';
import { sql } from 'drizzle-orm';
import { DurableConsumer } from './durable-consumer';
import { AnyEventEnvelope } from './envelope';
import { InProcessBus } from './in-process-bus';
import { Outbox } from './outbox';
import { OutboxRelay } from './outbox-relay';
import { messagingTestDb, MessagingTestDb, parkedLetters, recordingLogger, userCreated, type ParkedLetter } from './testing/support';

const CREATED = 'identity.user.created.v1' as const;

describe('InProcessBus (embedded mode)', () => {
  let t: MessagingTestDb;
  let bus: InProcessBus;
  let logger: ReturnType<typeof recordingLogger>;
  const cleanups: Array<() => Promise<void>> = [];

  beforeAll(async () => {
    t = await messagingTestDb();
    await t.pool.query('CREATE TABLE msgtest.handled (consumer text NOT NULL, event_id uuid NOT NULL, user_id int NOT NULL)');
  });

  beforeEach(async () => {
    logger = recordingLogger();
    bus = new InProcessBus({ logger });
    await t.pool.query('TRUNCATE msgtest.outbox, msgtest.processed_events, msgtest.dead_letters, msgtest.handled');
  });

  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    await bus.close();
  });

  afterAll(async () => {
    await t.close();
  });

  function envelope(data: unknown): AnyEventEnvelope {
    return { id: randomUUID(), subject: CREATED, occurredAt: new Date().toISOString(), producer: 'spec', data } as AnyEventEnvelope;
  }

  function projectingConsumer(
    name: string,
    options: { on?: InProcessBus; fail?: (userId: number) => boolean; maxDeliver?: number; backoffMs?: number[] } = {},
  ) {
    const calls: Array<{ eventId: string; at: number }> = [];
    const consumer = new DurableConsumer({
      db: t.db,
      tables: t.tables,
      bus: options.on ?? bus,
      name,
      subjects: [CREATED],
      logger,
      maxDeliver: options.maxDeliver,
      backoffMs: options.backoffMs ?? [50, 100],
      handler: async (event, tx) => {
        calls.push({ eventId: event.id, at: Date.now() });
        await tx.execute(
          sql`INSERT INTO msgtest.handled (consumer, event_id, user_id) VALUES (${name}, ${event.id}, ${event.data.userId})`,
        );
        if (options.fail?.(event.data.userId)) throw new Error(`cannot project user ${event.data.userId}`);
      },
    });
    cleanups.push(() => consumer.stop());
    return { consumer, calls };
  }

  async function handledUsers(consumer: string): Promise<number[]> {
    const r = await t.pool.query('SELECT user_id FROM msgtest.handled WHERE consumer = $1 ORDER BY user_id', [consumer]);
    return r.rows.map((row: { user_id: number }) => row.user_id);
  }

  it('(a) handles events published while the consumer was stopped, and gives a new durable earlier events', async () => {
    const { consumer } = projectingConsumer('stopper');
    await consumer.start();
    await bus.publish(envelope(userCreated(1)));
    await eventually(async () => (await handledUsers('stopper')).length === 1);
    await consumer.stop();

    await bus.publish(envelope(userCreated(2)));
    await consumer.start();
    await eventually(async () => (await handledUsers('stopper')).length === 2);
    expect(await handledUsers('stopper')).toEqual([1, 2]);

    const late = projectingConsumer('late');
    await late.consumer.start();
    await eventually(async () => (await handledUsers('late')).length === 2);
    expect(await handledUsers('late')).toEqual([1, 2]);
  });

  it('(b) handles an event delivered twice only once', async () => {
    // Without the bus's own duplicate window, both copies reach the consumer.
    const noDedupe = new InProcessBus({ logger, duplicateWindowMs: 0 });
    cleanups.push(() => noDedupe.close());
    const event = envelope(userCreated(3));
    await noDedupe.publish(event);
    await noDedupe.publish(event);
    const { consumer, calls } = projectingConsumer('twice', { on: noDedupe });
    await consumer.start();
    await eventually(() => logger.lines('debug').some((l) => (l.obj as { eventId?: string }).eventId === event.id));
    expect(calls).toHaveLength(1);
    expect(await handledUsers('twice')).toEqual([3]);
  });

  it('(d) retries with backoff, parks poison messages with a log line, and keeps the others flowing', async () => {
    let flakyFailures = 2;
    const { consumer, calls } = projectingConsumer('embedded', {
      maxDeliver: 3,
      backoffMs: [150, 300],
      fail: (userId) => userId === 666 || (userId === 5 && flakyFailures-- > 0),
    });
    await consumer.start();

    const alwaysFails = envelope(userCreated(666));
    const invalid = envelope({ ...userCreated(7), role: 'janitor' });
    const flaky = envelope(userCreated(5));
    const good = [envelope(userCreated(10)), envelope(userCreated(11))];
    for (const e of [alwaysFails, invalid, flaky, ...good]) await bus.publish(e);

    let letters: ParkedLetter[] = [];
    await eventually(async () => {
      letters = await parkedLetters(t, 'embedded');
      return letters.length === 2;
    }, 5000);
    await eventually(async () => (await handledUsers('embedded')).includes(5), 5000);
    expect(await handledUsers('embedded')).toEqual([5, 10, 11]);

    const flakyCalls = calls.filter((c) => c.eventId === flaky.id);
    expect(flakyCalls).toHaveLength(3);
    expect(flakyCalls[1].at - flakyCalls[0].at).toBeGreaterThanOrEqual(140);
    expect(flakyCalls[2].at - flakyCalls[1].at).toBeGreaterThanOrEqual(290);

    const failed = letters.find((l) => (l.envelope as { id: string }).id === alwaysFails.id)!;
    expect(failed).toMatchObject({ consumer: 'embedded', subject: CREATED, deliveries: 3, error: 'cannot project user 666' });
    const poisoned = letters.find((l) => (l.envelope as { id: string }).id === invalid.id)!;
    expect(poisoned).toMatchObject({ consumer: 'embedded', deliveries: 1 });
    expect(poisoned.error).toContain('role');
    expect(calls.some((c) => c.eventId === invalid.id)).toBe(false);

    const goodDone = Math.max(...calls.filter((c) => good.some((g) => g.id === c.eventId)).map((c) => c.at));
    expect(goodDone).toBeLessThan(failed.receivedAt);
    for (const id of [alwaysFails.id, invalid.id]) {
      const line = logger.lines('error').find((l) => (l.obj as { eventId?: string }).eventId === id);
      expect(line?.msg).toMatch(new RegExp(`consumer embedded, subject ${CREATED}, event ${id}: .+`));
    }
  });

  it('after a restart, the relay replays recent events: unfinished ones are handled, finished ones are not repeated', async () => {
    const outbox = new Outbox({ tables: t.tables, producer: 'spec' });
    const relay = new OutboxRelay({ db: t.db, tables: t.tables, bus, logger, pollIntervalMs: 50 });
    await relay.start();
    const done = projectingConsumer('projector');
    await done.consumer.start();
    const first = await t.db.transaction((tx) => outbox.enqueue(tx, CREATED, userCreated(1)));
    relay.kick();
    await eventually(async () => (await handledUsers('projector')).length === 1);
    await done.consumer.stop();
    // Published while the consumer is down; then the process stops before it is handled.
    await t.db.transaction((tx) => outbox.enqueue(tx, CREATED, userCreated(2)));
    relay.kick();
    await eventually(async () => (await t.pool.query('SELECT 1 FROM msgtest.outbox WHERE published_at IS NULL')).rowCount === 0);
    await relay.stop();
    await bus.close();

    const restarted = new InProcessBus({ logger });
    cleanups.push(() => restarted.close());
    const relayAfter = new OutboxRelay({ db: t.db, tables: t.tables, bus: restarted, logger, pollIntervalMs: 50 });
    await relayAfter.start();
    cleanups.push(() => relayAfter.stop());
    const again = projectingConsumer('projector', { on: restarted });
    await again.consumer.start();

    await eventually(async () => (await handledUsers('projector')).length === 2);
    expect(await handledUsers('projector')).toEqual([1, 2]);
    await eventually(() => logger.lines('debug').some((l) => (l.obj as { eventId?: string }).eventId === first.id));
    expect(again.calls.map((c) => c.eventId)).not.toContain(first.id);
  });

  it('an old event outside the replay window is not replayed', async () => {
    const outbox = new Outbox({ tables: t.tables, producer: 'spec', clock: () => new Date(Date.now() - 2 * 3600_000) });
    await t.db.transaction((tx) => outbox.enqueue(tx, CREATED, userCreated(1)));
    await t.pool.query('UPDATE msgtest.outbox SET published_at = now()');
    const fresh = new Outbox({ tables: t.tables, producer: 'spec' });
    await t.db.transaction((tx) => fresh.enqueue(tx, CREATED, userCreated(2)));
    await t.pool.query('UPDATE msgtest.outbox SET published_at = now()');

    const relay = new OutboxRelay({ db: t.db, tables: t.tables, bus, logger, replayWindowMs: 3600_000 });
    await relay.start();
    cleanups.push(() => relay.stop());
    const { consumer } = projectingConsumer('windowed');
    await consumer.start();
    await eventually(async () => (await handledUsers('windowed')).length === 1);
    expect(await handledUsers('windowed')).toEqual([2]);
  });
});
