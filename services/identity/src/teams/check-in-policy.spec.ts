import { intervalNotAllowed, nearestAllowedInterval } from './check-in-policy';

describe('nearestAllowedInterval', () => {
  it.each([
    [240, [30], 30],
    [240, [30, 60, 120], 120],
    [50, [30, 60], 60],
    [30, [50, 120, 240], 50],
    [120, [60, 240], 60],
    [60, [30, 50, 120], 50],
  ])('%p minutes under %p become %p', (minutes, allowed, expected) => {
    expect(nearestAllowedInterval(minutes, allowed)).toBe(expected);
  });

  it('keeps an interval the policy allows', () => {
    expect(nearestAllowedInterval(120, [30, 120, 240])).toBe(120);
  });

  it('takes the shorter of two equally near, whatever their order', () => {
    expect(nearestAllowedInterval(90, [120, 60])).toBe(60);
    expect(nearestAllowedInterval(90, [60, 120])).toBe(60);
    expect(nearestAllowedInterval(45, [60, 30])).toBe(30);
  });
});

describe('intervalNotAllowed', () => {
  it('names the team and every interval it allows, shortest first', () => {
    expect(intervalNotAllowed('North', [30])).toBe('Check-in interval must be 30 minutes for team North');
    expect(intervalNotAllowed('North', [60, 30])).toBe('Check-in interval must be 30 or 60 minutes for team North');
    expect(intervalNotAllowed('North', [120, 30, 60])).toBe('Check-in interval must be 30, 60 or 120 minutes for team North');
  });
});
