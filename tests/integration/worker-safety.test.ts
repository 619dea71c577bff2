import { Client } from 'pg';
import { eventually } from '@lws/testing';
import request from 'supertest';
import { startTestStack, XHR, type TestStack } from './support/test-stack';
import { nextMobile, signIn, superadminOf, type Account } from './support/accounts';
import { streamEvents } from './support/stream-events';

/**
 * The worker's safety features through the gateway, on the whole stack (real PostgreSQL, NATS, Redis): the worker's
 * own emergency screen, "I'm safe now", the duress PIN and "+15 min", as the worker and a monitor
 * see them.
 */

const EVENT_WAIT_MS = 30_000;
const SITE = 'The Prospect Building';

interface Worker extends Account {
  pin: string;
  name: string;
  phone: string;
}

interface OwnEmergency {
  id: string;
  state: 'open' | 'acknowledged' | 'resolved';
  openedAt: string;
  acknowledgedByName: string | null;
  acknowledgedAt: string | null;
  safeAt: string | null;
  updates: { at: string; text: string; name: string | null }[];
}

interface Alarm {
  id: string;
  userId: number;
  kind: 'missed_check_in' | 'emergency';
  state: string;
  duress: boolean;
  workerSafeAt: string | null;
  history: string[];
}

describe("the worker's emergency screen, the duress PIN and extensions (whole stack)", () => {
  let t: TestStack;
  let admin: Worker;
  let superadmin: Account;
  let nextPin = 4100;

  beforeAll(async () => {
    // Positions past their retention are looked for every second here (an hour by default).
    t = await startTestStack({
      env: { LOGIN_MAX_ATTEMPTS_PER_IP: '1000', EMERGENCY_NUMBER_1: '+447911123456', POSITIONS_PURGE_INTERVAL_SECONDS: '1' },
    });
    superadmin = await superadminOf(t);
    admin = await newAccount('admin', superadmin.agent);
  }, 120_000);
  afterAll(() => t?.stop());

  async function newAccount(role: 'worker' | 'admin', creator: request.Agent, language?: string): Promise<Worker> {
    const username = `${role}${Math.random().toString(36).slice(2, 9)}`;
    const password = 'Secret1pass';
    const pin = String(nextPin++);
    const name = `${role === 'admin' ? 'Alice' : 'Sam'} ${username}`;
    const phone = nextMobile();
    const res = await creator
      .post('/api/users')
      .set(XHR)
      .send({ username, password, name, phone, role, pinCode: pin, ...(language ? { language } : {}) })
      .expect(201);
    return { id: res.body.user.id, username, password, role, agent: await signIn(t, username, password), pin, name, phone };
  }

  async function onShift(language?: string): Promise<Worker> {
    const w = await newAccount('worker', admin.agent, language);
    await eventually(
      async () => (await w.agent.post(`/api/users/${w.id}/start-shift`).set(XHR).send({ location: SITE })).status === 200,
      EVENT_WAIT_MS,
      100,
    );
    return w;
  }

  const own = async (w: Worker) => (await w.agent.get(`/api/users/${w.id}/emergency`).expect(200)).body.emergency as OwnEmergency | null;
  const ownWhen = async (w: Worker, ok: (e: OwnEmergency | null) => boolean) => {
    const seen = (await eventually(
      async () => {
        const e = await own(w);
        return ok(e) ? { e } : undefined;
      },
      EVENT_WAIT_MS,
      100,
    )) as { e: OwnEmergency };
    return seen.e;
  };
  const alarmsOf = async (userId: number) =>
    ((await admin.agent.get('/api/alarms').expect(200)).body as Alarm[]).filter((a) => a.userId === userId);
  const alarmWhen = (userId: number, ok: (a: Alarm) => boolean) =>
    eventually(async () => (await alarmsOf(userId)).find(ok), EVENT_WAIT_MS, 100) as Promise<Alarm>;
  // As the screen shows them in English: the person a line names in its place.
  const texts = (e: OwnEmergency) => e.updates.map((u) => u.text.replace('{{name}}', u.name ?? ''));
  const extend = (w: Worker, body: object = { userId: w.id, minutes: 15 }) => w.agent.post('/api/check-ins/extend').set(XHR).send(body);
  const relations = async (w: Worker) => (await w.agent.get(`/api/users/${w.id}/with-relations`).expect(200)).body;

  it('follows the emergency from the request, through the monitor who takes it, to "I\'m safe now" and the monitor closing it', async () => {
    const w = await onShift();
    expect(await own(w)).toBeNull();

    await w.agent.post('/api/emergency-call').set(XHR).send({ userId: w.id, emergency: true }).expect(200);
    const raised = await ownWhen(w, (e) => !!e && texts(e).includes('Your monitors have been alerted'));
    expect(raised).toMatchObject({ state: 'open', acknowledgedByName: null, safeAt: null });
    expect(texts(raised)[0]).toBe('Help requested');

    const alarm = await alarmWhen(w.id, (a) => a.kind === 'emergency');
    expect(alarm.duress).toBe(false);
    await admin.agent.post(`/api/alarms/${alarm.id}/acknowledge`).set(XHR).send({}).expect(200);
    const taken = await ownWhen(w, (e) => e?.state === 'acknowledged');
    expect(taken.acknowledgedByName).toBe(admin.name);
    expect(texts(taken)).toContain(`${admin.name} is dealing with it`);
    // The line is one text the screen translates, the monitor's name apart from it.
    expect(taken.updates).toContainEqual(expect.objectContaining({ text: '{{name}} is dealing with it', name: admin.name }));

    // A wrong PIN changes nothing.
    const wrong = await w.agent
      .post(`/api/users/${w.id}/emergency/${raised.id}/cancel`)
      .set(XHR)
      .send({ pin: w.pin === '0000' ? '1111' : '0000' })
      .expect(400);
    expect(wrong.body.field).toBe('pin');
    expect((await own(w))?.safeAt).toBeNull();

    const safe = await w.agent.post(`/api/users/${w.id}/emergency/${raised.id}/cancel`).set(XHR).send({ pin: w.pin }).expect(200);
    expect(safe.body.emergency.safeAt).toEqual(expect.any(String));
    expect(texts(safe.body.emergency).at(-1)).toBe("You said you're safe. A monitor will confirm and close this.");

    // The monitor sees it, to confirm as a false alarm; the activity log records it.
    const confirmed = await alarmWhen(w.id, (a) => a.id === alarm.id && a.workerSafeAt !== null);
    expect(
      confirmed.history.some((h) => h.includes('said they are safe') && h.includes('confirm it and resolve it as a false alarm')),
    ).toBe(true);
    await eventually(
      async () => (await streamEvents(t, 'escalation.alarm.worker_safe.v1')).some((e) => e.data.alarmId === alarm.id),
      EVENT_WAIT_MS,
    );

    await admin.agent
      .post(`/api/alarms/${alarm.id}/resolve`)
      .set(XHR)
      .send({ verdict: 'false_alarm', reason: 'no_signal', note: 'Sam confirmed by phone' })
      .expect(200);
    await ownWhen(w, (e) => e === null);
    // Closed: saying so again is a 409.
    expect(
      (await w.agent.post(`/api/users/${w.id}/emergency/${raised.id}/cancel`).set(XHR).send({ pin: w.pin }).expect(409)).body.message,
    ).toBe('A monitor has already closed this emergency');
  });

  it("refuses another worker's emergency and an id that is no alarm, naming what is wrong", async () => {
    const w = await onShift();
    const other = await onShift();
    await w.agent.post('/api/emergency-call').set(XHR).send({ userId: w.id, emergency: true }).expect(200);
    const mine = await ownWhen(w, (e) => e !== null);
    await other.agent.post(`/api/users/${w.id}/emergency/${mine.id}/cancel`).set(XHR).send({ pin: w.pin }).expect(403);
    expect(
      (await other.agent.post(`/api/users/${other.id}/emergency/${mine.id}/cancel`).set(XHR).send({ pin: other.pin }).expect(404)).body
        .message,
    ).toBe('Emergency not found');
    expect((await w.agent.post(`/api/users/${w.id}/emergency/not-an-id/cancel`).set(XHR).send({ pin: w.pin }).expect(400)).body.field).toBe(
      'id',
    );
    expect((await w.agent.post(`/api/users/${w.id}/emergency/${mine.id}/cancel`).set(XHR).send({ pin: 12 }).expect(400)).body.field).toBe(
      'pin',
    );
    expect((await own(w))?.safeAt).toBeNull();
  });

  it('a press while the emergency is escalating joins its alarm, noted on its history and screen; once resolved, a press opens a new one', async () => {
    const w = await onShift();
    const press = () => w.agent.post('/api/emergency-call').set(XHR).send({ userId: w.id, emergency: true }).expect(200);
    await press();
    const alarm = await alarmWhen(w.id, (a) => a.kind === 'emergency');
    const raised = await ownWhen(w, (e) => e?.id === alarm.id);

    // Pressed again, as a frightened person will, before and after a monitor takes it.
    await press();
    const joined = await alarmWhen(
      w.id,
      (a) => a.id === alarm.id && a.history.some((h) => h.startsWith('The worker pressed the emergency button again at')),
    );
    expect(joined.state).toBe('open');
    await admin.agent.post(`/api/alarms/${alarm.id}/acknowledge`).set(XHR).send({}).expect(200);
    await press();
    await alarmWhen(
      w.id,
      (a) => a.id === alarm.id && a.history.filter((h) => h.startsWith('The worker pressed the emergency button again')).length === 2,
    );
    const screen = await ownWhen(
      w,
      (e) => !!e && texts(e).filter((t) => t === 'You asked for help again: the same alert, still being dealt with').length === 2,
    );
    expect(screen.id).toBe(raised.id);
    // One alarm for monitors to take and close, and the stream told them of each press.
    expect((await alarmsOf(w.id)).filter((a) => a.kind === 'emergency')).toHaveLength(1);
    const pressedAgain = await eventually(async () => {
      const seen = (await streamEvents(t, 'escalation.alarm.pressed_again.v1')).filter((e) => e.data.alarmId === alarm.id);
      return seen.length === 2 ? seen : undefined;
    }, EVENT_WAIT_MS);
    expect(pressedAgain[0].data).toMatchObject({ userId: w.id, emergencyId: expect.any(String), pressedAt: expect.any(String) });

    await admin.agent
      .post(`/api/alarms/${alarm.id}/resolve`)
      .set(XHR)
      .send({ verdict: 'genuine', severity: 'minor', note: 'Police attended' })
      .expect(200);
    await ownWhen(w, (e) => e === null);
    await press();
    const next = await alarmWhen(w.id, (a) => a.kind === 'emergency' && a.id !== alarm.id);
    expect(next.state).toBe('open');
    expect((await ownWhen(w, (e) => e?.id === next.id)).updates.map((u) => u.text)).not.toContain(
      'You asked for help again: the same alert, still being dealt with',
    );
  });

  describe('duress PIN', () => {
    async function withDuress(): Promise<Worker & { duress: string }> {
      const w = await onShift();
      const duress = String(Number(w.pin) + 5000);
      await w.agent
        .put(`/api/users/${w.id}/duress-pin`)
        .set(XHR)
        .send({ currentPin: w.pin, duressPin: duress })
        .expect(200, { duressPinSet: true });
      return { ...w, duress };
    }

    it('is set with the current PIN, must differ from it, and the PIN may not become it', async () => {
      const w = await onShift();
      const same = await w.agent.put(`/api/users/${w.id}/duress-pin`).set(XHR).send({ currentPin: w.pin, duressPin: w.pin }).expect(400);
      expect(same.body).toEqual({ message: 'Your duress PIN must be different from your PIN', field: 'duressPin' });
      const wrong = await w.agent.put(`/api/users/${w.id}/duress-pin`).set(XHR).send({ currentPin: '9999', duressPin: '1357' }).expect(400);
      expect(wrong.body.field).toBe('currentPin');
      expect((await w.agent.get('/api/auth/me').expect(200)).body.duressPinSet).toBe(false);

      await w.agent
        .put(`/api/users/${w.id}/duress-pin`)
        .set(XHR)
        .send({ currentPin: w.pin, duressPin: '1357' })
        .expect(200, { duressPinSet: true });
      expect((await w.agent.get('/api/auth/me').expect(200)).body.duressPinSet).toBe(true);
      const clash = await w.agent.patch(`/api/users/${w.id}`).set(XHR).send({ currentPin: w.pin, pinCode: '1357' }).expect(400);
      expect(clash.body).toEqual({ message: 'Your PIN must be different from your duress PIN', field: 'pinCode' });
      // The duress PIN is no PIN for changing credentials.
      expect(
        (await w.agent.put(`/api/users/${w.id}/duress-pin`).set(XHR).send({ currentPin: '1357', duressPin: null }).expect(400)).body.field,
      ).toBe('currentPin');
      await w.agent
        .put(`/api/users/${w.id}/duress-pin`)
        .set(XHR)
        .send({ currentPin: w.pin, duressPin: null })
        .expect(200, { duressPinSet: false });
    });

    it('checks in exactly as the PIN does, while monitors get a DURESS alarm the worker never sees', async () => {
      const w = await withDuress();
      const res = await w.agent.post('/api/check-ins').set(XHR).send({ userId: w.id, location: SITE, pin: w.duress }).expect(201);
      expect(res.body).toMatchObject({ userId: w.id, status: 'safe', nextCheckInTime: expect.any(String) });
      expect((await w.agent.post(`/api/users/${w.id}/verify-pin`).set(XHR).send({ pin: w.duress }).expect(200)).body).toEqual({
        valid: true,
      });

      const alarm = await alarmWhen(w.id, (a) => a.duress);
      expect(alarm.kind).toBe('emergency');
      expect(alarm.history[0]).toMatch(/^DURESS: the worker entered their duress PIN/);
      // Every step runs at once: the emergency numbers are called without waiting for an acknowledgement.
      await alarmWhen(w.id, (a) => a.id === alarm.id && a.history.some((h) => h.startsWith('Calling +447911123456')));
      expect(await own(w)).toBeNull();
      // The activity log records it, for monitors only.
      const entries = async () =>
        (await admin.agent.get('/api/activity-logs').expect(200)).body as { userId: number | null; details: string }[];
      await eventually(
        async () => (await entries()).some((e) => e.userId === w.id && e.details.startsWith('DURESS PIN entered')),
        EVENT_WAIT_MS,
        200,
      );
    });

    it('"cancels" an emergency on screen as the PIN would, while the emergency goes on escalating', async () => {
      const w = await withDuress();
      await w.agent.post('/api/emergency-call').set(XHR).send({ userId: w.id, emergency: true }).expect(200);
      const raised = await ownWhen(w, (e) => e !== null);
      const res = await w.agent.post(`/api/users/${w.id}/emergency/${raised.id}/cancel`).set(XHR).send({ pin: w.duress }).expect(200);
      expect(res.body.emergency.safeAt).toEqual(expect.any(String));
      expect(texts(res.body.emergency).at(-1)).toBe("You said you're safe. A monitor will confirm and close this.");

      const first = await alarmWhen(
        w.id,
        (a) => !a.duress && a.history.some((h) => h.includes('cancelled this emergency with their duress PIN')),
      );
      expect(first.workerSafeAt).toBeNull();
      await alarmWhen(w.id, (a) => a.duress);
      // What the worker sees stays as "safe", however the alarm goes on.
      expect((await own(w))?.safeAt).toBe(res.body.emergency.safeAt);
    });
  });

  describe('+15 min', () => {
    it('moves the deadline on 15 minutes twice a shift (60 minutes in all), recorded for monitors and heard by escalation', async () => {
      const w = await onShift();
      const before = await relations(w);
      expect(before).toMatchObject({ extensionsLeft: 2, extensionMinutesLeft: 60 });
      const first = await extend(w).expect(200);
      expect(Date.parse(first.body.nextCheckInTime) - Date.parse(before.nextCheckInTime)).toBe(15 * 60_000);
      expect(first.body).toMatchObject({ id: w.id, onShift: true, extensionsLeft: 1, extensionMinutesLeft: 45 });
      expect(first.body.latestCheckIn).toBeNull();

      const event = (await eventually(
        async () => (await streamEvents(t, 'shifts.deadline.changed.v1')).find((e) => e.data.userId === w.id),
        EVENT_WAIT_MS,
      )) as { data: Record<string, unknown> };
      expect(event.data).toMatchObject({
        reason: 'extended',
        byUserId: w.id,
        extendedMinutes: 15,
        nextCheckInAt: first.body.nextCheckInTime,
      });
      // Escalation now waits for the new deadline (its reminders and alarm move with it).
      await eventually(
        async () => {
          const { workers } = (await superadmin.agent.get('/api/test-reminders/status').expect(200)).body as {
            workers: { id: number; nextCheckIn: string | null }[];
          };
          return workers.find((x) => x.id === w.id)?.nextCheckIn === first.body.nextCheckInTime;
        },
        EVENT_WAIT_MS,
        100,
      );
      const entries = async () =>
        (await admin.agent.get('/api/activity-logs').expect(200)).body as {
          userId: number | null;
          type: string;
          label: string;
          details: string;
        }[];
      const entry = (await eventually(
        async () => (await entries()).find((e) => e.userId === w.id && e.type === 'extension'),
        EVENT_WAIT_MS,
        200,
      )) as { label: string; details: string };
      expect(entry.label).toBe('Check-In Extended');
      expect(entry.details).toMatch(/^Asked for 15 more minutes; next check-in due at \d{2}:\d{2}$/);

      const second = await extend(w).expect(200);
      expect(second.body).toMatchObject({ extensionsLeft: 0, extensionMinutesLeft: 30 });
      const refused = await extend(w).expect(409);
      expect(refused.body.message).toBe('This shift has no extensions left. Check in instead.');
      expect((await relations(w)).nextCheckInTime).toBe(second.body.nextCheckInTime);

      // A check-in keeps the shift's allowance as it is; a new shift starts with it whole.
      await w.agent.post('/api/check-ins').set(XHR).send({ userId: w.id, location: SITE, pin: w.pin }).expect(201);
      expect(await relations(w)).toMatchObject({ extensionsLeft: 0 });
      await w.agent.post(`/api/users/${w.id}/end-shift`).set(XHR).send({ pin: w.pin }).expect(200);
      expect((await relations(w)).extensionsLeft).toBeUndefined();
      await w.agent.post(`/api/users/${w.id}/start-shift`).set(XHR).send({ location: SITE }).expect(200);
      expect(await relations(w)).toMatchObject({ extensionsLeft: 2, extensionMinutesLeft: 60 });
    });

    it('refuses an overdue deadline, a worker off shift and any other number of minutes, changing nothing', async () => {
      const w = await onShift();
      expect((await extend(w, { userId: w.id, minutes: 20 }).expect(400)).body).toEqual({
        message: 'minutes must be 15',
        field: 'minutes',
      });
      expect((await extend(w, { userId: w.id }).expect(400)).body.field).toBe('minutes');
      await superadmin.agent.post(`/api/simulate-specific-time/${w.id}`).set(XHR).send({ minutesUntilDue: 0 }).expect(200);
      const due = (await relations(w)).nextCheckInTime;
      expect((await extend(w).expect(409)).body.message).toBe('Your check-in is already overdue. Check in instead.');
      expect(await relations(w)).toMatchObject({ nextCheckInTime: due, extensionsLeft: 2 });

      const off = await newAccount('worker', admin.agent);
      expect((await extend(off).expect(409)).body.message).toBe('You are not on shift');
    });
  });

  describe("where I'll be", () => {
    const OAK = { lat: 51.50135, lng: -0.14189, accuracy: 25 };

    it('the shift takes a note and a check-in the device position; monitors see both on the alarm', async () => {
      const w = await newAccount('worker', admin.agent);
      await eventually(
        async () =>
          (await w.agent.post(`/api/users/${w.id}/start-shift`).set(XHR).send({ location: SITE, note: '  12 Oak Street, back by 15:00 ' }))
            .status === 200,
        EVENT_WAIT_MS,
        100,
      );
      expect((await relations(w)).shiftNote).toBe('12 Oak Street, back by 15:00');
      const checkIn = await w.agent
        .post('/api/check-ins')
        .set(XHR)
        .send({ userId: w.id, location: SITE, pin: w.pin, position: OAK })
        .expect(201);
      const recorded = (await eventually(
        async () => (await streamEvents(t, 'shifts.checkin.recorded.v1')).find((e) => e.data.checkInId === checkIn.body.id),
        EVENT_WAIT_MS,
      )) as { data: Record<string, unknown> };
      expect(recorded.data.position).toEqual({ lat: OAK.lat, lng: OAK.lng, accuracyM: OAK.accuracy });

      await superadmin.agent.post(`/api/simulate-check-in-due/${w.id}`).set(XHR).expect(200);
      const alarm = (await alarmWhen(w.id, (a) => a.kind === 'missed_check_in')) as Alarm & {
        shiftNote: string | null;
        lastPosition: unknown;
      };
      expect(alarm.shiftNote).toBe('12 Oak Street, back by 15:00');
      expect(alarm.lastPosition).toEqual({ lat: OAK.lat, lng: OAK.lng, accuracy: OAK.accuracy, at: checkIn.body.timestamp });
    });

    it('refuses a note or a position that is not one, naming the field, and records nothing', async () => {
      const w = await onShift();
      const bad = async (body: object, field: string) => {
        const res = await w.agent
          .post('/api/check-ins')
          .set(XHR)
          .send({ userId: w.id, location: SITE, pin: w.pin, ...body })
          .expect(400);
        expect(res.body.field).toBe(field);
      };
      await bad({ position: { lat: 91, lng: 0 } }, 'position.lat');
      await bad({ position: { lat: '51.5', lng: 0 } }, 'position.lat');
      await bad({ position: { lat: 51.5 } }, 'position.lng');
      await bad({ position: { lat: 51.5, lng: 0, altitude: 3 } }, 'position.altitude');
      await bad({ position: [51.5, 0] }, 'position');
      expect((await relations(w)).latestCheckIn).toBeNull();

      const other = await newAccount('worker', admin.agent);
      const NOTE = "Where you'll be must be text of at most 200 characters";
      for (const [note, message] of [
        ['x'.repeat(201), NOTE],
        ['Oak Street\u0007', NOTE],
        [42, NOTE],
        ['Oak Street\u202e', 'note must not contain bidirectional control characters'],
      ]) {
        const res = await other.agent.post(`/api/users/${other.id}/start-shift`).set(XHR).send({ location: SITE, note }).expect(400);
        expect(res.body).toEqual({ message, field: 'note' });
      }
      expect((await relations(other)).onShift).toBe(false);
    });

    it('deletes positions 30 days after their shift ended, in shifts and in the alarm monitors see; the check-ins stay', async () => {
      const w = await onShift();
      const checkIn = await w.agent
        .post('/api/check-ins')
        .set(XHR)
        .send({ userId: w.id, location: SITE, pin: w.pin, position: OAK })
        .expect(201);
      await superadmin.agent.post(`/api/simulate-check-in-due/${w.id}`).set(XHR).expect(200);
      const alarm = (await alarmWhen(
        w.id,
        (a) => a.kind === 'missed_check_in' && (a as { lastPosition?: unknown }).lastPosition !== null,
      )) as Alarm;
      const shiftId = (await relations(w)).latestCheckIn
        ? ((await streamEvents(t, 'shifts.checkin.recorded.v1')).find((e) => e.data.checkInId === checkIn.body.id)!.data.shiftId as string)
        : '';
      await w.agent.post(`/api/users/${w.id}/end-shift`).set(XHR).send({ pin: w.pin }).expect(200);
      const db = new Client({ connectionString: t.env.DATABASE_URL });
      await db.connect();
      try {
        const position = async () =>
          (await db.query('select lat, lng, accuracy_m from shifts.check_ins where id = $1', [checkIn.body.id])).rows[0];
        await eventually(
          async () => (await db.query('select 1 from escalation.ended_shifts where shift_id = $1', [shiftId])).rowCount === 1,
          EVENT_WAIT_MS,
          100,
        );
        // 29 days after the shift: kept.
        await db.query(`update shifts.shifts set ended_at = now() - interval '29 days' where id = $1`, [shiftId]);
        await db.query(`update escalation.ended_shifts set ended_at = now() - interval '29 days' where shift_id = $1`, [shiftId]);
        await new Promise((r) => setTimeout(r, 2500));
        expect(await position()).toEqual({ lat: OAK.lat, lng: OAK.lng, accuracy_m: OAK.accuracy });
        // 31 days: gone, in both services; the check-in itself and the alarm stay.
        await db.query(`update shifts.shifts set ended_at = now() - interval '31 days' where id = $1`, [shiftId]);
        await db.query(`update escalation.ended_shifts set ended_at = now() - interval '31 days' where shift_id = $1`, [shiftId]);
        await eventually(async () => (await position())?.lat === null, EVENT_WAIT_MS, 200);
        expect(await position()).toEqual({ lat: null, lng: null, accuracy_m: null });
        await alarmWhen(w.id, (a) => a.id === alarm.id && (a as { lastPosition?: unknown }).lastPosition === null);
        const { rows } = await db.query('select last_position from escalation.workers where user_id = $1', [w.id]);
        expect(rows[0].last_position).toBeNull();
      } finally {
        await db.end();
      }
    });
  });

  describe('checking in by replying to the reminder with the PIN (the test provider, as Twilio delivers a text)', () => {
    const text = async (from: string, body: string) =>
      (await superadmin.agent.post('/api/test-provider/inbound-sms').set(XHR).send({ from, body }).expect(200)).body.reply as string | null;
    const CHECKED_IN = /^LWS: checked in at \d{2}:\d{2}\. Your next check-in is due by \d{2}:\d{2}\.$/;

    it('the PIN from the worker’s own phone checks them in and says until when; a second text at once answers the same check-in', async () => {
      const w = await onShift();
      const first = await text(w.phone, `PIN ${w.pin}`);
      expect(first).toMatch(CHECKED_IN);
      expect(await text(w.phone, w.pin)).toBe(first);
      const after = await relations(w);
      expect(after.latestCheckIn).toMatchObject({ location: SITE });
      const checkIns = async () => (await streamEvents(t, 'shifts.checkin.recorded.v1')).filter((e) => e.data.userId === w.id);
      await eventually(async () => (await checkIns()).length === 1, EVENT_WAIT_MS);
    });

    it('a wrong PIN, no PIN, off shift and a stranger’s number each get their answer (a stranger none), and nothing is recorded', async () => {
      const w = await onShift();
      const wrong = w.pin === '0000' ? '1111' : '0000';
      expect(await text(w.phone, wrong)).toBe('LWS: that PIN is not right. Reply with your 4-digit PIN to check in.');
      expect(await text(w.phone, 'ok thanks')).toBe('LWS: to check in, reply with your 4-digit PIN.');
      expect(await text('+447700900999', w.pin)).toBeNull();
      expect((await relations(w)).latestCheckIn).toBeNull();

      const off = await newAccount('worker', admin.agent);
      expect(await text(off.phone, off.pin)).toBe('LWS: you are not on shift, so there is nothing to check in.');
    });

    it('counts toward the same lockout as the app: five wrong PINs lock texted check-ins too', async () => {
      const w = await onShift();
      const wrong = w.pin === '0000' ? '1111' : '0000';
      for (let i = 0; i < 4; i++) expect(await text(w.phone, wrong)).toMatch(/not right/);
      expect(await text(w.phone, wrong)).toBe(
        'LWS: too many wrong PINs. PIN check-ins are locked for 15 minutes. Open LWS or call your monitor.',
      );
      expect(await text(w.phone, w.pin)).toMatch(/locked/);
      expect((await w.agent.post('/api/check-ins').set(XHR).send({ userId: w.id, location: SITE, pin: w.pin })).status).toBe(423);
    });

    it('the duress PIN texted checks in as the PIN does, and monitors get a DURESS alarm', async () => {
      const w = await onShift();
      const duress = String(Number(w.pin) + 5000);
      await w.agent.put(`/api/users/${w.id}/duress-pin`).set(XHR).send({ currentPin: w.pin, duressPin: duress }).expect(200);
      expect(await text(w.phone, duress)).toMatch(CHECKED_IN);
      await alarmWhen(w.id, (a) => a.duress);
      expect(await own(w)).toBeNull();
    });

    it("answers a Welsh-speaking worker's phone in Welsh, whatever the answer", async () => {
      const w = await onShift('cy');
      const wrong = w.pin === '0000' ? '1111' : '0000';
      // Notifications learns the worker's phone and language from identity's event.
      await eventually(async () => (await text(w.phone, 'helo')) === "LWS: i gofrestru, atebwch gyda'ch PIN 4 digid.", EVENT_WAIT_MS, 100);
      expect(await text(w.phone, wrong)).toBe("LWS: nid yw'r PIN hwnnw'n gywir. Atebwch gyda'ch PIN 4 digid i gofrestru.");
      expect(await text(w.phone, w.pin)).toMatch(
        /^LWS: wedi cofrestru am \d{2}:\d{2}\. Mae angen i chi gofrestru nesaf erbyn \d{2}:\d{2}\.$/,
      );
      // Their language changed back: the next answer is in English.
      await w.agent.patch(`/api/users/${w.id}`).set(XHR).send({ language: 'en' }).expect(200);
      await eventually(
        async () => (await text(w.phone, 'thanks')) === 'LWS: to check in, reply with your 4-digit PIN.',
        EVENT_WAIT_MS,
        100,
      );
    });

    it('refuses a text that is not signed by the provider', async () => {
      const res = await request(t.url)
        .post('/webhooks/twilio/sms-inbound')
        .type('form')
        .send({ From: '+447700900123', Body: '1234', MessageSid: `SM${'0'.repeat(32)}` });
      expect(res.status).toBe(403);
    });
  });

  describe("a team's keypad reminder call, 2 minutes before the deadline", () => {
    interface FakeCall {
      callSid: string;
      to: string;
      status: string;
      say?: string;
      confirmation?: string;
    }
    const callsTo = async (phone: string) =>
      ((await superadmin.agent.get('/api/test-provider/calls').expect(200)).body.calls as FakeCall[]).filter((c) => c.to === phone);

    async function workerOf(teamId: number, language?: string): Promise<Worker> {
      const username = `keypad${Math.random().toString(36).slice(2, 9)}`;
      const pin = String(nextPin++);
      const phone = nextMobile();
      const res = await superadmin.agent
        .post('/api/users')
        .set(XHR)
        .send({
          username,
          password: 'Secret1pass',
          name: `Kit ${username}`,
          phone,
          role: 'worker',
          pinCode: pin,
          teamId,
          ...(language ? { language } : {}),
        })
        .expect(201);
      const w = {
        id: res.body.user.id,
        username,
        password: 'Secret1pass',
        role: 'worker' as const,
        agent: await signIn(t, username, 'Secret1pass'),
        pin,
        name: `Kit ${username}`,
        phone,
      };
      await eventually(
        async () => (await w.agent.post(`/api/users/${w.id}/start-shift`).set(XHR).send({ location: SITE })).status === 200,
        EVENT_WAIT_MS,
        100,
      );
      return w;
    }

    const keypadTeam = (name: string) => superadmin.agent.post('/api/teams').set(XHR).send({ name, voiceReminder: true }).expect(201);

    /** The worker's phone rings with the reminder call; they answer and key `digits`: what they heard. */
    async function answerCall(w: Worker, digits: string) {
      const [call] = (await eventually(
        async () => {
          const calls = await callsTo(w.phone);
          return calls.length > 0 ? calls : undefined;
        },
        EVENT_WAIT_MS,
        200,
      )) as FakeCall[];
      return superadmin.agent.post(`/api/test-provider/calls/${call.callSid}/accept`).set(XHR).send({ digits }).expect(200);
    }

    it('asks for the PIN on the keypad: the right PIN checks the worker in; a team without it gets no call', async () => {
      const team = await keypadTeam(`Keypad ${Date.now()}`);
      expect(team.body.voiceReminder).toBe(true);
      const w = await workerOf(team.body.id);
      const plain = await onShift();
      // The 2-minute reminder fires 6 s from now (one whose time has passed is skipped).
      for (const x of [w, plain])
        await superadmin.agent.post(`/api/simulate-specific-time/${x.id}`).set(XHR).send({ minutesUntilDue: 2.1 }).expect(200);

      const answered = await answerCall(w, w.pin);
      expect(answered.body.call.voice).toBeUndefined();
      expect(answered.body.call.say).toMatch(
        /^This is an L W S check-in reminder\. Your check-in is due in 2 minutes, by \d{2}:\d{2}\. To check in, enter your 4 digit PIN now\./,
      );
      expect(answered.body.call.confirmation).toMatch(
        /^Thank you\. You are checked in\. Your next check-in is due by \d{2}:\d{2}\. Goodbye\.$/,
      );
      expect((await relations(w)).latestCheckIn).not.toBeNull();

      // The team without it: its 2-minute reminder went by text and push only.
      const deliveries = async () =>
        (await superadmin.agent.get(`/api/notifications/deliveries?userId=${plain.id}&limit=50`).expect(200)).body as
          | { channel: string; purpose: string }[]
          | { deliveries: { channel: string; purpose: string }[] };
      await eventually(
        async () => {
          const body = await deliveries();
          const list = Array.isArray(body) ? body : body.deliveries;
          return list.some((d) => d.purpose === 'reminder_2min' && d.channel === 'sms');
        },
        EVENT_WAIT_MS,
        200,
      );
      expect(await callsTo(plain.phone)).toEqual([]);
    });

    it('speaks to a Welsh-speaking worker in Welsh, in a Welsh voice, and answers their PIN in Welsh', async () => {
      const team = await keypadTeam(`Keypad Cymraeg ${Date.now()}`);
      const w = await workerOf(team.body.id, 'cy');
      await superadmin.agent.post(`/api/simulate-specific-time/${w.id}`).set(XHR).send({ minutesUntilDue: 2.1 }).expect(200);
      const answered = await answerCall(w, w.pin);
      expect(answered.body.call).toMatchObject({
        voice: 'Polly.Gwyneth cy-GB',
        say: expect.stringMatching(
          /^Dyma nodyn atgoffa L W S i gofrestru\. Mae angen i chi gofrestru ymhen 2 funud, erbyn \d{2}:\d{2}\. I gofrestru, rhowch eich PIN 4 digid nawr\./,
        ),
        confirmation: expect.stringMatching(
          /^Diolch\. Rydych chi wedi cofrestru\. Mae angen i chi gofrestru nesaf erbyn \d{2}:\d{2}\. Hwyl fawr\.$/,
        ),
      });
      expect((await relations(w)).latestCheckIn).not.toBeNull();
    });

    it('a wrong PIN on the keypad checks nobody in, and is asked for again', async () => {
      const team = await keypadTeam(`Keypad wrong ${Date.now()}`);
      const w = await workerOf(team.body.id);
      await superadmin.agent.post(`/api/simulate-specific-time/${w.id}`).set(XHR).send({ minutesUntilDue: 2.1 }).expect(200);
      const answered = await answerCall(w, w.pin === '0000' ? '1111' : '0000');
      expect(answered.body.call.confirmation).toMatch(/^That PIN is not right\. Enter your 4 digit PIN again\./);
      expect((await relations(w)).latestCheckIn).toBeNull();
    });
  });
});
