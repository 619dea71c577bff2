/**
 * An alarm's messages under failure, on real processes (shifts, escalation, notifications),
 * PostgreSQL and a NATS server of this file's own; the SMS provider is a fake speaking Twilio's
 * API, driven by the real SDK in notifications. (1) notifications is away while alarms open and
 * the requests escalation sent it are deleted from the stream: once it is back, every alarm's SMS
 * and call still reaches the provider, once (escalation's request tracking asks again). (2) The
 * provider answers 503 for two minutes while alarms open: once it heals, every alarm's SMS and
 * call reaches it, once.
 */
import { FakeTwilio } from '@lws/notifications';
import { eventually } from '@lws/testing';
import { ChaosStack, inBatches } from './support/chaos-stack';
import { killAllSpawned, NatsServerProcess, type ServiceProcess } from './support/processes';

const LOCATION = 'Messages Depot';
const EMERGENCY_NUMBER = '+447911000999';
const range = (from: number, count: number) => Array.from({ length: count }, (_, i) => from + i);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));
/** The phone chaos-stack's seedWorkers gives a worker. */
const phoneOf = (userId: number) => `+447911${String(userId % 1_000_000).padStart(6, '0')}`;

let nats: NatsServerProcess;
let fake: FakeTwilio;
let stack: ChaosStack;
let notifications: ServiceProcess;

beforeAll(async () => {
  nats = await NatsServerProcess.start();
  // Calls ring until escalation's watchdog gives up on them: no status callback is needed.
  fake = await FakeTwilio.start({ autoNoAnswer: false });
  stack = await ChaosStack.create(nats, {
    ESCALATION_TICK_MS: '250',
    // Asked again after 5 s without a confirmation (default 30 s).
    ESCALATION_REQUEST_CONFIRM_SECONDS: '5',
    EMERGENCY_NUMBER_1: EMERGENCY_NUMBER,
    // An alarm calls the emergency number at once (default: after 2 minutes unacknowledged).
    ALARM_ACK_TIMEOUT_SECONDS: '0',
  });
  await stack.startShifts();
  notifications = await stack.startNotifications(fake.url);
  await stack.startEscalation();
  await stack.seedLocation(LOCATION);
}, 120_000);

afterAll(async () => {
  await stack?.close().catch(() => undefined);
  await killAllSpawned();
  await fake?.close();
  await nats?.destroy();
});

/** Puts the workers on shift with their deadlines `inMs` from now; answers when they fall due. */
async function dueSoon(workers: number[], inMs: number): Promise<number> {
  await stack.seedWorkers(workers);
  await stack.startShiftsFor(workers, LOCATION);
  const at = Date.now() + inMs;
  await inBatches(workers, 10, (userId) => stack.setDeadline(userId, new Date(at)));
  return at;
}

const smsTo = (userId: number) => fake.messages.filter((m) => m.to === phoneOf(userId));
const callsToEmergencyNumber = () => fake.calls.filter((c) => c.to === EMERGENCY_NUMBER).length;

/** Each worker's alarm SMS and the alarms' calls at the provider: one each, also a while later. */
async function expectEachOnce(workers: number[], callsBefore: number, withinMs: number): Promise<void> {
  await eventually(
    () => workers.every((w) => smsTo(w).length >= 1) && callsToEmergencyNumber() - callsBefore >= workers.length,
    withinMs,
    250,
  );
  // Room for a second copy to arrive (a re-asked request, a retry answered twice).
  await sleep(12_000);
  expect(workers.filter((w) => smsTo(w).length !== 1).map((w) => `worker ${w}: ${smsTo(w).length} SMS`)).toEqual([]);
  expect(callsToEmergencyNumber() - callsBefore).toBe(workers.length);
}

describe("an alarm's messages when the bus or the provider fails (real processes, PostgreSQL and NATS)", () => {
  it('requests lost from the stream while notifications was away still reach the provider once it is back, each once', async () => {
    const workers = range(6001, 6);
    const at = await dueSoon(workers, 15_000);
    await notifications.stop();
    const fromSeq = await stack.streamLastSeq();
    // The alarms open and escalation asks for their messages and calls; nobody takes them.
    const requested = async () =>
      (
        await stack.escalationQuery<{ n: number }>(
          `select count(distinct payload->'data'->>'requestId')::int as n from escalation.outbox
            where subject = 'escalation.notification.requested.v1' and payload->'data'->>'purpose' = 'missed_check_in'
              and payload->'data'->>'channel' = 'sms' and published_at is not null`,
        )
      )[0].n;
    await sleep(at - Date.now());
    await eventually(async () => (await requested()) >= workers.length, 30_000, 250);
    const callsBefore = callsToEmergencyNumber();
    await eventually(async () => (await stack.escalationUnpublished()) === 0, 20_000, 100);
    const lost = await stack.loseFromStream(fromSeq, 'escalation.notification.requested.v1');
    expect(lost.length).toBeGreaterThanOrEqual(workers.length);

    await notifications.start();
    await expectEachOnce(workers, callsBefore, 60_000);
  }, 150_000);

  it('a provider answering 503 for two minutes while alarms open: every SMS and call reaches it once it heals, each once', async () => {
    const workers = range(6101, 6);
    const callsBefore = callsToEmergencyNumber();
    fake.failNext(1_000_000, 503);
    const at = await dueSoon(workers, 10_000);
    const healAt = at + 120_000;
    await sleep(at + 20_000 - Date.now());
    // Refused so far: nothing sent, nothing given up.
    expect(workers.flatMap(smsTo)).toEqual([]);
    const { n: failed } = (
      await stack.shiftsQuery<{ n: number }>(
        `select count(*)::int as n from notifications.deliveries where status = 'failed' and to_address = any($1)`,
        [[...workers.map(phoneOf), EMERGENCY_NUMBER]],
      )
    )[0];
    expect(failed).toBe(0);
    await sleep(healAt - Date.now());
    fake.failNext(0);
    // Retries back off to 30 s at most: every message goes within about that of the provider healing.
    await expectEachOnce(workers, callsBefore, 45_000);
  }, 240_000);
});
