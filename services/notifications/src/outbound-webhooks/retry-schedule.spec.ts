import { DEFAULT_RETRY_SCHEDULE, JITTER, nextAttemptDelay, parseRetrySchedule, retryAfterMs } from './retry-schedule';

const S = 1000;
const MIN = 60 * S;
const H = 60 * MIN;

describe('the webhook retry schedule', () => {
  const schedule = parseRetrySchedule(DEFAULT_RETRY_SCHEDULE);

  it("is Standard Webhooks' by default: immediately, then 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h, then given up", () => {
    // No jitter: the gaps between attempts exactly.
    const gaps: number[] = [];
    for (let made = 0; ; made++) {
      const wait = nextAttemptDelay(schedule, made, 0);
      if (wait === undefined) break;
      gaps.push(wait);
    }
    expect(gaps).toEqual([0, 5 * S, 5 * MIN, 30 * MIN, 2 * H, 5 * H, 10 * H, 10 * H]);
    // Eight attempts over about 27 hours, then no ninth.
    expect(gaps.reduce((a, b) => a + b, 0)).toBe(27 * H + 35 * MIN + 5 * S);
    expect(nextAttemptDelay(schedule, 8, 0)).toBeUndefined();
  });

  it('spreads each retry up to 10% later, never earlier than the schedule', () => {
    for (let made = 0; made < schedule.length; made++) {
      const planned = schedule[made];
      expect(nextAttemptDelay(schedule, made, 0)).toBe(planned);
      expect(nextAttemptDelay(schedule, made, 0.999_999)).toBeLessThanOrEqual(Math.round(planned * (1 + JITTER)));
      expect(nextAttemptDelay(schedule, made, 0.5)).toBeGreaterThanOrEqual(planned);
    }
    expect(nextAttemptDelay(schedule, 2, 0.5)).toBe(Math.round(5 * MIN * 1.05));
  });

  it("honours a receiver's Retry-After: never sooner than it asks, and the schedule when that is later", () => {
    expect(nextAttemptDelay(schedule, 1, 0, 60 * S)).toBe(60 * S);
    expect(nextAttemptDelay(schedule, 2, 0, 60 * S)).toBe(5 * MIN);
    // A spent schedule is spent, whatever the receiver asks.
    expect(nextAttemptDelay(schedule, 8, 0, 60 * S)).toBeUndefined();
  });

  it('reads Retry-After as seconds or an HTTP date, capped, and ignores what it cannot read', () => {
    const now = new Date('2026-12-01T10:00:00Z');
    expect(retryAfterMs('120', now, H)).toBe(120 * S);
    expect(retryAfterMs('Tue, 01 Dec 2026 10:02:30 GMT', now, H)).toBe(150 * S);
    expect(retryAfterMs('Tue, 01 Dec 2026 09:00:00 GMT', now, H)).toBe(0);
    expect(retryAfterMs('999999', now, H)).toBe(H);
    expect(retryAfterMs(undefined, now, H)).toBeUndefined();
    expect(retryAfterMs('soon', now, H)).toBeUndefined();
    expect(retryAfterMs('-5', now, H)).toBeUndefined();
  });

  it('parses a configured schedule, and names what is wrong with a bad one', () => {
    expect(parseRetrySchedule('0s, 200ms, 1.5s, 2m, 1h')).toEqual([0, 200, 1500, 2 * MIN, H]);
    expect(() => parseRetrySchedule('0s,5 seconds')).toThrow('"5 seconds" is not a wait');
    expect(() => parseRetrySchedule('0s,,5s')).toThrow('comma-separated');
    expect(() => parseRetrySchedule('0s,49h')).toThrow('longer than 48h');
  });
});
