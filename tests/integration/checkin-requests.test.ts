import { randomUUID } from 'node:crypto';
import { eventually } from '@lws/testing';
import { startTestStack, XHR, type TestStack } from './support/test-stack';
import { createAccount, nextMobile, signIn, superadminOf, type Account } from './support/accounts';
import { openStream, sessionCookie } from './support/sse-client';

/**
 * "Check in now" on the whole stack (real PostgreSQL, NATS, Redis; test clock): a monitor asks a
 * worker, or a team's workers on shift, to check in. The worker hears at once by push, a minute
 * later by SMS, sees the request on their screen, and answers with an ordinary check-in; a request
 * nobody answers opens a missed check-in alarm; the monitor watches "2 of 3 safe" fill up.
 */

const EVENT_WAIT_MS = 30_000;

interface Worker extends Account {
  pin: string;
  phone: string;
}

interface Batch {
  id: string;
  requestedByName: string | null;
  dueAt: string;
  teamId: number | null;
  answered: number;
  total: number;
  workers: { requestId: string; userId: number; name: string | null; state: string; answeredAt: string | null; alarmId: string | null }[];
}

interface Delivery {
  to: string;
  channel: string;
  purpose: string;
  body: string;
}

describe('check in now (real PostgreSQL, NATS, Redis; whole stack, test clock)', () => {
  let t: TestStack;
  let superadmin: Account;
  let depot: string;
  let teamId: number;
  let nextPin = 3100;

  beforeAll(async () => {
    t = await startTestStack({ env: { LWS_TEST_CLOCK: '1', LOGIN_MAX_ATTEMPTS_PER_IP: '1000' } });
    superadmin = await superadminOf(t);
    depot = `Depot ${randomUUID().slice(0, 8)}`;
    await superadmin.agent.post('/api/location-options').set(XHR).send({ name: depot, isActive: true }).expect(201);
    teamId = (
      await superadmin.agent
        .post('/api/teams')
        .set(XHR)
        .send({ name: `Night Patrol ${randomUUID().slice(0, 6)}`, checkInPolicy: { defaultInterval: 60, allowedIntervals: [60] } })
        .expect(201)
    ).body.id;
  }, 120_000);

  afterAll(() => t?.stop());

  async function onShift(team?: number): Promise<Worker> {
    const username = `cr${Math.random().toString(36).slice(2, 9)}`;
    const pin = String(nextPin++);
    const phone = nextMobile();
    const res = await superadmin.agent
      .post('/api/users')
      .set(XHR)
      .send({
        username,
        password: 'Secret1pass',
        name: `Worker ${username}`,
        phone,
        role: 'worker',
        pinCode: pin,
        ...(team ? { teamId: team } : {}),
      })
      .expect(201);
    const w: Worker = {
      id: res.body.user.id,
      username,
      password: 'Secret1pass',
      role: 'worker',
      agent: await signIn(t, username, 'Secret1pass'),
      pin,
      phone,
    };
    // Shifts and escalation hear of the worker and the location through events.
    await eventually(
      async () => (await w.agent.post(`/api/users/${w.id}/start-shift`).set(XHR).send({ location: depot })).status === 200,
      EVENT_WAIT_MS,
      100,
    );
    return w;
  }

  const ask = (by: Account, body: object) => by.agent.post('/api/check-in-requests').set(XHR).send(body);
  const batch = async (id: string) => (await superadmin.agent.get(`/api/check-in-requests/${id}`).expect(200)).body as Batch;
  const own = async (w: Worker) => (await w.agent.get('/api/profile/check-in-request').expect(200)).body.request;
  const checkIn = (w: Worker) => w.agent.post('/api/check-ins').set(XHR).send({ userId: w.id, location: depot, pin: w.pin }).expect(201);
  const advance = (minutes: number) => superadmin.agent.post('/api/test-clock').set(XHR).send({ advanceMinutes: minutes }).expect(200);
  const deliveriesTo = async (w: Worker) =>
    ((await superadmin.agent.get('/api/notifications/deliveries?limit=500').expect(200)).body.deliveries as Delivery[]).filter(
      (d) => (d.to === w.phone || d.to === `user:${w.id}`) && d.purpose === 'checkin_request',
    );
  const activity = async (w: Worker) =>
    ((await superadmin.agent.get(`/api/activity-logs?userId=${w.id}`).expect(200)).body as { details: string }[]).map((e) => e.details);

  it('asks one worker: a push at once, the request on their screen, answered by their check-in', async () => {
    const w = await onShift();
    const stream = await openStream(t.url, { cookie: await sessionCookie(t.url, w.username, w.password) });
    try {
      const res = await ask(superadmin, { userId: w.id }).expect(201);
      const asked = res.body as Batch;
      expect(asked).toMatchObject({ requestedByName: expect.any(String), teamId: null, answered: 0, total: 1 });
      expect(asked.workers).toEqual([
        { requestId: expect.any(String), userId: w.id, name: `Worker ${w.username}`, state: 'waiting', answeredAt: null, alarmId: null },
      ]);
      // Five minutes to answer by default.
      expect(Date.parse(asked.dueAt) - Date.parse((res.body as { requestedAt: string }).requestedAt)).toBe(5 * 60_000);

      // The worker's screen hears of it and reads it.
      await stream.waitFor((e) => e.event === 'checkin_request' && JSON.parse(e.data).change === 'requested', EVENT_WAIT_MS);
      expect(await own(w)).toEqual({
        id: asked.workers[0].requestId,
        requestedAt: expect.any(String),
        dueAt: asked.dueAt,
        requestedByName: asked.requestedByName,
      });
      await eventually(async () => (await deliveriesTo(w)).some((d) => d.channel === 'push'), EVENT_WAIT_MS, 200);

      await checkIn(w);
      await eventually(async () => (await batch(asked.id)).answered === 1, EVENT_WAIT_MS, 200);
      const answered = await batch(asked.id);
      expect(answered.workers[0]).toMatchObject({ state: 'answered', answeredAt: expect.any(String), alarmId: null });
      expect(await own(w)).toBeNull();
      await stream.waitFor((e) => e.event === 'checkin_request' && JSON.parse(e.data).outcome === 'answered', EVENT_WAIT_MS);

      // Answered within the minute: no SMS follows, and no alarm when the time is up.
      await advance(6);
      await new Promise((r) => setTimeout(r, 1500));
      expect((await deliveriesTo(w)).filter((d) => d.channel === 'sms')).toEqual([]);
      const alarms = (await superadmin.agent.get('/api/alarms?open=true&limit=500').expect(200)).body as { userId: number }[];
      expect(alarms.filter((a) => a.userId === w.id)).toEqual([]);
      await eventually(async () => (await activity(w)).some((d) => d.startsWith('Answered the request to check in')), EVENT_WAIT_MS, 200);
      expect((await activity(w)).some((d) => d.startsWith('Asked to check in now by'))).toBe(true);
    } finally {
      stream.close();
    }
  });

  it('unanswered: an SMS after a minute, then a missed check-in alarm that says it was asked for', async () => {
    const w = await onShift();
    const asked = (await ask(superadmin, { userId: w.id, answerWithinMinutes: 3 }).expect(201)).body as Batch;
    await advance(1);
    await eventually(async () => (await deliveriesTo(w)).some((d) => d.channel === 'sms'), EVENT_WAIT_MS, 200);
    const [sms] = (await deliveriesTo(w)).filter((d) => d.channel === 'sms');
    expect(sms.body).toMatch(/asks you to check in now\. Open LWS and check in by \d\d:\d\d, or reply to this message with your PIN\.$/);

    await advance(2);
    const alarm = await eventually(
      async () =>
        (
          (await superadmin.agent.get('/api/alarms?open=true&limit=500').expect(200)).body as {
            id: string;
            userId: number;
            kind: string;
            history: string[];
          }[]
        ).find((a) => a.userId === w.id),
      EVENT_WAIT_MS,
      200,
    );
    expect(alarm).toMatchObject({ kind: 'missed_check_in' });
    expect(alarm!.history.some((h) => /^Asked to check in now by .+ at \d\d:\d\d; no check-in by \d\d:\d\d$/.test(h))).toBe(true);
    const after = await batch(asked.id);
    expect(after.workers[0]).toMatchObject({ state: 'alarm', alarmId: alarm!.id });
    expect(await own(w)).toBeNull();
    await superadmin.agent
      .post(`/api/alarms/${alarm!.id}/resolve`)
      .set(XHR)
      .send({ verdict: 'false_alarm', reason: 'no_signal', note: 'Phone in a locker' })
      .expect(200);
  });

  it("asks a team's workers on shift: the monitor sees '2 of 3 safe' fill up live, and an ended shift closes its request", async () => {
    const crew = [await onShift(teamId), await onShift(teamId), await onShift(teamId)];
    const offShift = await onShift(teamId);
    await offShift.agent.post(`/api/users/${offShift.id}/end-shift`).set(XHR).send({ pin: offShift.pin }).expect(200);
    const monitorStream = await openStream(t.url, { cookie: await sessionCookie(t.url, superadmin.username, superadmin.password) });
    try {
      const asked = (await ask(superadmin, { teamId }).expect(201)).body as Batch;
      expect(asked).toMatchObject({ teamId, answered: 0, total: 3 });
      expect(asked.workers.map((x) => x.userId).sort()).toEqual(crew.map((c) => c.id).sort());

      await checkIn(crew[0]);
      await checkIn(crew[1]);
      await eventually(async () => (await batch(asked.id)).answered === 2, EVENT_WAIT_MS, 200);
      await monitorStream.waitFor(
        (e) => e.event === 'checkin_request' && JSON.parse(e.data).batchId === asked.id && JSON.parse(e.data).outcome === 'answered',
        EVENT_WAIT_MS,
      );
      await crew[2].agent.post(`/api/users/${crew[2].id}/end-shift`).set(XHR).send({ pin: crew[2].pin }).expect(200);
      await eventually(async () => (await batch(asked.id)).workers.some((x) => x.state === 'ended'), EVENT_WAIT_MS, 200);
      const done = await batch(asked.id);
      expect(done).toMatchObject({ answered: 2, total: 3 });
      expect(done.workers.find((x) => x.userId === crew[2].id)).toMatchObject({ state: 'ended', alarmId: null });
      // Listed among the last day's requests, newest first.
      const listed = (await superadmin.agent.get('/api/check-in-requests').expect(200)).body as Batch[];
      expect(listed[0].id).toBe(asked.id);
    } finally {
      monitorStream.close();
    }
  });

  it('refuses what cannot be asked, naming the field, and writes nothing', async () => {
    const w = await onShift();
    const offShift = await onShift();
    await offShift.agent.post(`/api/users/${offShift.id}/end-shift`).set(XHR).send({ pin: offShift.pin }).expect(200);
    const emptyTeam = (
      await superadmin.agent
        .post('/api/teams')
        .set(XHR)
        .send({ name: `Empty ${randomUUID().slice(0, 6)}`, checkInPolicy: { defaultInterval: 60, allowedIntervals: [60] } })
        .expect(201)
    ).body.id;
    const before = ((await superadmin.agent.get('/api/check-in-requests').expect(200)).body as Batch[]).length;
    for (const [body, status, field, message] of [
      [{}, 400, 'userId', 'Ask one worker (userId) or a team (teamId)'],
      [{ userId: w.id, teamId }, 400, 'teamId', 'Ask one worker (userId) or a team (teamId)'],
      [{ userId: 'me' }, 400, 'userId', 'userId must be a positive whole number'],
      [
        { userId: w.id, answerWithinMinutes: 1 },
        400,
        'answerWithinMinutes',
        'answerWithinMinutes must be a whole number of minutes from 2 to 60',
      ],
      [
        { userId: w.id, answerWithinMinutes: 61 },
        400,
        'answerWithinMinutes',
        'answerWithinMinutes must be a whole number of minutes from 2 to 60',
      ],
      [{ userId: w.id, urgent: true }, 400, 'urgent', 'Unknown field: urgent'],
      [{ userId: offShift.id }, 409, 'userId', 'This worker is not on shift'],
      [{ userId: 2_000_000_000 }, 404, 'userId', 'Worker not found'],
      [{ teamId: emptyTeam }, 409, 'teamId', 'Nobody in this team is on shift'],
    ] as const) {
      const res = await ask(superadmin, body).expect(status);
      expect({ body, answer: res.body }).toEqual({ body, answer: { message, field } });
    }
    // A worker may not ask, and an admin only of their own teams' workers.
    await ask(w, { userId: w.id }).expect(403);
    const admin = await createAccount(t, superadmin.agent, 'admin');
    const other = await onShift(teamId);
    expect((await ask(admin, { userId: other.id }).expect(404)).body).toEqual({ message: 'Worker not found', field: 'userId' });
    expect((await ask(admin, { teamId }).expect(404)).body).toEqual({ message: 'Team not found', field: 'teamId' });
    expect(((await superadmin.agent.get('/api/check-in-requests').expect(200)).body as Batch[]).length).toBe(before);
    expect(await own(w)).toBeNull();
  });
});
