import {
  policyTimeline,
  stepOrderProblem,
  intervalWords,
  adminStatus,
  checkInButton,
  CHECK_IN_HINTS,
  defaultLocationChoice,
  formatCountdown,
  formatDuration,
  nextCheckInAt,
  nextFullHour,
  statusPill,
  workerDeadline,
  workerOwnStatus,
} from './index';

const now = new Date('2026-11-20T10:30:00.000Z');
const at = (ms: number) => new Date(now.getTime() + ms).toISOString();
const MIN = 60_000;
const HOUR = 60 * MIN;
const onShiftWith = (nextCheckInTime: string | null) => ({
  onShift: true,
  shiftStartTime: at(-2 * HOUR),
  latestCheckIn: { nextCheckInTime },
});

describe("worker's own status", () => {
  it.each([
    ['no user', null, 'overdue'],
    ['off shift', { onShift: false }, 'safe'],
    ['no check-in and no shift start', { onShift: true }, 'overdue'],
  ] as const)('%s → %s', (_name, user, expected) => {
    expect(workerOwnStatus({ user }, now)).toBe(expected);
  });

  it('is safe during an emergency reset whatever the deadline', () => {
    expect(workerOwnStatus({ user: onShiftWith(at(-HOUR)), emergencyReset: true }, now)).toBe('safe');
  });

  it.each([
    [-1, 'overdue'],
    [0, 'overdue'],
    [1, 'due-soon'],
    [10 * MIN, 'due-soon'],
    [10 * MIN + 1, 'safe'],
  ])('without a check-in, shift start + 1 h is the deadline (%i ms left → %s)', (left, expected) => {
    const user = { onShift: true, shiftStartTime: new Date(now.getTime() + left - HOUR).toISOString(), latestCheckIn: null };
    expect(workerOwnStatus({ user }, now)).toBe(expected);
  });

  it.each([
    [null, 'overdue'],
    [at(-1), 'overdue'],
    [at(0), 'overdue'],
    [at(1), 'due-soon'],
    [at(10 * MIN), 'due-soon'],
    [at(10 * MIN + 1), 'safe'],
    [at(24 * HOUR), 'safe'],
    [at(24 * HOUR + 1), 'safe'],
    [at(-24 * HOUR - 1), 'safe'],
    [at(-24 * HOUR), 'overdue'],
  ])('with a check-in due at %s → %s', (next, expected) => {
    expect(workerOwnStatus({ user: onShiftWith(next) }, now)).toBe(expected);
  });

  it('has the spec pill texts and colours', () => {
    expect(statusPill('safe')).toEqual({ text: "You're checked in", tone: 'green' });
    expect(statusPill('due-soon')).toEqual({ text: 'Check-in due soon', tone: 'amber' });
    expect(statusPill('overdue')).toEqual({ text: 'Check-in overdue', tone: 'red' });
    expect(statusPill('emergency-reset')).toEqual({ text: 'Help requested', tone: 'red' });
    expect(statusPill('unavailable')).toEqual({ text: 'Status unavailable', tone: 'grey' });
  });

  it('counts down to the next check-in, else shift start + 1 h, else the next full hour', () => {
    expect(workerDeadline({ user: onShiftWith(at(5 * MIN)) }, now).toISOString()).toBe(at(5 * MIN));
    expect(workerDeadline({ user: { onShift: true, shiftStartTime: at(-20 * MIN) } }, now).toISOString()).toBe(at(40 * MIN));
    expect(workerDeadline({ user: { onShift: false } }, now).toISOString()).toBe('2026-11-20T11:00:00.000Z');
  });
});

describe("monitors' status of an on-shift worker", () => {
  it.each([
    [undefined, 'checked-in'],
    [null, 'checked-in'],
    [at(15 * MIN), 'checked-in'],
    [at(15 * MIN - 1), 'due-soon'],
    [at(1), 'due-soon'],
    [at(0), 'overdue'],
    [at(-1), 'overdue'],
  ])('next check-in %s → %s', (next, expected) => {
    expect(adminStatus(next, now)).toBe(expected);
  });
});

describe('the CHECK IN button', () => {
  it.each([
    [at(10 * MIN + 1), false, CHECK_IN_HINTS.outsideWindow],
    [at(10 * MIN), true, CHECK_IN_HINTS.ready],
    [at(1), true, CHECK_IN_HINTS.ready],
    [at(-30 * MIN), true, CHECK_IN_HINTS.ready],
    [at(24 * HOUR + 1), false, CHECK_IN_HINTS.noShift],
    [null, false, CHECK_IN_HINTS.noShift],
  ])('on shift, deadline %s → enabled %s', (next, enabled, hint) => {
    expect(checkInButton({ onShift: true, nextCheckInTime: next }, now)).toMatchObject({ enabled, hint });
  });

  it('is off during an emergency reset and while processing', () => {
    expect(checkInButton({ onShift: true, nextCheckInTime: at(MIN), emergencyReset: true }, now)).toMatchObject({
      enabled: false,
      hint: CHECK_IN_HINTS.emergency,
    });
    expect(checkInButton({ onShift: true, nextCheckInTime: at(MIN), processing: true }, now)).toEqual({
      enabled: false,
      hint: 'Processing...',
      tone: 'processing',
    });
  });

  it('off shift it needs a future check-in time', () => {
    expect(checkInButton({ onShift: false, nextCheckInTime: at(-MIN) }, now).enabled).toBe(false);
    expect(checkInButton({ onShift: false, nextCheckInTime: at(5 * MIN) }, now).enabled).toBe(true);
  });
});

describe('time helpers', () => {
  it('computes the next check-in from the interval', () => {
    expect(nextCheckInAt(now, 60).toISOString()).toBe(at(HOUR));
    expect(nextCheckInAt(now, 30).toISOString()).toBe(at(30 * MIN));
  });
  it('finds the next full hour, moving on from an exact hour', () => {
    expect(nextFullHour(now).toISOString()).toBe('2026-11-20T11:00:00.000Z');
    expect(nextFullHour(new Date('2026-11-20T11:00:00.000Z')).toISOString()).toBe('2026-11-20T12:00:00.000Z');
  });
  it('formats HH:MM:SS, clamped at zero', () => {
    expect(formatCountdown(3_723_999)).toBe('01:02:03');
    expect(formatCountdown(0)).toBe('00:00:00');
    expect(formatCountdown(-5000)).toBe('00:00:00');
    expect(formatCountdown(25 * HOUR)).toBe('25:00:00');
  });
  it('formats a duration as Nh Nm', () => {
    expect(formatDuration(2 * HOUR + 5 * MIN + 59_000)).toBe('2h 5m');
    expect(formatDuration(0)).toBe('0h 0m');
  });
});

describe('default location choice', () => {
  const active = [{ name: 'Depot' }, { name: 'The Prospect Building' }];
  it('prefers the user location, then The Prospect Building, then the first active one', () => {
    expect(defaultLocationChoice('Depot', active)).toBe('Depot');
    expect(defaultLocationChoice('Closed site', active)).toBe('The Prospect Building');
    expect(defaultLocationChoice(null, [{ name: 'Depot' }])).toBe('Depot');
    expect(defaultLocationChoice(null, [])).toBeUndefined();
  });
});

describe('policyTimeline (the policy editor preview)', () => {
  it('reads the steps in order with their times from the alarm opening', () => {
    expect(
      policyTimeline([
        { action: 'notify_worker', after: 0 },
        { action: 'notify_monitor', after: 0, position: 1 },
        { action: 'notify_deputy', after: 90, position: 1 },
        { action: 'call_emergency_numbers', after: 120, unlessAcknowledged: true },
        { action: 'message_contacts', after: 'calls_done', callPrimaryContact: true },
        { action: 'notify_organisation', after: 3700 },
      ]),
    ).toEqual([
      '0:00 notify the worker',
      '0:00 notify monitor 1',
      '1:30 notify the deputy of monitor 1',
      '2:00 call the emergency numbers unless acknowledged',
      'after the calls: message the emergency contacts and call the primary contact',
      "1:01:40 notify all the organisation's monitors",
    ]);
  });

  it('a step timed before the one ahead of it runs when its turn comes', () => {
    expect(
      policyTimeline([
        { action: 'notify_monitors', after: 300 },
        { action: 'notify_organisation', after: 60 },
      ]),
    ).toEqual(["5:00 notify the team's monitors", "5:00 notify all the organisation's monitors"]);
  });
});

describe('stepOrderProblem (a policy checked where it is saved and as it is edited)', () => {
  it('refuses a step waiting for the calls with no call step before it, naming the step', () => {
    expect(
      stepOrderProblem([
        { action: 'notify_monitors', after: 0 },
        { action: 'message_contacts', after: 'calls_done' },
      ]),
    ).toEqual({
      index: 1,
      message: 'Step 2 waits for the calls, but no step before it calls the emergency numbers',
    });
    expect(
      stepOrderProblem([
        { action: 'message_contacts', after: 'calls_done' },
        { action: 'call_emergency_numbers', after: 60 },
      ])?.index,
    ).toBe(0);
  });

  it('accepts the default order: calls, then the contacts once the calls are done', () => {
    expect(
      stepOrderProblem([
        { action: 'notify_monitors', after: 0 },
        { action: 'call_emergency_numbers', after: 120 },
        { action: 'message_contacts', after: 'calls_done' },
      ]),
    ).toBeUndefined();
  });
});

describe("intervalWords (texts follow the worker's own interval)", () => {
  it('says the interval as people do', () => {
    expect([30, 50, 60, 120, 240].map(intervalWords)).toEqual(['30 minutes', '50 minutes', 'hour', '2 hours', '4 hours']);
  });
});
