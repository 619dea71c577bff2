import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { eventually } from '@lws/testing';
import { startTestStack, XHR, type TestStack } from './support/test-stack';
import { nextMobile, signIn, superadminOf, type Account } from './support/accounts';

/**
 * Timed visits on the whole stack (real PostgreSQL, NATS, Redis; test clock): a visit's end is the
 * worker's deadline when it comes first, and its alarm is marked as the visit's; the note is sealed
 * at rest, shown to nobody while all is well, and revealed on the alarm to whoever handles it, each
 * read logged; the PIN ends a visit and brings the regular interval back, the duress PIN silently.
 */

const EVENT_WAIT_MS = 30_000;
const MINUTE = 60_000;
const NOTE = 'Flat 3: client known to be aggressive, large dog';

interface Worker extends Account {
  pin: string;
  duressPin: string;
}

interface Visit {
  id: string;
  where: string;
  startedAt: string;
  endsAt: string;
  hasNote: boolean;
}

interface Alarm {
  id: string;
  userId: number;
  kind: string;
  duress: boolean;
  dueAt: string | null;
  history: string[];
  visit: Visit | null;
}

describe('timed visits and sealed notes (real PostgreSQL, NATS, Redis; whole stack, test clock)', () => {
  let t: TestStack;
  let superadmin: Account;
  let db: Client;
  let depot: string;
  let nextPin = 4600;

  beforeAll(async () => {
    // Positions and notes past their retention go within a second here, not the hour of production.
    t = await startTestStack({ env: { LWS_TEST_CLOCK: '1', LOGIN_MAX_ATTEMPTS_PER_IP: '1000', POSITIONS_PURGE_INTERVAL_SECONDS: '1' } });
    superadmin = await superadminOf(t);
    db = new Client({ connectionString: t.env.DATABASE_URL });
    await db.connect();
    depot = `Depot ${randomUUID().slice(0, 8)}`;
    await superadmin.agent.post('/api/location-options').set(XHR).send({ name: depot, isActive: true }).expect(201);
  }, 120_000);

  afterAll(async () => {
    await db?.end();
    await t?.stop();
  });

  async function onShift(): Promise<Worker> {
    const username = `vi${Math.random().toString(36).slice(2, 9)}`;
    const pin = String(nextPin++);
    const duressPin = String(Number(pin) + 5000);
    const res = await superadmin.agent
      .post('/api/users')
      .set(XHR)
      .send({ username, password: 'Secret1pass', name: `Worker ${username}`, phone: nextMobile(), role: 'worker', pinCode: pin })
      .expect(201);
    const agent = await signIn(t, username, 'Secret1pass');
    const w: Worker = { id: res.body.user.id, username, password: 'Secret1pass', role: 'worker', agent, pin, duressPin };
    await agent.put(`/api/users/${w.id}/duress-pin`).set(XHR).send({ currentPin: pin, duressPin }).expect(200);
    await eventually(
      async () => (await agent.post(`/api/users/${w.id}/start-shift`).set(XHR).send({ location: depot })).status === 200,
      EVENT_WAIT_MS,
      100,
    );
    return w;
  }

  const startVisit = (w: Worker, body: object) => w.agent.post(`/api/users/${w.id}/start-visit`).set(XHR).send(body);
  const endVisit = (w: Worker, pin: string) => w.agent.post(`/api/users/${w.id}/end-visit`).set(XHR).send({ pin });
  const advance = (minutes: number) => superadmin.agent.post('/api/test-clock').set(XHR).send({ advanceMinutes: minutes }).expect(200);
  const now = async () => Date.parse((await superadmin.agent.get('/api/time').expect(200)).body.now);
  const alarms = async (userId: number) =>
    ((await superadmin.agent.get('/api/alarms?open=false&limit=500').expect(200)).body as Alarm[]).filter((a) => a.userId === userId);
  const alarmOf = (userId: number, where: (a: Alarm) => boolean = () => true) =>
    eventually(async () => (await alarms(userId)).find(where), EVENT_WAIT_MS, 200) as Promise<Alarm>;
  const activity = async (agent: Account['agent'], userId: number) =>
    ((await agent.get(`/api/activity-logs?userId=${userId}`).expect(200)).body as { type: string; details: string }[]).map(
      (e) => e.details,
    );
  /** What escalation waits for of the worker: the deadline of its copy. */
  const watchedDeadline = async (userId: number) =>
    (
      (await db.query('select next_check_in_at from escalation.workers where user_id = $1', [userId])).rows[0]?.next_check_in_at as
        | Date
        | undefined
    )?.toISOString();

  it("a visit that ends late alarms at the visit's end, not the regular deadline, marked as the visit's", async () => {
    const w = await onShift();
    const regular = (await w.agent.get(`/api/users/${w.id}/with-relations`).expect(200)).body.nextCheckInTime as string;
    const started = (await startVisit(w, { where: '  12 Oak Street  ', minutes: 15 }).expect(200)).body;
    const visit = started.visit as Visit;
    expect(visit).toEqual({
      id: expect.any(String),
      where: '12 Oak Street',
      startedAt: expect.any(String),
      endsAt: expect.any(String),
      hasNote: false,
      type: null,
      checkInInterval: null,
    });
    expect(Date.parse(visit.endsAt) - Date.parse(visit.startedAt)).toBe(15 * MINUTE);
    // The visit's end comes before the regular deadline: it is the deadline now, and escalation waits for it.
    expect(Date.parse(regular)).toBeGreaterThan(Date.parse(visit.endsAt));
    expect(started.nextCheckInTime).toBe(visit.endsAt);
    await eventually(async () => (await watchedDeadline(w.id)) === visit.endsAt, EVENT_WAIT_MS, 100);
    // The dashboards show the visit.
    const active = (await superadmin.agent.get('/api/workers/active?limit=1000').expect(200)).body as { id: number; visit: Visit | null }[];
    expect(active.find((a) => a.id === w.id)?.visit).toEqual(visit);
    // Starting again (a double submit) answers the visit in progress.
    expect((await startVisit(w, { where: 'Elsewhere', minutes: 60 }).expect(200)).body.visit).toEqual(visit);

    await advance(14);
    expect(await alarms(w.id)).toEqual([]);
    await advance(2);
    const alarm = await alarmOf(w.id);
    expect(alarm.kind).toBe('missed_check_in');
    expect(alarm.dueAt).toBe(visit.endsAt);
    expect(alarm.visit).toEqual(visit);
    expect(alarm.history[0]).toMatch(/^Missed check-in due at \d\d:\d\d; on a visit to 12 Oak Street \(its timer ran out\)$/);

    // Ending the visit with the PIN answers the alarm as a late check-in, and the regular interval is back.
    const ended = (await endVisit(w, w.pin).expect(200)).body;
    expect(ended.visit).toBeNull();
    expect(Date.parse(ended.nextCheckInTime) - (await now())).toBeGreaterThan(59 * MINUTE);
    await eventually(
      async () => (await alarmOf(w.id)).history.some((h) => /^Late check-in at \d\d:\d\d: no further steps$/.test(h)),
      EVENT_WAIT_MS,
      200,
    );
    expect(await activity(superadmin.agent, w.id)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^Started a visit to 12 Oak Street until \d\d:\d\d; next check-in due at \d\d:\d\d$/),
        'Ended the visit with the PIN',
      ]),
    );
  });

  it('the sealed note is kept encrypted and shown to nobody until the alarm; then those handling it read it, each read logged', async () => {
    const w = await onShift();
    const visit = (await startVisit(w, { where: 'Flat 3, Mill Lane', minutes: 20, note: `  ${NOTE}  ` }).expect(200)).body.visit as Visit;
    expect(visit.hasNote).toBe(true);

    // At rest it is sealed; no screen or answer holds it while all is well.
    const { rows } = await db.query('select sealed_note from shifts.visits where id = $1', [visit.id]);
    expect(rows[0].sealed_note).toMatch(/^v1\./);
    expect(rows[0].sealed_note).not.toContain('aggressive');
    const seen = [
      (await w.agent.get(`/api/users/${w.id}/with-relations`).expect(200)).body,
      (await superadmin.agent.get(`/api/users/${w.id}/with-relations`).expect(200)).body,
      (await superadmin.agent.get('/api/workers/active?limit=1000').expect(200)).body,
      await activity(superadmin.agent, w.id),
    ];
    for (const body of seen) expect(JSON.stringify(body)).not.toContain('aggressive');

    // An alarm of another kind (not on a visit) has no note to read.
    const other = await onShift();
    await superadmin.agent.post(`/api/simulate-check-in-due/${other.id}`).set(XHR).expect(200);
    const plain = await alarmOf(other.id);
    expect(plain.visit).toBeNull();
    const none = await superadmin.agent.post(`/api/alarms/${plain.id}/visit-note`).set(XHR).expect(404);
    expect(none.body.message).toBe('This alarm has no sealed visit note');

    // The visit's timer runs out: its alarm reveals the note to the monitor who asks, and says who read it.
    await advance(21);
    const alarm = await alarmOf(w.id);
    expect(alarm.visit).toEqual(visit);
    expect(alarm.history[0]).toMatch(/its timer ran out\); it has a sealed note$/);
    expect(JSON.stringify(alarm)).not.toContain('aggressive');
    const read = await superadmin.agent.post(`/api/alarms/${alarm.id}/visit-note`).set(XHR).expect(200);
    expect(read.body).toEqual({ note: NOTE });
    await eventually(
      async () => (await activity(superadmin.agent, w.id)).some((d) => /^.+ read the sealed note of the visit, on its alarm$/.test(d)),
      EVENT_WAIT_MS,
      200,
    );
    await eventually(async () => (await alarmOf(w.id)).history.some((h) => /^Sealed visit note read by .+/.test(h)), EVENT_WAIT_MS, 200);
    // The worker's own log does not say who looked.
    expect((await activity(w.agent, w.id)).some((d) => d.includes('read the sealed note'))).toBe(false);
    // A worker cannot read it.
    await w.agent.post(`/api/alarms/${alarm.id}/visit-note`).set(XHR).expect(403);

    // Thirty days after the shift ends, the note and the address go with the visit's positions.
    await w.agent.post(`/api/users/${w.id}/end-shift`).set(XHR).send({ pin: w.pin }).expect(200);
    await db.query(
      "update shifts.shifts set ended_at = now() - interval '31 days' where id = (select shift_id from shifts.visits where id = $1)",
      [visit.id],
    );
    await eventually(
      async () => (await db.query('select purged_at from shifts.visits where id = $1', [visit.id])).rows[0].purged_at !== null,
      EVENT_WAIT_MS,
      500,
    );
    const gone = await db.query('select "where", sealed_note from shifts.visits where id = $1', [visit.id]);
    expect(gone.rows[0]).toEqual({ where: null, sealed_note: null });
    const late = await superadmin.agent.post(`/api/alarms/${alarm.id}/visit-note`).set(XHR).expect(410);
    expect(late.body.message).toBe("This visit's note was deleted 30 days after the shift ended");
  });

  it('the duress PIN ends a visit exactly as the PIN does, while monitors get a duress alarm of the visit with its note', async () => {
    const [calm, forced] = [await onShift(), await onShift()];
    for (const w of [calm, forced]) await startVisit(w, { where: 'Block B', minutes: 45, note: NOTE }).expect(200);

    const byPin = (await endVisit(calm, calm.pin).expect(200)).body;
    const byDuress = (await endVisit(forced, forced.duressPin).expect(200)).body;
    const shape = (b: Record<string, unknown>) => ({
      ...b,
      id: 0,
      name: 0,
      username: 0,
      phone: 0,
      latestCheckIn: 0,
      nextCheckInTime: 0,
      shiftStartTime: 0,
    });
    expect(shape(byDuress)).toEqual(shape(byPin));
    expect(byDuress.visit).toBeNull();
    // Nothing on the worker's side shows it: no emergency of theirs, nothing in their log.
    expect((await forced.agent.get(`/api/users/${forced.id}/emergency`).expect(200)).body).toEqual(
      (await calm.agent.get(`/api/users/${calm.id}/emergency`).expect(200)).body,
    );
    const duress = await alarmOf(forced.id, (a) => a.duress);
    expect(duress.kind).toBe('emergency');
    expect(duress.visit).toMatchObject({ where: 'Block B', hasNote: true });
    expect((await superadmin.agent.post(`/api/alarms/${duress.id}/visit-note`).set(XHR).expect(200)).body.note).toBe(NOTE);
    expect((await activity(forced.agent, forced.id)).some((d) => /duress|read the sealed note/i.test(d))).toBe(false);
    expect(await alarms(calm.id)).toEqual([]);
  });

  it("a team's visit type sets the check-in interval while the visit lasts, and its alarm escalates by the type's own policy", async () => {
    const locationId = ((await superadmin.agent.get('/api/location-options').expect(200)).body as { id: number; name: string }[]).find(
      (l) => l.name === depot,
    )!.id;
    const highRisk = {
      name: 'Home visit, high risk',
      minutes: 20,
      checkInInterval: 10,
      smsToo: true,
      // The type's alarms call the team's emergency number at once; the team's own only tell its monitors.
      escalationPolicy: {
        missed_check_in: [
          { action: 'notify_monitors', after: 0 },
          { action: 'call_emergency_numbers', after: 0 },
        ],
      },
    };
    const created = await superadmin.agent
      .post('/api/teams')
      .set(XHR)
      .send({
        name: `Outreach ${randomUUID().slice(0, 6)}`,
        locationIds: [locationId],
        emergencyNumbers: ['+447700900123'],
        escalationPolicy: { missed_check_in: [{ action: 'notify_monitors', after: 0 }] },
        visitTypes: [highRisk, { name: 'Home visit, low risk', minutes: 60 }],
      })
      .expect(201);
    const types = created.body.visitTypes as { id: string; name: string }[];
    expect(types.map((v) => v.name)).toEqual(['Home visit, high risk', 'Home visit, low risk']);
    expect(created.body.visitTypes[1]).toEqual({
      id: expect.any(String),
      name: 'Home visit, low risk',
      minutes: 60,
      checkInInterval: null,
      smsToo: false,
      escalationPolicy: null,
    });
    // The same name twice is refused by name, and nothing is written.
    const twice = await superadmin.agent
      .patch(`/api/teams/${created.body.id}`)
      .set(XHR)
      .send({ visitTypes: [highRisk, { ...highRisk, name: 'HOME VISIT, HIGH RISK' }] })
      .expect(400);
    expect(twice.body.field).toBe('visitTypes.1.name');
    // A change to another field keeps the types and their ids.
    const renamed = await superadmin.agent.patch(`/api/teams/${created.body.id}`).set(XHR).send({ voiceReminder: false }).expect(200);
    expect(renamed.body.visitTypes.map((v: { id: string }) => v.id)).toEqual(types.map((v) => v.id));

    const username = `vt${Math.random().toString(36).slice(2, 9)}`;
    const pin = String(nextPin++);
    const user = await superadmin.agent
      .post('/api/users')
      .set(XHR)
      .send({
        username,
        password: 'Secret1pass',
        name: `Worker ${username}`,
        phone: nextMobile(),
        role: 'worker',
        pinCode: pin,
        teamId: created.body.id,
      })
      .expect(201);
    const agent = await signIn(t, username, 'Secret1pass');
    const w: Worker = { id: user.body.user.id, username, password: 'Secret1pass', role: 'worker', agent, pin, duressPin: '' };
    await eventually(
      async () => (await agent.post(`/api/users/${w.id}/start-shift`).set(XHR).send({ location: depot })).status === 200,
      EVENT_WAIT_MS,
      100,
    );
    // The worker's screen reads the types, never their policies.
    const team = (await agent.get(`/api/users/${w.id}/with-relations`).expect(200)).body.team;
    expect(team.visitTypes[0]).toEqual({ id: types[0].id, name: 'Home visit, high risk', minutes: 20, checkInInterval: 10, smsToo: true });

    const unknown = await startVisit(w, { where: 'Flat 8', minutes: 20, visitTypeId: 'no-such-type' }).expect(400);
    expect(unknown.body).toMatchObject({ field: 'visitTypeId', message: "That visit type is not one of your team's" });
    const started = (await startVisit(w, { where: 'Flat 8', minutes: 20, visitTypeId: types[0].id }).expect(200)).body;
    expect(started.visit).toMatchObject({ type: { id: types[0].id, name: 'Home visit, high risk' }, checkInInterval: 10 });
    // Check-ins every 10 minutes while it lasts: the first is due 10 minutes in, before the visit's end.
    expect(Date.parse(started.nextCheckInTime) - Date.parse(started.visit.startedAt)).toBe(10 * MINUTE);
    const active = (await superadmin.agent.get('/api/workers/active?limit=1000').expect(200)).body as {
      id: number;
      visit: Visit & { type: unknown };
    }[];
    expect(active.find((a) => a.id === w.id)?.visit.type).toEqual({ id: types[0].id, name: 'Home visit, high risk' });

    await advance(11);
    const alarm = await alarmOf(w.id);
    expect(alarm.dueAt).toBe(started.nextCheckInTime);
    expect(alarm.visit).toMatchObject({ type: { id: types[0].id, name: 'Home visit, high risk' } });
    // The type's policy: the emergency number is called at once.
    await eventually(async () => (await alarmOf(w.id)).history.some((h) => h.includes('+447700900123')), EVENT_WAIT_MS, 200);
  });

  it('a visit extended by "+15 min" alarms at its new end, which its alarm shows', async () => {
    const w = await onShift();
    await startVisit(w, { where: 'Unit 12', minutes: 10 }).expect(200);
    const extended = (await w.agent.post('/api/check-ins/extend').set(XHR).send({ userId: w.id, minutes: 15 }).expect(200)).body;
    await eventually(async () => (await watchedDeadline(w.id)) === extended.visit.endsAt, EVENT_WAIT_MS, 100);
    await advance(24);
    expect(await alarms(w.id)).toEqual([]);
    await advance(2);
    const alarm = await alarmOf(w.id);
    expect(alarm.dueAt).toBe(extended.visit.endsAt);
    expect(alarm.visit?.endsAt).toBe(extended.visit.endsAt);
    expect(alarm.history[0]).toMatch(/on a visit to Unit 12 \(its timer ran out\)$/);
  });

  it('"+15 min" moves the visit\'s end; a check-in during the visit keeps its end as the deadline; ending needs the right PIN', async () => {
    const w = await onShift();
    const visit = (await startVisit(w, { where: 'Unit 9', minutes: 20 }).expect(200)).body.visit as Visit;
    const extended = (await w.agent.post('/api/check-ins/extend').set(XHR).send({ userId: w.id, minutes: 15 }).expect(200)).body;
    expect(Date.parse(extended.visit.endsAt) - Date.parse(visit.endsAt)).toBe(15 * MINUTE);
    expect(extended.nextCheckInTime).toBe(extended.visit.endsAt);

    const checkedIn = (await w.agent.post('/api/check-ins').set(XHR).send({ userId: w.id, pin: w.pin }).expect(201)).body;
    expect(checkedIn.nextCheckInTime).toBe(extended.visit.endsAt);

    const wrong = await endVisit(w, '0000').expect(400);
    expect(wrong.body.field).toBe('pin');
    expect((await w.agent.get(`/api/users/${w.id}/with-relations`).expect(200)).body.visit.id).toBe(visit.id);

    // Bad input names the field and starts nothing.
    const bad = await startVisit(w, { where: 'Unit 9', minutes: 500 }).expect(400);
    expect(bad.body).toMatchObject({ field: 'minutes', message: 'The visit must last from 5 to 240 minutes' });
    await endVisit(w, w.pin).expect(200);
    expect((await endVisit(w, w.pin).expect(409)).body.message).toBe('You are not on a visit');
    const off = await onShift();
    await off.agent.post(`/api/users/${off.id}/end-shift`).set(XHR).send({ pin: off.pin }).expect(200);
    expect((await startVisit(off, { where: 'Unit 9', minutes: 30 }).expect(409)).body.message).toBe('You are not on shift');
  });
});

describe("a visit type's SMS reminders (an organisation that reminds by WhatsApp alone)", () => {
  let t: TestStack;
  let superadmin: Account;
  let db: Client;

  beforeAll(async () => {
    t = await startTestStack({ env: { LWS_TEST_CLOCK: '1', LOGIN_MAX_ATTEMPTS_PER_IP: '1000', REMINDER_CHANNELS: 'whatsapp' } });
    superadmin = await superadminOf(t);
    db = new Client({ connectionString: t.env.DATABASE_URL });
    await db.connect();
  }, 120_000);

  afterAll(async () => {
    await db?.end();
    await t?.stop();
  });

  it('a visit of a type that reminds by SMS too gets its reminders by SMS; a visit of another type does not', async () => {
    const depot = `Depot ${randomUUID().slice(0, 8)}`;
    const location = await superadmin.agent.post('/api/location-options').set(XHR).send({ name: depot, isActive: true }).expect(201);
    const team = await superadmin.agent
      .post('/api/teams')
      .set(XHR)
      .send({
        name: `Lone visits ${randomUUID().slice(0, 6)}`,
        locationIds: [location.body.id],
        visitTypes: [
          { name: 'High risk', minutes: 10, smsToo: true },
          { name: 'Low risk', minutes: 10 },
        ],
      })
      .expect(201);
    const [high, low] = team.body.visitTypes as { id: string }[];
    const visitor = async (typeId: string) => {
      const username = `vs${Math.random().toString(36).slice(2, 9)}`;
      const phone = nextMobile();
      const res = await superadmin.agent
        .post('/api/users')
        .set(XHR)
        .send({ username, password: 'Secret1pass', name: `Worker ${username}`, phone, role: 'worker', teamId: team.body.id })
        .expect(201);
      const agent = await signIn(t, username, 'Secret1pass');
      const id = res.body.user.id as number;
      await eventually(
        async () => (await agent.post(`/api/users/${id}/start-shift`).set(XHR).send({ location: depot })).status === 200,
        EVENT_WAIT_MS,
        100,
      );
      await agent.post(`/api/users/${id}/start-visit`).set(XHR).send({ where: 'Flat 1', minutes: 10, visitTypeId: typeId }).expect(200);
      return { id, phone };
    };
    const [smsToo, plain] = [await visitor(high.id), await visitor(low.id)];
    // Escalation holds both visits' deadlines before the clock moves past their reminders.
    await eventually(
      async () => {
        const { rows } = await db.query('select count(*)::int as n from escalation.workers where user_id = any($1) and visit is not null', [
          [smsToo.id, plain.id],
        ]);
        return rows[0].n === 2;
      },
      EVENT_WAIT_MS,
      100,
    );
    await superadmin.agent.post('/api/test-clock').set(XHR).send({ advanceMinutes: 6 }).expect(200);
    const reminders = async (phone: string) =>
      (
        (await superadmin.agent.get('/api/notifications/deliveries?limit=500').expect(200)).body.deliveries as {
          to: string;
          channel: string;
          purpose: string;
        }[]
      )
        .filter((d) => d.to === phone && d.purpose === 'reminder_5min')
        .map((d) => d.channel)
        .sort();
    await eventually(async () => (await reminders(smsToo.phone)).join() === 'sms,whatsapp', EVENT_WAIT_MS, 200);
    await eventually(async () => (await reminders(plain.phone)).join() === 'whatsapp', EVENT_WAIT_MS, 200);
  });
});
