import { firstStep, nextAfter, stepToRun } from './checkin-steps';

const T = new Date('2025-06-02T13:00:00.000Z');
const before = (minutes: number) => new Date(T.getTime() - minutes * 60_000);

describe('check-in deadline steps', () => {
  it('a deadline an hour away starts with the 5 minute reminder at T-5', () => {
    expect(firstStep(T, before(60))).toEqual({ step: 'reminder_5min', at: before(5) });
  });

  it('skips reminders whose time has passed: 3 minutes away starts at T-2, 1 minute away only misses', () => {
    expect(firstStep(T, before(3))).toEqual({ step: 'reminder_2min', at: before(2) });
    expect(firstStep(T, before(1))).toEqual({ step: 'missed', at: T });
    expect(firstStep(T, before(5))).toEqual({ step: 'reminder_2min', at: before(2) });
  });

  it('a deadline already passed is missed at once', () => {
    expect(firstStep(T, new Date(T.getTime() + 1000))).toEqual({ step: 'missed', at: T });
  });

  it('a reminder claimed on time runs; one claimed late gives way to the step whose time it is', () => {
    expect(stepToRun('reminder_5min', T, before(5))).toBe('reminder_5min');
    expect(stepToRun('reminder_5min', T, before(1.5))).toBe('reminder_2min');
    expect(stepToRun('reminder_5min', T, T)).toBe('missed');
    expect(stepToRun('reminder_2min', T, new Date(T.getTime() + 3600_000))).toBe('missed');
    expect(stepToRun('missed', T, T)).toBe('missed');
  });

  it('after a reminder comes the next step still ahead', () => {
    expect(nextAfter('reminder_5min', T, before(5))).toEqual({ step: 'reminder_2min', at: before(2) });
    expect(nextAfter('reminder_2min', T, before(2))).toEqual({ step: 'missed', at: T });
  });
});
