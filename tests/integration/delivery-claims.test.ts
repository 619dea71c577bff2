/**
 * The sender's claim of due deliveries, on notifications' real schema (its migrations on
 * a fresh PostgreSQL database). Most urgent first, oldest first within a priority; with a provider
 * budget, an emergency's rows are never held back by it and other SMS take only the room it has;
 * push rows only when asked; and two senders never take the same row.
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import pino from 'pino';
import { openDatabase, type Database } from '@lws/platform';
import { createTestDatabase, type TestDatabase } from '@lws/testing';
import { DeliveriesRepository } from '../../services/notifications/src/deliveries/deliveries.repository';

const NOW = new Date('2026-11-28T03:00:00Z');
const PRIORITY = { emergency: 0, alarm: 1, reminder: 2 } as const;

describe("the sender's claim of due deliveries", () => {
  let database: TestDatabase;
  let opened: Database;
  let repo: DeliveriesRepository;

  beforeAll(async () => {
    database = await createTestDatabase('lws_claims_');
    opened = await openDatabase({
      service: 'notifications',
      databaseUrl: database.url,
      dataDir: '',
      migrationsFolder: join(__dirname, '../../services/notifications/drizzle'),
      logger: pino({ level: 'silent' }),
    });
    repo = new DeliveriesRepository(opened.db);
  });

  afterAll(async () => {
    await opened.close();
    await database.drop();
  });

  beforeEach(async () => {
    await opened.db.execute('delete from notifications.deliveries');
  });

  /** A pending row named `body`, due `secondsAgo` before NOW (negative: not due yet). */
  async function row(
    body: string,
    priority: number,
    channel: 'sms' | 'push' | 'voice',
    secondsAgo: number,
    status = 'pending',
  ): Promise<void> {
    const due = new Date(NOW.getTime() - secondsAgo * 1000).toISOString();
    await opened.db.execute(`
      insert into notifications.deliveries (id, channel, to_address, purpose, body, status, priority, next_attempt_at, created_at, updated_at)
      values ('${randomUUID()}', '${channel}', '+447911000001', 'test', '${body}', '${status}', ${priority}, '${due}', '${due}', '${due}')`);
  }

  async function seed(): Promise<void> {
    await row('alarm sms old', PRIORITY.alarm, 'sms', 50);
    await row('alarm push', PRIORITY.alarm, 'push', 40);
    await row('alarm sms', PRIORITY.alarm, 'sms', 30);
    await row('reminder sms', PRIORITY.reminder, 'sms', 60);
    await row('reminder push', PRIORITY.reminder, 'push', 55);
    await row('emergency call', PRIORITY.emergency, 'voice', 5);
    await row('emergency sms', PRIORITY.emergency, 'sms', 10);
    await row('alarm sms not due', PRIORITY.alarm, 'sms', -30);
    await row('alarm sms sending', PRIORITY.alarm, 'sms', 70, 'sending');
  }

  const bodies = (rows: { body: string }[]) => rows.map((r) => r.body);

  it('takes the most urgent first, oldest first within each, up to the limit, and marks them sending', async () => {
    await seed();
    const claimed = await repo.claimDue(NOW, 4);
    expect(bodies(claimed)).toEqual(['emergency sms', 'emergency call', 'alarm sms old', 'alarm push']);
    for (const r of claimed) {
      expect(r).toMatchObject({ status: 'sending', attempts: 1, nextAttemptAt: null });
      expect(r.claimedUntil!.getTime()).toBeGreaterThan(NOW.getTime());
      expect(r.createdAt).toBeInstanceOf(Date);
    }
    // The rest in the next claim; what is not due or already being sent is never taken.
    expect(bodies(await repo.claimDue(NOW, 10))).toEqual(['alarm sms', 'reminder sms', 'reminder push']);
    expect(await repo.claimDue(NOW, 10)).toEqual([]);
  });

  it("with a provider budget: an emergency's rows whatever the room, other SMS only as far as it goes, push only when asked", async () => {
    await seed();
    expect(bodies(await repo.claimDue(NOW, 10, { provider: 1, push: false }))).toEqual([
      'emergency sms',
      'emergency call',
      'alarm sms old',
    ]);
    expect(bodies(await repo.claimDue(NOW, 10, { provider: 0, push: true }))).toEqual(['alarm push', 'reminder push']);
    expect(bodies(await repo.claimDue(NOW, 10, { provider: 5, push: false }))).toEqual(['alarm sms', 'reminder sms']);
  });

  it('never gives two senders the same row', async () => {
    for (let i = 0; i < 60; i++) await row(`sms ${i}`, i % 3, 'sms', i);
    const claims = await Promise.all([repo.claimDue(NOW, 25), repo.claimDue(NOW, 25), repo.claimDue(NOW, 25)]);
    const ids = claims.flat().map((r) => r.id);
    expect(ids).toHaveLength(60);
    expect(new Set(ids).size).toBe(60);
  });
});
