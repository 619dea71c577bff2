import type { Clock } from './runtime';

/**
 * The test clock: an offset added to the system time by every clock `clockFor` hands out while
 * LWS_TEST_CLOCK=1, so time-dependent flows (due soon, overdue) are testable without waiting.
 *
 * The offset lives on the process's global object, not in this module, so every service in one
 * process (tools/stack: `npm start`, the tests) shares it even if two copies of this library are
 * loaded. A service running in a process of its own has its own offset and needs the flag itself:
 * moving the gateway's clock moves no other process.
 */
const OFFSET_KEY = Symbol.for('lws.platform.testClockOffsetMs');
type Holder = { [OFFSET_KEY]?: number };
const holder = globalThis as Holder;

/** About a year either way: far enough for any test, near enough to catch a unit mistake. */
export const MAX_TEST_CLOCK_OFFSET_MS = 366 * 24 * 3600_000;

export const testClock = {
  offsetMs(): number {
    return holder[OFFSET_KEY] ?? 0;
  },
  /** Sets the offset from the system time; returns it. */
  setOffsetMs(ms: number): number {
    if (!Number.isSafeInteger(ms) || Math.abs(ms) > MAX_TEST_CLOCK_OFFSET_MS) {
      throw new RangeError(`test clock offset must be a whole number of ms within ±${MAX_TEST_CLOCK_OFFSET_MS}`);
    }
    holder[OFFSET_KEY] = ms;
    return ms;
  },
  /** Moves the clock forward (or back, with a negative value); returns the new offset. */
  advanceMs(ms: number): number {
    return this.setOffsetMs(this.offsetMs() + ms);
  },
};

export const systemClock: Clock = () => new Date();

const offsetClock: Clock = () => new Date(Date.now() + testClock.offsetMs());

/** The clock a service injects as CLOCK: the system time, plus the test offset only when the flag is on. */
export function clockFor(config: { LWS_TEST_CLOCK?: boolean }): Clock {
  return config.LWS_TEST_CLOCK === true ? offsetClock : systemClock;
}
