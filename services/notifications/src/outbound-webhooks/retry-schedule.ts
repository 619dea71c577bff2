/**
 * When a webhook is tried: Standard Webhooks' schedule, immediately, then 5 s, 5 min, 30 min,
 * 2 h, 5 h, 10 h and 10 h after the attempt before (eight attempts over about 27 hours), and then
 * given up. Entry i is the wait before attempt i + 1; the first is counted from the message.
 */
export const DEFAULT_RETRY_SCHEDULE = '0s,5s,5m,30m,2h,5h,10h,10h';

const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 } as const;
const DURATION = /^(\d+(?:\.\d+)?)(ms|s|m|h)$/;

/** The most attempts a schedule may give one message. */
const MAX_ATTEMPTS = 50;
/** The longest wait one entry may hold (a day and a bit: past that, a receiver has long moved on). */
const MAX_GAP_MS = 48 * 3_600_000;

/**
 * Parses "0s,5s,5m,..." into waits in ms; throws a message naming what is wrong (the config
 * schema reports it against WEBHOOKS_RETRY_SCHEDULE).
 */
export function parseRetrySchedule(text: string): number[] {
  const parts = text.split(',').map((p) => p.trim());
  if (parts.length === 0 || parts.length > MAX_ATTEMPTS || parts.some((p) => p === '')) {
    throw new Error(`must list 1 to ${MAX_ATTEMPTS} waits, comma-separated, e.g. ${DEFAULT_RETRY_SCHEDULE}`);
  }
  return parts.map((p) => {
    const m = DURATION.exec(p);
    if (!m) throw new Error(`"${p}" is not a wait: a number and ms, s, m or h, e.g. 5s`);
    const ms = Math.round(Number(m[1]) * UNIT_MS[m[2] as keyof typeof UNIT_MS]);
    if (ms > MAX_GAP_MS) throw new Error(`"${p}" is longer than 48h`);
    return ms;
  });
}

/** How much later than its schedule a retry may go, at most: spread so that a recovered receiver is not hit by every retry at once. */
export const JITTER = 0.1;

/**
 * The wait before the next attempt, after `made` attempts of this round (a replay starts a new
 * round), or undefined when the schedule is spent. `random` in [0, 1) spreads the wait up to JITTER
 * later, never earlier, so no retry comes before the schedule promises. A receiver's Retry-After
 * (already capped) is honoured: the wait is never shorter than it.
 */
export function nextAttemptDelay(schedule: readonly number[], made: number, random: number, retryAfterMs?: number): number | undefined {
  if (made >= schedule.length) return undefined;
  const planned = schedule[made];
  const spread = Math.round(planned * (1 + JITTER * Math.min(Math.max(random, 0), 1)));
  return Math.max(spread, retryAfterMs ?? 0);
}

/**
 * A Retry-After header in ms from `now`: delay-seconds or an HTTP date; undefined when absent or
 * unreadable, capped at `maxMs` (a receiver cannot park a message for a year).
 */
export function retryAfterMs(header: string | string[] | undefined, now: Date, maxMs: number): number | undefined {
  const value = (Array.isArray(header) ? header[0] : header)?.trim();
  if (!value) return undefined;
  let ms: number;
  if (/^\d+$/.test(value)) ms = Number(value) * 1000;
  else {
    // An HTTP date names its day and ends in GMT; anything else Date.parse might guess at is not one.
    if (!/^[A-Za-z]{3},? .* GMT$/.test(value)) return undefined;
    const at = Date.parse(value);
    if (Number.isNaN(at)) return undefined;
    ms = at - now.getTime();
  }
  return Math.min(Math.max(0, ms), maxMs);
}
