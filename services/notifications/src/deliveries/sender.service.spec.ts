import type { BaseConfig, Clock, Logger, UnitOfWork } from '@lws/platform';
import type { NotificationsConfig } from '../config';
import type { PushService } from '../push/push.service';
import type { TwilioProvider } from '../provider/twilio-provider';
import type { ClaimResult, DeliveriesRepository, Delivery } from './deliveries.repository';
import { SenderService } from './sender.service';

const now = new Date('2026-03-02T10:00:00Z');

function delivery(i: number): Delivery {
  return {
    id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    requestId: null,
    fanoutKey: '',
    channel: 'sms',
    to: `+4477009${String(i).padStart(5, '0')}`,
    purpose: 'missed_check_in',
    title: '',
    body: 'You missed your check-in',
    status: 'sending',
    attempts: 1,
    nextAttemptAt: null,
    claimedUntil: now,
    providerSid: null,
    errorCode: null,
    errorMessage: null,
    withdrawnReason: null,
    userId: 7,
    alarmId: null,
    callTimeoutSeconds: null,
    accepted: false,
    outcome: null,
    priority: 1,
    createdAt: now,
    updatedAt: now,
  } as Delivery;
}

/** A sender over stubs: `rows` are claimed at once, the provider takes each; `refuse` is one row the database will not save. */
function senderOver(rows: Delivery[], refuse?: string) {
  const transactions: ClaimResult[][] = [];
  const events: unknown[] = [];
  const byId = new Map(rows.map((r) => [r.id, r]));
  let claimed = false;
  const repo = {
    lapsedClaims: async () => [],
    openCallsBefore: async () => [],
    claimDue: async () => {
      if (claimed) return [];
      claimed = true;
      return rows;
    },
    finishClaims: async (_tx: unknown, results: ClaimResult[]) => {
      transactions.push(results);
      if (results.some((r) => r.id === refuse)) throw new Error('value out of range');
      return results.map((r) => ({ ...byId.get(r.id)!, status: r.status, providerSid: r.providerSid ?? null }));
    },
  } as unknown as DeliveriesRepository;
  const provider = {
    sendMessage: async (_c: string, id: string) => ({ ok: true, sid: `SM${id.slice(-12)}`, status: 'queued' }),
  } as unknown as TwilioProvider;
  const uow = {
    run: async (work: (tx: unknown, emit: unknown) => Promise<unknown>) => {
      const written: unknown[] = [];
      const emit = Object.assign(async () => undefined, { many: async (e: unknown[]) => void written.push(...e) });
      const result = await work({}, emit);
      events.push(...written);
      return result;
    },
  } as unknown as UnitOfWork;
  const logger = { warn: jest.fn(), error: jest.fn(), info: jest.fn() } as unknown as Logger;
  const config = {
    NOTIFICATIONS_SENDER_IN_FLIGHT: 100,
    NOTIFICATIONS_SENDER_CLAIM_SIZE: 50,
    NOTIFICATIONS_PROVIDER_MAX_PER_SECOND: 0,
  } as NotificationsConfig & BaseConfig;
  const sender = new SenderService(repo, provider, {} as PushService, uow, (() => now) as Clock, logger, config);
  return { sender, transactions, events, logger };
}

describe('SenderService recording results', () => {
  it('records the results of deliveries that finish together in one transaction, with their events', async () => {
    const rows = Array.from({ length: 30 }, (_, i) => delivery(i));
    const { sender, transactions, events } = senderOver(rows);
    await sender.pass();
    expect(transactions.map((t) => t.length)).toEqual([30]);
    expect(events).toHaveLength(30);
    expect(transactions[0].every((r) => r.status === 'queued' && r.providerSid?.startsWith('SM'))).toBe(true);
  });

  it('falls back to one transaction each when the batch fails, so only the bad row is left unrecorded', async () => {
    const rows = Array.from({ length: 5 }, (_, i) => delivery(i));
    const { sender, transactions, events, logger } = senderOver(rows, rows[2].id);
    await sender.pass();
    expect(transactions.map((t) => t.length)).toEqual([5, 1, 1, 1, 1, 1]);
    expect(events).toHaveLength(4);
    expect(logger.warn).toHaveBeenCalledWith(expect.objectContaining({ messageId: rows[2].id }), 'recording a delivery failed');
  });
});
