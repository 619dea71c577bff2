import { randomUUID } from 'node:crypto';
import { Outbox, type OutboxRelay, type Wrote } from '@lws/messaging';
import pino from 'pino';
import { messagingTestDb, userCreated, type MessagingTestDb } from '../../messaging/src/testing/support';
import type { Db } from './database';
import { UnitOfWork } from './runtime';

/**
 * After a commit the relay is told which of its lanes has something new: an emergency's events go
 * out on a lane of their own at once, and a transaction of other events does not wake that lane.
 */
describe('UnitOfWork wakes the relay lane its events go out on', () => {
  let t: MessagingTestDb;
  let uow: UnitOfWork;
  const kicks: Wrote[] = [];

  beforeAll(async () => {
    t = await messagingTestDb();
    const relay = { kick: (wrote: Wrote) => kicks.push({ ...wrote }) } as unknown as OutboxRelay;
    uow = new UnitOfWork(t.db as unknown as Db, new Outbox({ tables: t.tables, producer: 'uow-spec' }), relay, pino({ level: 'silent' }));
  });

  beforeEach(() => kicks.splice(0));

  afterAll(async () => {
    await t.close();
  });

  const urgentRequest = () => ({
    request: { requestId: randomUUID(), channel: 'sms' as const, toPhone: '+447911000001', purpose: 'emergency' as const, title: '', body: 'Emergency' },
  });

  it("wakes the urgent lane alone for an emergency's events", async () => {
    await uow.run((_tx, emit) => emit('escalation.notification.urgent.v1', urgentRequest()));
    expect(kicks).toEqual([{ urgent: true }]);
  });

  it('wakes the other lane alone for the rest, written one by one or together', async () => {
    await uow.run((_tx, emit) => emit('identity.user.created.v1', userCreated(1)));
    await uow.run((_tx, emit) => emit.many([{ subject: 'identity.user.created.v1', data: userCreated(2) }]));
    expect(kicks).toEqual([{ other: true }, { other: true }]);
  });

  it('wakes both when a transaction wrote both, and neither when it wrote nothing or rolled back', async () => {
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
    expect(kicks).toEqual([{ urgent: true, other: true }]);
    const { rows } = await t.pool.query('SELECT priority FROM msgtest.outbox ORDER BY seq');
    expect(rows.map((r) => r.priority)).toEqual([0, 1, 1, 0, 1]);
  });
});
