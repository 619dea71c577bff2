/**
 * Reconciliation of escalation's copies with the services that own the data (the whole stack on
 * real PostgreSQL, NATS and Redis). Each worker's copy in escalation is put in the state a lost
 * event leaves it in (from shifts: the shift start, a check-in, the shift end, an emergency; from
 * identity: a phone, settings and contact change); one round then finds every difference by
 * digest, repairs it through the same code as the event, and tells an operator (a system alert
 * naming the worker in the activity log, lws_reconcile_repairs_total{kind}). A second round finds
 * nothing to repair.
 */
import { Client, type Pool } from 'pg';
import request from 'supertest';
import { RpcClient } from '@lws/messaging';
import { DB, RPC } from '@lws/platform';
import { Reconciler, Scheduler, type RoundResult } from '@lws/escalation';
import { eventually, watchStatements } from '@lws/testing';
import { nextMobile } from './support/accounts';
import { startTestStack, XHR, type TestStack } from './support/test-stack';

const silent = { debug() {}, info() {}, warn() {}, error() {} };
const LOCATION = 'Reconcile Depot';

describe("reconciling escalation's copies with the owners (real PostgreSQL and NATS)", () => {
  let t: TestStack;
  let rpc: RpcClient;
  let db: Client;
  let admin: request.Agent;
  let reconciler: Reconciler;
  let scheduler: Scheduler;
  let escalationApp: { get(token: unknown, options: { strict: false }): unknown };

  beforeAll(async () => {
    // Rounds run when the test says (the start-up round finds an empty copy equal to an empty owner).
    t = await startTestStack({ env: { ESCALATION_RECONCILE_INTERVAL_SECONDS: '3600', ESCALATION_RECONCILE_GRACE_SECONDS: '0' } });
    rpc = await RpcClient.create({ mode: 'nats', natsUrl: t.env.NATS_URL!, subjectPrefix: t.env.SUBJECT_PREFIX, logger: silent });
    db = new Client({ connectionString: t.env.DATABASE_URL });
    await db.connect();
    admin = request.agent(t.url);
    await admin.post('/api/auth/login').set(XHR).send({ username: t.superadmin.username, password: t.superadmin.password }).expect(200);
    await admin.post('/api/location-options').set(XHR).send({ name: LOCATION }).expect(201);
    const escalation = t.stack.services.find((s) => s.name === 'escalation');
    if (!escalation || !('app' in escalation)) throw new Error('no escalation service in the stack');
    reconciler = escalation.app.get(Reconciler, { strict: false });
    scheduler = escalation.app.get(Scheduler, { strict: false });
    escalationApp = escalation.app;
  }, 120_000);

  afterAll(async () => {
    await db?.end();
    await rpc?.close();
    await t?.stop();
  });

  const newWorker = async (name: string): Promise<number> => {
    const username = `rec${Math.random().toString(36).slice(2, 9)}`;
    const { body } = await admin
      .post('/api/users')
      .set(XHR)
      .send({ username, password: 'Secret1pass', name, phone: nextMobile(), role: 'worker' })
      .expect(201);
    return body.user.id as number;
  };

  /** What escalation watches for a worker: on shift, the deadline of its copy, and whether a deadline row (the next step) exists. */
  const watched = async (userId: number) => {
    const { rows } = await db.query(
      `select w.on_shift, w.shift_id, w.next_check_in_at, d.due_at from escalation.workers w
         left join escalation.deadlines d on d.job_key = 'checkin:' || w.user_id where w.user_id = $1`,
      [userId],
    );
    return rows[0] as { on_shift: boolean; shift_id: string | null; next_check_in_at: Date | null; due_at: Date | null } | undefined;
  };
  const forgetAlarm = async (alarmId: string) => {
    await db.query('begin');
    for (const table of ['notification_requests', 'calls', 'alarm_events'])
      await db.query(`delete from escalation.${table} where alarm_id = $1`, [alarmId]);
    await db.query("delete from escalation.deadlines where job_key = 'alarm:' || $1", [alarmId]);
    await db.query('delete from escalation.alarms where id = $1', [alarmId]);
    await db.query('commit');
  };
  const ownerState = async (userId: number) => (await rpc.send('shifts.worker.states.v1', { userIds: [userId] })).workers[0];
  const inSync = async (userId: number) => {
    const [w, o] = await Promise.all([watched(userId), ownerState(userId)]);
    return !!w && w.on_shift === o.onShift && (o.onShift ? w.next_check_in_at?.toISOString() === o.nextCheckInAt && !!w.due_at : true);
  };
  const startShift = async (userId: number) => {
    const { worker } = await eventually(() => rpc.send('shifts.shift.start.v1', { userId, location: LOCATION }), 20_000, 200);
    await eventually(() => inSync(userId), 20_000, 100);
    return worker;
  };
  const repairAlerts = async (userIds: number[]) =>
    (
      await db.query(
        `select user_id, details from audit.entries where type = 'system_alert' and user_id = any($1) and details like 'Reconciliation: %' order by user_id`,
        [userIds],
      )
    ).rows as { user_id: number; details: string }[];
  const repairsCounted = async (): Promise<Record<string, number>> => {
    const text = await (await fetch(t.stack.metricsUrl)).text();
    const counts: Record<string, number> = {};
    for (const m of text.matchAll(/^lws_reconcile_repairs_total\{[^}]*kind="(\w+)"[^}]*\} (\d+)/gm)) counts[m[1]] = Number(m[2]);
    return counts;
  };

  it('the start-up rounds run once the consumers do, and find nothing to repair', async () => {
    // A round before escalation's consumers exist could not tell a backlog from a loss (and failed on it).
    const rounds = async () => (await (await fetch(t.stack.metricsUrl)).text()).match(/^lws_reconcile_rounds_total\{[^}]*\} \d+$/gm) ?? [];
    const ok = await eventually(
      async () => {
        const found = await rounds();
        return found.filter((l) => l.includes('outcome="ok"')).length === 2 ? found : undefined;
      },
      20_000,
      200,
    );
    expect(ok.filter((l) => l.includes('outcome="failed"'))).toEqual([]);
    expect(t.logs.filter((l) => l.includes('reconciliation with'))).toEqual([]);
    // Nothing repaired: escalation heard of the "Default" team the migration made (identity tells it at start).
    expect(await repairsCounted()).toEqual({});
    const { rows } = await db.query(`select name, version from escalation.teams`);
    expect(rows).toEqual([{ name: 'Default', version: 1 }]);
  });

  it('repairs a lost shift start, check-in, shift end and emergency through the event paths, and tells an operator of each', async () => {
    const [lostStart, lostStartPassed, lostCheckIn, lostEnd, lostEmergency] = await Promise.all(
      ['Lost Start', 'Lost Start Passed', 'Lost Checkin', 'Lost End', 'Lost Emergency'].map((n) => newWorker(`Rec ${n}`)),
    );
    for (const id of [lostStart, lostStartPassed, lostCheckIn, lostEnd, lostEmergency]) await startShift(id);
    const before = await repairsCounted();

    // The shift start never reached escalation: it watches nobody.
    const asIfNeverStarted = async (userId: number) => {
      await db.query('delete from escalation.deadlines where user_id = $1', [userId]);
      await db.query(
        'update escalation.workers set on_shift = false, shift_id = null, next_check_in_at = null, deadline_as_of = null, shifts_version = 0 where user_id = $1',
        [userId],
      );
    };
    await asIfNeverStarted(lostStart);
    // The same for a worker whose deadline (moved by a superadmin, also lost) has already passed.
    await rpc.send('shifts.deadline.set.v1', { userId: lostStartPassed, mode: 'minutes_until_due', minutesUntilDue: 0, byUserId: 1 });
    const moved = await ownerState(lostStartPassed);
    await eventually(async () => (await watched(lostStartPassed))?.next_check_in_at?.toISOString() === moved.nextCheckInAt, 20_000, 100);
    // Escalation heard it and raised the alarm; that alarm goes too, as if nothing had come.
    const missed = await eventually(
      async () =>
        (await db.query("select id from escalation.alarms where user_id = $1 and kind = 'missed_check_in'", [lostStartPassed])).rows[0] as
          | { id: string }
          | undefined,
      20_000,
      100,
    );
    await forgetAlarm(missed.id);
    await asIfNeverStarted(lostStartPassed);

    // A check-in escalation never heard: its copy keeps the old deadline, which would raise a false alarm.
    const oldDeadline = (await watched(lostCheckIn))!.next_check_in_at!;
    const { rows: versionRows } = await db.query('select shifts_version from escalation.workers where user_id = $1', [lostCheckIn]);
    const checkIn = await rpc.send('shifts.checkin.record.v1', { userId: lostCheckIn });
    await eventually(() => inSync(lostCheckIn), 20_000, 100);
    await db.query('update escalation.workers set next_check_in_at = $2, deadline_as_of = $2, shifts_version = $3 where user_id = $1', [
      lostCheckIn,
      oldDeadline,
      versionRows[0].shifts_version,
    ]);
    await db.query("update escalation.deadlines set due_at = $2 where job_key = 'checkin:' || $1::int", [lostCheckIn, oldDeadline]);

    // A shift end escalation never heard: it still waits for check-ins from someone off shift.
    const endedShift = (await watched(lostEnd))!;
    await rpc.send('shifts.shift.end.v1', { userId: lostEnd });
    await eventually(async () => !(await watched(lostEnd))!.on_shift, 20_000, 100);
    await db.query('delete from escalation.ended_shifts where shift_id = $1', [endedShift.shift_id]);
    await db.query(
      'update escalation.workers set on_shift = true, shift_id = $2, next_check_in_at = $3, deadline_as_of = now() where user_id = $1',
      [lostEnd, endedShift.shift_id, endedShift.next_check_in_at],
    );
    await db.query(
      `insert into escalation.deadlines (job_key, kind, user_id, step, due_at, payload) values ('checkin:' || $1::int, 'checkin', $1::int, 'reminder_5min', $2, $3)`,
      [lostEnd, new Date(endedShift.next_check_in_at!.getTime() - 5 * 60_000), { shiftId: endedShift.shift_id }],
    );
    expect((await watched(lostEnd))!.due_at).not.toBeNull();

    // An emergency escalation never heard: no alarm, nobody called.
    const { emergencyId } = await rpc.send('shifts.emergency.raise.v1', { userId: lostEmergency });
    const alarmOf = async (id: string) =>
      (await db.query('select id, state from escalation.alarms where emergency_id = $1', [id])).rows[0] as { id: string } | undefined;
    const first = await eventually(() => alarmOf(emergencyId), 20_000, 100);
    // Only the emergency is lost: the check-in that resets the worker's timer with it is not urgent,
    // and may still be on its way while the emergency's work holds the rest back (Urgency).
    await eventually(() => inSync(lostEmergency), 20_000, 100);
    await forgetAlarm(first.id);

    const round = (await reconciler.round('shifts')) as RoundResult;
    const byUser = Object.fromEntries(round.repairs.map((r) => [r.userId, r.kind]));
    expect(byUser).toEqual({
      [lostStart]: 'shift_missing',
      [lostStartPassed]: 'shift_missing',
      [lostCheckIn]: 'deadline_stale',
      [lostEnd]: 'shift_ended',
      [lostEmergency]: 'emergency_missing',
    });
    // Only the buckets that differed were fetched.
    expect(round.differing).toBeLessThanOrEqual(5);

    // Escalation now watches exactly what shifts holds.
    for (const id of [lostStart, lostCheckIn, lostEnd]) expect(await inSync(id)).toBe(true);
    expect((await watched(lostCheckIn))!.next_check_in_at!.toISOString()).toBe(checkIn.checkIn!.nextCheckInAt);
    expect((await watched(lostEnd))!).toMatchObject({ on_shift: false, due_at: null });
    // The passed deadline opened its missed check-in alarm at once; the emergency has its alarm.
    await eventually(
      async () =>
        (await db.query("select 1 from escalation.alarms where user_id = $1 and kind = 'missed_check_in'", [lostStartPassed])).rowCount ===
        1,
      20_000,
      100,
    );
    expect(await alarmOf(emergencyId)).toMatchObject({ state: 'open' });
    expect(
      (
        await db.query("select count(*)::int as n from escalation.alarms where user_id = any($1) and kind = 'missed_check_in'", [
          [lostStart, lostCheckIn, lostEnd],
        ])
      ).rows[0].n,
    ).toBe(0);

    // Each repair is in the activity log, naming the worker, and counted by kind.
    const alerts = await eventually(
      async () => {
        const rows = await repairAlerts([lostStart, lostStartPassed, lostCheckIn, lostEnd, lostEmergency]);
        return rows.length >= 5 ? rows : undefined;
      },
      20_000,
      200,
    );
    expect(alerts).toHaveLength(5);
    expect(alerts.map((a) => a.details)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /^Reconciliation: Rec Lost Start is on shift at Reconcile Depot \(shifts\), but escalation had not heard the shift start/,
        ),
        expect.stringMatching(
          /^Reconciliation: Rec Lost Start Passed is on shift .* it has passed, so the missed check-in alarm opens now$/,
        ),
        expect.stringMatching(
          /^Reconciliation: Rec Lost Checkin's check-in deadline is .* in shifts, but escalation was watching .* \(a check-in or change was lost\)/,
        ),
        expect.stringMatching(/^Reconciliation: Rec Lost End's shift ended at .* \(shifts\), but escalation had not heard/),
        expect.stringMatching(
          /^Reconciliation: Rec Lost Emergency raised an emergency at .* that escalation had not heard of; its alarm opens now$/,
        ),
      ]),
    );
    const after = await repairsCounted();
    const grew = (kind: string) => (after[kind] ?? 0) - (before[kind] ?? 0);
    expect({
      shift_missing: grew('shift_missing'),
      deadline_stale: grew('deadline_stale'),
      shift_ended: grew('shift_ended'),
      emergency_missing: grew('emergency_missing'),
    }).toEqual({
      shift_missing: 2,
      deadline_stale: 1,
      shift_ended: 1,
      emergency_missing: 1,
    });

    // Nothing left to repair: the digests agree.
    const again = (await reconciler.round('shifts')) as RoundResult;
    expect(again.repairs).toEqual([]);
    expect(again.differing).toBe(0);
  }, 120_000);

  it("repairs a lost visit start: the visit's end, sooner than the regular deadline, becomes what escalation watches", async () => {
    const userId = await newWorker('Rec Lost Visit');
    await startShift(userId);
    const regular = (await watched(userId))!;
    const { rows: versionRows } = await db.query('select shifts_version from escalation.workers where user_id = $1', [userId]);
    const { worker } = await rpc.send('shifts.visit.start.v1', { userId, where: 'Flat 3, Mill Lane', minutes: 15 });
    expect(worker.nextCheckInAt).toBe(worker.visit!.endsAt);
    await eventually(() => inSync(userId), 20_000, 100);
    // As if the visit's start never reached escalation: it waits for the regular deadline, 45 minutes too late.
    await db.query(
      'update escalation.workers set next_check_in_at = $2, deadline_as_of = $2, shifts_version = $3, visit = null where user_id = $1',
      [userId, regular.next_check_in_at, versionRows[0].shifts_version],
    );
    await db.query("update escalation.deadlines set due_at = $2 where job_key = 'checkin:' || $1::int", [userId, regular.due_at]);
    expect(await inSync(userId)).toBe(false);

    const round = (await reconciler.round('shifts')) as RoundResult;
    expect(round.repairs).toEqual([expect.objectContaining({ userId, kind: 'deadline_stale' })]);
    expect((await watched(userId))!.next_check_in_at!.toISOString()).toBe(worker.visit!.endsAt);
    expect(await inSync(userId)).toBe(true);
  });

  it('counts a second press that joined the open emergency as heard, and joins a lost one to it rather than open a second alarm', async () => {
    const userId = await newWorker('Rec Pressed Twice');
    await startShift(userId);
    const first = await rpc.send('shifts.emergency.raise.v1', { userId });
    const alarmId = await eventually(
      async () =>
        (await db.query('select id from escalation.alarms where emergency_id = $1', [first.emergencyId])).rows[0]?.id as string | undefined,
      20_000,
      100,
    );
    const second = await rpc.send('shifts.emergency.raise.v1', { userId });
    const joinedTo = async (id: string) =>
      (await db.query('select alarm_id from escalation.joined_emergencies where emergency_id = $1', [id])).rows[0]?.alarm_id as
        | string
        | undefined;
    expect(await eventually(() => joinedTo(second.emergencyId), 20_000, 100)).toBe(alarmId);
    // Each press restarted the check-in timer too (shifts' reset): heard before the round.
    await eventually(() => inSync(userId), 20_000, 100);

    const round = (await reconciler.round('shifts')) as RoundResult;
    expect(round.repairs.filter((r) => r.userId === userId)).toEqual([]);

    // The second press's event lost: the round finds the press, and it joins the alarm still escalating.
    await db.query('delete from escalation.joined_emergencies where emergency_id = $1', [second.emergencyId]);
    const repaired = (await reconciler.round('shifts')) as RoundResult;
    expect(repaired.repairs.filter((r) => r.userId === userId).map((r) => r.kind)).toEqual(['emergency_missing']);
    expect(await joinedTo(second.emergencyId)).toBe(alarmId);
    expect(
      (await db.query("select count(*)::int as n from escalation.alarms where user_id = $1 and kind = 'emergency'", [userId])).rows[0].n,
    ).toBe(1);
    await eventually(
      async () =>
        (await repairAlerts([userId])).some((a) =>
          /raised an emergency at .* that escalation had not heard of; it joins their emergency alarm still escalating$/.test(a.details),
        ),
      20_000,
      200,
    );
    expect(((await reconciler.round('shifts')) as RoundResult).repairs.filter((r) => r.userId === userId)).toEqual([]);
  }, 120_000);

  it('repairs a lost phone, settings and contact change from identity, so the next emergency reaches the current numbers', async () => {
    const userId = await newWorker('Rec Contacts');
    const [oldPhone, newPhone, oldPrimary, newPrimary, oldContact, newContact] = Array.from({ length: 6 }, () => nextMobile());
    await rpc.send('identity.user.update_profile.v1', { userId, phone: oldPhone });
    await rpc.send('identity.settings.save.v1', { userId, primaryContact: oldPrimary, checkInInterval: 60 });
    const { contact } = await rpc.send('identity.contact.create.v1', { userId, name: 'Old Friend', phone: oldContact, relation: 'friend' });
    const copy = async () => {
      const { rows: w } = await db.query(
        'select phone, primary_contact, profile_version, settings_version from escalation.workers where user_id = $1',
        [userId],
      );
      const { rows: c } = await db.query(
        'select contact_id, phone, version from escalation.worker_contacts where user_id = $1 and not deleted',
        [userId],
      );
      return { ...w[0], contacts: c };
    };
    const before = await eventually(
      async () => {
        const c = await copy();
        return c.phone === oldPhone && c.primary_contact === oldPrimary && c.contacts[0]?.phone === oldContact ? c : undefined;
      },
      20_000,
      100,
    );

    // The worker changes all three; escalation hears, then its copy is put back as if it never had.
    await rpc.send('identity.user.update_profile.v1', { userId, phone: newPhone });
    await rpc.send('identity.settings.save.v1', { userId, primaryContact: newPrimary, checkInInterval: 60 });
    await rpc.send('identity.contact.update.v1', { contactId: contact.id, phone: newContact });
    await eventually(
      async () => (await copy()).contacts[0]?.phone === newContact && (await copy()).primary_contact === newPrimary,
      20_000,
      100,
    );
    await db.query(
      'update escalation.workers set phone = $2, primary_contact = $3, profile_version = $4, settings_version = $5 where user_id = $1',
      [userId, oldPhone, oldPrimary, before.profile_version, before.settings_version],
    );
    await db.query('update escalation.worker_contacts set phone = $2, version = $3 where contact_id = $1', [
      contact.id,
      oldContact,
      before.contacts[0].version,
    ]);

    const round = (await reconciler.round('identity')) as RoundResult;
    expect(
      round.repairs
        .filter((r) => r.userId === userId)
        .map((r) => r.kind)
        .sort(),
    ).toEqual(['contacts_stale', 'profile_stale', 'settings_stale']);
    expect(await copy()).toMatchObject({ phone: newPhone, primary_contact: newPrimary, contacts: [{ phone: newContact }] });
    const alerts = await eventually(
      async () => {
        const rows = await repairAlerts([userId]);
        return rows.length >= 3 ? rows : undefined;
      },
      20_000,
      200,
    );
    expect(alerts.map((a) => a.details).sort()).toEqual([
      expect.stringMatching(/^Reconciliation: Rec Contacts's check-in settings and contact numbers in escalation differed from identity/),
      expect.stringMatching(/^Reconciliation: Rec Contacts's emergency contacts in escalation differed from identity/),
      expect.stringMatching(
        /^Reconciliation: Rec Contacts's name, phone, role, team, away time or language in escalation differed from identity/,
      ),
    ]);

    // The emergency now reaches the numbers the worker has, none of the old ones.
    const { emergencyId } = await rpc.send('shifts.emergency.raise.v1', { userId });
    const numbers = await eventually(
      async () => {
        const { rows } = await db.query(
          // An emergency's requests go on the urgent subject, each wrapping the request.
          `select o.payload->'data'->'request'->>'toPhone' as to from escalation.outbox o join escalation.alarms a on a.id::text = o.payload->'data'->'request'->>'alarmId'
          where a.emergency_id = $1 and o.subject = 'escalation.notification.urgent.v1' and o.payload->'data'->'request' ? 'toPhone'`,
          [emergencyId],
        );
        const to = rows.map((r) => r.to as string);
        return to.includes(newPrimary) && to.includes(newContact) ? to : undefined;
      },
      20_000,
      200,
    );
    expect(numbers.filter((n) => [oldPhone, oldPrimary, oldContact].includes(n))).toEqual([]);

    const again = (await reconciler.round('identity')) as RoundResult;
    expect(again.repairs).toEqual([]);
  }, 120_000);

  it("repairs a lost language change, so the worker's texts and their contacts' are in the language they chose", async () => {
    const userId = await newWorker('Rec Cymraeg');
    const copy = async () =>
      (await db.query('select language, profile_version from escalation.workers where user_id = $1', [userId])).rows[0] as {
        language: string | null;
        profile_version: number;
      };
    const before = await eventually(async () => ((await copy())?.profile_version ? await copy() : undefined), 20_000, 100);
    await admin.patch(`/api/users/${userId}`).set(XHR).send({ language: 'cy' }).expect(200);
    await eventually(async () => (await copy()).language === 'cy', 20_000, 100);
    // Escalation's copy is put back as if it never heard of the change.
    await db.query('update escalation.workers set language = $2, profile_version = $3 where user_id = $1', [
      userId,
      before.language,
      before.profile_version,
    ]);

    const round = (await reconciler.round('identity')) as RoundResult;
    expect(round.repairs.filter((r) => r.userId === userId).map((r) => r.kind)).toEqual(['profile_stale']);
    expect((await copy()).language).toBe('cy');
    const again = (await reconciler.round('identity')) as RoundResult;
    expect(again.repairs.filter((r) => r.userId === userId)).toEqual([]);
  }, 120_000);

  it("repairs a lost team move, team change and team deletion, so a team's alarms go to its current monitors", async () => {
    const newAdmin = async (name: string) =>
      (
        await admin
          .post('/api/users')
          .set(XHR)
          .send({
            username: `reca${Math.random().toString(36).slice(2, 9)}`,
            password: 'Secret1pass',
            name,
            phone: nextMobile(),
            role: 'admin',
          })
          .expect(201)
      ).body.user.id as number;
    const [ana, ben] = [await newAdmin('Ana Monitor'), await newAdmin('Ben Monitor')];
    const team = async (name: string, monitor: number) =>
      (
        await admin
          .post('/api/teams')
          .set(XHR)
          .send({ name, monitors: [{ userId: monitor }] })
          .expect(201)
      ).body.id as number;
    const [east, west, gone] = [await team('Rec East', ana), await team('Rec West', ben), await team('Rec Gone', ana)];
    const userId = await newWorker('Rec Mover');
    await admin.patch(`/api/users/${userId}`).set(XHR).send({ teamId: east }).expect(200);
    const copy = async () => {
      const { rows: w } = await db.query('select team_id, profile_version from escalation.workers where user_id = $1', [userId]);
      const { rows: t } = await db.query('select id, monitors, version, deleted_at from escalation.teams where id = any($1) order by id', [
        [east, west, gone],
      ]);
      return {
        worker: w[0] as { team_id: number; profile_version: number },
        teams: t as { id: number; monitors: { userId: number }[]; version: number; deleted_at: Date | null }[],
      };
    };
    const before = await eventually(
      async () => {
        const c = await copy();
        return c.worker?.team_id === east && c.teams.length === 3 ? c : undefined;
      },
      20_000,
      100,
    );

    // The worker moves West, East gets Ben as its monitor, Gone is deleted; escalation hears, then its copy is put back.
    await admin.patch(`/api/users/${userId}`).set(XHR).send({ teamId: west }).expect(200);
    await admin
      .patch(`/api/teams/${east}`)
      .set(XHR)
      .send({ monitors: [{ userId: ben }] })
      .expect(200);
    await admin.delete(`/api/teams/${gone}`).set(XHR).expect(200);
    await eventually(
      async () => {
        const c = await copy();
        return c.worker.team_id === west && c.teams[0].monitors[0]?.userId === ben && c.teams[2].deleted_at !== null;
      },
      20_000,
      100,
    );
    await db.query('update escalation.workers set team_id = $2, profile_version = $3 where user_id = $1', [
      userId,
      east,
      before.worker.profile_version,
    ]);
    await db.query('update escalation.teams set monitors = $2, version = $3 where id = $1', [
      east,
      JSON.stringify(before.teams[0].monitors),
      before.teams[0].version,
    ]);
    await db.query('update escalation.teams set deleted_at = null where id = $1', [gone]);

    const round = (await reconciler.round('identity')) as RoundResult;
    expect(round.repairs.filter((r) => r.userId === userId).map((r) => r.kind)).toEqual(['profile_stale']);
    expect(round.repairs.filter((r) => r.kind === 'team_stale')).toHaveLength(2);
    const after = await copy();
    expect(after.worker.team_id).toBe(west);
    expect(after.teams[0]).toMatchObject({ monitors: [{ userId: ben }], version: before.teams[0].version + 1 });
    expect(after.teams[2].deleted_at).not.toBeNull();
    const alerts = await eventually(
      async () => {
        const { rows } = await db.query(
          `select details from audit.entries where type = 'system_alert' and details like 'Reconciliation: team Rec %' order by details`,
        );
        return rows.length >= 2 ? rows.map((r) => r.details as string) : undefined;
      },
      20_000,
      200,
    );
    expect(alerts).toEqual([
      expect.stringMatching(/^Reconciliation: team Rec East in escalation differed from identity/),
      expect.stringMatching(/^Reconciliation: team Rec Gone was deleted in identity but not in escalation/),
    ]);

    // East's next alarm goes to Ben, its monitor now.
    await admin.patch(`/api/users/${userId}`).set(XHR).send({ teamId: east }).expect(200);
    await eventually(async () => (await copy()).worker.team_id === east, 20_000, 100);
    const { emergencyId } = await rpc.send('shifts.emergency.raise.v1', { userId });
    const history = await eventually(
      async () => {
        const { rows } = await db.query('select policy from escalation.alarms where emergency_id = $1', [emergencyId]);
        return rows[0]?.policy as { monitors?: { userId: number }[] } | undefined;
      },
      20_000,
      200,
    );
    expect(history.monitors).toEqual([{ userId: ben }]);

    const again = (await reconciler.round('identity')) as RoundResult;
    expect(again.repairs).toEqual([]);
  }, 120_000);

  it("the owners' reconciliation commands refuse what they cannot answer with a 400 naming the field", async () => {
    const since = new Date().toISOString();
    const many = Array.from({ length: 1025 }, (_, i) => i);
    await expect(rpc.send('shifts.reconcile.hashes.v1', { buckets: 2048, bucketIds: many, emergenciesSince: since })).rejects.toMatchObject(
      { status: 400, field: 'bucketIds' },
    );
    await expect(
      rpc.send('shifts.reconcile.workers.v1', { buckets: 16, bucketIds: [16], userIds: [], shiftIds: [], emergenciesSince: since }),
    ).rejects.toMatchObject({
      status: 400,
      field: 'bucketIds',
    });
    await expect(
      rpc.send('shifts.reconcile.workers.v1', {
        buckets: 16,
        bucketIds: [],
        userIds: many.map((i) => i + 1),
        shiftIds: [],
        emergenciesSince: since,
      }),
    ).rejects.toMatchObject({ status: 400, field: 'userIds' });
    await expect(
      rpc.send('identity.reconcile.users.v1', { buckets: 16, bucketIds: [], userIds: many.map((i) => i + 1) }),
    ).rejects.toMatchObject({ status: 400, field: 'userIds' });
    await expect(rpc.send('identity.reconcile.hashes.v1', { buckets: 0, bucketIds: [] } as never)).rejects.toMatchObject({ status: 400 });
    // Within bounds an owner answers, also for buckets with nobody in them.
    expect(await rpc.send('identity.reconcile.hashes.v1', { buckets: 65536, bucketIds: [65535] })).toEqual({ hashes: '' });
  });

  it('raises one summary alert for a round of many repairs, naming the count and the first workers, not one alert each', async () => {
    const userIds: number[] = [];
    for (let i = 0; i < 12; i++) userIds.push(await newWorker(`Rec Many ${i}`));
    const copies = async () =>
      (await db.query('select user_id, phone, profile_version from escalation.workers where user_id = any($1)', [userIds])).rows;
    await eventually(async () => (await copies()).length === userIds.length, 20_000, 100);
    const before = new Map((await copies()).map((r) => [r.user_id as number, r]));
    // Each changes their phone; escalation hears, then its copy is put back as if it never had.
    for (const userId of userIds) await rpc.send('identity.user.update_profile.v1', { userId, phone: nextMobile() });
    await eventually(async () => (await copies()).every((r) => r.phone !== before.get(r.user_id)!.phone), 20_000, 100);
    for (const userId of userIds) {
      const b = before.get(userId)!;
      await db.query('update escalation.workers set phone = $2, profile_version = $3 where user_id = $1', [
        userId,
        b.phone,
        b.profile_version,
      ]);
    }

    const round = (await reconciler.round('identity')) as RoundResult;
    expect(round.repairs.filter((r) => userIds.includes(r.userId)).map((r) => r.kind)).toEqual(userIds.map(() => 'profile_stale'));
    const summary = await eventually(
      async () => {
        const { rows } = await db.query(
          `select details from audit.entries where type = 'system_alert' and details like 'Reconciliation with identity repaired%'`,
        );
        return rows.length > 0 ? (rows as { details: string }[]) : undefined;
      },
      20_000,
      200,
    );
    expect(summary).toHaveLength(1);
    expect(summary[0].details).toMatch(
      /^Reconciliation with identity repaired 12 copies whose change was lost \(profile_stale 12\): workers \d+, \d+, \d+ and 9 more/,
    );
    expect(await repairAlerts(userIds)).toEqual([]);
  });
  it('repairs 500 stale copies with one statement on the copy per transaction, never over a newer change heard meanwhile', async () => {
    const tag = Math.random().toString(36).slice(2, 8);
    const csv = [
      'username,name,phone,role,team,pin',
      ...Array.from({ length: 500 }, (_, i) => `bulk${tag}${i},Rec Bulk ${i},${nextMobile()},worker,,`),
    ].join('\n');
    await admin.post('/api/users/import').set(XHR).set('Content-Type', 'text/csv').send(csv).expect(200);
    const userIds = (await db.query('select id from identity.users where username like $1 order by id', [`bulk${tag}%`])).rows.map(
      (r) => r.id as number,
    );
    expect(userIds).toHaveLength(500);
    const copies = async () =>
      new Map(
        (await db.query('select user_id, name, phone from escalation.workers where user_id = any($1)', [userIds])).rows.map((r) => [
          r.user_id as number,
          r as { name: string; phone: string },
        ]),
      );
    const before = await eventually(
      async () => {
        const c = await copies();
        return c.size === userIds.length ? c : undefined;
      },
      60_000,
      200,
    );
    await eventually(async () => (await reconciler.waitsFor('identity')) === undefined, 60_000, 200);
    // Every copy lost a change of name: identity still holds the one it had.
    await db.query(`update escalation.workers set name = 'Stale ' || name where user_id = any($1)`, [userIds]);

    // Counts the statements on escalation's copy of the workers while a round runs (each client of its pool, as it is checked out).
    const pool = (escalationApp.get(DB, { strict: false }) as { $client: Pool }).$client;
    let counting = false;
    let statements = 0;
    const unwatch = watchStatements(pool, ({ text }) => {
      if (counting && text.includes('"escalation"."workers"')) statements++;
    });
    // Once identity has answered for them, five workers change their phone, and escalation hears it
    // before the round's repairs (planned at the version identity answered with) are applied.
    const meanwhile = userIds.slice(0, 5);
    const newPhones = new Map(meanwhile.map((id) => [id, nextMobile()]));
    const rpc = escalationApp.get(RPC, { strict: false }) as RpcClient;
    const send = rpc.send.bind(rpc) as (subject: string, ...rest: unknown[]) => Promise<{ users?: { userId: number }[] }>;
    let changedMeanwhile = false;
    const spy = jest.spyOn(rpc, 'send').mockImplementation((async (subject: string, ...rest: unknown[]) => {
      const reply = await send(subject, ...rest);
      if (subject === 'identity.reconcile.users.v1' && !changedMeanwhile && reply.users?.some((u) => u.userId === meanwhile[0])) {
        changedMeanwhile = true;
        counting = false;
        for (const [userId, phone] of newPhones) await send('identity.user.update_profile.v1', { userId, phone });
        await eventually(
          async () => {
            const c = await copies();
            return meanwhile.every((id) => c.get(id)!.phone === newPhones.get(id));
          },
          20_000,
          100,
        );
        counting = true;
      }
      return reply;
    }) as never);
    let round: RoundResult;
    try {
      counting = true;
      round = (await reconciler.round('identity')) as RoundResult;
    } finally {
      counting = false;
      spy.mockRestore();
      unwatch();
    }
    expect(changedMeanwhile).toBe(true);
    expect(round.repairs.filter((r) => userIds.includes(r.userId)).map((r) => r.kind)).toEqual(userIds.map(() => 'profile_stale'));
    // One statement per transaction of fifty repairs, and the round's reading of the copy: one per repair would be 500.
    expect(statements).toBeLessThan(30);

    const after = await copies();
    for (const id of userIds) expect(after.get(id)!.name).toBe(before.get(id)!.name);
    // The newer phones stand: a repair never goes back over a newer version.
    for (const id of meanwhile) expect(after.get(id)!.phone).toBe(newPhones.get(id));
    const again = (await reconciler.round('identity')) as RoundResult;
    expect(again.repairs).toEqual([]);
  }, 180_000);

  it('applies a set of repairs that fails one by one, so every stale copy is still repaired', async () => {
    const tag = Math.random().toString(36).slice(2, 8);
    const csv = [
      'username,name,phone,role,team,pin',
      ...Array.from({ length: 20 }, (_, i) => `one${tag}${i},Rec One ${i},${nextMobile()},worker,,`),
    ].join('\n');
    await admin.post('/api/users/import').set(XHR).set('Content-Type', 'text/csv').send(csv).expect(200);
    const userIds = (await db.query('select id from identity.users where username like $1 order by id', [`one${tag}%`])).rows.map(
      (r) => r.id as number,
    );
    const names = async () =>
      new Map(
        (await db.query('select user_id, name from escalation.workers where user_id = any($1)', [userIds])).rows.map((r) => [
          r.user_id as number,
          r.name as string,
        ]),
      );
    await eventually(async () => (await names()).size === userIds.length, 60_000, 200);
    await eventually(async () => (await reconciler.waitsFor('identity')) === undefined, 60_000, 200);
    await db.query(`update escalation.workers set name = 'Stale ' || name where user_id = any($1)`, [userIds]);
    // Any statement changing more than one copy at once now fails: the set's statement does.
    await db.query(`
      create function escalation.one_at_a_time() returns trigger language plpgsql as $$
      begin
        if (select count(*) from changed) > 1 then raise exception 'one copy at a time'; end if;
        return null;
      end $$;
      create trigger one_at_a_time after update on escalation.workers referencing new table as changed
        for each statement execute function escalation.one_at_a_time()`);
    let round: RoundResult;
    try {
      round = (await reconciler.round('identity')) as RoundResult;
    } finally {
      await db.query('drop trigger one_at_a_time on escalation.workers; drop function escalation.one_at_a_time()');
    }
    expect(round.repairs.filter((r) => userIds.includes(r.userId)).map((r) => r.kind)).toEqual(userIds.map(() => 'profile_stale'));
    const after = await names();
    expect(userIds.map((id) => after.get(id))).toEqual(userIds.map((_, i) => `Rec One ${i}`));
    expect((await reconciler.round('identity'))!.repairs).toEqual([]);
  }, 120_000);

  it('waits while the scheduler is behind (an alarm flood comes first), and runs once it has caught up', async () => {
    const userId = await newWorker('Rhys Behind');
    await startShift(userId);
    expect(await reconciler.waitsFor('shifts')).toBeUndefined();
    await scheduler.stop();
    try {
      // The worker's next step has been due for a minute and the scheduler has not fired it.
      await db.query(`update escalation.deadlines set due_at = now() - interval '60 seconds' where job_key = $1`, [`checkin:${userId}`]);
      expect(await reconciler.waitsFor('shifts')).toBe('the scheduler');
    } finally {
      scheduler.start();
    }
    await eventually(async () => (await reconciler.waitsFor('shifts')) === undefined, 20_000, 100);
  });
});
