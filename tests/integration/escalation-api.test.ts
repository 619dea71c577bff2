import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { eventually } from '@lws/testing';
import { startTestStack, XHR, type TestStack } from './support/test-stack';
import { createAccount, superadminOf, type Account } from './support/accounts';
import { streamEvents } from './support/stream-events';

/**
 * Alarms, System Config and the superadmin's testing tools through the gateway, with every
 * service of the stack (escalation included) on real PostgreSQL, NATS and Redis. Who may call
 * what is the authorization matrix's business; this is what a monitor or superadmin notices.
 */

/** Events travel outbox → relay → JetStream → consumers; on a busy two-core machine that takes a while. */
const EVENT_WAIT_MS = 30_000;
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const EMERGENCY_NUMBER = '+447911123456';
const SITE = 'The Prospect Building';

interface BrowserWorker {
  id: number;
  onShift: boolean;
  location: string | null;
  latestCheckIn: { id: string; timestamp: string; location: string; nextCheckInTime: string } | null;
  nextCheckInTime: string | null;
}

interface Alarm {
  id: string;
  userId: number;
  kind: 'missed_check_in' | 'emergency';
  state: 'open' | 'acknowledged' | 'resolved';
  [field: string]: unknown;
}

describe('alarms, system config and testing tools (real PostgreSQL, NATS, Redis; whole stack)', () => {
  let t: TestStack;
  let superadmin: Account;
  let admin: Account;

  beforeAll(async () => {
    t = await startTestStack({ env: { LOGIN_MAX_ATTEMPTS_PER_IP: '1000', EMERGENCY_NUMBER_1: EMERGENCY_NUMBER } });
    superadmin = await superadminOf(t);
    admin = await createAccount(t, superadmin.agent, 'admin');
  }, 120_000);
  afterAll(() => t?.stop());

  const newWorker = () => createAccount(t, admin.agent, 'worker');
  /** The first thing `find` finds, once it finds one. */
  const found = <T>(find: () => Promise<T | undefined>, intervalMs = 50) => eventually(find, EVENT_WAIT_MS, intervalMs) as Promise<T>;

  /** On shift at the seeded site, once shifts has heard of it from the locations service. */
  async function onShift(): Promise<Account> {
    const w = await newWorker();
    await eventually(
      async () => (await w.agent.post(`/api/users/${w.id}/start-shift`).set(XHR).send({ location: SITE })).status === 200,
      EVENT_WAIT_MS,
      100,
    );
    return w;
  }

  async function serverNow(): Promise<number> {
    return Date.parse((await admin.agent.get('/api/time').expect(200)).body.now);
  }

  const simulate = (userId: number, body: object) => superadmin.agent.post(`/api/simulate-specific-time/${userId}`).set(XHR).send(body);
  const reset = (userId: number) => superadmin.agent.post(`/api/reset-check-in-timer/${userId}`).set(XHR);
  const dueNow = (userId: number) => superadmin.agent.post(`/api/simulate-check-in-due/${userId}`).set(XHR);
  const listed = async (list: 'due' | 'missed', userId: number) =>
    ((await admin.agent.get(`/api/workers/${list}`).expect(200)).body as BrowserWorker[]).some((w) => w.id === userId);
  const alarms = async (query = '') => (await admin.agent.get(`/api/alarms${query}`).expect(200)).body as Alarm[];
  const alarmOf = (userId: number, kind: Alarm['kind'], query = '') =>
    found(async () => (await alarms(query)).find((a) => a.userId === userId && a.kind === kind), 200);
  /** Within a few seconds of the expected instant: requests take time and the clock keeps running. */
  const near = (iso: string | null | undefined, expected: number, slackMs = 5000) => Math.abs(Date.parse(iso ?? '') - expected) <= slackMs;

  describe('simulate-specific-time', () => {
    it('moves the worker’s next check-in, and the dashboards list them as due', async () => {
      const w = await onShift();
      expect(await listed('due', w.id)).toBe(false);
      const before = await serverNow();
      const res = await simulate(w.id, { minutesUntilDue: 10 }).expect(200);
      expect(res.body).toEqual({
        nextCheckInTime: expect.any(String),
        user: expect.objectContaining({
          id: w.id,
          onShift: true,
          location: SITE,
          latestCheckIn: null,
          nextCheckInTime: res.body.nextCheckInTime,
        }),
      });
      expect(near(res.body.nextCheckInTime, before + 10 * MINUTE)).toBe(true);

      expect(await listed('due', w.id)).toBe(true);
      expect(await listed('missed', w.id)).toBe(false);
      expect((await w.agent.get(`/api/users/${w.id}/with-relations`).expect(200)).body.nextCheckInTime).toBe(res.body.nextCheckInTime);

      const event = await found(async () => (await streamEvents(t, 'shifts.deadline.changed.v1')).find((e) => e.data.userId === w.id));
      expect(event.data).toEqual({
        shiftId: expect.stringMatching(/^[0-9a-f-]{36}$/),
        userId: w.id,
        nextCheckInAt: res.body.nextCheckInTime,
        reason: 'simulated',
        byUserId: superadmin.id,
        changedAt: expect.any(String),
        workerVersion: expect.any(Number),
      });
    });

    it('accepts the spec’s minutes_until_due and fractions, and refuses anything but 0 to 1440 minutes', async () => {
      const w = await onShift();
      const before = await serverNow();
      const res = await simulate(w.id, { minutes_until_due: 2.5 }).expect(200);
      expect(near(res.body.nextCheckInTime, before + 2.5 * MINUTE)).toBe(true);

      for (const body of [{}, { minutesUntilDue: -1 }, { minutesUntilDue: 1441 }, { minutesUntilDue: 'soon' }, { minutesUntilDue: null }]) {
        expect((await simulate(w.id, body).expect(400)).body).toEqual({
          message: 'minutesUntilDue must be a number of minutes from 0 to 1440',
          field: 'minutesUntilDue',
        });
      }
      expect((await w.agent.get(`/api/users/${w.id}/with-relations`).expect(200)).body.nextCheckInTime).toBe(res.body.nextCheckInTime);
    });
  });

  describe('reset-check-in-timer', () => {
    it('puts the next check-in at the top of the next hour', async () => {
      const w = await onShift();
      await simulate(w.id, { minutesUntilDue: 3 }).expect(200);
      const before = await serverNow();
      const res = await reset(w.id).expect(200);
      const after = await serverNow();
      const due = Date.parse(res.body.nextCheckInTime);
      expect(due % HOUR).toBe(0);
      // The next full hour after the instant the server handled the call, which lies between before and after.
      expect(due).toBeGreaterThanOrEqual(Math.floor(before / HOUR) * HOUR + HOUR);
      expect(due).toBeLessThanOrEqual(Math.floor(after / HOUR) * HOUR + HOUR);
      expect(res.body.user).toMatchObject({ id: w.id, onShift: true, nextCheckInTime: res.body.nextCheckInTime });

      const event = await found(async () =>
        (await streamEvents(t, 'shifts.deadline.changed.v1')).find((e) => e.data.userId === w.id && e.data.reason === 'reset'),
      );
      expect(event.data).toMatchObject({ nextCheckInAt: res.body.nextCheckInTime, byUserId: superadmin.id });
    });
  });

  describe('the deadline tools refuse', () => {
    it('a worker who is not on shift (409), an unknown user (404) and an id that is not one (400)', async () => {
      const off = await newWorker();
      for (const call of [simulate(off.id, { minutesUntilDue: 5 }), reset(off.id), dueNow(off.id)]) {
        expect((await call.expect(409)).body).toEqual({ message: 'This worker is not on shift' });
      }
      expect((await off.agent.get(`/api/users/${off.id}/with-relations`).expect(200)).body).toMatchObject({
        onShift: false,
        nextCheckInTime: null,
      });

      for (const call of [simulate(2_000_000_000, { minutesUntilDue: 5 }), reset(2_000_000_000), dueNow(2_000_000_000)]) {
        expect((await call.expect(404)).body).toEqual({ message: 'User not found' });
      }
      expect((await reset(0).expect(400)).body).toEqual({ message: 'Invalid user ID', field: 'id' });
      expect((await superadmin.agent.post('/api/simulate-check-in-due/abc').set(XHR).expect(400)).body.field).toBe('id');
    });
  });

  describe('a missed check-in, from simulation to a resolved alarm', () => {
    let w: Account;
    let alarm: Alarm;

    beforeAll(async () => {
      w = await onShift();
    });

    it('simulate-check-in-due makes the check-in due now: the worker is missed and an alarm opens', async () => {
      const before = await serverNow();
      const res = await dueNow(w.id).expect(200);
      expect(near(res.body.nextCheckInTime, before)).toBe(true);
      expect(res.body.user).toMatchObject({ id: w.id, onShift: true, nextCheckInTime: res.body.nextCheckInTime });
      await eventually(() => listed('missed', w.id), 5000, 100);

      alarm = await alarmOf(w.id, 'missed_check_in');
      expect(alarm).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        userId: w.id,
        workerName: 'worker person',
        location: SITE,
        kind: 'missed_check_in',
        state: 'open',
        openedAt: expect.any(String),
        dueAt: res.body.nextCheckInTime,
        acknowledgedBy: null,
        acknowledgedByName: null,
        acknowledgedAt: null,
        acknowledgedViaToken: null,
        resolvedBy: null,
        resolvedByName: null,
        resolvedAt: null,
        resolvedViaToken: null,
        verdict: null,
        severity: null,
        reason: null,
        note: null,
        lateCheckInAt: null,
        duress: false,
        workerSafeAt: null,
        shiftNote: null,
        visit: null,
        lastPosition: null,
        history: expect.any(Array),
        messages: [],
      });
      expect(Date.parse(alarm.openedAt as string)).toBeGreaterThanOrEqual(Date.parse(res.body.nextCheckInTime));
    });

    it('an admin acknowledges it and owns it; acknowledging again changes nothing', async () => {
      const res = await admin.agent.post(`/api/alarms/${alarm.id}/acknowledge`).set(XHR).expect(200);
      expect(res.body).toMatchObject({
        id: alarm.id,
        state: 'acknowledged',
        acknowledgedBy: admin.id,
        acknowledgedByName: 'admin person',
        acknowledgedAt: expect.any(String),
        resolvedAt: null,
      });
      // People are named in the history, never numbered.
      expect(res.body.history).toContain('Acknowledged by admin person');
      const again = await superadmin.agent.post(`/api/alarms/${alarm.id}/acknowledge`).set(XHR).expect(200);
      expect(again.body).toMatchObject({ state: 'acknowledged', acknowledgedBy: admin.id, acknowledgedAt: res.body.acknowledgedAt });
      expect((await alarms()).find((a) => a.id === alarm.id)).toMatchObject({ state: 'acknowledged', acknowledgedBy: admin.id });
    });

    it('resolving needs a verdict and a note, each named when missing or wrong', async () => {
      const resolve = (body: object) => admin.agent.post(`/api/alarms/${alarm.id}/resolve`).set(XHR).send(body);
      const verdict = { message: 'Choose whether the alarm was genuine, a false alarm or a test', field: 'verdict' };
      const note = { message: 'Please write a note on how the alarm was resolved', field: 'note' };
      expect((await resolve({}).expect(400)).body).toEqual(verdict);
      expect((await resolve({ verdict: 'maybe', note: 'Spoke to her' }).expect(400)).body).toEqual(verdict);
      expect((await resolve({ verdict: 'false_alarm', reason: 'no_signal' }).expect(400)).body).toEqual(note);
      expect((await resolve({ verdict: 'false_alarm', reason: 'no_signal', note: '   ' }).expect(400)).body).toEqual(note);
      expect((await resolve({ verdict: 'false_alarm', reason: 'no_signal', note: 'x'.repeat(2001) }).expect(400)).body).toEqual({
        message: 'The note must be at most 2000 characters',
        field: 'note',
      });
      expect((await alarms()).find((a) => a.id === alarm.id)).toMatchObject({ state: 'acknowledged', verdict: null });
    });

    it('resolves with the verdict and note; the alarm leaves the open list, and a second resolve is a 409', async () => {
      const res = await superadmin.agent
        .post(`/api/alarms/${alarm.id}/resolve`)
        .set(XHR)
        .send({ verdict: 'false_alarm', reason: 'no_signal', note: '  Phone battery died; called her, she is fine  ' })
        .expect(200);
      expect(res.body).toMatchObject({
        id: alarm.id,
        state: 'resolved',
        acknowledgedBy: admin.id,
        resolvedBy: superadmin.id,
        resolvedByName: 'Super Admin',
        resolvedAt: expect.any(String),
        verdict: 'false_alarm',
        reason: 'no_signal',
        note: 'Phone battery died; called her, she is fine',
      });
      expect(res.body.history).toContain('Resolved by Super Admin (false alarm: no signal)');
      expect((await alarms()).some((a) => a.id === alarm.id)).toBe(false);
      // History may still gain the outcome of a call that was under way.
      expect((await alarms('?open=false')).find((a) => a.id === alarm.id)).toEqual({ ...res.body, history: expect.any(Array) });

      const second = await admin.agent
        .post(`/api/alarms/${alarm.id}/resolve`)
        .set(XHR)
        .send({ verdict: 'genuine', severity: 'minor', note: 'Again' })
        .expect(409);
      expect(second.body.message).toEqual(expect.any(String));
      expect((await alarms('?open=false')).find((a) => a.id === alarm.id)).toMatchObject({
        verdict: 'false_alarm',
        reason: 'no_signal',
        resolvedBy: superadmin.id,
      });
    });

    it('an unknown alarm is a 404 and an id that is not a uuid a 400 naming it', async () => {
      const unknown = randomUUID();
      await admin.agent.post(`/api/alarms/${unknown}/acknowledge`).set(XHR).expect(404);
      await admin.agent
        .post(`/api/alarms/${unknown}/resolve`)
        .set(XHR)
        .send({ verdict: 'genuine', severity: 'minor', note: 'n' })
        .expect(404);
      for (const path of ['/api/alarms/42/acknowledge', '/api/alarms/not-a-uuid/resolve']) {
        expect((await admin.agent.post(path).set(XHR).send({ verdict: 'genuine', severity: 'minor', note: 'n' }).expect(400)).body).toEqual(
          {
            message: 'Invalid alarm ID',
            field: 'id',
          },
        );
      }
    });
  });

  describe('the alarm list', () => {
    it('is newest first, a page at a time with X-Next-Cursor, and validates its query', async () => {
      const a = await onShift();
      const b = await onShift();
      await dueNow(a.id).expect(200);
      await alarmOf(a.id, 'missed_check_in');
      await dueNow(b.id).expect(200);
      await alarmOf(b.id, 'missed_check_in');

      const all = await alarms('?open=false&limit=500');
      const opened = all.map((x) => Date.parse(x.openedAt as string));
      expect(opened).toEqual([...opened].sort((x, y) => y - x));
      expect(all.findIndex((x) => x.userId === b.id)).toBeLessThan(all.findIndex((x) => x.userId === a.id));

      const seen: Alarm[] = [];
      let cursor: string | undefined;
      do {
        const res = await admin.agent
          .get(`/api/alarms?open=false&limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`)
          .expect(200);
        expect(res.body.length).toBeLessThanOrEqual(1);
        seen.push(...res.body);
        cursor = res.headers['x-next-cursor'];
      } while (cursor && seen.length <= all.length + 10);
      // Other workers' deadlines may pass meanwhile: a newer alarm may lead the walk, but none repeats or goes missing.
      const walked = seen.map((x) => x.id);
      expect(new Set(walked).size).toBe(walked.length);
      const known = new Set(all.map((x) => x.id));
      expect(walked.filter((id) => known.has(id))).toEqual(all.map((x) => x.id));

      expect((await admin.agent.get('/api/alarms?limit=0').expect(400)).body).toEqual({
        message: 'limit must be a whole number from 1 to 500',
        field: 'limit',
      });
      expect((await admin.agent.get('/api/alarms?limit=501').expect(400)).body.field).toBe('limit');
      expect((await admin.agent.get('/api/alarms?open=maybe').expect(400)).body).toEqual({
        message: "open must be 'true' or 'false'",
        field: 'open',
      });
    });
  });

  describe('process-missed-check-ins', () => {
    it('runs what is due now and answers {processed, results}', async () => {
      const res = await admin.agent.post('/api/process-missed-check-ins').set(XHR).expect(200);
      expect(res.body).toEqual({ processed: expect.any(Number), results: expect.any(Array) });
      expect(res.body.processed).toBeGreaterThanOrEqual(0);
      for (const r of res.body.results) expect(r).toEqual({ userId: expect.any(Number), status: expect.any(String) });
    });
  });

  describe('test-reminders/status', () => {
    it('shows each worker on shift with their next check-in and the minutes until it', async () => {
      const w = await onShift();
      const set = (await simulate(w.id, { minutesUntilDue: 30 }).expect(200)).body.nextCheckInTime;
      // Escalation follows the moved deadline from shifts' event, within moments.
      const res = await found(async () => {
        const r = await superadmin.agent.get('/api/test-reminders/status').expect(200);
        return r.body.workers.some((x: { id: number; nextCheckIn: string }) => x.id === w.id && x.nextCheckIn === set) ? r : undefined;
      }, 200);
      expect(res.body).toEqual({
        reminderSystemActive: true,
        activeWorkers: expect.any(Number),
        now: expect.any(String),
        workers: expect.any(Array),
      });
      expect(res.body.activeWorkers).toBeGreaterThanOrEqual(1);
      const mine = res.body.workers.find((x: { id: number }) => x.id === w.id);
      expect(mine).toEqual({
        id: w.id,
        name: 'worker person',
        phone: expect.stringMatching(/^\+447911/),
        nextCheckIn: set,
        minutesUntil: expect.any(Number),
        due5min: false,
        due2min: false,
      });
      expect(Math.abs(mine.minutesUntil - (Date.parse(set) - Date.parse(res.body.now)) / MINUTE)).toBeLessThan(1);
    });
  });

  describe('system-config', () => {
    it('shows the deployment’s emergency numbers and call timeout, read-only, and nothing else', async () => {
      const res = await superadmin.agent.get('/api/system-config').expect(200);
      expect(res.body).toEqual([
        { key: 'EMERGENCY_NUMBER_1', value: EMERGENCY_NUMBER },
        { key: 'EMERGENCY_NUMBER_2', value: '' },
        { key: 'EMERGENCY_NUMBER_3', value: '' },
        { key: 'EMERGENCY_CALL_TIMEOUT', value: '60' },
      ]);
      expect(JSON.stringify(res.body)).not.toContain(t.superadmin.password);
      await superadmin.agent.post('/api/system-config').set(XHR).send({ key: 'EMERGENCY_NUMBER_1', value: '+447911000000' }).expect(404);
      await superadmin.agent.patch('/api/system-config').set(XHR).send({ key: 'EMERGENCY_NUMBER_1', value: '+447911000000' }).expect(404);
      expect((await superadmin.agent.get('/api/system-config').expect(200)).body[0]).toEqual({
        key: 'EMERGENCY_NUMBER_1',
        value: EMERGENCY_NUMBER,
      });
    });
  });

  describe('an emergency resets the worker’s timer on the server', () => {
    it('records a check-in at the shift’s location, moves the deadline one interval on, and the emergency alarm still opens', async () => {
      const w = await onShift();
      await simulate(w.id, { minutesUntilDue: 4 }).expect(200);
      expect(await listed('due', w.id)).toBe(true);

      const before = await serverNow();
      const res = await w.agent.post('/api/emergency-call').set(XHR).send({ userId: w.id, emergency: true }).expect(200);
      const user: BrowserWorker = res.body.user;
      expect(user).toMatchObject({ id: w.id, onShift: true, location: SITE });
      expect(user.latestCheckIn).toEqual({
        id: expect.any(String),
        timestamp: expect.any(String),
        location: SITE,
        nextCheckInTime: user.nextCheckInTime,
      });
      expect(near(user.latestCheckIn!.timestamp, before)).toBe(true);
      expect(Date.parse(user.nextCheckInTime!) - Date.parse(user.latestCheckIn!.timestamp)).toBe(60 * MINUTE);

      expect((await w.agent.get(`/api/users/${w.id}/latest-check-in`).expect(200)).body).toEqual(user.latestCheckIn);
      expect(await listed('due', w.id)).toBe(false);
      expect(await listed('missed', w.id)).toBe(false);

      const raised = await found(async () => (await streamEvents(t, 'shifts.emergency.raised.v1')).find((e) => e.data.userId === w.id));
      const recorded = await found(async () => (await streamEvents(t, 'shifts.checkin.recorded.v1')).find((e) => e.data.userId === w.id));
      expect(recorded.data).toEqual({
        checkInId: user.latestCheckIn!.id,
        shiftId: raised.data.shiftId,
        userId: w.id,
        location: SITE,
        checkedInAt: raised.data.raisedAt,
        nextCheckInAt: user.nextCheckInTime,
        // The reset is the change right after the emergency, in the same transaction.
        workerVersion: (raised.data.workerVersion as number) + 1,
      });

      const emergency = await alarmOf(w.id, 'emergency');
      expect(emergency).toMatchObject({ kind: 'emergency', location: SITE });
      expect(emergency.state).not.toBe('resolved');
    });

    it('off shift there is no timer: the emergency is raised and nothing is recorded as a check-in', async () => {
      const w = await newWorker();
      const res = await w.agent.post('/api/emergency-call').set(XHR).send({ userId: w.id, emergency: true }).expect(200);
      expect(res.body.user).toMatchObject({ id: w.id, onShift: false, latestCheckIn: null, nextCheckInTime: null });
      await eventually(
        async () => (await streamEvents(t, 'shifts.emergency.raised.v1')).some((e) => e.data.userId === w.id),
        EVENT_WAIT_MS,
      );
      expect((await streamEvents(t, 'shifts.checkin.recorded.v1')).some((e) => e.data.userId === w.id)).toBe(false);
    });
  });

  /**
   * Escalation's copy can be behind shifts (a late or lost event). Here the copy is made stale by
   * hand, as a lost event would leave it, and the deadline made to pass; the scheduler must ask
   * shifts before it raises the alarm.
   */
  describe('a missed check-in is confirmed with shifts, which owns the deadline, before the alarm opens', () => {
    let pg: Client;
    beforeAll(async () => {
      pg = new Client({ connectionString: t.env.DATABASE_URL });
      await pg.connect();
    });
    afterAll(() => pg?.end());

    const q = async (text: string, params: unknown[] = []) => (await pg.query(text, params)).rows;
    const reconciled = (userId: number) =>
      q(
        `select payload from escalation.outbox where subject = 'escalation.system_alert.raised.v1' and (payload->'data'->>'userId')::int = $1 and payload->'data'->>'code' = 'deadline_reconciled'`,
        [userId],
      );
    const missedAlarms = (userId: number) =>
      q(`select id from escalation.alarms where user_id = $1 and kind = 'missed_check_in'`, [userId]);
    /** The `checkin:<id>` row made due now, for a deadline that passed a minute ago, as if the event that moved it never came. */
    const passDeadline = (userId: number, shiftId: string) =>
      pg.query(
        `insert into escalation.deadlines (job_key, kind, user_id, step, due_at, version, payload)
         values ('checkin:' || $1::int, 'checkin', $1, 'missed', now(), 100, jsonb_build_object('dueAt', to_char((now() - interval '1 minute') at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'shiftId', $2::text))
         on conflict (job_key) do update set step = 'missed', due_at = now(), version = escalation.deadlines.version + 1, payload = excluded.payload`,
        [userId, shiftId],
      );

    it('a check-in escalation has not heard of: no alarm, the deadline moves to the one shifts holds, and an operator is told', async () => {
      const w = await onShift();
      const [owner] = await found(async () => {
        const rows = await q(`select current_shift_id, next_check_in_at from shifts.worker_state where user_id = $1`, [w.id]);
        const copy = await q(`select 1 from escalation.deadlines where job_key = $1`, [`checkin:${w.id}`]);
        return rows.length && copy.length ? rows : undefined;
      });
      await passDeadline(w.id, owner.current_shift_id);
      await found(async () => ((await reconciled(w.id)).length > 0 ? true : undefined), 200);
      const [row] = await q(`select payload->>'dueAt' as due from escalation.deadlines where job_key = $1`, [`checkin:${w.id}`]);
      expect(Date.parse(row.due)).toBe(owner.next_check_in_at.getTime());
      expect(await missedAlarms(w.id)).toEqual([]);
    });

    it('a shift that ended without escalation hearing: no alarm, and the worker is off shift in its copy too', async () => {
      const w = await onShift();
      const [owner] = await found(async () => {
        const rows = await q(`select current_shift_id from shifts.worker_state where user_id = $1 and on_shift`, [w.id]);
        const copy = await q(`select 1 from escalation.deadlines where job_key = $1`, [`checkin:${w.id}`]);
        return rows.length && copy.length ? rows : undefined;
      });
      await superadmin.agent.post(`/api/users/${w.id}/force-clock-out`).set(XHR).expect(200);
      await found(async () =>
        (await q(`select 1 from escalation.workers where user_id = $1 and not on_shift`, [w.id])).length ? true : undefined,
      );
      // The end is lost: escalation's copy still has the worker on shift, with a deadline that passes.
      await pg.query(`delete from escalation.ended_shifts where shift_id = $1`, [owner.current_shift_id]);
      await pg.query(
        `update escalation.workers set on_shift = true, shift_id = $2, next_check_in_at = now() - interval '1 minute' where user_id = $1`,
        [w.id, owner.current_shift_id],
      );
      await passDeadline(w.id, owner.current_shift_id);
      await found(async () => ((await reconciled(w.id)).length > 0 ? true : undefined), 200);
      expect(await missedAlarms(w.id)).toEqual([]);
      expect(await q(`select on_shift from escalation.workers where user_id = $1`, [w.id])).toEqual([{ on_shift: false }]);
    });

    it('a worker shifts has no record of at all: the alarm opens all the same', async () => {
      const userId = 1_900_000 + Math.floor(Math.random() * 1000);
      await pg.query(
        `insert into escalation.workers (user_id, name, phone, role, on_shift, shift_id, location, next_check_in_at, deadline_as_of)
         values ($1, 'Ghost Worker', '+447911999999', 'worker', true, $2, $3, now() - interval '1 minute', now())`,
        [userId, randomUUID(), SITE],
      );
      await passDeadline(userId, randomUUID());
      await found(async () => ((await missedAlarms(userId)).length === 1 ? true : undefined), 200);
      expect(await reconciled(userId)).toEqual([]);
    });
  });
});
