/**
 * The SMS provider down for minutes while alarms are open (the whole stack on real PostgreSQL,
 * NATS and Redis; the provider a fake speaking Twilio's API, driven by the real SDK). A message
 * that failed for a transient reason is retried until the provider answers, not given up after a
 * few tries; a reminder is dropped once its deadline has passed, saying so; a resolved alarm's
 * waiting messages are withdrawn. The test clock moves time; the provider's answers are real HTTP.
 */
import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { FakeTwilio } from '@lws/notifications';
import type { JetStreamBus } from '@lws/messaging';
import { eventually } from '@lws/testing';
import { startTestStack, XHR, type TestStack } from './support/test-stack';
import { nextMobile, superadminOf, type Account } from './support/accounts';
import { connectTestBus } from './support/stream-events';

describe('notifications while the SMS provider is down (test clock)', () => {
  let t: TestStack;
  let fake: FakeTwilio;
  let bus: JetStreamBus;
  let db: Client;
  let superadmin: Account;

  beforeAll(async () => {
    fake = await FakeTwilio.start({ autoNoAnswer: false });
    t = await startTestStack({ env: { FAKE_TWILIO_URL: fake.url, LWS_TEST_CLOCK: '1' } });
    bus = await connectTestBus(t, 'provider-outage-test');
    db = new Client({ connectionString: t.env.DATABASE_URL });
    await db.connect();
    superadmin = await superadminOf(t);
  }, 120_000);

  afterAll(async () => {
    await db?.end();
    await bus?.close();
    await t?.stop();
    await fake?.close();
  });

  afterEach(() => fake.failNext(0));

  const publish = (subject: string, data: Record<string, unknown>) =>
    bus.publish({ id: randomUUID(), subject, occurredAt: new Date().toISOString(), producer: 'escalation', data } as never);

  const row = async (requestId: string) =>
    (await db.query('select status, attempts, error_message from notifications.deliveries where request_id = $1', [requestId])).rows[0] as
      | { status: string; attempts: number; error_message: string | null }
      | undefined;

  const advanceSeconds = (seconds: number) =>
    superadmin.agent
      .post('/api/test-clock')
      .set(XHR)
      .send({ advanceMinutes: seconds / 60 })
      .expect(200);

  /** Moves the clock past each retry in turn while the provider refuses, until `attempts` were made. */
  async function refusedUntil(requestId: string, attempts: number): Promise<void> {
    for (let made = (await row(requestId))?.attempts ?? 0; made < attempts; made = (await row(requestId))!.attempts) {
      await advanceSeconds(31);
      await eventually(
        async () => ((await row(requestId))?.attempts ?? 0) > made && (await row(requestId))?.status !== 'sending',
        15_000,
        50,
      );
    }
  }

  it('an alarm SMS refused with 503 for over three minutes is retried until the provider answers, then sent once', async () => {
    fake.failNext(10_000, 503);
    const to = nextMobile();
    const requestId = randomUUID();
    await publish('escalation.notification.requested.v1', {
      requestId,
      alarmId: randomUUID(),
      channel: 'sms',
      toPhone: to,
      purpose: 'missed_check_in',
      title: 'Missed check-in',
      body: 'You missed your check-in. Please check in now.',
      userId: 7,
    });
    await eventually(async () => (await row(requestId))?.attempts === 1 && (await row(requestId))?.status === 'pending', 15_000, 50);
    // The old policy gave up for good at the 4th refusal (after 42 s); this outage lasts 7 refusals, over 3 minutes.
    await refusedUntil(requestId, 7);
    expect(await row(requestId)).toMatchObject({ status: 'pending', attempts: 7 });
    expect(fake.messages.filter((m) => m.to === to)).toHaveLength(0);

    fake.failNext(0);
    await advanceSeconds(31);
    await eventually(() => fake.messages.find((m) => m.to === to), 15_000, 50);
    await advanceSeconds(60);
    await eventually(async () => (await row(requestId))?.status !== 'sending', 15_000, 50);
    expect(fake.messages.filter((m) => m.to === to)).toHaveLength(1);
    expect((await row(requestId))!.status).not.toBe('failed');
  }, 120_000);

  it('a check-in reminder still refused once its deadline has passed is dropped, saying why', async () => {
    fake.failNext(10_000, 503);
    const to = nextMobile();
    const requestId = randomUUID();
    await publish('escalation.notification.requested.v1', {
      requestId,
      channel: 'sms',
      toPhone: to,
      purpose: 'reminder_5min',
      title: '',
      body: 'Check in within 5 minutes',
      userId: 8,
    });
    await eventually(async () => (await row(requestId))?.attempts === 1, 15_000, 50);
    for (let i = 0; i < 12 && (await row(requestId))!.status !== 'failed'; i++) {
      const made = (await row(requestId))!.attempts;
      await advanceSeconds(31);
      await eventually(async () => (await row(requestId))!.attempts > made || (await row(requestId))!.status === 'failed', 15_000, 50);
    }
    const dropped = (await row(requestId))!;
    expect(dropped.status).toBe('failed');
    expect(dropped.error_message).toMatch(/gave up after \d+ attempts over \d+ s: too late to help/);
    fake.failNext(0);
    await advanceSeconds(60);
    expect(fake.messages.filter((m) => m.to === to)).toHaveLength(0);
  }, 120_000);

  it("a resolved alarm's messages still waiting for the provider are withdrawn and never sent", async () => {
    fake.failNext(10_000, 503);
    const to = nextMobile();
    const requestId = randomUUID();
    const alarmId = randomUUID();
    await publish('escalation.notification.requested.v1', {
      requestId,
      alarmId,
      channel: 'sms',
      toPhone: to,
      purpose: 'contact_message',
      title: '',
      body: 'Sam needs help',
      userId: 9,
    });
    await eventually(async () => (await row(requestId))?.status === 'pending', 15_000, 50);
    await publish('escalation.alarm.resolved.v1', {
      alarmId,
      userId: 9,
      byUserId: superadmin.id,
      at: new Date().toISOString(),
      verdict: 'false_alarm',
      reason: 'no_signal',
      note: 'Sam is fine',
    });
    await eventually(async () => (await row(requestId))?.status === 'canceled', 15_000, 50);
    expect((await row(requestId))!.error_message).toBe('Withdrawn: the alarm was resolved before the provider took it');
    fake.failNext(0);
    await advanceSeconds(60);
    expect(fake.messages.filter((m) => m.to === to)).toHaveLength(0);
  }, 60_000);

  it('a message being sent when its alarm is resolved, and whose attempt then fails, is withdrawn, not retried', async () => {
    const to = nextMobile();
    const requestId = randomUUID();
    const alarmId = randomUUID();
    const release = fake.hold();
    try {
      await publish('escalation.notification.requested.v1', {
        requestId,
        alarmId,
        channel: 'sms',
        toPhone: to,
        purpose: 'contact_message',
        title: '',
        body: 'Sam needs help',
        userId: 10,
      });
      await eventually(async () => (await row(requestId))?.status === 'sending' && fake.waiting > 0, 15_000, 50);
      await publish('escalation.alarm.resolved.v1', {
        alarmId,
        userId: 10,
        byUserId: superadmin.id,
        at: new Date().toISOString(),
        verdict: 'false_alarm',
        reason: 'no_signal',
        note: 'Sam is fine',
      });
      await eventually(
        async () =>
          (await db.query('select withdrawn_reason from notifications.deliveries where request_id = $1', [requestId])).rows[0]
            ?.withdrawn_reason !== null,
        15_000,
        50,
      );
      fake.failNext(1, 503);
    } finally {
      release();
    }
    await eventually(async () => (await row(requestId))?.status === 'canceled', 15_000, 50);
    expect((await row(requestId))!.error_message).toBe('Withdrawn: the alarm was resolved before the provider took it');
    await advanceSeconds(60);
    expect(fake.messages.filter((m) => m.to === to)).toHaveLength(0);
  }, 60_000);
});
