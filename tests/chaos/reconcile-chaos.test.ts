/**
 * Events the bus loses for good, on real processes, PostgreSQL and a NATS server of this file's
 * own: with escalation stopped, workers start shifts, check in, end shifts and raise emergencies;
 * those messages are then deleted from the JetStream stream, as a lost write would be, and
 * escalation comes back. Reconciliation with shifts (the owner) must repair all of it within one
 * period: every on-shift worker watched at exactly the deadline shifts holds, each passed deadline
 * alarmed exactly once, no alarm for a worker who checked in or went off shift, an alarm for every
 * emergency, and every repair counted and in the activity log.
 */
import { eventually } from '@lws/testing';
import { ChaosStack, inBatches } from './support/chaos-stack';
import { duplicateSteps, firedSteps, missedCheckIns, stepsFor } from './support/fired-steps';
import { killAllSpawned, NatsServerProcess } from './support/processes';

const LOCATION = 'Reconcile Depot';
/** The period the test runs reconciliation at; ESCALATION_RECONCILE_INTERVAL_SECONDS defaults to 60 s. */
const PERIOD_S = 10;
const range = (from: number, count: number) => Array.from({ length: count }, (_, i) => from + i);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));

let nats: NatsServerProcess;
let stack: ChaosStack | undefined;

beforeAll(async () => {
  nats = await NatsServerProcess.start();
});

afterAll(async () => {
  await stack?.close().catch(() => undefined);
  await killAllSpawned();
  await nats?.destroy();
});

describe('events lost from the stream while escalation was away (real processes, PostgreSQL and NATS)', () => {
  it("reconciliation repairs escalation's copy from shifts within one period, exactly once, counts each repair and tells an operator in one summary alert", async () => {
    stack = await ChaosStack.create(nats, {
      ESCALATION_TICK_MS: '250',
      ESCALATION_RECONCILE_INTERVAL_SECONDS: String(PERIOD_S),
      ESCALATION_RECONCILE_GRACE_SECONDS: '2',
    });
    const s = stack;
    try {
      const started = range(5001, 10); // start a shift while escalation is away
      const startedPassed = started.slice(0, 5); // ... and a superadmin moves their deadline to now
      const checkingIn = range(5101, 5); // on shift before; check in while escalation is away
      const ending = range(5201, 4); // on shift before; end the shift while escalation is away
      const emergency = range(5301, 2); // on shift before; raise an emergency while escalation is away
      const untouched = range(5401, 5); // on shift before; nothing happens to them
      await s.startShifts();
      await s.seedLocation(LOCATION);
      await s.seedWorkers([...started, ...checkingIn, ...ending, ...emergency, ...untouched]);
      const escalation = await s.startEscalation();
      const before = [...checkingIn, ...ending, ...emergency, ...untouched];
      await s.startShiftsFor(before, LOCATION);
      // The deadline escalation knows for those who will check in or clock out comes due soon: kept
      // by a lost event, it would raise a false alarm.
      const oldDeadlineAt = Date.now() + 45_000;
      await inBatches([...checkingIn, ...ending], 10, (userId) => s.setDeadline(userId, new Date(oldDeadlineAt)));
      const watchedDeadline = async (userId: number) =>
        (
          await s.escalationQuery<{ next_check_in_at: Date }>(
            `select w.next_check_in_at from escalation.workers w join escalation.deadlines d on d.job_key = 'checkin:' || w.user_id where w.user_id = $1 and w.on_shift`,
            [userId],
          )
        )[0]?.next_check_in_at;
      const ownerDeadline = async (userId: number) => {
        const [w] = (await (await s.rpc()).send('shifts.worker.states.v1', { userIds: [userId] })).workers;
        return w.onShift ? w.nextCheckInAt : undefined;
      };
      await eventually(
        async () =>
          (await Promise.all(before.map(async (id) => (await watchedDeadline(id))?.toISOString() === (await ownerDeadline(id))))).every(
            Boolean,
          ),
        30_000,
        200,
      );

      // Escalation goes away; what happens meanwhile reaches the stream, and is then lost from it.
      await escalation.stop();
      const fromSeq = await s.streamLastSeq();
      const rpc = await s.rpc();
      await inBatches(started, 10, (userId) => rpc.send('shifts.shift.start.v1', { userId, location: LOCATION }));
      await inBatches(startedPassed, 10, (userId) =>
        rpc.send('shifts.deadline.set.v1', { userId, mode: 'minutes_until_due', minutesUntilDue: 0, byUserId: 1 }),
      );
      await inBatches(checkingIn, 10, (userId) => rpc.send('shifts.checkin.record.v1', { userId }));
      await inBatches(ending, 10, (userId) => rpc.send('shifts.shift.end.v1', { userId }));
      const emergencyIds = await Promise.all(
        emergency.map(async (userId) => (await rpc.send('shifts.emergency.raise.v1', { userId })).emergencyId),
      );
      const lastChangeAt = Date.now();
      await eventually(
        async () => Number((await s.shiftsQuery('select count(*) as n from shifts.outbox where published_at is null'))[0].n) === 0,
        20_000,
        100,
      );
      const lost = await s.loseFromStream(fromSeq, 'shifts.');
      // 10 starts, 5 deadline moves, 5 check-ins and 2 emergencies' timer resets, 4 ends, 2 emergencies.
      expect(lost.filter((l) => l === 'shifts.shift.started.v1')).toHaveLength(10);
      expect(lost.filter((l) => l === 'shifts.deadline.changed.v1')).toHaveLength(5);
      expect(lost.filter((l) => l === 'shifts.checkin.recorded.v1')).toHaveLength(7);
      expect(lost.filter((l) => l === 'shifts.shift.ended.v1')).toHaveLength(4);
      expect(lost.filter((l) => l === 'shifts.emergency.raised.v1')).toHaveLength(2);

      // A change younger than the grace (2 s) is left to its event by a round, and repaired by the next
      // one: escalation comes back once every change is older, so its first round sees them all (a
      // quick restart once saw the last ones still young, and alerted twice).
      await sleep(lastChangeAt + 2500 - Date.now());
      await escalation.start();
      const back = Date.now();

      // Within one period: escalation watches every on-shift worker at the deadline shifts holds ...
      const onShift = [...started, ...checkingIn, ...emergency, ...untouched];
      const stillWaiting = started.filter((id) => !startedPassed.includes(id));
      // (Repairs are applied one worker at a time, the ended shifts last: wait for those too.)
      const endedStillWatched = async () =>
        (await s.escalationQuery(`select 1 from escalation.deadlines where kind = 'checkin' and user_id = any($1)`, [ending])).length;
      await eventually(
        async () =>
          (
            await Promise.all(
              [...stillWaiting, ...checkingIn, ...untouched].map(
                async (id) => (await watchedDeadline(id))?.toISOString() === (await ownerDeadline(id)),
              ),
            )
          ).every(Boolean) && (await endedStillWatched()) === 0,
        PERIOD_S * 1000 + 5000,
        250,
      );
      // ... with exactly one deadline row each, and none for the workers off shift.
      const rowsPerWorker = await s.escalationQuery<{ user_id: number; n: number }>(
        `select user_id, count(*)::int as n from escalation.deadlines where kind = 'checkin' and user_id = any($1) group by user_id`,
        [[...onShift, ...ending]],
      );
      expect(rowsPerWorker.filter((r) => r.n !== 1)).toEqual([]);
      expect(rowsPerWorker.filter((r) => ending.includes(r.user_id))).toEqual([]);
      // Every emergency has its alarm, open.
      const emergencyAlarms = await eventually(
        async () => {
          const rows = await s.escalationQuery<{ state: string }>(
            `select emergency_id, state from escalation.alarms where emergency_id = any($1)`,
            [emergencyIds],
          );
          return rows.length === emergencyIds.length ? rows : undefined;
        },
        PERIOD_S * 1000 + 5000,
        250,
      );
      expect(emergencyAlarms.every((a) => a.state === 'open')).toBe(true);
      expect(Date.now() - back).toBeLessThan(PERIOD_S * 1000 + 5000);

      // Past the old deadline, with room for a wrongly kept one to fire.
      await sleep(oldDeadlineAt + 5000 - Date.now());
      const events = await s.escalationOutbox();
      const steps = firedSteps(events);
      expect(duplicateSteps(steps)).toEqual({});
      // Each passed deadline alarmed exactly once; no alarm for a worker who checked in, went off
      // shift, or whose deadline is still ahead.
      const missed = missedCheckIns(steps);
      expect(missed.map((m) => m.userId).sort()).toEqual(startedPassed);
      expect(stepsFor(missed, [...checkingIn, ...ending, ...stillWaiting, ...untouched, ...emergency])).toEqual([]);

      // Every repair is counted by kind; a round this large (more than 10) is one system alert (what
      // the activity log shows) naming the count, the kinds and the first workers, not 23 alerts.
      const alerts = events.filter((e) => e.subject === 'escalation.system_alert.raised.v1' && e.data.code === 'reconcile_repaired');
      expect(alerts).toHaveLength(1);
      const summary = String(alerts[0].data.details);
      // An emergency on shift also resets the worker's timer (a check-in of its own, lost with it): two repairs each.
      const repaired = [...started, ...checkingIn, ...ending, ...emergency, ...emergency];
      expect(summary).toMatch(new RegExp(`^Reconciliation with shifts repaired ${repaired.length} copies whose change was lost \\(`));
      for (const kind of ['shift_missing 10', 'deadline_stale 7', 'shift_ended 4', 'emergency_missing 2']) expect(summary).toContain(kind);
      const named = /: workers (\d+), (\d+), (\d+) and (\d+) more;/.exec(summary);
      expect(named?.slice(1, 4).every((id) => repaired.includes(Number(id)))).toBe(true);
      expect(Number(named![4])).toBe(new Set(repaired).size - 3);
      const metrics = await (await fetch(`${escalation.url}/metrics`)).text();
      const counted = (kind: string) =>
        Number(metrics.match(new RegExp(`^lws_reconcile_repairs_total\\{[^}]*kind="${kind}"[^}]*\\} (\\d+)`, 'm'))?.[1] ?? 0);
      expect({
        shift_missing: counted('shift_missing'),
        deadline_stale: counted('deadline_stale'),
        shift_ended: counted('shift_ended'),
        emergency_missing: counted('emergency_missing'),
      }).toEqual({ shift_missing: 10, deadline_stale: 7, shift_ended: 4, emergency_missing: 2 });
    } catch (err) {
      if (err instanceof Error) err.message += `\n\n---- service logs ----\n${s.logs()}`;
      throw err;
    }
  }, 180_000);

  it('a lost identity.contact.changed and identity.settings.changed: the next emergency still texts and calls the current numbers', async () => {
    if (stack) await stack.close();
    stack = await ChaosStack.create(nats, {
      ESCALATION_TICK_MS: '250',
      ESCALATION_RECONCILE_INTERVAL_SECONDS: String(PERIOD_S),
      ESCALATION_RECONCILE_GRACE_SECONDS: '2',
    });
    const s = stack;
    try {
      await s.startIdentity();
      await s.startShifts();
      const escalation = await s.startEscalation();
      const rpc = await s.rpc();
      const mobile = (n: number) => `+4479112${String(n).padStart(5, '0')}`;
      const [oldContact, newContact, oldPrimary, newPrimary] = [mobile(1001), mobile(1002), mobile(1003), mobile(1004)];
      const { user } = await eventually(
        () =>
          rpc.send('identity.user.create.v1', {
            username: 'contactworker',
            password: 'Secret1pass',
            name: 'Contact Worker',
            phone: mobile(1000),
            role: 'worker',
            actorRole: 'superadmin',
          }),
        20_000,
        200,
      );
      const userId = user.id;
      await rpc.send('identity.settings.save.v1', { userId, primaryContact: oldPrimary, checkInInterval: 60 });
      const { contact } = await rpc.send('identity.contact.create.v1', {
        userId,
        name: 'Old Friend',
        phone: oldContact,
        relation: 'friend',
      });
      const copy = async () => {
        const [w] = await s.escalationQuery<{ primary_contact: string | null }>(
          'select primary_contact from escalation.workers where user_id = $1',
          [userId],
        );
        const contacts = await s.escalationQuery<{ phone: string }>(
          'select phone from escalation.worker_contacts where user_id = $1 and not deleted',
          [userId],
        );
        return { primary: w?.primary_contact, contacts: contacts.map((c) => c.phone) };
      };
      await eventually(
        async () => JSON.stringify(await copy()) === JSON.stringify({ primary: oldPrimary, contacts: [oldContact] }),
        20_000,
        100,
      );

      // With escalation away, the worker changes both numbers; the events are lost from the stream.
      await escalation.stop();
      const fromSeq = await s.streamLastSeq();
      await rpc.send('identity.contact.update.v1', { contactId: contact.id, phone: newContact });
      await rpc.send('identity.settings.save.v1', { userId, primaryContact: newPrimary, checkInInterval: 60 });
      await eventually(
        async () => Number((await s.shiftsQuery('select count(*) as n from identity.outbox where published_at is null'))[0].n) === 0,
        20_000,
        100,
      );
      expect((await s.loseFromStream(fromSeq, 'identity.')).sort()).toEqual([
        'identity.contact.changed.v1',
        'identity.settings.changed.v1',
      ]);

      await escalation.start();
      await eventually(
        async () => JSON.stringify(await copy()) === JSON.stringify({ primary: newPrimary, contacts: [newContact] }),
        PERIOD_S * 1000 + 5000,
        250,
      );

      // The next emergency texts the current contact and calls the current primary number, and none of the old.
      const { emergencyId } = await rpc.send('shifts.emergency.raise.v1', { userId });
      const requested = await eventually(
        async () => {
          const rows = await s.escalationQuery<{ channel: string; to: string }>(
            // An emergency's requests go on the urgent subject, each wrapping the request.
            `select o.payload->'data'->'request'->>'channel' as channel, o.payload->'data'->'request'->>'toPhone' as to from escalation.outbox o
               join escalation.alarms a on a.id::text = o.payload->'data'->'request'->>'alarmId'
              where a.emergency_id = $1 and o.subject = 'escalation.notification.urgent.v1' and o.payload->'data'->'request' ? 'toPhone'`,
            [emergencyId],
          );
          return rows.some((r) => r.channel === 'voice' && r.to === newPrimary) &&
            rows.some((r) => r.channel === 'sms' && r.to === newContact)
            ? rows
            : undefined;
        },
        20_000,
        200,
      );
      expect(requested.filter((r) => [oldContact, oldPrimary].includes(r.to))).toEqual([]);
      const alerts = (await s.escalationOutbox()).filter(
        (e) => e.subject === 'escalation.system_alert.raised.v1' && e.data.code === 'reconcile_repaired',
      );
      expect(alerts.map((a) => String(a.data.details)).sort()).toEqual([
        expect.stringMatching(
          /^Reconciliation: Contact Worker's check-in settings and contact numbers in escalation differed from identity/,
        ),
        expect.stringMatching(/^Reconciliation: Contact Worker's emergency contacts in escalation differed from identity/),
      ]);
    } catch (err) {
      if (err instanceof Error) err.message += `\n\n---- service logs ----\n${s.logs()}`;
      throw err;
    }
  }, 120_000);
});
