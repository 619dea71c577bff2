import { randomUUID } from 'node:crypto';
import { Outbox, type OutboxRelay, type Written } from '@lws/messaging';
import pino from 'pino';
import { messagingTestDb, userCreated, type MessagingTestDb } from '../../messaging/src/testing/support';
import type { Db } from './database';
import { UnitOfWork } from './runtime';

/**
 * After a commit the relay is handed what the transaction wrote: an emergency's events, which it
 * publishes at once, and whether it wrote others (their lane is woken). Nothing for a transaction
 * that wrote nothing or rolled back.
 */
describe('UnitOfWork hands the relay what it committed', () => {
  let t: MessagingTestDb;
  let uow: UnitOfWork;
  const handed: { urgent: string[]; other: boolean }[] = [];

  beforeAll(async () => {
    t = await messagingTestDb();
    const relay = {
      committed: (w: Written) => handed.push({ urgent: w.urgent.map((e) => e.subject), other: w.other }),
    } as unknown as OutboxRelay;
    uow = new UnitOfWork(t.db as unknown as Db, new Outbox({ tables: t.tables, producer: 'uow-spec' }), relay, pino({ level: 'silent' }));
  });

  beforeEach(() => handed.splice(0));

  afterAll(async () => {
    await t.close();
  });

  const urgentRequest = () => ({
    request: {
      requestId: randomUUID(),
      channel: 'sms' as const,
      toPhone: '+447911000001',
      purpose: 'emergency' as const,
      title: '',
      body: 'Emergency',
    },
  });

  it("hands over an emergency's events, to be published at once", async () => {
    const written = await uow.run((_tx, emit) => emit('escalation.notification.urgent.v1', urgentRequest()));
    expect(handed).toEqual([{ urgent: ['escalation.notification.urgent.v1'], other: false }]);
    expect(written.subject).toBe('escalation.notification.urgent.v1');
  });

  it('says the rest was written, one by one or together, with no urgent event', async () => {
    await uow.run((_tx, emit) => emit('identity.user.created.v1', userCreated(1)));
    await uow.run((_tx, emit) => emit.many([{ subject: 'identity.user.created.v1', data: userCreated(2) }]));
    expect(handed).toEqual([
      { urgent: [], other: true },
      { urgent: [], other: true },
    ]);
  });

  it('hands over both when a transaction wrote both, and nothing when it wrote nothing or rolled back', async () => {
    await uow.run((_tx, emit) =>
      emit.many([
        { subject: 'escalation.notification.urgent.v1', data: urgentRequest() },
        { subject: 'identity.user.created.v1', data: userCreated(3) },
      ]),
    );
    await uow.run(async () => undefined);
    await expect(
      uow.run(async (_tx, emit) => {
        await emit('escalation.notification.urgent.v1', urgentRequest());
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(handed).toEqual([{ urgent: ['escalation.notification.urgent.v1'], other: true }]);
    const { rows } = await t.pool.query('SELECT priority FROM msgtest.outbox ORDER BY seq');
    expect(rows.map((r) => r.priority)).toEqual([0, 1, 1, 0, 1]);
  });
});
