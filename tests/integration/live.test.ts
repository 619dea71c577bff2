import request from 'supertest';
import { eventually } from '@lws/testing';
import { startTestStack, XHR, type TestStack } from './support/test-stack';
import { createAccount, nextMobile, superadminOf, type Account } from './support/accounts';
import { openStream, sessionCookie, type SseStream } from './support/sse-client';

/**
 * GET /api/events on the whole stack (real PostgreSQL, NATS JetStream, Redis): what a worker's
 * screen and a monitor's screen receive, and what each must never receive.
 */

const SITE = 'The Prospect Building';
/** Starting a shift waits for the seeded site to reach shifts through an event. */
const EVENT_WAIT_MS = 30_000;

interface WorkerEvent {
  userId: number;
  change: string;
  at: string;
  nextCheckInTime?: string | null;
  location?: string | null;
}
interface AlarmEvent {
  alarmId: string;
  userId: number;
  change: string;
  kind?: string;
  at: string;
}

interface Worker extends Account {
  pin: string;
  cookie: string;
}

describe('live updates: GET /api/events (Server-Sent Events)', () => {
  let t: TestStack;
  let superadmin: Account;
  let admin: Account;
  let adminCookie: string;
  const streams: SseStream[] = [];

  beforeAll(async () => {
    t = await startTestStack({
      env: { LOGIN_MAX_ATTEMPTS_PER_IP: '1000', LIVE_HEARTBEAT_MS: '200', LIVE_SESSION_CHECK_MS: '300' },
    });
    superadmin = await superadminOf(t);
    admin = await createAccount(t, superadmin.agent, 'admin');
    adminCookie = await sessionCookie(t.url, admin.username, admin.password);
  }, 120_000);
  afterEach(() => {
    for (const s of streams.splice(0)) s.close();
  });
  afterAll(() => t?.stop());

  async function open(cookie?: string, opts: { lastEventId?: string; query?: string } = {}): Promise<SseStream> {
    const s = await openStream(t.url, { cookie, ...opts });
    streams.push(s);
    return s;
  }

  /** Opens a stream and waits for its first event, so it is attached before the test acts. */
  async function connected(cookie: string): Promise<SseStream> {
    const s = await open(cookie);
    expect(s.status).toBe(200);
    await s.waitFor((e) => e.event === 'ready');
    return s;
  }

  async function newWorker(): Promise<Worker> {
    const username = `live${Math.random().toString(36).slice(2, 9)}`;
    const password = 'Secret1pass';
    const res = await admin.agent
      .post('/api/users')
      .set(XHR)
      .send({ username, password, name: `Live ${username}`, phone: nextMobile(), role: 'worker' })
      .expect(201);
    const cookie = await sessionCookie(t.url, username, password);
    const agent = request.agent(t.url);
    await agent.post('/api/auth/login').set(XHR).send({ username, password }).expect(200);
    return { id: res.body.user.id, username, password, role: 'worker', agent, pin: res.body.generatedPin, cookie };
  }

  async function onShift(w: Worker): Promise<void> {
    await eventually(
      async () => (await w.agent.post(`/api/users/${w.id}/start-shift`).set(XHR).send({ location: SITE })).status === 200,
      EVENT_WAIT_MS,
      100,
    );
  }

  /** Checks in; resolves with the answer and the moment it arrived. */
  async function checkIn(w: Worker) {
    const res = await w.agent.post('/api/check-ins').set(XHR).send({ userId: w.id, pin: w.pin }).expect(201);
    return { body: res.body as { id: string; nextCheckInTime: string; location: string }, returnedAt: Date.now() };
  }

  const workerEvent = (userId: number, change: string) => (e: { event: string; data: string }) =>
    e.event === 'worker' && (JSON.parse(e.data) as WorkerEvent).userId === userId && (JSON.parse(e.data) as WorkerEvent).change === change;

  it('answers 401 without a session, and 400 naming lastEventId for a cursor it never sent', async () => {
    const anonymous = await fetch(`${t.url}/api/events`);
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toEqual({ message: 'Not authenticated' });
    const bad = await fetch(`${t.url}/api/events?lastEventId=${encodeURIComponent('<script>')}`, { headers: { cookie: adminCookie } });
    expect(bad.status).toBe(400);
    expect((await bad.json()).field).toBe('lastEventId');
  });

  it('sends the SSE headers, retry: 3000 first, then ready with the server time, then heartbeats', async () => {
    const before = Date.now();
    const s = await open(adminCookie);
    expect(s.status).toBe(200);
    expect(s.headers['content-type']).toBe('text/event-stream');
    expect(s.headers['cache-control']).toBe('no-cache');
    expect(s.headers['x-accel-buffering']).toBe('no');
    const ready = await s.waitFor((e) => e.event === 'ready');
    expect(s.raw.startsWith('retry: 3000\n')).toBe(true);
    expect(s.events[0]).toBe(ready);
    expect(ready.id).toMatch(/^[a-z0-9]+-\d+$/);
    const { now } = JSON.parse(ready.data) as { now: string };
    expect(Math.abs(Date.parse(now) - before)).toBeLessThan(5000);
    await eventually(() => s.comments.filter((c) => c === 'ping').length >= 2, 5000);
  });

  it("gets a worker's own check-in to its screen and to monitors within a second, and never to another worker", async () => {
    const [a, b] = [await newWorker(), await newWorker()];
    await onShift(a);
    await onShift(b);
    const [aStream, bStream, monitor] = [await connected(a.cookie), await connected(b.cookie), await connected(adminCookie)];

    const mine = await checkIn(a);
    const own = await aStream.waitFor(workerEvent(a.id, 'checked_in'), 1000);
    const seen = await monitor.waitFor(workerEvent(a.id, 'checked_in'), 1000);
    expect(own.at - mine.returnedAt).toBeLessThan(1000);
    expect(seen.at - mine.returnedAt).toBeLessThan(1000);
    expect(JSON.parse(own.data)).toEqual({
      userId: a.id,
      change: 'checked_in',
      at: expect.any(String),
      nextCheckInTime: mine.body.nextCheckInTime,
      location: mine.body.location,
    });
    expect(own.id).toBe(seen.id);

    await checkIn(b);
    await bStream.waitFor(workerEvent(b.id, 'checked_in'), 1000);
    // The audit entry of b's check-in is among the last things the stack publishes about it.
    await monitor.waitFor(
      (e) => e.event === 'activity' && (JSON.parse(e.data) as { userId: number; type: string }).userId === b.id,
      10_000,
    );

    for (const [stream, self] of [
      [aStream, a],
      [bStream, b],
    ] as const) {
      const foreign = stream.events
        .filter((e) => e.event !== 'ready')
        .filter((e) => (JSON.parse(e.data) as { userId?: number }).userId !== self.id);
      expect(foreign).toEqual([]);
      expect(stream.events.map((e) => e.event).filter((type) => type === 'activity' || type === 'account')).toEqual([]);
    }
    expect(monitor.of<WorkerEvent>('worker').map((e) => e.userId)).toEqual(expect.arrayContaining([a.id, b.id]));
  }, 60_000);

  it('tells monitors about alarms, activity and accounts; a worker hears only that an alarm about itself changed', async () => {
    const [w, other] = [await newWorker(), await newWorker()];
    await onShift(w);
    const [wStream, otherStream, monitor] = [await connected(w.cookie), await connected(other.cookie), await connected(adminCookie)];

    await superadmin.agent.post(`/api/simulate-check-in-due/${w.id}`).set(XHR).expect(200);
    await monitor.waitFor(workerEvent(w.id, 'deadline_changed'), 5000);
    const opened = await monitor.waitFor((e) => e.event === 'alarm' && (JSON.parse(e.data) as AlarmEvent).userId === w.id, 15_000);
    const alarm = JSON.parse(opened.data) as AlarmEvent;
    expect(alarm).toEqual({ alarmId: expect.any(String), userId: w.id, change: 'opened', kind: 'missed_check_in', at: expect.any(String) });
    const toWorker = await wStream.waitFor((e) => e.event === 'alarm', 1000);
    expect(JSON.parse(toWorker.data)).toEqual(alarm);
    await wStream.waitFor(workerEvent(w.id, 'deadline_changed'), 1000);

    await admin.agent.post(`/api/alarms/${alarm.alarmId}/acknowledge`).set(XHR).send({}).expect(200);
    await monitor.waitFor((e) => e.event === 'alarm' && (JSON.parse(e.data) as AlarmEvent).change === 'acknowledged', 5000);
    await monitor.waitFor(
      (e) => e.event === 'activity' && (JSON.parse(e.data) as { userId: number; type: string }).type === 'missed_check_in',
      10_000,
    );
    const activity = monitor.of<Record<string, unknown>>('activity').find((e) => e.type === 'missed_check_in')!;
    expect(Object.keys(activity).sort()).toEqual(['details', 'id', 'label', 'location', 'timestamp', 'type', 'userId', 'username']);
    expect(activity).toMatchObject({ userId: w.id, username: w.username, label: 'Missed Check-In' });

    const fresh = await admin.agent
      .post('/api/users')
      .set(XHR)
      .send({ username: `acct${Date.now()}`, password: 'Secret1pass', name: 'Account Event', phone: nextMobile(), role: 'worker' })
      .expect(201);
    const id = fresh.body.user.id as number;
    await admin.agent.patch(`/api/users/${id}`).set(XHR).send({ name: 'Account Event Renamed' }).expect(200);
    await admin.agent.delete(`/api/users/${id}`).set(XHR).expect(200);
    await eventually(() => monitor.of<{ userId: number; change: string }>('account').filter((e) => e.userId === id).length === 3, 10_000);
    expect(monitor.of<{ userId: number; change: string }>('account').filter((e) => e.userId === id)).toEqual([
      { userId: id, change: 'created' },
      { userId: id, change: 'updated' },
      { userId: id, change: 'deleted' },
    ]);

    // The worker's screen heard its alarm change (its emergency screen refetches what to show),
    // with ids and times only: no step's details; the other worker nothing at all.
    const toW = wStream.of<AlarmEvent>('alarm');
    expect(toW.map((e) => e.change)).toEqual(expect.arrayContaining(['opened', 'acknowledged']));
    for (const e of toW.slice(1)) expect(Object.keys(e).sort()).toEqual(['alarmId', 'at', 'change', 'userId']);
    expect(wStream.events.map((e) => e.event).filter((type) => type === 'activity' || type === 'account')).toEqual([]);
    expect(otherStream.events.map((e) => e.event)).toEqual(['ready']);
  }, 90_000);

  it("gets a worker's own profile and contact changes to its screen within a second as bare account events, and never to another worker", async () => {
    const [w, other] = [await newWorker(), await newWorker()];
    const [wStream, otherStream, monitor] = [await connected(w.cookie), await connected(other.cookie), await connected(adminCookie)];
    const ownAccount = (e: { event: string; data: string }) =>
      e.event === 'account' && (JSON.parse(e.data) as { userId: number }).userId === w.id;

    await w.agent.patch(`/api/users/${w.id}`).set(XHR).send({ name: 'Renamed Worker' }).expect(200);
    const renamedAt = Date.now();
    const renamed = await wStream.waitFor(ownAccount, 1000);
    expect(renamed.at - renamedAt).toBeLessThan(1000);
    expect(JSON.parse(renamed.data)).toEqual({ userId: w.id, change: 'updated' });

    const phone = nextMobile();
    await w.agent
      .post('/api/emergency-contacts')
      .set(XHR)
      .send({ userId: w.id, name: 'Alex Contact', phone, relation: 'Partner' })
      .expect(201);
    const addedAt = Date.now();
    await eventually(() => wStream.events.filter(ownAccount).length === 2, 1000);
    expect(wStream.events.filter(ownAccount)[1].at - addedAt).toBeLessThan(1000);
    await eventually(() => monitor.events.filter(ownAccount).length === 2, 1000);

    expect(wStream.events.map((e) => e.event)).toEqual(['ready', 'account', 'account']);
    expect(wStream.raw).not.toMatch(/Renamed Worker|Alex Contact/);
    expect(wStream.raw).not.toContain(phone.slice(1));
    expect(otherStream.events.map((e) => e.event)).toEqual(['ready']);
  }, 60_000);

  it('resumes from Last-Event-ID with each missed event once, in order; an unknown cursor gets reset', async () => {
    const [a, b] = [await newWorker(), await newWorker()];
    const first = await connected(adminCookie);
    // Stays open throughout: it shows when the events the first stream misses exist.
    const witness = await connected(adminCookie);
    await onShift(a);
    const started = await first.waitFor(workerEvent(a.id, 'shift_started'), 5000);
    first.close();

    await onShift(b);
    await checkIn(a);
    await checkIn(b);
    await witness.waitFor(workerEvent(b.id, 'checked_in'), 5000);

    const resumed = await open(adminCookie, { lastEventId: started.id });
    await resumed.waitFor(workerEvent(b.id, 'checked_in'), 5000);
    const ids = resumed.events.map((e) => e.id!);
    expect(resumed.events.map((e) => e.event)).not.toContain('ready');
    expect(new Set(ids).size).toBe(ids.length);
    const seqs = ids.map((id) => Number(id.split('-')[1]));
    expect([...seqs].sort((x, y) => x - y)).toEqual(seqs);
    expect(seqs[0]).toBeGreaterThan(Number(started.id!.split('-')[1]));
    const changes = resumed.of<WorkerEvent>('worker').map((e) => `${e.userId}:${e.change}`);
    expect(changes.filter((c) => c.startsWith(`${a.id}:`) || c.startsWith(`${b.id}:`))).toEqual([
      `${b.id}:shift_started`,
      `${a.id}:checked_in`,
      `${b.id}:checked_in`,
    ]);

    // The same through the query parameter an EventSource polyfill uses.
    const polyfill = await open(adminCookie, { query: `?lastEventId=${encodeURIComponent(started.id!)}` });
    await polyfill.waitFor(workerEvent(b.id, 'checked_in'), 5000);
    // Both stay live, so either may have received a later event by now.
    const common = Math.min(polyfill.events.length, resumed.events.length);
    expect(polyfill.events.slice(0, common).map((e) => e.id)).toEqual(resumed.events.slice(0, common).map((e) => e.id));

    const unknown = await open(adminCookie, { lastEventId: 'zz0000-1' });
    const reset = await unknown.waitFor(() => true, 5000);
    expect(reset.event).toBe('reset');
    expect(JSON.parse(reset.data)).toEqual({});
    expect(reset.id).toMatch(/^[a-z0-9]+-\d+$/);
  }, 90_000);

  it('closes the stream when the session is logged out, and the next connect is refused', async () => {
    const w = await newWorker();
    const cookie = await sessionCookie(t.url, w.username, w.password);
    const s = await connected(cookie);
    const out = await fetch(`${t.url}/api/auth/logout`, {
      method: 'POST',
      headers: { cookie, 'Content-Type': 'application/json', ...XHR },
      body: '{}',
    });
    expect(out.status).toBe(200);
    await s.waitForEnd(3000);
    expect((await fetch(`${t.url}/api/events`, { headers: { cookie } })).status).toBe(401);
  });

  it('caps the streams one account holds open at 5 (429), and frees a place when one closes', async () => {
    const w = await newWorker();
    const five = await Promise.all([1, 2, 3, 4, 5].map(() => connected(w.cookie)));
    const sixth = await fetch(`${t.url}/api/events`, { headers: { cookie: w.cookie } });
    expect(sixth.status).toBe(429);
    expect((await sixth.json()).message).toMatch(/Too many live update streams/);
    five[0].close();
    await eventually(async () => {
      const again = await openStream(t.url, { cookie: w.cookie });
      streams.push(again);
      return again.status === 200;
    }, 5000);
  });
});
