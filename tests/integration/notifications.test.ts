import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createECDH, randomBytes, randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { FakeTwilio } from '@lws/notifications';
import { RpcClient, type JetStreamBus } from '@lws/messaging';
import { eventually } from '@lws/testing';
import { startTestStack, XHR, type TestStack } from './support/test-stack';
import { createAccount, nextMobile, superadminOf, type Account } from './support/accounts';
import { connectTestBus, streamEvents } from './support/stream-events';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const ece = require('http_ece') as { decrypt(buf: Buffer, opts: object): Buffer };

/** A browser push service on 127.0.0.1: records what web-push POSTs, answers 201 or a set status. */
async function startPushService() {
  const received: { path: string; body: Buffer; headers: Record<string, unknown> }[] = [];
  const statusFor = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ path: req.url ?? '', body: Buffer.concat(chunks), headers: req.headers });
      res.writeHead(statusFor.get(req.url ?? '') ?? 201).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, received, statusFor, close: () => new Promise((r) => server.close(r)) };
}

/** A browser's subscription keys, kept to decrypt what the push service received. */
function browserKeys() {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const auth = randomBytes(16);
  return { ecdh, auth, keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') } };
}

describe('notifications: SMS, WhatsApp, voice and push through the real SDK and a fake provider', () => {
  let t: TestStack;
  let fake: FakeTwilio;
  let push: Awaited<ReturnType<typeof startPushService>>;
  let bus: JetStreamBus;
  let db: Client;
  let superadmin: Account;

  beforeAll(async () => {
    fake = await FakeTwilio.start({ autoNoAnswer: false });
    push = await startPushService();
    t = await startTestStack({ env: { FAKE_TWILIO_URL: fake.url, PUSH_TEST_ENDPOINT_ORIGIN: push.url } });
    bus = await connectTestBus(t, 'notifications-test');
    db = new Client({ connectionString: t.env.DATABASE_URL });
    await db.connect();
    superadmin = await superadminOf(t);
  }, 120_000);

  afterAll(async () => {
    await db?.end();
    await bus?.close();
    await t?.stop();
    await fake?.close();
    await push?.close();
  });

  /** Escalation asking for a notification, as its outbox would publish it. */
  async function request(data: Record<string, unknown>, eventId = randomUUID()) {
    await bus.publish({
      id: eventId,
      subject: 'escalation.notification.requested.v1',
      occurredAt: new Date().toISOString(),
      producer: 'escalation',
      data,
    } as never);
  }

  const delivery = async (requestId: string) =>
    (await db.query('select * from notifications.deliveries where request_id = $1', [requestId])).rows as Record<string, unknown>[];

  it('sends a requested SMS once through the SDK and logs it as delivered', async () => {
    const to = nextMobile();
    const requestId = randomUUID();
    await request({
      requestId,
      channel: 'sms',
      toPhone: to,
      purpose: 'missed_check_in',
      title: 'Missed check-in',
      body: 'Sam missed a check-in at Depot',
      userId: 7,
    });
    await eventually(() => fake.messages.find((m) => m.to === to));
    const sent = fake.messages.filter((m) => m.to === to);
    expect(sent).toHaveLength(1);
    expect(sent[0].body).toBe('Sam missed a check-in at Depot');
    // The provider's signed status callbacks reached the log through the gateway's webhook.
    const [row] = await eventually(async () => {
      const rows = await delivery(requestId);
      return rows[0]?.status === 'delivered' ? rows : undefined;
    });
    expect(row.provider_sid).toBe(sent[0].sid);
    const events = await eventually(async () => {
      const e = (await streamEvents(t, 'notifications.message.sent.v1')).filter((x) => x.data.requestId === requestId);
      return e.some((x) => x.data.status === 'delivered') ? e : undefined;
    });
    expect(events.map((e) => e.data.status)).toEqual(expect.arrayContaining(['queued', 'delivered']));
  });

  it("tells escalation which of its requests it holds and what became of each: delivered (the provider's receipt), or failed with the reason", async () => {
    const rpc = await RpcClient.create({
      mode: 'nats',
      natsUrl: t.env.NATS_URL!,
      subjectPrefix: t.env.SUBJECT_PREFIX,
      logger: { debug() {}, info() {}, warn() {}, error() {} },
    });
    try {
      const sent = randomUUID();
      await request({
        requestId: sent,
        channel: 'sms',
        toPhone: nextMobile(),
        purpose: 'missed_check_in',
        title: '',
        body: 'Sam missed a check-in',
        userId: 7,
      });
      // The fake provider reports the message sent, then delivered, through the signed status callback.
      await eventually(async () => (await delivery(sent))[0]?.status === 'delivered', 15_000, 50);
      // The provider refuses the number for good (a 400 is not retried).
      fake.failNext(1, 400);
      const failed = randomUUID();
      await request({
        requestId: failed,
        channel: 'sms',
        toPhone: nextMobile(),
        purpose: 'missed_check_in',
        title: '',
        body: 'Sam missed a check-in',
        userId: 7,
      });
      await eventually(async () => (await delivery(failed))[0]?.status === 'failed', 15_000, 50);

      const never = randomUUID();
      const reply = await rpc.send('notifications.requests.taken.v1', { requestIds: [sent, failed, never] });
      expect([...reply.requestIds].sort()).toEqual([sent, failed].sort());
      expect(reply.outcomes.find((o) => o.requestId === sent)).toEqual({ requestId: sent, outcome: 'delivered' });
      expect(reply.outcomes.find((o) => o.requestId === failed)).toMatchObject({
        requestId: failed,
        outcome: 'failed',
        error: expect.stringMatching(/.+/),
      });
      expect(reply.outcomes.find((o) => o.requestId === never)).toBeUndefined();
    } finally {
      await rpc.close();
    }
  });

  it('retries after a 500 from the provider and sends once', async () => {
    const to = nextMobile();
    const requestId = randomUUID();
    fake.failNext(1);
    await request({ requestId, channel: 'sms', toPhone: to, purpose: 'reminder_5min', title: '', body: 'Check in within 5 minutes' });
    await eventually(() => fake.messages.find((m) => m.to === to), 15_000);
    const [row] = await delivery(requestId);
    expect(row.attempts).toBe(2);
    expect(fake.messages.filter((m) => m.to === to)).toHaveLength(1);
  });

  it('sends a request delivered twice (and the same event redelivered) only once', async () => {
    const to = nextMobile();
    const requestId = randomUUID();
    const data = { requestId, channel: 'sms', toPhone: to, purpose: 'emergency', title: '', body: 'Emergency at Depot' };
    const eventId = randomUUID();
    await request(data, eventId);
    await request(data, eventId);
    await request(data);
    await eventually(() => fake.messages.find((m) => m.to === to));
    // A later request on the same subject has been consumed, so the duplicates were seen too.
    const marker = randomUUID();
    await request({ requestId: marker, channel: 'sms', toPhone: nextMobile(), purpose: 'emergency', title: '', body: 'marker' });
    await eventually(async () => (await delivery(marker)).length === 1);
    expect(fake.messages.filter((m) => m.to === to)).toHaveLength(1);
    expect(await delivery(requestId)).toHaveLength(1);
  });

  async function placedCall(to: string) {
    return eventually(() => fake.calls.find((c) => c.to === to && c.status === 'ringing'));
  }

  async function callCompleted(requestId: string) {
    return eventually(async () => (await streamEvents(t, 'notifications.call.completed.v1')).find((e) => e.data.requestId === requestId));
  }

  it('a call answered with 1 (through the signed webhooks) completes as accepted', async () => {
    const to = nextMobile();
    const requestId = randomUUID();
    const alarmId = randomUUID();
    await request({
      requestId,
      channel: 'voice',
      toPhone: to,
      purpose: 'alarm_call',
      title: 'Missed check-in',
      body: 'Sam missed a check-in at Depot.',
      alarmId,
      userId: 7,
      callTimeoutSeconds: 45,
      contactName: 'Alex',
    });
    const call = await placedCall(to);
    expect(call.timeoutSeconds).toBe(45);
    const answered = await fake.accept(call.sid);
    expect(answered.say).toContain('Hello Alex. Sam missed a check-in at Depot.');
    expect(answered.say).toContain('Press 1 to accept');
    expect(answered.confirmation).toContain('You have accepted this alert');
    expect(fake.webhookFailures).toEqual([]);
    const event = await callCompleted(requestId);
    expect(event.data).toMatchObject({ outcome: 'accepted', callSid: call.sid, alarmId, to, userId: 7 });
  });

  it('an unanswered call completes as no_answer, once', async () => {
    const to = nextMobile();
    const requestId = randomUUID();
    await request({ requestId, channel: 'voice', toPhone: to, purpose: 'alarm_call', title: '', body: 'Sam missed a check-in.' });
    const call = await placedCall(to);
    await fake.ignore(call.sid);
    const event = await callCompleted(requestId);
    expect(event.data.outcome).toBe('no_answer');
    const [row] = await delivery(requestId);
    expect(row.status).toBe('no-answer');
    expect((await streamEvents(t, 'notifications.call.completed.v1')).filter((e) => e.data.requestId === requestId)).toHaveLength(1);
  });

  it('refuses a webhook with a bad signature (403) and changes nothing', async () => {
    const to = nextMobile();
    const requestId = randomUUID();
    await request({ requestId, channel: 'voice', toPhone: to, purpose: 'alarm_call', title: '', body: 'Sam missed a check-in.' });
    const call = await placedCall(to);
    const [row] = await eventually(async () => ((await delivery(requestId))[0]?.provider_sid ? delivery(requestId) : undefined));
    const res = await fetch(`${t.url}/webhooks/twilio/gather?m=${String(row.id)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': 'bm90IGEgc2lnbmF0dXJl' },
      body: new URLSearchParams({ CallSid: call.sid, Digits: '1' }).toString(),
    });
    expect(res.status).toBe(403);
    const forged = await fetch(`${t.url}/webhooks/twilio/call-status?m=${String(row.id)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ CallSid: call.sid, CallStatus: 'completed' }).toString(),
    });
    expect(forged.status).toBe(403);
    const [after] = await delivery(requestId);
    expect(after.accepted).toBe(false);
    expect(after.outcome).toBeNull();
    // The real callee then ignores it: not accepted, despite the forged "1".
    await fake.ignore(call.sid);
    expect((await callCompleted(requestId)).data.outcome).toBe('no_answer');
  });

  it('WhatsApp reminders to a number that has not opted in show the setup steps (63005); after opting in they go', async () => {
    const worker = await createAccount(t, superadmin.agent, 'worker', 'wa');
    const first = await superadmin.agent.post(`/api/test-whatsapp-reminders/${worker.id}`).set(XHR).send({}).expect(200);
    const phone = first.body.userPhone as string;
    expect(phone).toMatch(/^\+44/);
    expect(first.body).toMatchObject({ whatsappNumber: expect.stringMatching(/^\+/), results: { fiveMinutes: '', twoMinutes: '' } });
    expect(first.body.error).toContain('63005');
    expect(first.body.setupSteps.join(' ')).toMatch(/join/i);
    fake.optIn(phone);
    const second = await superadmin.agent.post(`/api/test-whatsapp-reminders/${worker.id}`).set(XHR).send({}).expect(200);
    expect(second.body.results.fiveMinutes).toMatch(/^SM/);
    expect(second.body.results.twoMinutes).toMatch(/^SM/);
    expect(second.body.setupSteps).toBeUndefined();
    expect(fake.messages.filter((m) => m.to === `whatsapp:${phone}`)).toHaveLength(2);

    const sms = await superadmin.agent.post('/api/test-reminders/send-test-5min').set(XHR).send({ userId: worker.id }).expect(200);
    expect(sms.body.user).toEqual({ id: worker.id, name: expect.any(String) });
    expect(sms.body.result.providerSid).toMatch(/^SM/);
    expect(fake.messages.find((m) => m.sid === sms.body.result.providerSid)?.body).toContain('5 minutes');
  });

  it('places a superadmin test call that the test provider routes can accept', async () => {
    const bad = await superadmin.agent
      .post('/api/emergency-call')
      .set(XHR)
      .send({ phoneNumber: '123', workerName: 'Sam', location: 'Depot' })
      .expect(400);
    expect(bad.body).toEqual({ message: 'Please enter a valid phone number', field: 'phoneNumber' });
    const to = nextMobile();
    const res = await superadmin.agent
      .post('/api/emergency-call')
      .set(XHR)
      .send({ phoneNumber: to, workerName: 'Sam', location: 'Depot' })
      .expect(200);
    expect(res.body).toEqual({ callSid: expect.stringMatching(/^CA/), status: 'queued' });
    const calls = await superadmin.agent.get('/api/test-provider/calls').expect(200);
    expect(calls.body.calls[0]).toMatchObject({ callSid: res.body.callSid, to, status: 'ringing' });
    const accepted = await superadmin.agent.post(`/api/test-provider/calls/${res.body.callSid}/accept`).set(XHR).send({}).expect(200);
    expect(accepted.body.call).toMatchObject({ status: 'completed', say: expect.stringContaining('Sam at Depot needs assistance') });
    const log = await superadmin.agent.get('/api/notifications/deliveries?limit=5').expect(200);
    expect(log.body.deliveries.find((d: { providerSid?: string }) => d.providerSid === res.body.callSid)).toMatchObject({
      channel: 'voice',
      status: 'completed',
    });
  });

  it('push: subscribe, deliver the payload to every monitor, and drop a subscription the push service says is gone', async () => {
    const admin = await createAccount(t, superadmin.agent, 'admin', 'pa');
    const worker = await createAccount(t, superadmin.agent, 'worker', 'pw');
    const browsers = { superadmin: browserKeys(), admin: browserKeys(), worker: browserKeys() };
    const endpoint = (who: string) => `${push.url}/push/${who}-${randomUUID()}`;
    const ids: Record<string, string> = {};
    const endpoints: Record<string, string> = {};
    for (const [who, account] of [
      ['superadmin', superadmin],
      ['admin', admin],
      ['worker', worker],
    ] as const) {
      endpoints[who] = endpoint(who);
      const res = await account.agent
        .post('/api/push/subscribe')
        .set(XHR)
        .send({ endpoint: endpoints[who], keys: browsers[who].keys })
        .expect(201);
      ids[who] = res.body.subscriptionId;
    }
    const key = await worker.agent.get('/api/push/public-key').expect(200);
    expect(key.headers['content-type']).toMatch(/^text\/plain/);
    expect(key.text).toMatch(/^[A-Za-z0-9_-]{80,100}$/);
    await worker.agent
      .post('/api/push/subscribe')
      .set(XHR)
      .send({ endpoint: 'http://push.example.com/x', keys: browsers.worker.keys })
      .expect(400);
    // The probe's server-side request forgery: an endpoint on this machine (any port but the fake push
    // service's own), a cloud metadata address, a host that is no push service. Refused and never stored.
    const pushPort = Number(new URL(push.url).port);
    for (const endpoint of [
      `http://127.0.0.1:${pushPort + 1}/internal/x`,
      'https://127.0.0.1/internal/x',
      'https://169.254.169.254/latest/meta-data',
      'https://attacker.example.net/x',
    ]) {
      const refused = await worker.agent.post('/api/push/subscribe').set(XHR).send({ endpoint, keys: browsers.worker.keys }).expect(400);
      expect(refused.body.field).toBe('endpoint');
    }
    expect(
      (await db.query('select count(*)::int as n from notifications.push_subscriptions where endpoint not like $1', [`${push.url}/%`]))
        .rows[0].n,
    ).toBe(0);

    await eventually(
      async () => (await db.query('select 1 from notifications.users where user_id = any($1)', [[admin.id, worker.id]])).rowCount === 2,
    );
    const requestId = randomUUID();
    await request({
      requestId,
      channel: 'push',
      toRole: 'monitors',
      purpose: 'missed_check_in',
      title: 'Missed check-in',
      body: 'Sam missed a check-in',
      userId: worker.id,
    });
    const got = await eventually(() => {
      const paths = push.received.map((r) => r.path);
      return [endpoints.superadmin, endpoints.admin].every((e) => paths.includes(new URL(e).pathname)) ? push.received : undefined;
    });
    expect(got.map((r) => r.path)).not.toContain(new URL(endpoints.worker).pathname);
    const toAdmin = got.find((r) => r.path === new URL(endpoints.admin).pathname)!;
    const payload = JSON.parse(
      ece
        .decrypt(toAdmin.body, { version: 'aes128gcm', privateKey: browsers.admin.ecdh, authSecret: browsers.admin.auth })
        .toString('utf8'),
    );
    // A tap on a monitor's notification opens their dashboard, where the alarm waits.
    expect(payload).toMatchObject({
      title: 'Missed check-in',
      body: 'Sam missed a check-in',
      purpose: 'missed_check_in',
      userId: worker.id,
      url: '/',
    });

    // A team's monitors: one request to the users named, their browsers only; one of
    // them without a subscription is no failure, all of them without one is refused once.
    const before = push.received.length;
    const team = randomUUID();
    await request({
      requestId: team,
      channel: 'push',
      toUsers: { userIds: [admin.id, 987_654] },
      purpose: 'missed_check_in',
      title: 'Missed check-in',
      body: 'Team alarm',
    });
    await eventually(() => push.received.slice(before).some((r) => r.path === new URL(endpoints.admin).pathname));
    expect(push.received.slice(before).map((r) => r.path)).toEqual([new URL(endpoints.admin).pathname]);
    expect((await delivery(team)).map((d) => d.status === 'failed')).toEqual([false]);
    const nobody = randomUUID();
    await request({
      requestId: nobody,
      channel: 'push',
      toUsers: { userIds: [987_654, 987_655] },
      purpose: 'missed_check_in',
      title: 'Missed check-in',
      body: 'Nobody',
    });
    await eventually(async () => (await delivery(nobody)).length === 1);
    expect((await delivery(nobody))[0]).toMatchObject({ status: 'failed' });

    // The worker's own reminder opens their screen.
    const reminded = push.received.length;
    await request({
      requestId: randomUUID(),
      channel: 'push',
      toUserId: worker.id,
      purpose: 'reminder_5min',
      title: 'Reminder',
      body: 'Check in soon',
      userId: worker.id,
    });
    const toWorker = await eventually(() => push.received.slice(reminded).find((r) => r.path === new URL(endpoints.worker).pathname));
    const own = JSON.parse(
      ece
        .decrypt(toWorker.body, { version: 'aes128gcm', privateKey: browsers.worker.ecdh, authSecret: browsers.worker.auth })
        .toString('utf8'),
    );
    expect(own).toMatchObject({ purpose: 'reminder_5min', url: '/worker' });

    push.statusFor.set(new URL(endpoints.worker).pathname, 410);
    const expiring = randomUUID();
    await request({
      requestId: expiring,
      channel: 'push',
      toUserId: worker.id,
      purpose: 'reminder_5min',
      title: 'Reminder',
      body: 'Check in soon',
    });
    await eventually(async () => (await delivery(expiring))[0]?.status === 'expired');
    expect((await db.query('select 1 from notifications.push_subscriptions where id = $1', [ids.worker])).rowCount).toBe(0);
  });

  it("a burst of the provider's status callbacks is recorded together, each message moving forward once per status", async () => {
    // Which transactions write the callbacks' statuses (sent, delivered) to the deliveries.
    await db.query(`
      create table if not exists public.status_writes (txid bigint, written int);
      create or replace function public.status_writes() returns trigger language plpgsql as $$
      begin
        insert into public.status_writes select txid_current(), count(*) from moved where status in ('sent', 'delivered') having count(*) > 0;
        return null;
      end $$;
      create trigger status_writes after update on notifications.deliveries referencing new table as moved for each statement execute function public.status_writes();`);
    try {
      const asked = Array.from({ length: 40 }, () => ({
        requestId: randomUUID(),
        channel: 'sms',
        toPhone: nextMobile(),
        purpose: 'missed_check_in',
        title: 'Missed check-in',
        body: 'Sam missed a check-in',
      }));
      await Promise.all(asked.map((data) => request(data)));
      const ids = asked.map((a) => a.requestId);
      await eventually(
        async () =>
          (await db.query("select 1 from notifications.deliveries where request_id = any($1) and status = 'delivered'", [ids])).rowCount ===
          40,
        30_000,
      );
      // Each message's sent and delivered reached escalation once each, in that order.
      const events = await eventually(async () => {
        const e = (await streamEvents(t, 'notifications.message.sent.v1')).filter((x) => ids.includes(x.data.requestId as string));
        return e.filter((x) => x.data.status === 'delivered').length === 40 ? e : undefined;
      });
      for (const id of ids) {
        expect(events.filter((e) => e.data.requestId === id && e.data.status !== 'queued').map((e) => e.data.status)).toEqual([
          'sent',
          'delivered',
        ]);
      }
      // 80 callbacks; one at a time, each was its own transaction.
      const { rows } = await db.query(
        'select count(distinct txid)::int as transactions, sum(written)::int as written from public.status_writes',
      );
      expect(rows[0].written).toBe(80);
      expect(rows[0].transactions).toBeLessThan(40);
    } finally {
      await db.query(
        'drop trigger if exists status_writes on notifications.deliveries; drop table if exists public.status_writes; drop function if exists public.status_writes()',
      );
    }
  });

  it('a burst of requests, taken in batches, is stored as one at a time would store it', async () => {
    const admin = await createAccount(t, superadmin.agent, 'admin', 'ba');
    const worker = await createAccount(t, superadmin.agent, 'worker', 'bw');
    const subscription: Record<string, string> = {};
    for (const [who, account] of [
      ['admin', admin],
      ['worker', worker],
    ] as const) {
      const res = await account.agent
        .post('/api/push/subscribe')
        .set(XHR)
        .send({ endpoint: `${push.url}/push/burst-${who}-${randomUUID()}`, keys: browserKeys().keys })
        .expect(201);
      subscription[who] = res.body.subscriptionId;
    }
    await eventually(
      async () => (await db.query('select 1 from notifications.users where user_id = any($1)', [[admin.id, worker.id]])).rowCount === 2,
    );
    const base = { purpose: 'missed_check_in', title: 'Missed check-in', body: 'Sam missed a check-in' };
    const asked = {
      sms: { ...base, requestId: randomUUID(), channel: 'sms', toPhone: nextMobile() },
      call: { ...base, requestId: randomUUID(), channel: 'voice', toPhone: nextMobile(), contactName: 'Alex' },
      noPhone: { ...base, requestId: randomUUID(), channel: 'sms' },
      toWorker: { ...base, requestId: randomUUID(), channel: 'push', toUserId: worker.id },
      toTeam: { ...base, requestId: randomUUID(), channel: 'push', toUsers: { userIds: [admin.id, 987_654] } },
      toMonitors: { ...base, requestId: randomUUID(), channel: 'push', toRole: 'monitors' },
      toNobody: { ...base, requestId: randomUUID(), channel: 'push', toUsers: { userIds: [987_654] } },
    };
    // All at once, the SMS asked for twice (escalation asking again): they reach the consumer together.
    await Promise.all([...Object.values(asked), asked.sms].map((data) => request(data)));

    const rows = async (r: { requestId: string }) => delivery(r.requestId);
    await eventually(async () => {
      for (const r of Object.values(asked)) if ((await rows(r)).length === 0) return false;
      return true;
    }, 20_000);
    expect(await rows(asked.sms)).toHaveLength(1);
    expect((await rows(asked.sms))[0]).toMatchObject({ to_address: asked.sms.toPhone, body: 'Sam missed a check-in' });
    expect((await rows(asked.call))[0]).toMatchObject({
      to_address: asked.call.toPhone,
      body: 'Hello Alex. Sam missed a check-in',
      call_timeout_seconds: 60,
    });
    expect(await rows(asked.noPhone)).toEqual([
      expect.objectContaining({ status: 'failed', to_address: '(none)', error_message: 'A sms request needs to_phone' }),
    ]);
    expect((await rows(asked.toWorker)).map((d) => d.fanout_key)).toEqual([subscription.worker]);
    expect((await rows(asked.toTeam)).map((d) => d.fanout_key)).toEqual([subscription.admin]);
    const monitors = (await rows(asked.toMonitors)).map((d) => d.fanout_key);
    expect(monitors).toContain(subscription.admin);
    expect(monitors).not.toContain(subscription.worker);
    expect(await rows(asked.toNobody)).toEqual([
      expect.objectContaining({ status: 'failed', error_message: 'No push subscription for users:987654' }),
    ]);
    // What could never be sent was reported to escalation.
    for (const r of [asked.noPhone, asked.toNobody]) {
      await eventually(async () =>
        (await streamEvents(t, 'notifications.message.sent.v1')).some(
          (e) => e.data.requestId === r.requestId && e.data.status === 'failed',
        ),
      );
    }
    const metrics = await (await fetch(t.stack.metricsUrl)).text();
    const batches = metrics
      .split('\n')
      .filter((l) => l.startsWith('lws_consumer_batches_total{') && l.includes('consumer="notifications-notification-requests"'));
    expect(batches.some((l) => l.includes('outcome="committed"'))).toBe(true);
    expect(batches.filter((l) => l.includes('outcome="fallback"'))).toEqual([]);
  });
});
