import request from 'supertest';
import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { connect } from 'nats';
import { RpcClient } from '@lws/messaging';
import { eventually } from '@lws/testing';
import { startTestStack, XHR, type TestStack } from './support/test-stack';
import { nextMobile, signIn, superadminOf, type Account } from './support/accounts';
import { streamEvents } from './support/stream-events';

/**
 * Shifts, check-ins, emergencies and the monitors' dashboards through the gateway, on real
 * PostgreSQL, NATS and Redis, with the test clock moving time for every service of the stack.
 */

const EVENT_WAIT_MS = 30_000;
const MINUTE = 60_000;

interface Worker extends Account {
  pin: string;
}

describe('shifts, check-ins and dashboards (real PostgreSQL, NATS, Redis; test clock)', () => {
  let t: TestStack;
  let superadmin: Account;
  let admin: Account;
  let depot: string;
  let nextPin = 1000;

  beforeAll(async () => {
    t = await startTestStack({ env: { LWS_TEST_CLOCK: '1', LOGIN_MAX_ATTEMPTS_PER_IP: '1000' } });
    superadmin = await superadminOf(t);
    admin = await newAccount('admin', superadmin.agent);
    depot = await newLocation('Depot');
  }, 120_000);
  afterAll(() => t?.stop());

  async function newAccount(role: 'worker' | 'admin', creator: request.Agent): Promise<Worker> {
    const username = `${role}${Math.random().toString(36).slice(2, 9)}`;
    const password = 'Secret1pass';
    // PINs are unique across users: hand them out in sequence.
    const pin = String(nextPin++);
    const res = await creator
      .post('/api/users')
      .set(XHR)
      .send({ username, password, name: `${role} ${username}`, phone: nextMobile(), role, pinCode: pin })
      .expect(201);
    return { id: res.body.user.id, username, password, role, agent: await signIn(t, username, password), pin };
  }

  const newWorker = () => newAccount('worker', admin.agent);

  /** An active location shifts has heard of (its projection follows the locations service's events). */
  async function newLocation(prefix: string, worker?: Worker): Promise<string> {
    const name = `${prefix} ${randomUUID().slice(0, 8)}`;
    await admin.agent.post('/api/location-options').set(XHR).send({ name, isActive: true }).expect(201);
    const probe = worker ?? (await newWorker());
    await eventually(async () => (await startShift(probe, name)).status === 200, EVENT_WAIT_MS, 100);
    await endShift(probe).expect(200);
    return name;
  }

  const startShift = (w: Account, location: unknown) => w.agent.post(`/api/users/${w.id}/start-shift`).set(XHR).send({ location });
  const endShift = (w: Worker, pin = w.pin) => w.agent.post(`/api/users/${w.id}/end-shift`).set(XHR).send({ pin });
  const checkIn = (w: Worker, extra: object = {}, pin = w.pin) =>
    w.agent
      .post('/api/check-ins')
      .set(XHR)
      .send({ userId: w.id, location: depot, pin, ...extra });

  async function serverNow(): Promise<number> {
    return Date.parse((await admin.agent.get('/api/test-clock').expect(200)).body.now);
  }

  async function advance(minutes: number): Promise<number> {
    const res = await superadmin.agent.post('/api/test-clock').set(XHR).send({ advanceMinutes: minutes }).expect(200);
    return Date.parse(res.body.now);
  }

  const ids = (workers: { id: number }[]) => workers.map((w) => w.id);
  const list = async (name: 'active' | 'due' | 'missed', query = '') =>
    (await admin.agent.get(`/api/workers/${name}${query}`).expect(200)).body;
  /** Within a couple of seconds of the expected instant (requests take time; the clock keeps running). */
  const near = (iso: string | null, expected: number, slackMs = 3000) => Math.abs(Date.parse(iso ?? '') - expected) <= slackMs;

  describe('the server clock', () => {
    it('tells every signed-in user the time, and the test clock moves it for every service', async () => {
      const before = Date.parse((await admin.agent.get('/api/time').expect(200)).body.now);
      const moved = await advance(2);
      expect(moved - before).toBeGreaterThanOrEqual(2 * MINUTE);
      const now = Date.parse((await admin.agent.get('/api/time').expect(200)).body.now);
      expect(now).toBeGreaterThanOrEqual(moved);
      expect(now - Date.now()).toBeGreaterThanOrEqual(2 * MINUTE - 1000);
      await request(t.url).get('/api/time').expect(401);
    });

    it('only a superadmin moves the test clock, by minutes or to an offset', async () => {
      await admin.agent.post('/api/test-clock').set(XHR).send({ advanceMinutes: 5 }).expect(403);
      const offset = (await admin.agent.get('/api/test-clock').expect(200)).body.offsetMs;
      const res = await superadmin.agent
        .post('/api/test-clock')
        .set(XHR)
        .send({ offsetMs: offset + 1000 })
        .expect(200);
      expect(res.body.offsetMs).toBe(offset + 1000);
      expect((await superadmin.agent.post('/api/test-clock').set(XHR).send({}).expect(400)).body.message).toBe(
        'Send advanceMinutes or offsetMs',
      );
      expect(
        (await superadmin.agent.post('/api/test-clock').set(XHR).send({ advanceMinutes: 1, offsetMs: 0 }).expect(400)).body.message,
      ).toBe('Send advanceMinutes or offsetMs');
    });
  });

  describe('start shift', () => {
    it('needs a location: none is a 400 naming it with the spec text', async () => {
      const w = await newWorker();
      for (const location of [undefined, '', '   ']) {
        expect((await startShift(w, location).expect(400)).body).toEqual({
          message: 'Please select your current location to continue.',
          field: 'location',
        });
      }
    });

    it('refuses a location that does not exist or is inactive, and starts nothing', async () => {
      const w = await newWorker();
      expect((await startShift(w, `Nowhere ${randomUUID()}`).expect(400)).body).toEqual({
        message: 'Location is not available',
        field: 'location',
      });

      const closing = await newLocation('Closing', w);
      const created = (await admin.agent.get('/api/location-options').expect(200)).body.find((l: { name: string }) => l.name === closing);
      await admin.agent.patch(`/api/location-options/${created.id}`).set(XHR).send({ isActive: false }).expect(200);
      // Until shifts hears of the change a start still succeeds: clock out again and retry.
      await eventually(
        async () => {
          const res = await startShift(w, closing);
          if (res.status === 200) await endShift(w).expect(200);
          return res.status === 400;
        },
        EVENT_WAIT_MS,
        100,
      );
      expect((await startShift(w, closing).expect(400)).body.message).toBe('Location is not available');
      expect((await w.agent.get(`/api/users/${w.id}/with-relations`).expect(200)).body).toMatchObject({
        onShift: false,
        location: 'Off Shift',
      });
    });

    it('starts at an active location with the first check-in one interval away; again is the same shift', async () => {
      const w = await newWorker();
      const now = await serverNow();
      const res = await startShift(w, depot.toUpperCase()).expect(200);
      expect(res.body).toEqual({
        id: w.id,
        name: `worker ${w.username}`,
        username: w.username,
        phone: expect.stringMatching(/^\+447911/),
        onShift: true,
        location: depot,
        shiftStartTime: expect.any(String),
        latestCheckIn: null,
        nextCheckInTime: expect.any(String),
        visit: null,
      });
      expect(near(res.body.shiftStartTime, now)).toBe(true);
      expect(Date.parse(res.body.nextCheckInTime) - Date.parse(res.body.shiftStartTime)).toBe(60 * MINUTE);

      const again = await startShift(w, depot).expect(200);
      expect(again.body).toEqual(res.body);

      const events = await eventually(async () => {
        const found = (await streamEvents(t, 'shifts.shift.started.v1')).filter((e) => e.data.userId === w.id);
        return found.length > 0 && found;
      }, EVENT_WAIT_MS);
      expect(events).toHaveLength(1);
      expect(events[0].data).toEqual({
        shiftId: expect.stringMatching(/^[0-9a-f-]{36}$/),
        userId: w.id,
        location: depot,
        startedAt: res.body.shiftStartTime,
        nextCheckInAt: res.body.nextCheckInTime,
        // The worker's first change in shifts: its version starts at 1.
        workerVersion: 1,
      });
    });

    it('is for the worker themselves: an admin cannot start its own or a worker’s shift', async () => {
      const w = await newWorker();
      expect((await startShift(admin, depot).expect(403)).body.message).toBe('Shifts, check-ins and emergency calls are for workers');
      await admin.agent.post(`/api/users/${w.id}/start-shift`).set(XHR).send({ location: depot }).expect(403);
    });
  });

  describe('check-ins', () => {
    let w: Worker;
    beforeAll(async () => {
      w = await newWorker();
      await startShift(w, depot).expect(200);
    });

    it('is refused off shift', async () => {
      const off = await newWorker();
      expect((await checkIn(off).expect(409)).body.message).toBe('You are not on shift');
    });

    it('computes the next check-in on the server from the interval, ignoring one the client sends', async () => {
      const now = await advance(50);
      const res = await checkIn(w, { status: 'safe', nextCheckInTime: '2099-01-01T00:00:00.000Z' }).expect(201);
      expect(res.body).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        userId: w.id,
        timestamp: expect.any(String),
        location: depot,
        status: 'safe',
        nextCheckInTime: expect.any(String),
        user: expect.objectContaining({ id: w.id, onShift: true }),
      });
      expect(near(res.body.timestamp, now)).toBe(true);
      expect(Date.parse(res.body.nextCheckInTime) - Date.parse(res.body.timestamp)).toBe(60 * MINUTE);
      expect(res.body.user.latestCheckIn).toEqual({
        id: res.body.id,
        timestamp: res.body.timestamp,
        location: depot,
        nextCheckInTime: res.body.nextCheckInTime,
      });
      expect(res.body.user.nextCheckInTime).toBe(res.body.nextCheckInTime);
      expect((await w.agent.get(`/api/users/${w.id}/latest-check-in`).expect(200)).body).toEqual(res.body.user.latestCheckIn);

      const event = await eventually(
        async () => (await streamEvents(t, 'shifts.checkin.recorded.v1')).find((e) => e.data.checkInId === res.body.id),
        EVENT_WAIT_MS,
      );
      expect(event.data).toEqual({
        checkInId: res.body.id,
        shiftId: expect.stringMatching(/^[0-9a-f-]{36}$/),
        userId: w.id,
        location: depot,
        checkedInAt: res.body.timestamp,
        nextCheckInAt: res.body.nextCheckInTime,
        workerVersion: expect.any(Number),
      });
    });

    it('counts outside the window too: early, and late after the deadline passed', async () => {
      await advance(1);
      const early = await checkIn(w).expect(201);
      expect(Date.parse(early.body.nextCheckInTime) - Date.parse(early.body.timestamp)).toBe(60 * MINUTE);
      const late = await advance(75);
      expect(late).toBeGreaterThan(Date.parse(early.body.nextCheckInTime));
      const res = await checkIn(w).expect(201);
      expect(near(res.body.timestamp, late)).toBe(true);
      expect(Date.parse(res.body.nextCheckInTime) - Date.parse(res.body.timestamp)).toBe(60 * MINUTE);
    });

    it('applies a changed interval from the next check-in on, leaving the current deadline', async () => {
      const settings = { primaryContact: '+447911123456', checkInInterval: 30 };
      const other = await newWorker();
      const deadline = (await startShift(other, depot).expect(200)).body.nextCheckInTime;
      await other.agent.patch(`/api/users/${other.id}/settings`).set(XHR).send(settings).expect(200);
      await w.agent.patch(`/api/users/${w.id}/settings`).set(XHR).send(settings).expect(200);
      await eventually(
        async () => {
          await advance(0.2);
          const r = (await checkIn(w).expect(201)).body;
          return Date.parse(r.nextCheckInTime) - Date.parse(r.timestamp) === 30 * MINUTE;
        },
        EVENT_WAIT_MS,
        10,
      );

      // Settings events are handled in order, so the other worker's change has been applied too.
      expect((await other.agent.get(`/api/users/${other.id}/with-relations`).expect(200)).body.nextCheckInTime).toBe(deadline);
      const next = (await checkIn(other).expect(201)).body;
      expect(Date.parse(next.nextCheckInTime) - Date.parse(next.timestamp)).toBe(30 * MINUTE);
      await endShift(other).expect(200);
    });

    it('answers a double submit with the first check-in, recording one', async () => {
      await advance(1);
      const [a, b] = await Promise.all([checkIn(w).expect(201), checkIn(w).expect(201)]);
      expect(b.body.id).toBe(a.body.id);
      expect(b.body.nextCheckInTime).toBe(a.body.nextCheckInTime);

      await advance(1);
      const key = randomUUID();
      const first = await checkIn(w).set('Idempotency-Key', key).expect(201);
      await advance(1);
      const retried = await checkIn(w).set('Idempotency-Key', key).expect(201);
      expect(retried.body.id).toBe(first.body.id);
      expect((await checkIn(w).set('Idempotency-Key', 'has a space').expect(400)).body.field).toBe('Idempotency-Key');
      await checkIn(w).set('Idempotency-Key', 'k'.repeat(201)).expect(400);

      await eventually(
        async () => (await streamEvents(t, 'shifts.checkin.recorded.v1')).some((e) => e.data.checkInId === first.body.id),
        EVENT_WAIT_MS,
      );
      const recorded = (await streamEvents(t, 'shifts.checkin.recorded.v1')).map((e) => e.data.checkInId);
      expect(recorded.filter((id) => id === a.body.id)).toHaveLength(1);
      expect(recorded.filter((id) => id === first.body.id)).toHaveLength(1);
    });

    it('counts a check-in the app kept offline from when it was made: sending it late never buys time', async () => {
      const kept = await newWorker();
      const started = (await startShift(kept, depot).expect(200)).body;
      const firstDeadline = Date.parse(started.nextCheckInTime);
      await advance(50);
      const made = await serverNow();
      // The network returns 12 minutes later, after the deadline the check-in was made for.
      await advance(12);
      const key = randomUUID();
      const sent = (
        await checkIn(kept, { madeAt: new Date(made).toISOString() })
          .set('Idempotency-Key', key)
          .expect(201)
      ).body;
      expect(near(sent.timestamp, made, 1000)).toBe(true);
      expect(Date.parse(sent.nextCheckInTime)).toBe(Date.parse(sent.timestamp) + 60 * MINUTE);
      expect(Date.parse(sent.timestamp)).toBeLessThan(firstDeadline);
      // Sent again (the app did not hear the answer): the same check-in.
      expect(
        (
          await checkIn(kept, { madeAt: new Date(made).toISOString() })
            .set('Idempotency-Key', key)
            .expect(201)
        ).body.id,
      ).toBe(sent.id);
      // One made before the latest check-in tells nothing new: it answers the latest.
      const older = (
        await checkIn(kept, { madeAt: new Date(made - MINUTE).toISOString() })
          .set('Idempotency-Key', randomUUID())
          .expect(201)
      ).body;
      expect(older.id).toBe(sent.id);

      // Kept so long that the next check-in is due already: it cannot say the worker is safe now.
      const stale = new Date(made + MINUTE).toISOString();
      await advance(60);
      const refused = await checkIn(kept, { madeAt: stale }).set('Idempotency-Key', randomUUID()).expect(409);
      expect(refused.body.message).toMatch(
        /^This check-in was made at \d{2}:\d{2} and the next one is already due: it cannot say you are safe now\. Please check in again\.$/,
      );
      expect((await kept.agent.get(`/api/users/${kept.id}/latest-check-in`).expect(200)).body.id).toBe(sent.id);

      // A phone clock running ahead gains nothing: the check-in counts from its arrival.
      const now = await serverNow();
      const ahead = (
        await checkIn(kept, { madeAt: new Date(now + 30 * MINUTE).toISOString() })
          .set('Idempotency-Key', randomUUID())
          .expect(201)
      ).body;
      expect(near(ahead.timestamp, now)).toBe(true);
      expect((await checkIn(kept, { madeAt: 'yesterday' }).expect(400)).body.field).toBe('madeAt');
      await endShift(kept).expect(200);
    });

    it('verifies the PIN first: a wrong one is a 400 and records nothing', async () => {
      const latest = (await w.agent.get(`/api/users/${w.id}/latest-check-in`).expect(200)).body;
      await advance(1);
      const wrong = String(9000 + (Number(w.pin) % 1000));
      expect((await checkIn(w, {}, wrong).expect(400)).body).toEqual({ message: 'Incorrect PIN. Please try again.', field: 'pin' });
      expect((await checkIn(w, {}, '12').expect(400)).body).toEqual({ message: 'PIN must be exactly 4 digits', field: 'pin' });
      expect((await w.agent.get(`/api/users/${w.id}/latest-check-in`).expect(200)).body).toEqual(latest);
    });

    it('is refused while PIN actions are locked (423), however correct the PIN', async () => {
      const locked = await newWorker();
      await startShift(locked, depot).expect(200);
      const wrong = String(9000 + (Number(locked.pin) % 1000));
      for (let i = 0; i < 4; i++) await checkIn(locked, {}, wrong).expect(400);
      await checkIn(locked, {}, wrong).expect(423);
      expect((await checkIn(locked).expect(423)).body.message).toBe('Too many incorrect PINs. PIN actions are locked for 15 minutes.');
      expect((await locked.agent.get(`/api/users/${locked.id}/latest-check-in`).expect(200)).body).toBeNull();
    });

    it('is only for the worker themselves', async () => {
      const other = await newWorker();
      await other.agent.post('/api/check-ins').set(XHR).send({ userId: w.id, pin: other.pin }).expect(403);
      expect((await other.agent.post('/api/check-ins').set(XHR).send({ pin: other.pin }).expect(400)).body).toEqual({
        message: 'Invalid user ID for check-in',
        field: 'userId',
      });
    });
  });

  describe('end shift and force clock out', () => {
    it('ends with the PIN: a wrong one changes nothing, the right one clocks out; again is a no-op', async () => {
      const w = await newWorker();
      const started = (await startShift(w, depot).expect(200)).body;
      const wrong = String(9000 + (Number(w.pin) % 1000));
      expect((await endShift(w, wrong).expect(400)).body).toEqual({ message: 'Incorrect PIN. Please try again.', field: 'pin' });
      expect((await w.agent.get(`/api/users/${w.id}/with-relations`).expect(200)).body).toMatchObject({ onShift: true, location: depot });

      const ended = await endShift(w).expect(200);
      expect(ended.body).toEqual({
        ...started,
        onShift: false,
        location: 'Off Shift',
        shiftStartTime: null,
        latestCheckIn: null,
        nextCheckInTime: null,
      });
      expect((await endShift(w).expect(200)).body).toEqual(ended.body);
      expect((await w.agent.get(`/api/users/${w.id}/latest-check-in`).expect(200)).body).toBeNull();

      const events = await eventually(async () => {
        const found = (await streamEvents(t, 'shifts.shift.ended.v1')).filter((e) => e.data.userId === w.id);
        return found.length > 0 && found;
      }, EVENT_WAIT_MS);
      expect(events.map((e) => e.data)).toEqual([
        {
          shiftId: expect.any(String),
          userId: w.id,
          endedAt: expect.any(String),
          endedBy: w.id,
          reason: 'worker',
          location: depot,
          workerVersion: expect.any(Number),
        },
      ]);
    });

    it('lets a superadmin force a worker off shift, naming who and why', async () => {
      const w = await newWorker();
      await startShift(w, depot).expect(200);
      await admin.agent.post(`/api/users/${w.id}/force-clock-out`).set(XHR).expect(403);
      const res = await superadmin.agent.post(`/api/users/${w.id}/force-clock-out`).set(XHR).expect(200);
      expect(res.body).toMatchObject({ id: w.id, onShift: false, location: 'Off Shift', nextCheckInTime: null });
      expect(ids(await list('active'))).not.toContain(w.id);
      await superadmin.agent.post('/api/users/2147483647/force-clock-out').set(XHR).expect(404);

      const event = await eventually(
        async () => (await streamEvents(t, 'shifts.shift.ended.v1')).find((e) => e.data.userId === w.id),
        EVENT_WAIT_MS,
      );
      expect(event.data).toMatchObject({ userId: w.id, endedBy: superadmin.id, reason: 'forced', location: depot });
    });
  });

  describe('emergency call', () => {
    it('raises the emergency at once and names the contact', async () => {
      const w = await newWorker();
      await w.agent
        .post('/api/emergency-contacts')
        .set(XHR)
        .send({ userId: w.id, name: 'Sam Helper', phone: '+447911123999', relation: 'Friend' })
        .expect(201);
      const shift = (await startShift(w, depot).expect(200)).body;
      expect((await w.agent.post('/api/emergency-call').set(XHR).send({ userId: w.id, emergency: false }).expect(400)).body.message).toBe(
        'emergency must be true',
      );
      const res = await w.agent.post('/api/emergency-call').set(XHR).send({ userId: w.id, emergency: true }).expect(200);
      // The server resets the timer with a check-in of its own (the emergency button has no PIN).
      expect(res.body).toEqual({
        contact: '+447911123999',
        contactName: 'Sam Helper',
        user: { ...shift, latestCheckIn: expect.objectContaining({ location: depot }), nextCheckInTime: expect.any(String) },
      });

      const event = await eventually(
        async () => (await streamEvents(t, 'shifts.emergency.raised.v1')).find((e) => e.data.userId === w.id),
        EVENT_WAIT_MS,
      );
      expect(event.data).toEqual({
        emergencyId: expect.any(String),
        userId: w.id,
        shiftId: expect.any(String),
        location: depot,
        raisedAt: expect.any(String),
        workerVersion: expect.any(Number),
      });
    });
  });

  describe('dashboards', () => {
    it('move a worker from active to due to missed as the test clock advances, and back on check-in', async () => {
      const w = await newWorker();
      const started = (await startShift(w, depot).expect(200)).body;
      const where = async () => {
        const data = (await admin.agent.get('/api/dashboard-data').expect(200)).body;
        return {
          active: ids(data.active).includes(w.id),
          due: ids(data.due).includes(w.id),
          missed: ids(data.missed).includes(w.id),
          timestamp: data.timestamp,
        };
      };
      expect(await where()).toMatchObject({ active: true, due: false, missed: false });
      expect((await list('active')).find((x: { id: number }) => x.id === w.id)).toEqual(started);

      const due = Date.parse(started.nextCheckInTime);
      await advance((due - 14 * MINUTE - (await serverNow())) / MINUTE);
      expect(await where()).toMatchObject({ active: true, due: true, missed: false });
      expect(ids(await list('due'))).toContain(w.id);
      expect(ids(await list('missed'))).not.toContain(w.id);

      await advance(14.5);
      const overdue = await where();
      expect(overdue).toMatchObject({ active: true, due: false, missed: true });
      expect(Date.parse(overdue.timestamp)).toBeGreaterThanOrEqual(due);
      expect(ids(await list('missed'))).toContain(w.id);

      await checkIn(w).expect(201);
      expect(await where()).toMatchObject({ active: true, due: false, missed: false });
    });

    it('pages with a cursor, never repeating or skipping a worker', async () => {
      const crew: Worker[] = [];
      for (let i = 0; i < 30; i++) crew.push(await newWorker());
      for (const w of crew) await startShift(w, depot).expect(200);
      const crewIds = new Set(ids(crew));

      const walk = async (name: 'active' | 'missed') => {
        const seen: { id: number; nextCheckInTime: string }[] = [];
        let cursor: string | undefined;
        let pages = 0;
        do {
          const res = await admin.agent
            .get(`/api/workers/${name}?limit=10${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`)
            .expect(200);
          expect(res.body.length).toBeLessThanOrEqual(10);
          seen.push(...res.body);
          cursor = res.headers['x-next-cursor'];
          pages += 1;
        } while (cursor);
        expect(new Set(ids(seen)).size).toBe(seen.length);
        expect(ids(seen).filter((id) => crewIds.has(id))).toHaveLength(30);
        return { seen, pages };
      };

      const active = await walk('active');
      expect(active.pages).toBeGreaterThanOrEqual(3);
      expect(ids(active.seen)).toEqual([...ids(active.seen)].sort((a, b) => a - b));

      await advance(61);
      const missed = await walk('missed');
      const times = missed.seen.map((x) => Date.parse(x.nextCheckInTime));
      expect(times).toEqual([...times].sort((a, b) => a - b));

      expect((await admin.agent.get('/api/workers/active?limit=0').expect(400)).body).toEqual({
        message: 'limit must be a whole number from 1 to 1000',
        field: 'limit',
      });
      expect((await admin.agent.get('/api/workers/due?cursor=bogus').expect(400)).body).toEqual({
        message: 'Invalid cursor',
        field: 'cursor',
      });
      const activeCursor = (await admin.agent.get('/api/workers/active?limit=1').expect(200)).headers['x-next-cursor'];
      await admin.agent.get(`/api/workers/missed?cursor=${encodeURIComponent(activeCursor)}`).expect(400);
      for (const w of crew) await endShift(w).expect(200);
    });

    it('are for admins and the superadmin', async () => {
      const w = await newWorker();
      await w.agent.get('/api/workers/active').expect(403);
      await w.agent.get('/api/dashboard-data').expect(403);
      await superadmin.agent.get('/api/workers/missed').expect(200);
    });
  });

  describe('account lists carry the shift state', () => {
    it('joins worker-accounts and with-relations with shifts', async () => {
      const on = await newWorker();
      const off = await newWorker();
      await startShift(on, depot).expect(200);
      await advance(1);
      const checked = (await checkIn(on).expect(201)).body;

      const accounts = (await admin.agent.get('/api/worker-accounts').expect(200)).body as { id: number }[];
      expect(accounts.find((a) => a.id === on.id)).toMatchObject({
        username: on.username,
        onShift: true,
        location: depot,
        shiftStartTime: expect.any(String),
        latestCheckIn: { id: checked.id, timestamp: checked.timestamp, location: depot, nextCheckInTime: checked.nextCheckInTime },
        nextCheckInTime: checked.nextCheckInTime,
      });
      expect(accounts.find((a) => a.id === off.id)).toMatchObject({
        onShift: false,
        location: 'Off Shift',
        shiftStartTime: null,
        latestCheckIn: null,
        nextCheckInTime: null,
      });
      expect((await on.agent.get(`/api/users/${on.id}/with-relations`).expect(200)).body).toMatchObject({
        id: on.id,
        onShift: true,
        latestCheckIn: { id: checked.id },
        nextCheckInTime: checked.nextCheckInTime,
      });
    });
  });

  describe('deleting a user', () => {
    it('ends their shift (reason user_deleted) and purges their shifts, check-ins and state', async () => {
      const w = await newWorker();
      await startShift(w, depot).expect(200);
      await advance(1);
      await checkIn(w).expect(201);
      await w.agent.post('/api/emergency-call').set(XHR).send({ userId: w.id, emergency: true }).expect(200);
      await admin.agent.delete(`/api/users/${w.id}`).set(XHR).expect(200);

      const event = await eventually(
        async () => (await streamEvents(t, 'shifts.shift.ended.v1')).find((e) => e.data.userId === w.id),
        EVENT_WAIT_MS,
      );
      expect(event.data).toMatchObject({ reason: 'user_deleted', endedBy: admin.id, location: depot });
      expect(ids(await list('active'))).not.toContain(w.id);

      const db = new Client({ connectionString: t.env.DATABASE_URL });
      await db.connect();
      try {
        for (const table of ['shifts', 'check_ins', 'emergencies', 'worker_state']) {
          const { rows } = await db.query(`select count(*)::int as n from shifts.${table} where user_id = $1`, [w.id]);
          expect({ table, n: rows[0].n }).toEqual({ table, n: 0 });
        }
      } finally {
        await db.end();
      }
    });
  });

  describe('identity events arriving out of order', () => {
    /** Publishes an event as identity would, straight into the stream. */
    async function publish(subject: string, data: object) {
      const nc = await connect({ servers: t.env.NATS_URL });
      try {
        const id = randomUUID();
        const envelope = { id, subject, occurredAt: new Date().toISOString(), producer: 'identity', data };
        await nc.jetstream().publish(`${t.env.SUBJECT_PREFIX}${subject}`, JSON.stringify(envelope), { msgID: id });
      } finally {
        await nc.close();
      }
    }

    it('end with what identity holds last, and a deleted user stays deleted', async () => {
      const rpc = await RpcClient.create({ mode: 'nats', natsUrl: t.env.NATS_URL!, subjectPrefix: t.env.SUBJECT_PREFIX });
      const state = async (id: number) => (await rpc.send('shifts.worker.states.v1', { userIds: [id] })).workers[0];
      try {
        const [late, gone, marker] = [900_001, 900_002, 900_003];
        await publish('identity.settings.changed.v1', { userId: late, checkInInterval: 30 });
        await publish('identity.user.updated.v1', { userId: late, name: 'Newer Name' });
        await publish('identity.user.deleted.v1', { userId: gone, deletedBy: superadmin.id });
        await publish('identity.user.created.v1', {
          userId: late,
          username: 'late',
          name: 'Older Name',
          role: 'worker',
          phone: '+447911123001',
        });
        await publish('identity.user.created.v1', { userId: gone, username: 'gone', name: 'Gone', role: 'worker' });
        await publish('identity.user.created.v1', { userId: marker, username: 'marker', name: 'Marker', role: 'worker' });

        // created events are handled in order: once the marker is in, the two before it were handled.
        await eventually(async () => (await state(marker)).username === 'marker', EVENT_WAIT_MS);
        expect(await state(late)).toEqual({
          userId: late,
          name: 'Newer Name',
          username: 'late',
          phone: '+447911123001',
          onShift: false,
          checkInInterval: 30,
        });
        expect(await state(gone)).toEqual({ userId: gone, onShift: false, checkInInterval: 60 });
      } finally {
        await rpc.close();
      }
    });

    it("with identity's versions, an older event of the same kind delivered after a newer one changes nothing", async () => {
      const rpc = await RpcClient.create({ mode: 'nats', natsUrl: t.env.NATS_URL!, subjectPrefix: t.env.SUBJECT_PREFIX });
      const state = async (id: number) => (await rpc.send('shifts.worker.states.v1', { userIds: [id] })).workers[0];
      try {
        const [user, marker] = [900_011, 900_012];
        const profile = (name: string, phone: string, version: number) => ({ userId: user, name, role: 'worker', phone, version });
        await publish('identity.user.updated.v1', profile('Name v4', '+447911123044', 4));
        await publish('identity.settings.changed.v1', { userId: user, checkInInterval: 120, primaryContact: '+447911123055', version: 5 });
        // Older ones, as a redelivery or a replayed dead letter brings them, then the creation.
        await publish('identity.user.updated.v1', profile('Name v2', '+447911123022', 2));
        await publish('identity.settings.changed.v1', { userId: user, checkInInterval: 30, primaryContact: '+447911123033', version: 3 });
        await publish('identity.user.created.v1', {
          userId: user,
          username: 'versioned',
          name: 'Name v1',
          role: 'worker',
          phone: '+447911123011',
          version: 1,
        });
        await publish('identity.user.updated.v1', { userId: marker, name: 'Marker', role: 'worker', version: 2 });
        await publish('identity.settings.changed.v1', { userId: marker, checkInInterval: 50, primaryContact: '+447911123066', version: 3 });
        await publish('identity.user.created.v1', { userId: marker, username: 'marker2', name: 'Marker', role: 'worker', version: 1 });

        // Each subject is handled in order: once the marker's three are in, the user's five were handled.
        await eventually(async () => {
          const m = await state(marker);
          return m.username === 'marker2' && m.name === 'Marker' && m.checkInInterval === 50;
        }, EVENT_WAIT_MS);
        expect(await state(user)).toEqual({
          userId: user,
          name: 'Name v4',
          username: 'versioned',
          phone: '+447911123044',
          onShift: false,
          checkInInterval: 120,
        });
      } finally {
        await rpc.close();
      }
    });
  });
});

describe('a whole shift in embedded mode (PGlite, in-process bus), as `npm start` runs by default', () => {
  let t: TestStack;
  beforeAll(async () => {
    t = await startTestStack({ embedded: true, env: { LWS_TEST_CLOCK: '1' } });
  }, 180_000);
  afterAll(() => t?.stop());

  it('starts at the default location, checks in, shows on the dashboards and ends', async () => {
    const superadmin = await superadminOf(t);
    const username = `emb${Math.random().toString(36).slice(2, 8)}`;
    const created = await superadmin.agent
      .post('/api/users')
      .set(XHR)
      .send({ username, password: 'Secret1pass', name: 'Embedded Worker', phone: nextMobile(), role: 'worker', pinCode: '4321' })
      .expect(201);
    const id = created.body.user.id;
    const worker = await signIn(t, username, 'Secret1pass');

    const started = await eventually(
      async () => {
        const res = await worker.post(`/api/users/${id}/start-shift`).set(XHR).send({ location: 'The Prospect Building' });
        return res.status === 200 && res.body;
      },
      EVENT_WAIT_MS,
      100,
    );
    expect(started).toMatchObject({ id, name: 'Embedded Worker', onShift: true, location: 'The Prospect Building' });

    await superadmin.agent.post('/api/test-clock').set(XHR).send({ advanceMinutes: 61 }).expect(200);
    expect((await superadmin.agent.get('/api/workers/missed').expect(200)).body.map((w: { id: number }) => w.id)).toEqual([id]);
    const checkIn = await worker.post('/api/check-ins').set(XHR).send({ userId: id, pin: '4321' }).expect(201);
    expect(checkIn.body.location).toBe('The Prospect Building');
    expect((await superadmin.agent.get('/api/dashboard-data').expect(200)).body).toMatchObject({ due: [], missed: [] });
    expect((await worker.post(`/api/users/${id}/end-shift`).set(XHR).send({ pin: '4321' }).expect(200)).body.onShift).toBe(false);
  });
});
