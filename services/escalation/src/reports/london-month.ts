/** Reports run in the zone LWS shows every time in; a month starts at local midnight on the 1st. */
export const REPORT_TIMEZONE = 'Europe/London';

export const MONTH_PATTERN = /^(20[0-9]{2})-(0[1-9]|1[0-2])$/;

const wallClock = new Intl.DateTimeFormat('en-GB', {
  timeZone: REPORT_TIMEZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

/** London's wall clock minus UTC at an instant, in ms (0 in winter, one hour in summer). */
function offsetAt(ms: number): number {
  const p = Object.fromEntries(wallClock.formatToParts(new Date(ms)).map((x) => [x.type, Number(x.value)]));
  const wall = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return wall - (ms - (((ms % 1000) + 1000) % 1000));
}

/**
 * The instant London's wall clock reads midnight on the 1st of the month. Clocks change at 01:00
 * UTC on a Sunday, never at midnight on the 1st, so the second pass only confirms the first; it is
 * there so a rule change cannot silently shift a boundary by an hour.
 */
function startOf(year: number, monthIndex: number): Date {
  const wall = Date.UTC(year, monthIndex, 1);
  const guess = wall - offsetAt(wall);
  return new Date(wall - offsetAt(guess));
}

export interface MonthBounds {
  /** First instant of the month, inclusive. */
  from: Date;
  /** First instant of the next month, exclusive. */
  to: Date;
}

/** `YYYY-MM` as the half-open UTC interval of that month in London. */
export function monthBounds(month: string): MonthBounds {
  const m = MONTH_PATTERN.exec(month);
  if (!m) throw new RangeError(`not a month: ${month}`);
  const year = Number(m[1]);
  const index = Number(m[2]) - 1;
  return { from: startOf(year, index), to: startOf(year, index + 1) };
}

/** The London month an instant falls in, as `YYYY-MM`. */
export function londonMonthOf(at: Date): string {
  const p = Object.fromEntries(wallClock.formatToParts(at).map((x) => [x.type, x.value]));
  return `${p.year}-${p.month}`;
}
