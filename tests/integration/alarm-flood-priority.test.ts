/**
 * An alarm flood never buries an emergency. The whole stack on real PostgreSQL, NATS and
 * Redis, the provider a fake speaking Twilio's API driven by the real SDK. The provider is held (it
 * takes requests and does not answer), so the missed check-ins' messages back up behind it; an
 * emergency pressed afterwards must still reach the provider before every message of that backlog
 * that was still waiting. Every queue between the button and the provider was first in, first out:
 * the emergency came out behind the backlog.
 */
import { Client } from 'pg';
import { FakeTwilio } from '@lws/notifications';
import { eventually } from '@lws/testing';
import { startTestStack, XHR, type TestStack } from './support/test-stack';
import { createAccount, nextMobile, superadminOf, type Account } from './support/accounts';

/** A location every new organisation has. */
const SITE = 'The Prospect Building';
const WAIT_MS = 30_000;
/** Workers whose check-ins are missed at once: more than the sender keeps in flight (IN_FLIGHT), so some wait. */
const FLOOD = 60;
const IN_FLIGHT = 40;

describe('an emergency pressed behind a backlog of missed check-ins (real servers, fake provider)', () => {
  let t: TestStack;
  let fake: FakeTwilio;
  let db: Client;
  let superadmin: Account;

  beforeAll(async () => {
    fake = await FakeTwilio.start({ autoNoAnswer: false });
    t = await startTestStack({ env: { FAKE_TWILIO_URL: fake.url, NOTIFICATIONS_SENDER_IN_FLIGHT: String(IN_FLIGHT) } });
    db = new Client({ connectionString: t.env.DATABASE_URL });
    await db.connect();
    superadmin = await superadminOf(t);
  }, 120_000);

  afterAll(async () => {
    await db?.end();
    await t?.stop();
    await fake?.close();
  });

  const onShift = async (agent: Account['agent'], id: number) =>
    eventually(
      async () => (await agent.post(`/api/users/${id}/start-shift`).set(XHR).send({ location: SITE })).status === 200,
      WAIT_MS,
      100,
    );

  const deliveriesTo = async (phones: string[]) =>
    (await db.query('select to_address, status, purpose from notifications.deliveries where to_address = any($1)', [phones])).rows as {
      to_address: string;
      status: string;
      purpose: string;
    }[];

  it("reaches the provider before the backlog's waiting messages", async () => {
    // The flood's workers never sign in (the login rate limit): the superadmin starts their shifts.
    const flood: { id: number; phone: string }[] = [];
    for (let i = 0; i < FLOOD; i++) {
      const phone = nextMobile();
      const res = await superadmin.agent
        .post('/api/users')
        .set(XHR)
        .send({ username: `flood${i}${Date.now() % 100000}`, password: 'Secret1pass', name: `Flood ${i}`, phone, role: 'worker' })
        .expect(201);
      flood.push({ id: res.body.user.id, phone });
    }
    const pressing = await createAccount(t, superadmin.agent, 'worker', 'pressing');
    const contact = nextMobile();
    await pressing.agent
      .post('/api/emergency-contacts')
      .set(XHR)
      .send({ userId: pressing.id, name: 'Sam Carer', phone: contact, relation: 'Partner' })
      .expect(201);
    for (const w of flood) await onShift(superadmin.agent, w.id);
    await onShift(pressing.agent, pressing.id);
    const floodPhones = flood.map((w) => w.phone);

    let waiting = new Set<string>();
    const release = fake.hold();
    try {
      for (const w of flood) await superadmin.agent.post(`/api/simulate-check-in-due/${w.id}`).set(XHR).expect(200);
      // Every missed check-in's SMS is asked for: some are at the provider (held), the rest wait.
      const backlog = await eventually(
        async () => {
          const rows = (await deliveriesTo(floodPhones)).filter((d) => d.purpose === 'missed_check_in');
          return rows.length === FLOOD && rows.some((d) => d.status === 'pending') && fake.waiting > 0 ? rows : undefined;
        },
        WAIT_MS,
        100,
      );
      waiting = new Set(backlog.filter((d) => d.status === 'pending').map((d) => d.to_address));

      await pressing.agent.post('/api/emergency-call').set(XHR).send({ userId: pressing.id, emergency: true }).expect(200);
      await eventually(async () => (await deliveriesTo([contact])).some((d) => d.status === 'pending'), WAIT_MS, 100);
      // The backlog is still there, untouched, while the emergency's message waits with it.
      expect((await deliveriesTo([...waiting])).every((d) => d.status === 'pending')).toBe(true);

      release();
      await eventually(
        () => fake.messages.some((m) => m.to === contact) && floodPhones.every((p) => fake.messages.some((m) => m.to === p)),
        WAIT_MS,
        100,
      );
    } finally {
      release();
    }
    const order = fake.messages.map((m) => m.to);
    const emergencyAt = order.indexOf(contact);
    const overtaken = [...waiting].filter((p) => order.indexOf(p) < emergencyAt);
    expect({ waiting: waiting.size, overtaken }).toEqual({ waiting: waiting.size, overtaken: [] });

    // An operator sees it by priority: the emergency's time from the press to the provider, and its
    // waits at the relay and the sender, apart from the missed check-ins'.
    const text = await (await fetch(t.stack.metricsUrl)).text();
    const count = (name: string, labels: string[]) =>
      text
        .split('\n')
        .filter((l) => l.startsWith(`${name}{`) && labels.every((x) => l.includes(x)))
        .reduce((n, l) => n + Number(l.split(' ').pop()), 0);
    expect(count('lws_due_to_provider_seconds_count', ['priority="emergency"', 'channel="sms"'])).toBeGreaterThanOrEqual(1);
    expect(count('lws_due_to_provider_seconds_count', ['priority="alarm"', 'channel="sms"'])).toBeGreaterThanOrEqual(FLOOD);
    for (const stage of ['relay', 'sender'])
      expect({ stage, waits: count('lws_chain_wait_seconds_count', [`stage="${stage}"`, 'priority="emergency"']) > 0 }).toEqual({
        stage,
        waits: true,
      });
  }, 240_000);
});
