import { clockFor, MAX_TEST_CLOCK_OFFSET_MS, testClock } from './clock';

describe('clockFor', () => {
  afterEach(() => testClock.setOffsetMs(0));

  it('follows the test offset only when LWS_TEST_CLOCK is on', () => {
    testClock.setOffsetMs(90 * 60_000);
    const moved = clockFor({ LWS_TEST_CLOCK: true })().getTime() - Date.now();
    const system = clockFor({ LWS_TEST_CLOCK: false })().getTime() - Date.now();
    expect(moved).toBeGreaterThanOrEqual(90 * 60_000 - 50);
    expect(moved).toBeLessThanOrEqual(90 * 60_000 + 50);
    expect(Math.abs(system)).toBeLessThanOrEqual(50);
  });

  it('shares one offset between every clock of the process', () => {
    const a = clockFor({ LWS_TEST_CLOCK: true });
    const b = clockFor({ LWS_TEST_CLOCK: true });
    testClock.advanceMs(15 * 60_000);
    testClock.advanceMs(5 * 60_000);
    expect(testClock.offsetMs()).toBe(20 * 60_000);
    expect(Math.abs(a().getTime() - b().getTime())).toBeLessThanOrEqual(50);
    expect(a().getTime() - Date.now()).toBeGreaterThanOrEqual(20 * 60_000 - 50);
  });

  it('refuses an offset that is not a whole number of ms or is beyond a year', () => {
    expect(() => testClock.setOffsetMs(1.5)).toThrow(RangeError);
    expect(() => testClock.setOffsetMs(MAX_TEST_CLOCK_OFFSET_MS + 1)).toThrow(RangeError);
    expect(() => testClock.advanceMs(Number.NaN)).toThrow(RangeError);
    expect(testClock.offsetMs()).toBe(0);
  });
});
