import { eventually } from '@lws/testing';
import { startTestStack, XHR, type TestStack } from './support/test-stack';
import { nextMobile, signIn, superadminOf, type Account } from './support/accounts';
import { openStream, sessionCookie, type SseStream } from './support/sse-client';

/**
 * The duress PIN protects a worker while someone else holds their phone. Whatever that person can
 * read or receive through the worker's own session must look the same after a duress check-in,
 * acknowledged and resolved by a monitor, as after an ordinary check-in: the answer, the account,
 * the shift, the emergency screen, the activity log, the live stream and every message sent to
 * the worker. Monitors keep seeing all of it. (Real PostgreSQL, NATS and Redis.)
 */

const EVENT_WAIT_MS = 30_000;
const SITE = 'The Prospect Building';

interface Worker extends Account {
  pin: string;
  duressPin: string;
  name: string;
  phone: string;
  cookie: string;
  stream: SseStream;
}

interface Alarm {
  id: string;
  userId: number;
  duress: boolean;
  state: string;
}

describe("a duress check-in, as the worker's own session sees it (whole stack)", () => {
  let t: TestStack;
  let superadmin: Account;
  let admin: Account & { name: string };
  let nextPin = 4300;
  const streams: SseStream[] = [];
  let adminStream: SseStream;

  beforeAll(async () => {
    t = await startTestStack({ env: { LOGIN_MAX_ATTEMPTS_PER_IP: '1000', EMERGENCY_NUMBER_1: '+447911123456' } });
    superadmin = await superadminOf(t);
    const username = `duradmin${Math.random().toString(36).slice(2, 8)}`;
    const name = `Alice ${username}`;
    const res = await superadmin.agent
      .post('/api/users')
      .set(XHR)
      .send({ username, password: 'Secret1pass', name, phone: nextMobile(), role: 'admin' })
      .expect(201);
    admin = {
      id: res.body.user.id,
      username,
      password: 'Secret1pass',
      role: 'admin',
      agent: await signIn(t, username, 'Secret1pass'),
      name,
    };
    adminStream = await openStream(t.url, { cookie: await sessionCookie(t.url, username, 'Secret1pass') });
    streams.push(adminStream);
  }, 120_000);
  afterAll(async () => {
    for (const s of streams) s.close();
    await t?.stop();
  });

  /** A worker on shift at SITE with a duress PIN, whose live stream is open from before anything happens. */
  async function workerOnShift(): Promise<Worker> {
    const username = `dur${Math.random().toString(36).slice(2, 9)}`;
    const password = 'Secret1pass';
    const pin = String(nextPin++);
    const duressPin = String(Number(pin) + 5000);
    const name = `Sam ${username}`;
    const phone = nextMobile();
    const res = await admin.agent
      .post('/api/users')
      .set(XHR)
      .send({ username, password, name, phone, role: 'worker', pinCode: pin })
      .expect(201);
    const agent = await signIn(t, username, password);
    const id = res.body.user.id as number;
    await agent.put(`/api/users/${id}/duress-pin`).set(XHR).send({ currentPin: pin, duressPin }).expect(200, { duressPinSet: true });
    await eventually(
      async () => (await agent.post(`/api/users/${id}/start-shift`).set(XHR).send({ location: SITE })).status === 200,
      EVENT_WAIT_MS,
      100,
    );
    const cookie = await sessionCookie(t.url, username, password);
    const stream = await openStream(t.url, { cookie });
    streams.push(stream);
    await stream.waitFor((e) => e.event === 'ready');
    return { id, username, password, role: 'worker', agent, pin, duressPin, name, phone, cookie, stream };
  }

  /**
   * Everything a worker's session can read, with what differs between any two workers (ids,
   * names, phones, times) replaced by placeholders.
   */
  async function whatTheWorkerSees(w: Worker, checkInAnswer: object) {
    const get = async (path: string) => {
      const res = await w.agent.get(path);
      return { status: res.status, body: res.body };
    };
    const deliveries = (await superadmin.agent.get('/api/notifications/deliveries?limit=500').expect(200)).body.deliveries as {
      to: string;
    }[];
    const seen = {
      checkInAnswer,
      me: await get('/api/auth/me'),
      relations: await get(`/api/users/${w.id}/with-relations`),
      emergency: await get(`/api/users/${w.id}/emergency`),
      latestCheckIn: await get(`/api/users/${w.id}/latest-check-in`),
      activity: await get('/api/activity-logs'),
      ownActivity: await get(`/api/activity-logs?userId=${w.id}`),
      contacts: await get(`/api/users/${w.id}/emergency-contacts`),
      // Push and SMS to the worker: to their phone or to their own browsers.
      messagesToWorker: deliveries.filter((d) => d.to === w.phone || d.to === `user:${w.id}`),
      stream: w.stream.events.filter((e) => e.event !== 'ready').map((e) => ({ event: e.event, data: JSON.parse(e.data) })),
    };
    return normalise(seen, w);
  }

  function normalise(value: unknown, w: Worker): unknown {
    const text = JSON.stringify(value)
      .replaceAll(w.username, '<username>')
      .replaceAll(w.name, '<name>')
      .replaceAll(w.phone, '<phone>')
      .replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z/g, '<time>')
      .replace(/\b\d{2}:\d{2}\b/g, '<hh:mm>')
      .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<uuid>');
    return JSON.parse(text, (key, v) => {
      if (typeof v !== 'number') return v;
      if (key === 'id') return '<id>';
      return key === 'userId' ? (v === w.id ? '<me>' : '<id>') : v;
    });
  }

  const alarmsOf = async (userId: number) =>
    ((await admin.agent.get('/api/alarms').expect(200)).body as Alarm[]).filter((a) => a.userId === userId);
  const adminLogOf = async (userId: number) =>
    ((await admin.agent.get(`/api/activity-logs?userId=${userId}&limit=200`).expect(200)).body as { details: string }[]).map(
      (e) => e.details,
    );

  it('cannot be told from an ordinary check-in, through the acknowledgement and the resolution, while monitors see all of it', async () => {
    const ordinary = await workerOnShift();
    const coerced = await workerOnShift();

    const checkIn = async (w: Worker, pin: string) => {
      const res = await w.agent.post('/api/check-ins').set(XHR).send({ userId: w.id, location: SITE, pin });
      return { status: res.status, body: res.body };
    };
    const ordinaryAnswer = await checkIn(ordinary, ordinary.pin);
    const coercedAnswer = await checkIn(coerced, coerced.duressPin);
    expect(coercedAnswer.status).toBe(201);

    // A monitor takes the duress alarm, then closes it with a note the worker must never read.
    const alarm = (await eventually(async () => (await alarmsOf(coerced.id)).find((a) => a.duress), EVENT_WAIT_MS, 100)) as Alarm;
    await admin.agent.post(`/api/alarms/${alarm.id}/acknowledge`).set(XHR).send({}).expect(200);
    await admin.agent
      .post(`/api/alarms/${alarm.id}/resolve`)
      .set(XHR)
      .send({ verdict: 'genuine', severity: 'minor', note: `Duress confirmed - police sent to ${SITE}` })
      .expect(200);

    // Monitors see everything: the log and their stream name the duress alarm from start to end.
    await eventually(
      async () => (await adminLogOf(coerced.id)).some((d) => d.includes('Duress confirmed - police sent')),
      EVENT_WAIT_MS,
      200,
    );
    const monitorsLog = await adminLogOf(coerced.id);
    for (const line of [
      'DURESS PIN entered: silent emergency raised',
      'DURESS alarm opened',
      'Escalation step 1',
      `Alarm acknowledged by ${admin.username}`,
    ]) {
      expect(monitorsLog.some((d) => d.startsWith(line))).toBe(true);
    }
    await adminStream.waitFor(
      (e) => e.event === 'alarm' && e.data.includes(alarm.id) && e.data.includes('"change":"resolved"'),
      EVENT_WAIT_MS,
    );
    expect(adminStream.of<{ alarmId: string; duress?: boolean }>('alarm').find((a) => a.alarmId === alarm.id && a.duress)).toBeDefined();
    // Everything bound for a worker's stream went out with the monitors' frames; the log's last entry is written.
    await adminStream.waitFor((e) => e.event === 'activity' && e.data.includes('Duress confirmed'), EVENT_WAIT_MS);

    const ordinaryView = await whatTheWorkerSees(ordinary, ordinaryAnswer);
    const coercedView = await whatTheWorkerSees(coerced, coercedAnswer);
    expect(coercedView).toEqual(ordinaryView);
    // The comparison saw something: the check-in itself, on the screen, in the log and on the stream.
    expect(JSON.stringify(ordinaryView)).toContain('Checked in at The Prospect Building');
    expect((ordinaryView as { stream: unknown[] }).stream.length).toBeGreaterThan(0);
  });

  it("keeps a duress PIN entered to end a shift or at the emergency screen out of the worker's log and stream", async () => {
    const w = await workerOnShift();
    // An ordinary emergency the worker pressed: theirs to see, until they "cancel" it under duress.
    await w.agent.post('/api/emergency-call').set(XHR).send({ userId: w.id, emergency: true }).expect(200);
    const own = (await eventually(
      async () => (await w.agent.get(`/api/users/${w.id}/emergency`).expect(200)).body.emergency,
      EVENT_WAIT_MS,
      100,
    )) as { id: string };
    const cancelled = await w.agent.post(`/api/users/${w.id}/emergency/${own.id}/cancel`).set(XHR).send({ pin: w.duressPin }).expect(200);
    expect(cancelled.body.emergency.safeAt).toEqual(expect.any(String));
    await w.agent.post(`/api/users/${w.id}/end-shift`).set(XHR).send({ pin: w.duressPin }).expect(200);

    // Two duress alarms besides the emergency, which keeps escalating: monitors see all three.
    await eventually(async () => (await alarmsOf(w.id)).filter((a) => a.duress).length === 2, EVENT_WAIT_MS, 100);
    await eventually(
      async () => (await adminLogOf(w.id)).some((d) => d.startsWith('DURESS PIN entered to cancel the emergency')),
      EVENT_WAIT_MS,
      200,
    );
    await eventually(
      async () => (await adminLogOf(w.id)).filter((d) => d.startsWith('DURESS alarm opened')).length === 2,
      EVENT_WAIT_MS,
      200,
    );
    // The live feed has handed out both duress alarms (the worker's frames go out with the monitors').
    const duressOpened = () =>
      adminStream.of<{ userId: number; change: string; duress?: boolean }>('alarm').filter((a) => a.userId === w.id && a.duress);
    await eventually(async () => duressOpened().length >= 2, EVENT_WAIT_MS, 100);
    await adminStream.waitFor(
      (e) => e.event === 'worker' && e.data.includes(`"userId":${w.id}`) && e.data.includes('shift_ended'),
      EVENT_WAIT_MS,
    );

    const log = (await w.agent.get('/api/activity-logs').expect(200)).body as { details: string; type: string }[];
    // Their own emergency, as they pressed it, and their shift: never a word of the duress PIN.
    expect(
      log
        .filter((e) => e.type === 'emergency')
        .map((e) => e.details)
        .sort(),
    ).toEqual([`Emergency alarm opened at ${SITE}; escalation started`, `Emergency alert raised at ${SITE}`]);
    expect(log.filter((e) => /duress/i.test(e.details))).toEqual([]);
    expect(log.some((e) => e.details.startsWith('Ended shift at'))).toBe(true);
    const frames = w.stream.events.filter((e) => e.event !== 'ready').map((e) => JSON.parse(e.data) as { change: string });
    // What the worker did, and the safe their own screen shows for any PIN; nothing of the duress alarms.
    expect(frames.map((f) => f.change)).toEqual(expect.arrayContaining(['emergency', 'worker_safe', 'shift_ended']));
    expect(frames.filter((f) => f.change === 'emergency')).toHaveLength(1);
    expect(frames.filter((f) => f.change === 'opened')).toHaveLength(1);
    expect(await w.agent.get(`/api/users/${w.id}/emergency`).expect(200)).toMatchObject({
      body: { emergency: expect.objectContaining({ id: own.id }) },
    });
  });
});
