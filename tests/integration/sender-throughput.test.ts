/**
 * A sender that keeps a real provider busy, within its limits. The whole stack on real
 * PostgreSQL, NATS and Redis; the provider a fake speaking Twilio's API, driven by the real SDK,
 * in real time. A 429 with Retry-After holds the row's retry and every new non-urgent send for
 * that long (an emergency's still go), counted and shown in metrics; with a per-second budget and a
 * backlog of reminders, an emergency's message takes the next slot; and far more than 20 requests
 * are at the provider at once.
 */
import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { FakeTwilio } from '@lws/notifications';
import type { JetStreamBus } from '@lws/messaging';
import { eventually } from '@lws/testing';
import { startTestStack, type TestStack } from './support/test-stack';
import { nextMobile } from './support/accounts';
import { connectTestBus } from './support/stream-events';

const WAIT_MS = 30_000;

interface Harness {
  t: TestStack;
  fake: FakeTwilio;
  bus: JetStreamBus;
  db: Client;
}

async function startHarness(name: string, env: NodeJS.ProcessEnv): Promise<Harness> {
  const fake = await FakeTwilio.start({ autoNoAnswer: false });
  const t = await startTestStack({ env: { FAKE_TWILIO_URL: fake.url, ...env } });
  const bus = await connectTestBus(t, name);
  const db = new Client({ connectionString: t.env.DATABASE_URL });
  await db.connect();
  return { t, fake, bus, db };
}

async function stopHarness(h: Harness | undefined): Promise<void> {
  await h?.db.end();
  await h?.bus.close();
  await h?.t.stop();
  await h?.fake.close();
}

/** An SMS request as escalation asks for one; on escalation.notification.urgent.v1 when `urgent`. */
async function requestSms(h: Harness, to: string, purpose: string, urgent = false): Promise<string> {
  const requestId = randomUUID();
  const request = {
    requestId,
    alarmId: purpose.startsWith('reminder_') ? undefined : randomUUID(),
    channel: 'sms',
    toPhone: to,
    purpose,
    title: '',
    body: `${purpose} for ${to}`,
    userId: 7,
  };
  const [subject, data] = urgent ? ['escalation.notification.urgent.v1', { request }] : ['escalation.notification.requested.v1', request];
  await h.bus.publish({ id: randomUUID(), subject, occurredAt: new Date().toISOString(), producer: 'escalation', data } as never);
  return requestId;
}

/** The sum of a metric's samples whose labels include all of `labels`, as the stack exports it now. */
async function metric(h: Harness, name: string, labels: string[] = []): Promise<number> {
  return (await (await fetch(h.t.stack.metricsUrl)).text())
    .split('\n')
    .filter((l) => (l.startsWith(`${name}{`) || l.startsWith(`${name} `)) && labels.every((x) => l.includes(x)))
    .reduce((n, l) => n + Number(l.split(' ').pop()), 0);
}

const sentAt = (h: Harness, to: string): number | undefined => {
  const m = h.fake.messages.find((x) => x.to === to);
  return m ? Date.parse(m.createdAt) : undefined;
};

describe('the sender under provider limits (budget of 4 messages a second)', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness('sender-budget-test', { NOTIFICATIONS_PROVIDER_MAX_PER_SECOND: '4' });
  }, 120_000);

  afterAll(() => stopHarness(h));
  afterEach(() => h.fake.failNext(0));

  const row = async (requestId: string) =>
    (
      await h.db.query(
        `select status, attempts, error_code, error_message, updated_at, next_attempt_at, created_at from notifications.deliveries where request_id = $1`,
        [requestId],
      )
    ).rows[0] as
      | {
          status: string;
          attempts: number;
          error_code: number | null;
          error_message: string;
          updated_at: Date;
          next_attempt_at: Date | null;
          created_at: Date;
        }
      | undefined;

  it('a 429 with Retry-After: 5 holds the retry, and every new non-urgent send, for 5 s; an emergency still goes; the message is sent once; an operator sees it', async () => {
    const to = nextMobile();
    const throttled = () => metric(h, 'lws_provider_throttled_total', ['channel="sms"']);
    const throttledBefore = await throttled();
    h.fake.failNext(1, 429, 5);
    const requestId = await requestSms(h, to, 'missed_check_in');
    const refused = await eventually(
      async () => {
        const r = await row(requestId);
        return r?.status === 'pending' && r.attempts === 1 ? r : undefined;
      },
      WAIT_MS,
      20,
    );
    // Retried when the provider asked, not after the usual 2 s backoff.
    expect(refused.next_attempt_at!.getTime() - refused.updated_at.getTime()).toBe(5_000);
    expect(refused.error_code).toBe(20429);
    expect(refused.error_message).toMatch(/retry after 5 s/);

    // Asked for during the pause: another alarm's message waits it out; an emergency's does not.
    const other = nextMobile();
    const urgent = nextMobile();
    await requestSms(h, other, 'missed_check_in');
    await requestSms(h, urgent, 'emergency', true);
    await eventually(() => sentAt(h, urgent), WAIT_MS, 20);
    expect(sentAt(h, urgent)! - refused.updated_at.getTime()).toBeLessThan(3_000);
    expect(sentAt(h, other)).toBeUndefined();
    // Counted, and the pause's remaining time exported while it lasts.
    expect(await throttled()).toBe(throttledBefore + 1);
    const remaining = await metric(h, 'lws_provider_pause_remaining_seconds');
    expect(remaining).toBeGreaterThan(0);
    expect(remaining).toBeLessThanOrEqual(5);

    await eventually(() => sentAt(h, to) !== undefined && sentAt(h, other) !== undefined, WAIT_MS, 50);
    const pausedFrom = refused.updated_at.getTime();
    expect(sentAt(h, to)! - pausedFrom).toBeGreaterThanOrEqual(4_900);
    expect(sentAt(h, to)! - pausedFrom).toBeLessThan(8_000);
    expect(sentAt(h, other)! - pausedFrom).toBeGreaterThanOrEqual(4_900);
    await eventually(async () => (await row(requestId))?.status !== 'sending', WAIT_MS, 50);
    expect(h.fake.messages.filter((m) => m.to === to)).toHaveLength(1);
    expect((await row(requestId))!.attempts).toBe(2);
    expect(await metric(h, 'lws_provider_pause_remaining_seconds')).toBe(0);
    expect(await throttled()).toBe(throttledBefore + 1);
  }, 60_000);

  it('an emergency asked for behind a backlog of reminders takes the next slot of the budget', async () => {
    const reminders = Array.from({ length: 24 }, () => nextMobile());
    const ids = new Map<string, string>();
    for (const to of reminders) ids.set(to, await requestSms(h, to, 'reminder_5min'));
    // The backlog is flowing at the budget's pace.
    await eventually(() => reminders.filter((p) => sentAt(h, p) !== undefined).length >= 6, WAIT_MS, 20);

    const contact = nextMobile();
    const emergencyId = await requestSms(h, contact, 'emergency', true);
    const stored = await eventually(
      async () => {
        const { rows } = await h.db.query(
          `select request_id, status from notifications.deliveries where request_id = any($1) or request_id = $2`,
          [[...ids.values()], emergencyId],
        );
        return rows.some((r) => r.request_id === emergencyId) ? (rows as { request_id: string; status: string }[]) : undefined;
      },
      WAIT_MS,
      10,
    );
    const sentWhenStored = h.fake.messages.length;
    const waiting = reminders.filter((p) => stored.find((r) => r.request_id === ids.get(p))?.status === 'pending');
    expect(waiting.length).toBeGreaterThanOrEqual(5);

    await eventually(() => reminders.every((p) => sentAt(h, p) !== undefined) && sentAt(h, contact) !== undefined, WAIT_MS, 50);
    const order = h.fake.messages.map((m) => m.to);
    const emergencyAt = order.indexOf(contact);
    // Every reminder still waiting when it was asked for went after it, and at most the one taking
    // a token at that instant reached the provider between its storing and its sending.
    expect(waiting.filter((p) => order.indexOf(p) < emergencyAt)).toEqual([]);
    expect(emergencyAt - sentWhenStored).toBeLessThanOrEqual(1);
    // The budget held: 24 messages at 4 a second (a second's worth at once) take at least 5 s.
    const times = reminders.map((p) => sentAt(h, p)!);
    expect(Math.max(...times) - Math.min(...times)).toBeGreaterThanOrEqual(4_500);
  }, 60_000);
});

describe('the sender keeps the provider busy (no budget)', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness('sender-in-flight-test', {});
  }, 120_000);

  afterAll(() => stopHarness(h));

  it('has far more than 20 requests at the provider at once (the old sender: 40; the SDK pool: 20)', async () => {
    const phones = Array.from({ length: 80 }, () => nextMobile());
    const release = h.fake.hold();
    try {
      for (const to of phones) await requestSms(h, to, 'missed_check_in');
      await eventually(() => h.fake.waiting >= phones.length, WAIT_MS, 20);
    } finally {
      release();
    }
    await eventually(() => phones.every((p) => sentAt(h, p) !== undefined), WAIT_MS, 50);
    expect(phones.map((p) => h.fake.messages.filter((m) => m.to === p).length)).toEqual(phones.map(() => 1));
    // Every result recorded (in batches: 80 finishing at once).
    await eventually(
      async () => {
        const { rows } = await h.db.query(
          `select count(*)::int as n from notifications.deliveries where to_address = any($1) and status not in ('pending', 'sending')`,
          [phones],
        );
        return rows[0].n === phones.length;
      },
      WAIT_MS,
      50,
    );
  }, 60_000);
});
