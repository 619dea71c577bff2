/**
 * Proof under a database outage: escalation's PostgreSQL is a server this file owns, and it is
 * stopped the way a crash or failover stops it (immediate shutdown, every connection cut) for 90 s
 * while workers start shifts and check in. Shifts, on the shared server, keeps working throughout,
 * so its events pile up for an escalation that cannot write. Before the fix, a consumer gave up on
 * an event after five deliveries (about 51 s) and dead-lettered it: the workers who started a shift
 * during the outage were never watched, and those who checked in got a false alarm at their old
 * deadline.
 *
 * Every invariant is read from the services' own tables (escalation's deadlines, alarms and outbox;
 * shifts' worker_state), not from logs. Real time: the outage is the thing under test.
 */
import { eventually } from '@lws/testing';
import { ChaosStack, inBatches, type StoredEvent } from './support/chaos-stack';
import { killAllSpawned, NatsServerProcess, PostgresServerProcess } from './support/processes';

const LOCATION = 'Outage Depot';
const OUTAGE_MS = 90_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));
const range = (from: number, count: number) => Array.from({ length: count }, (_, i) => from + i);

let nats: NatsServerProcess;
let pg: PostgresServerProcess;
let stack: ChaosStack | undefined;

beforeAll(async () => {
  [nats, pg] = await Promise.all([NatsServerProcess.start(), PostgresServerProcess.start()]);
}, 120_000);

afterAll(async () => {
  await stack?.close().catch(() => undefined);
  await killAllSpawned();
  await nats?.destroy();
  await pg?.destroy();
}, 60_000);

interface OwnerState extends Record<string, unknown> {
  user_id: number;
  current_shift_id: string;
  next_check_in_at: Date;
}

/** On-shift workers as shifts, the owner, holds them. */
async function onShiftAtOwner(s: ChaosStack): Promise<OwnerState[]> {
  return s.shiftsQuery<OwnerState>(
    'select user_id, current_shift_id, next_check_in_at from shifts.worker_state where on_shift order by user_id',
  );
}

/**
 * What escalation watches for each worker: its deadline rows (job key `checkin:<id>`) with the
 * deadline they stand for, and its missed check-in alarms with the deadline each was raised for.
 */
async function watched(s: ChaosStack) {
  const deadlines = await s.escalationQuery<{ user_id: number; due: string }>(
    `select user_id, payload->>'dueAt' as due from escalation.deadlines where kind = 'checkin'`,
  );
  const alarms = await s.escalationQuery<{ user_id: number; due_at: Date }>(
    `select user_id, due_at from escalation.alarms where kind = 'missed_check_in'`,
  );
  return { deadlines, alarms };
}

const alarmsOpened = (events: StoredEvent[]) =>
  events.filter((e) => e.subject === 'escalation.alarm.opened.v1' && e.data.kind === 'missed_check_in').map((e) => e.data.userId as number);

describe('escalation through a 90 s outage of its PostgreSQL', () => {
  it('every on-shift worker ends with exactly the deadline shifts holds, every due step fires once, no false alarm, nothing dead-lettered', async () => {
    const before = range(3001, 10);
    const checkingIn = before.slice(0, 5);
    const silent = before.slice(5);
    const startingDuring = range(3101, 10);
    stack = await ChaosStack.create(nats, { ESCALATION_TICK_MS: '250' }, { escalationDatabaseUrl: pg.url() });
    const s = stack;
    try {
      await s.startShifts();
      await s.seedLocation(LOCATION);
      await s.seedWorkers([...before, ...startingDuring]);
      const escalation = await s.startEscalation();
      await s.startShiftsFor(before, LOCATION);

      // Due 40 s into the outage: while escalation cannot write anything.
      const outageStart = Date.now() + 8000;
      const dueDuring = new Map<number, number>();
      await inBatches(before, 10, async (userId) => {
        dueDuring.set(userId, (await s.setDeadline(userId, new Date(outageStart + 40_000))).getTime());
      });
      await eventually(async () => {
        const { deadlines } = await watched(s);
        return before.every((id) => deadlines.some((d) => d.user_id === id && Date.parse(d.due) === dueDuring.get(id)));
      }, 20_000);
      if (Date.now() > outageStart) throw new Error('set-up ran past the start of the outage; make the lead longer');
      await sleep(outageStart - Date.now());

      await pg.stop('immediate');
      const stoppedAt = Date.now();
      await eventually(async () => (await fetch(`${escalation.url}/readyz`)).status === 503, 15_000, 250);

      // Shifts is up: these are accepted at once, and their events wait for escalation's database.
      await sleep(5000);
      await s.startShiftsFor(startingDuring, LOCATION);
      const checkIns = await Promise.all(checkingIn.map((userId) => s.checkInRetrying(userId, Date.now() + 10_000)));
      expect(checkIns.every((c, i) => c.nextCheckInAt.getTime() > dueDuring.get(checkingIn[i])!)).toBe(true);

      await sleep(stoppedAt + OUTAGE_MS - Date.now());
      expect(escalation.running).toBe(true);
      await pg.start();
      const restoredAt = Date.now();

      // Within the longest retry pause (30 s) of the database coming back, with room for a busy machine.
      const owner = await onShiftAtOwner(s);
      expect(owner.map((w) => w.user_id).sort((a, b) => a - b)).toEqual([...before, ...startingDuring]);
      await eventually(
        async () => {
          const { deadlines, alarms } = await watched(s);
          return owner.every((w) => {
            const due = w.next_check_in_at.getTime();
            const rows = deadlines.filter((d) => d.user_id === w.user_id);
            const alarmed = alarms.some((a) => a.user_id === w.user_id && a.due_at.getTime() === due);
            return (rows.length === 1 && Date.parse(rows[0].due) === due) || (rows.length === 0 && alarmed);
          });
        },
        60_000,
        500,
      );
      const caughtUpMs = Date.now() - restoredAt;

      // The silent workers' missed check-ins, due during the outage, fired once each; nobody else's did.
      const events = await eventually(async () => {
        const all = await s.escalationOutbox();
        return alarmsOpened(all).length >= silent.length ? all : undefined;
      }, 30_000);
      expect(alarmsOpened(events).sort((a, b) => a - b)).toEqual(silent);
      const { deadlines, alarms } = await watched(s);
      for (const id of silent) expect(alarms.filter((a) => a.user_id === id).map((a) => a.due_at.getTime())).toEqual([dueDuring.get(id)]);
      expect(alarms.filter((a) => !silent.includes(a.user_id))).toEqual([]);
      // Exactly one current deadline for every other worker, equal to the one shifts holds.
      for (const w of owner.filter((o) => !silent.includes(o.user_id))) {
        expect(deadlines.filter((d) => d.user_id === w.user_id).map((d) => Date.parse(d.due))).toEqual([w.next_check_in_at.getTime()]);
      }
      expect(await s.escalationQuery('select consumer, subject, error from escalation.dead_letters')).toEqual([]);
      expect(await s.escalationQuery('select id from escalation.outbox where parked_at is not null')).toEqual([]);
      await eventually(async () => (await fetch(`${escalation.url}/readyz`)).status === 200, 15_000, 250);
      expect(caughtUpMs).toBeLessThan(60_000);
    } catch (err) {
      if (err instanceof Error) err.message += `\n\n---- service logs ----\n${s.logs()}`;
      throw err;
    }
  }, 300_000);
});
