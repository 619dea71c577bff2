import { randomUUID } from 'node:crypto';
import { eventually } from '@lws/testing';
import { startTestStack, XHR, type TestStack } from './support/test-stack';
import { nextMobile, signIn, superadminOf, type Account } from './support/accounts';
import { openStream, sessionCookie } from './support/sse-client';

/**
 * Messages during an alarm on the whole stack (real PostgreSQL, NATS, Redis; test clock): the
 * monitor writes, the worker reads it on their screen (or by SMS a minute later when their screen
 * has not shown it) and answers; the thread is on the alarm's history. A duress alarm never reaches
 * the worker: nothing is written to them about it, and the monitor is told why.
 */

const EVENT_WAIT_MS = 30_000;

interface Worker extends Account {
  pin: string;
  duressPin: string;
  phone: string;
}

interface Message {
  id: string;
  from: 'monitor' | 'worker';
  byName: string | null;
  text: string;
  at: string;
  seenAt: string | null;
}

interface Alarm {
  id: string;
  userId: number;
  kind: string;
  duress: boolean;
  history: string[];
  messages: Message[];
}

describe('messages during an alarm (real PostgreSQL, NATS, Redis; whole stack, test clock)', () => {
  let t: TestStack;
  let superadmin: Account;
  let depot: string;
  let nextPin = 4100;

  beforeAll(async () => {
    t = await startTestStack({ env: { LWS_TEST_CLOCK: '1', LOGIN_MAX_ATTEMPTS_PER_IP: '1000' } });
    superadmin = await superadminOf(t);
    depot = `Depot ${randomUUID().slice(0, 8)}`;
    await superadmin.agent.post('/api/location-options').set(XHR).send({ name: depot, isActive: true }).expect(201);
  }, 120_000);

  afterAll(() => t?.stop());

  async function onShift(): Promise<Worker> {
    const username = `am${Math.random().toString(36).slice(2, 9)}`;
    const pin = String(nextPin++);
    const duressPin = String(Number(pin) + 5000);
    const phone = nextMobile();
    const res = await superadmin.agent
      .post('/api/users')
      .set(XHR)
      .send({ username, password: 'Secret1pass', name: `Worker ${username}`, phone, role: 'worker', pinCode: pin })
      .expect(201);
    const agent = await signIn(t, username, 'Secret1pass');
    const w: Worker = { id: res.body.user.id, username, password: 'Secret1pass', role: 'worker', agent, pin, duressPin, phone };
    await agent.put(`/api/users/${w.id}/duress-pin`).set(XHR).send({ currentPin: pin, duressPin }).expect(200);
    await eventually(
      async () => (await agent.post(`/api/users/${w.id}/start-shift`).set(XHR).send({ location: depot })).status === 200,
      EVENT_WAIT_MS,
      100,
    );
    return w;
  }

  const alarmOf = (userId: number, where: (a: Alarm) => boolean = () => true) =>
    eventually(
      async () =>
        ((await superadmin.agent.get('/api/alarms?open=true&limit=500').expect(200)).body as Alarm[]).find(
          (a) => a.userId === userId && where(a),
        ),
      EVENT_WAIT_MS,
      200,
    ) as Promise<Alarm>;
  const missed = async (w: Worker) => {
    await superadmin.agent.post(`/api/simulate-check-in-due/${w.id}`).set(XHR).expect(200);
    return alarmOf(w.id);
  };
  const send = (alarmId: string, text: unknown) => superadmin.agent.post(`/api/alarms/${alarmId}/messages`).set(XHR).send({ text });
  const thread = async (w: Worker) => (await w.agent.get('/api/profile/alarm-messages').expect(200)).body.thread;
  const advance = (minutes: number) => superadmin.agent.post('/api/test-clock').set(XHR).send({ advanceMinutes: minutes }).expect(200);
  const messagesTo = async (w: Worker) =>
    (
      (await superadmin.agent.get('/api/notifications/deliveries?limit=500').expect(200)).body.deliveries as {
        to: string;
        channel: string;
        purpose: string;
        body: string;
      }[]
    ).filter((d) => (d.to === w.phone || d.to === `user:${w.id}`) && d.purpose === 'alarm_message');

  it("the monitor writes, the worker reads it live and answers; an unseen message follows by SMS; the thread is on the alarm's history", async () => {
    const w = await onShift();
    const stream = await openStream(t.url, { cookie: await sessionCookie(t.url, w.username, w.password) });
    try {
      const alarm = await missed(w);
      const sent = (await send(alarm.id, '  Are you OK? Reply here or call 0161 000 0000  ').expect(201)).body as Alarm;
      expect(sent.messages).toEqual([
        {
          id: expect.any(String),
          from: 'monitor',
          byName: expect.any(String),
          text: 'Are you OK? Reply here or call 0161 000 0000',
          at: expect.any(String),
          seenAt: null,
        },
      ]);
      await stream.waitFor((e) => e.event === 'alarm' && JSON.parse(e.data).change === 'message', EVENT_WAIT_MS);
      expect(await thread(w)).toEqual({ alarmId: alarm.id, kind: 'missed_check_in', messages: sent.messages });
      await eventually(async () => (await messagesTo(w)).some((d) => d.channel === 'push'), EVENT_WAIT_MS, 200);

      // The screen has not shown it a minute later (the app is closed): it goes by SMS too.
      await advance(1);
      await eventually(async () => (await messagesTo(w)).some((d) => d.channel === 'sms'), EVENT_WAIT_MS, 200);
      expect((await messagesTo(w)).find((d) => d.channel === 'sms')!.body).toMatch(
        /^LWS: message from .+ about your alarm: Are you OK\? Reply here or call 0161 000 0000 Open LWS to answer\.$/,
      );

      const answered = (await w.agent.post('/api/profile/alarm-messages').set(XHR).send({ text: 'Fine, phone died' }).expect(201)).body
        .thread;
      expect(answered.messages.map((m: Message) => [m.from, m.text, m.seenAt !== null])).toEqual([
        ['monitor', 'Are you OK? Reply here or call 0161 000 0000', true],
        ['worker', 'Fine, phone died', false],
      ]);
      const after = await alarmOf(w.id);
      expect(after.messages.map((m) => m.text)).toEqual(['Are you OK? Reply here or call 0161 000 0000', 'Fine, phone died']);
      expect(after.history).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/^Message to the worker from .+: Are you OK\?/),
          'Message from the worker: Fine, phone died',
        ]),
      );
      await superadmin.agent
        .post(`/api/alarms/${alarm.id}/resolve`)
        .set(XHR)
        .send({ verdict: 'false_alarm', reason: 'device', note: 'Phone died' })
        .expect(200);
      // Resolved: the thread is closed on both sides.
      expect(await thread(w)).toBeNull();
      expect((await send(alarm.id, 'One more thing').expect(409)).body.message).toBe(
        'The alarm is resolved: messages go only while it is open',
      );
      expect((await w.agent.post('/api/profile/alarm-messages').set(XHR).send({ text: 'Hello?' }).expect(409)).body).toEqual({
        message: 'There is no open alarm to answer',
      });
    } finally {
      stream.close();
    }
  });

  it('a message the worker has seen on their screen is not sent again by SMS', async () => {
    const w = await onShift();
    const alarm = await missed(w);
    await send(alarm.id, 'Please check in').expect(201);
    const seen = (await w.agent.post('/api/profile/alarm-messages/seen').set(XHR).expect(200)).body.thread;
    expect(seen.messages[0].seenAt).toEqual(expect.any(String));
    await advance(2);
    await eventually(async () => (await messagesTo(w)).some((d) => d.channel === 'push'), EVENT_WAIT_MS, 200);
    await new Promise((r) => setTimeout(r, 1500));
    expect((await messagesTo(w)).filter((d) => d.channel === 'sms')).toEqual([]);
    await superadmin.agent.post(`/api/alarms/${alarm.id}/resolve`).set(XHR).send({ verdict: 'test', note: 'Done' }).expect(200);
  });

  it('a duress alarm: nothing is written to the worker, the monitor is told why, and the worker sees no thread', async () => {
    const w = await onShift();
    await w.agent.post('/api/check-ins').set(XHR).send({ userId: w.id, location: depot, pin: w.duressPin }).expect(201);
    const duress = await alarmOf(w.id, (a) => a.duress);
    const refused = await send(duress.id, 'Are you under threat?').expect(409);
    expect(refused.body.message).toBe(
      'No message is sent to the worker during a duress alarm, nor after a cancel with the duress PIN: whoever holds their phone would read it',
    );
    expect(await thread(w)).toBeNull();
    expect((await alarmOf(w.id, (a) => a.duress)).messages).toEqual([]);
    await new Promise((r) => setTimeout(r, 500));
    expect(await messagesTo(w)).toEqual([]);
    await superadmin.agent
      .post(`/api/alarms/${duress.id}/resolve`)
      .set(XHR)
      .send({ verdict: 'genuine', severity: 'serious', note: 'Police attended' })
      .expect(200);
  });

  it('refuses an empty or overlong message, naming text', async () => {
    const w = await onShift();
    const alarm = await missed(w);
    for (const text of ['', '   ', 42, 'x'.repeat(501)]) {
      const res = await send(alarm.id, text).expect(400);
      expect(res.body.field).toBe('text');
    }
    expect((await w.agent.post('/api/profile/alarm-messages').set(XHR).send({ text: ' ' }).expect(400)).body).toEqual({
      message: 'Write the message',
      field: 'text',
    });
    expect((await alarmOf(w.id)).messages).toEqual([]);
    await superadmin.agent.post(`/api/alarms/${alarm.id}/resolve`).set(XHR).send({ verdict: 'test', note: 'Done' }).expect(200);
  });
});
