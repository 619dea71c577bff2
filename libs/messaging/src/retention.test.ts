import { randomUUID } from 'node:crypto';
import { pruneMessagingTables } from './retention';
import { messagingTestDb, type MessagingTestDb } from './testing/support';

const DAY = 24 * 3600_000;

describe('pruneMessagingTables', () => {
  let t: MessagingTestDb;
  beforeAll(async () => {
    t = await messagingTestDb();
  });
  afterAll(() => t?.close());

  it('deletes old published events and old dedupe rows, never an unpublished event', async () => {
    const now = new Date('2026-11-20T12:00:00Z');
    const ago = (days: number) => new Date(now.getTime() - days * DAY);
    const row = (createdAt: Date, publishedAt: Date | null) => ({
      id: randomUUID(),
      subject: 'identity.user.created.v1',
      payload: {},
      createdAt,
      publishedAt,
    });
    const oldPublished = row(ago(10), ago(10));
    const oldUnpublished = row(ago(30), null);
    const recentPublished = row(ago(1), ago(1));
    await t.db.insert(t.tables.outbox).values([oldPublished, oldUnpublished, recentPublished]);
    const oldDedupe = { consumer: 'c', eventId: randomUUID(), processedAt: ago(20) };
    const recentDedupe = { consumer: 'c', eventId: randomUUID(), processedAt: ago(8) };
    await t.db.insert(t.tables.processedEvents).values([oldDedupe, recentDedupe]);

    const pruned = await pruneMessagingTables(t.db, t.tables, now, { batchSize: 1 });

    expect(pruned).toEqual({ outbox: 1, processedEvents: 1 });
    const outboxIds = (await t.db.select().from(t.tables.outbox)).map((r) => r.id).sort();
    expect(outboxIds).toEqual([oldUnpublished.id, recentPublished.id].sort());
    const dedupe = (await t.db.select().from(t.tables.processedEvents)).map((r) => r.eventId);
    expect(dedupe).toEqual([recentDedupe.eventId]);
  });
});
