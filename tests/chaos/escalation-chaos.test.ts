/**
 * Proof under failure for escalation: the real shifts and escalation services, each its own OS
 * process, on real PostgreSQL and on a NATS server this file owns (so it can be stopped), with
 * deadlines a few seconds away. Each scenario kills or cuts something while deadlines come due and
 * then checks, from escalation's own outbox and from the stream, that every due step fired exactly
 * once: none missing (a worker in danger nobody hears about), none twice (a second call to the
 * emergency numbers), none for a worker who checked in (a false alarm).
 *
 * These run in real time: what is under test is processes dying and networks failing, which no
 * injected clock can stand in for. Deadlines are moved with shifts' superadmin deadline command
 * (what POST /api/simulate-specific-time does) to fall seconds after the set-up, and the waits poll
 * what escalation committed rather than sleep for a guessed time; the fixed pauses are the chaos
 * itself (how long a process stays dead, how long NATS is down).
 */
import { randomUUID } from 'node:crypto';
import type { EventMap, EventSubject } from '@lws/contracts';
import { eventually } from '@lws/testing';
import { ChaosStack, inBatches, type StoredEvent } from './support/chaos-stack';
import { killAllSpawned, NatsServerProcess } from './support/processes';
import {
  duplicateIds,
  duplicateRequestIds,
  duplicateSteps,
  firedSteps,
  missedCheckIns,
  reminders,
  stepsFor,
  type FiredStep,
} from './support/fired-steps';

const LOCATION = 'Chaos Depot';
/** The scheduler polls every 250 ms; under two busy cores a step may still take a few seconds. */
const ON_TIME_MS = 5000;
const REMINDER_LEAD_MS = 5 * 60_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));
const sleepUntil = (at: number) => sleep(at - Date.now());
const range = (from: number, count: number) => Array.from({ length: count }, (_, i) => from + i);
const iso = (ms: number) => new Date(ms).toISOString();

let nats: NatsServerProcess;
const stacks: ChaosStack[] = [];

beforeAll(async () => {
  nats = await NatsServerProcess.start();
});

afterAll(async () => {
  for (const s of stacks) await s.close().catch(() => undefined);
  await killAllSpawned();
  await nats?.destroy();
});

/** A stack with shifts and `escalations` escalation processes, the location and the workers seeded. */
async function stackWith(workers: number[], escalations = 1, escalationEnv: NodeJS.ProcessEnv = {}): Promise<ChaosStack> {
  if (!nats.running) await nats.start();
  const stack = await ChaosStack.create(nats, { ESCALATION_TICK_MS: '250', ...escalationEnv });
  stacks.push(stack);
  await stack.startShifts();
  await stack.seedLocation(LOCATION);
  await stack.seedWorkers(workers);
  for (let i = 0; i < escalations; i++) await stack.startEscalation();
  await stack.startShiftsFor(workers, LOCATION);
  return stack;
}

/**
 * Runs a scenario; a failure carries the tail of every process's log, which is where the cause is.
 * Its processes stop when it ends, so the next scenario's timings do not share the CPU with them.
 */
async function scenario(stack: () => ChaosStack | undefined, body: () => Promise<void>): Promise<void> {
  try {
    await body();
  } catch (err) {
    const s = stack();
    if (s && err instanceof Error) err.message += `\n\n---- service logs ----\n${s.logs()}`;
    throw err;
  } finally {
    const s = stack();
    if (s) {
      stacks.splice(stacks.indexOf(s), 1);
      await s.close();
    }
  }
}

interface Planned {
  userId: number;
  /** The deadline shifts set. */
  dueAt: number;
  /** Which step of it the test expects inside the window. */
  step: 'missed' | 'reminder_5min';
}

/**
 * Moves each worker's deadline so that the step the plan names falls at `at(i)`; fails the test if
 * the set-up itself ran past the first of those instants (the scenario would prove nothing).
 */
async function plan(stack: ChaosStack, items: { userId: number; step: Planned['step']; stepAt: number }[]): Promise<Planned[]> {
  const planned: Planned[] = [];
  await inBatches(items, 20, async ({ userId, step, stepAt }) => {
    const target = step === 'missed' ? stepAt : stepAt + REMINDER_LEAD_MS;
    const sentAt = Date.now();
    const dueAt = (await stack.setDeadline(userId, new Date(target))).getTime();
    // Shifts counts the minutes from when it handles the request, somewhere in the round trip.
    expect(dueAt).toBeGreaterThanOrEqual(target - 50);
    expect(dueAt).toBeLessThanOrEqual(target + (Date.now() - sentAt) + 50);
    planned.push({ userId, dueAt, step });
  });
  const firstStep = Math.min(...items.map((i) => i.stepAt));
  if (Date.now() > firstStep) throw new Error(`set-up ran ${Date.now() - firstStep} ms past the first planned step; make the lead longer`);
  return planned;
}

const stepKeyOf = (p: Planned) => (p.step === 'missed' ? `missed|${p.userId}|${p.dueAt}` : `reminder|${p.userId}|${p.dueAt}|5`);
const stepDueAt = (p: Planned) => (p.step === 'missed' ? p.dueAt : p.dueAt - REMINDER_LEAD_MS);

/** Waits until every planned step is in escalation's outbox; answers all of the outbox. */
async function waitForSteps(stack: ChaosStack, planned: Planned[], timeoutMs: number): Promise<StoredEvent[]> {
  const wanted = planned.map(stepKeyOf);
  let events: StoredEvent[] = [];
  try {
    await eventually(
      async () => {
        events = await stack.escalationOutbox();
        const keys = new Set(firedSteps(events).map((s) => s.key));
        return wanted.every((k) => keys.has(k));
      },
      timeoutMs,
      500,
    );
  } catch {
    // Say which steps never fired: that is the finding.
    const keys = new Set(firedSteps(events).map((s) => s.key));
    const missing = planned.filter((p) => !keys.has(stepKeyOf(p)));
    throw new Error(
      `${missing.length} of ${planned.length} due steps never fired, e.g. ${JSON.stringify(
        missing.slice(0, 5).map((p) => ({ ...p, dueAt: new Date(p.dueAt).toISOString() })),
      )}`,
    );
  }
  return events;
}

/** Every planned step exactly once, nothing fired twice, and every committed event on the stream exactly once. */
async function expectExactlyOnce(stack: ChaosStack, planned: Planned[], events: StoredEvent[]): Promise<FiredStep[]> {
  const steps = firedSteps(events);
  expect(duplicateSteps(steps)).toEqual({});
  expect(duplicateIds(events)).toEqual([]);
  expect(duplicateRequestIds(events)).toEqual([]);
  const counts = new Map<string, number>();
  for (const s of steps) counts.set(s.key, (counts.get(s.key) ?? 0) + 1);
  expect(planned.filter((p) => counts.get(stepKeyOf(p)) !== 1).map(stepKeyOf)).toEqual([]);

  // What was committed also left: notifications reads the stream, not the outbox. The service
  // goes on writing (request tracking asks again for what no notifications service confirmed), so
  // what was published is read before the stream, and the stream is checked against the outbox after.
  await eventually(async () => (await stack.escalationUnpublished()) === 0, 30_000, 500);
  const published = await stack.escalationPublished();
  const onStream = await stack.escalationStreamEvents();
  expect(duplicateIds(onStream)).toEqual([]);
  const streamIds = new Set(onStream.map((e) => e.id));
  // Committed, marked published, and not on the stream: a message nobody downstream will see.
  expect(published.filter((e) => !streamIds.has(e.id)).map((e) => `${e.subject} ${e.id} ${e.occurredAt}`)).toEqual([]);
  const outboxIds = new Set((await stack.escalationOutbox()).map((e) => e.id));
  expect(onStream.filter((e) => !outboxIds.has(e.id)).map((e) => e.subject)).toEqual([]);
  return steps;
}

/**
 * The messages a person gets for each planned step: the worker an SMS for a reminder, the monitors
 * a push for a missed check-in. Exactly one each.
 */
function expectMessages(events: StoredEvent[], planned: Planned[]): void {
  // A request asked for again (request tracking) keeps its id: it is one message, counted once.
  const notifications = [
    ...new Map(
      events.filter((e) => e.subject === 'escalation.notification.requested.v1').map((e) => [String(e.data.requestId), e.data]),
    ).values(),
  ];
  const alarmOf = new Map(
    events
      .filter((e) => e.subject === 'escalation.alarm.opened.v1' && e.data.kind === 'missed_check_in')
      .map((e) => [`${e.data.userId}|${Date.parse(String(e.data.dueAt))}`, String(e.data.alarmId)]),
  );
  const wrong: string[] = [];
  for (const p of planned) {
    if (p.step === 'reminder_5min') {
      const sms = notifications.filter((n) => n.purpose === 'reminder_5min' && n.channel === 'sms' && n.userId === p.userId);
      if (sms.length !== 1) wrong.push(`worker ${p.userId}: ${sms.length} reminder SMS`);
    } else {
      const alarmId = alarmOf.get(`${p.userId}|${p.dueAt}`);
      const monitors = notifications.filter((n) => n.alarmId === alarmId && n.toRole === 'monitors');
      if (monitors.length !== 1) wrong.push(`worker ${p.userId}: monitors told ${monitors.length} times of the missed check-in`);
    }
  }
  expect(wrong).toEqual([]);
}

describe('escalation under failure (real processes, PostgreSQL and NATS)', () => {
  it('a kill -9 of escalation while deadlines come due loses no step and fires none twice; lateness is bounded by the downtime', async () => {
    let stack: ChaosStack | undefined;
    await scenario(
      () => stack,
      async () => {
        const workers = range(1001, 200);
        stack = await stackWith(workers);
        const windowStart = Date.now() + 10_000;
        const windowMs = 20_000;
        // Alternate workers: half have the missed check-in due in the window, half the 5-minute reminder.
        const planned = await plan(
          stack,
          workers.map((userId, i) => ({
            userId,
            step: i % 2 === 0 ? ('missed' as const) : ('reminder_5min' as const),
            stepAt: windowStart + Math.floor((i * windowMs) / workers.length),
          })),
        );

        await sleepUntil(windowStart + 8000);
        const escalation = stack.escalations[0];
        const killedAt = Date.now();
        await escalation.kill();
        await sleep(4000);
        await escalation.start();
        const readyAt = Date.now();

        await waitForSteps(stack, planned, windowStart + windowMs - Date.now() + 30_000);
        // A step fired twice would most likely be a re-fire right after the restart: give it time to show.
        await sleep(3000);
        const all = await stack.escalationOutbox();
        const steps = await expectExactlyOnce(stack, planned, all);
        expectMessages(all, planned);

        // Some steps really were due while the process was dead, or the kill proved nothing.
        expect(planned.filter((p) => stepDueAt(p) > killedAt && stepDueAt(p) < readyAt).length).toBeGreaterThan(10);
        const byKey = new Map(steps.map((s) => [s.key, s]));
        const tooLate = planned
          .map((p) => ({ p, fired: byKey.get(stepKeyOf(p))! }))
          .filter(({ p, fired }) => fired.firedAt < stepDueAt(p) || fired.firedAt > Math.max(stepDueAt(p), readyAt) + ON_TIME_MS)
          .map(({ p, fired }) => `worker ${p.userId} ${p.step}: due ${iso(stepDueAt(p))}, fired ${iso(fired.firedAt)}`);
        expect(tooLate).toEqual([]);
        // Nothing beyond the planned steps fired early (the 2-minute reminders are minutes away).
        expect(reminders(steps, 2)).toEqual([]);
        expect(
          missedCheckIns(
            stepsFor(
              steps,
              planned.filter((p) => p.step === 'reminder_5min').map((p) => p.userId),
            ),
          ),
        ).toEqual([]);
      },
    );
  }, 150_000);

  it('a 30 s NATS outage: no step for a worker who checked in during it, every due step of the others exactly once', async () => {
    let stack: ChaosStack | undefined;
    await scenario(
      () => stack,
      async () => {
        const checkingIn = range(2001, 40);
        const silent = range(2101, 40);
        const reminded = range(2201, 30);
        stack = await stackWith([...checkingIn, ...silent, ...reminded]);
        const outageStart = Date.now() + 10_000;
        const outageMs = 30_000;
        const outageEnd = outageStart + outageMs;
        const duringOutage = (i: number, n: number) => outageStart + 5000 + Math.floor((i * 20_000) / n);
        const planned = await plan(stack, [
          // Missed check-ins and reminders due while NATS is down: they must still go out, once.
          ...silent.map((userId, i) => ({ userId, step: 'missed' as const, stepAt: duringOutage(i, silent.length) })),
          ...reminded.map((userId, i) => ({ userId, step: 'reminder_5min' as const, stepAt: duringOutage(i, reminded.length) })),
        ]);
        // These workers are due well after NATS returns, and check in while it is down.
        const checkInDue = new Map<number, number>();
        await inBatches(checkingIn, 20, async (userId) => {
          checkInDue.set(userId, (await stack!.setDeadline(userId, new Date(outageEnd + 15_000))).getTime());
        });
        if (Date.now() > outageStart) throw new Error('set-up ran past the start of the outage; make the lead longer');

        await sleepUntil(outageStart);
        await nats.stop('SIGTERM');
        const stoppedAt = Date.now();
        await sleep(5000);
        // The worker presses "I'm safe" during the outage. The gateway reaches shifts only over NATS,
        // so the press cannot be recorded until NATS is back: the client keeps sending the same
        // request (same idempotency key) until it is accepted, which is what the worker app does.
        // What this proves is that the check-in, accepted late, still reaches escalation in time and
        // cancels the old deadline, and that nobody's step is lost on the way.
        const checkIns = Promise.all(checkingIn.map((userId) => stack!.checkInRetrying(userId, outageEnd + 15_000)));
        await sleepUntil(stoppedAt + outageMs);
        await nats.start();
        const restoredAt = Date.now();
        const accepted = await checkIns;
        expect(accepted.every((a) => a.attempts > 1 && a.acceptedAt.getTime() >= restoredAt)).toBe(true);
        expect(accepted.every((a, i) => a.nextCheckInAt.getTime() > checkInDue.get(checkingIn[i])!)).toBe(true);

        await waitForSteps(stack, planned, 60_000);
        // Past the checked-in workers' old deadline, with room for a wrongly kept one to fire.
        await sleepUntil(Math.max(...checkInDue.values()) + ON_TIME_MS);
        const all = await stack.escalationOutbox();
        const steps = await expectExactlyOnce(stack, planned, all);
        expectMessages(all, planned);
        expect(stepsFor(steps, checkingIn).map((s) => s.key)).toEqual([]);
        // Due while NATS was down and fired no later than a few seconds after it came back.
        const late = steps
          .filter((s) => s.dueAt !== undefined && planned.some((p) => stepKeyOf(p) === s.key))
          .filter((s) => s.firedAt > Math.max(s.dueAt!, restoredAt) + ON_TIME_MS);
        expect(late.map((s) => s.key)).toEqual([]);
      },
    );
  }, 180_000);

  it('two escalation processes on one database fire each of many simultaneous steps exactly once, also when one dies mid-burst', async () => {
    let stack: ChaosStack | undefined;
    await scenario(
      () => stack,
      async () => {
        const missed = range(3001, 150);
        const reminded = range(3201, 100);
        // Large enough that one process cannot claim it all before the other's next tick: a pass
        // opens its missed check-ins together now, so a burst of 150 can go to one process alone.
        const secondBurst = range(3401, 600);
        // Small batches and debug logs (each fired step is logged, inside its transaction): many
        // interleaved claims, and evidence that both processes took part rather than one doing everything.
        stack = await stackWith([...missed, ...reminded, ...secondBurst], 2, { ESCALATION_BATCH_SIZE: '20', LOG_LEVEL: 'debug' });
        const [first, second] = stack.escalations;
        const firedBy = [first.countLines(/"msg":"deadline step fired"/), second.countLines(/"msg":"deadline step fired"/)];
        const at = Date.now() + 12_000;
        const planned = await plan(stack, [
          ...missed.map((userId) => ({ userId, step: 'missed' as const, stepAt: at })),
          ...reminded.map((userId) => ({ userId, step: 'reminder_5min' as const, stepAt: at })),
        ]);
        await waitForSteps(stack, planned, at - Date.now() + 30_000);
        await sleep(3000);
        let all = await stack.escalationOutbox();
        let steps = await expectExactlyOnce(stack, planned, all);
        expectMessages(all, planned);
        expect(reminders(steps, 2)).toEqual([]);
        expect(firedBy.map((count) => count() > 0)).toEqual([true, true]);
        expect(firedBy[0]() + firedBy[1]()).toBeGreaterThanOrEqual(planned.length);

        // Second burst: kill -9 the second process the moment it is firing a step (its transaction
        // open, rows locked); the survivor must fire what the dead one held, once.
        const at2 = Date.now() + 8000;
        const planned2 = await plan(
          stack,
          secondBurst.map((userId, i) => ({ userId, step: i % 3 === 2 ? ('reminder_5min' as const) : ('missed' as const), stepAt: at2 })),
        );
        const secondBefore = firedBy[1]();
        await eventually(() => firedBy[1]() > secondBefore, at2 - Date.now() + 15_000, 5);
        await second.kill();
        const firstAtKill = firedBy[0]();
        await waitForSteps(stack, planned2, 30_000);
        await sleep(3000);
        all = await stack.escalationOutbox();
        steps = await expectExactlyOnce(stack, [...planned, ...planned2], all);
        expectMessages(all, planned2);
        expect(reminders(steps, 2)).toEqual([]);
        // The burst was not over when the second process died: the survivor fired the rest.
        expect(firedBy[0]()).toBeGreaterThan(firstAtKill);
      },
    );
  }, 150_000);

  it("a worker's events delayed behind other subjects (a consumer backlog) never cost them the current shift deadline", async () => {
    // Escalation reads each shifts subject through its own JetStream consumer (NATS 2.9 allows one
    // filter per consumer), so after an outage or under a backlog a check-in can arrive after the
    // next shift's start. The test publishes shifts' events itself, in such an order, as shifts
    // would have written them: shift A starts, the worker checks in, clocks out, starts shift B.
    let stack: ChaosStack | undefined;
    await scenario(
      () => stack,
      async () => {
        if (!nats.running) await nats.start();
        stack = await ChaosStack.create(nats, { ESCALATION_TICK_MS: '250' });
        stacks.push(stack);
        const s = stack;
        await s.startEscalation();
        // Two workers, two orders: the old check-in lands between B's start and A's end, or after both.
        const [early, late] = [4001, 4002];
        await s.seedWorkers([early, late]);
        const t0 = Date.now() - 60_000;
        const dueB = Date.now() + 10_000;
        const send = async <S extends EventSubject>(subject: S, data: EventMap[S]) => {
          const id = await s.publish('shifts', subject, data);
          await eventually(() => s.escalationHandled(id), 15_000, 50);
        };
        for (const userId of [early, late]) {
          const shiftA = randomUUID();
          const shiftB = randomUUID();
          const startedA = { shiftId: shiftA, userId, location: LOCATION, startedAt: iso(t0), nextCheckInAt: iso(t0 + 30 * 60_000) };
          const checkInA = {
            checkInId: randomUUID(),
            shiftId: shiftA,
            userId,
            location: LOCATION,
            checkedInAt: iso(t0 + 10_000),
            nextCheckInAt: iso(t0 + 10_000 + 30 * 60_000),
          };
          const endedA = { shiftId: shiftA, userId, endedAt: iso(t0 + 20_000), endedBy: userId, reason: 'worker' as const };
          const startedB = { shiftId: shiftB, userId, location: LOCATION, startedAt: iso(t0 + 30_000), nextCheckInAt: iso(dueB) };
          await send('shifts.shift.started.v1', startedA);
          await send('shifts.shift.started.v1', startedB);
          if (userId === early) {
            await send('shifts.checkin.recorded.v1', checkInA);
            await send('shifts.shift.ended.v1', endedA);
          } else {
            await send('shifts.shift.ended.v1', endedA);
            await send('shifts.checkin.recorded.v1', checkInA);
          }
        }
        // Escalation's own view (the reminder status page) has both on shift, due at B's deadline.
        const status = await (await s.rpc()).send('escalation.reminder.status.v1', {});
        const seen = (userId: number) => {
          const w = status.workers.find((x) => x.userId === userId);
          return w?.nextCheckInAt ? Date.parse(w.nextCheckInAt) : 'not on shift';
        };
        expect({ early: seen(early), late: seen(late) }).toEqual({ early: dueB, late: dueB });
        // And missing it opens an alarm for each.
        const dueKeys = [early, late].map((userId) => `missed|${userId}|${dueB}`);
        let fired = new Set<string>();
        await eventually(
          async () => {
            fired = new Set(firedSteps(await s.escalationOutbox()).map((st) => st.key));
            return dueKeys.every((k) => fired.has(k));
          },
          dueB - Date.now() + 10_000,
          250,
        ).catch(() => undefined);
        expect(dueKeys.filter((k) => !fired.has(k))).toEqual([]);
      },
    );
  }, 60_000);
});
