import { HOUR_MS, MONTHS } from '../format/date-time';
import { msg, type Translate } from '../i18n/i18n';

// Times in a given zone (the rota editor, an admin's own on-call shifts): a rota's stretches in the rota's own time zone (where its
// hand-offs are set), and the override form's inputs in the browser's, as `datetime-local` gives them.

export { HOUR_MS };
export const DAY_MS = 24 * HOUR_MS;

/** Monday first, as the rota's days (1 = Monday … 7 = Sunday). */
export const WEEKDAYS = [msg('Mon'), msg('Tue'), msg('Wed'), msg('Thu'), msg('Fri'), msg('Sat'), msg('Sun')] as const;

/** The wall clock in a zone at an instant; `weekday` 1 = Monday … 7 = Sunday. */
export interface ZoneClock {
  year: number;
  month: number;
  day: number;
  weekday: number;
  hour: number;
  minute: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** One formatter per zone (the first for a zone loads its data); an unknown zone reads as UTC. */
function formatterFor(zone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(zone);
  if (!formatter) {
    const options: Intl.DateTimeFormatOptions = {
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      hourCycle: 'h23',
    };
    try {
      formatter = new Intl.DateTimeFormat('en-GB', { ...options, timeZone: zone });
    } catch {
      formatter = new Intl.DateTimeFormat('en-GB', { ...options, timeZone: 'UTC' });
    }
    formatters.set(zone, formatter);
  }
  return formatter;
}

export function zoneClock(ms: number, zone: string): ZoneClock {
  const parts = Object.fromEntries(
    formatterFor(zone)
      .formatToParts(new Date(ms))
      .map((p) => [p.type, Number(p.value)]),
  ) as Record<string, number>;
  const sunday0 = new Date(Date.UTC(parts.year, parts.month - 1, parts.day)).getUTCDay();
  return {
    year: parts.year,
    month: parts.month,
    day: parts.day,
    weekday: sunday0 === 0 ? 7 : sunday0,
    hour: parts.hour % 24,
    minute: parts.minute,
  };
}

/** How far the zone's clock is ahead of UTC at an instant, in ms. */
function offsetAt(ms: number, zone: string): number {
  const c = zoneClock(ms, zone);
  return Date.UTC(c.year, c.month - 1, c.day, c.hour, c.minute) - Math.floor(ms / 60_000) * 60_000;
}

/** The instant a zone's clock reads midnight at the start of a date (months 1-12; days past the month's end roll on). */
export function zoneMidnight(year: number, month: number, day: number, zone: string): number {
  const wall = Date.UTC(year, month - 1, day);
  const guess = wall - offsetAt(wall, zone);
  return wall - offsetAt(guess, zone);
}

/** The midnights in a zone after `from` and before `to`: the timeline's day ticks. */
export function zoneMidnights(from: number, to: number, zone: string): number[] {
  const start = zoneClock(from, zone);
  const found: number[] = [];
  for (let i = 1; i <= Math.ceil((to - from) / DAY_MS) + 1; i += 1) {
    const at = zoneMidnight(start.year, start.month, start.day + i, zone);
    if (at > from && at < to) found.push(at);
  }
  return found;
}

const two = (n: number) => String(n).padStart(2, '0');

/** "Mon 7", a day tick's label. */
export function dayLabel(ms: number, zone: string, t: Translate): string {
  const c = zoneClock(ms, zone);
  return `${t(WEEKDAYS[c.weekday - 1])} ${c.day}`;
}

/** "Mon 7 Dec 20:00" in the zone, in the language shown. */
export function zoneStamp(at: string | number, zone: string, t: Translate): string {
  const c = zoneClock(typeof at === 'number' ? at : Date.parse(at), zone);
  return `${t(WEEKDAYS[c.weekday - 1])} ${c.day} ${t(MONTHS[c.month - 1])} ${two(c.hour)}:${two(c.minute)}`;
}

/** The browser's own zone, as the `datetime-local` inputs read. */
export function browserZone(): string {
  try {
    return new Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

/** A `datetime-local` value, 'YYYY-MM-DDTHH:mm', for an instant in the browser's zone. */
export function localInputValue(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}T${two(d.getHours())}:${two(d.getMinutes())}`;
}

/** The instant a `datetime-local` value names in the browser's zone, as ISO; '' when it names none. */
export function instantOfLocalInput(value: string): string {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(value)) return '';
  // A date and time without an offset is the browser's local time (ECMA-262 Date.parse).
  const at = new Date(value.slice(0, 16));
  return Number.isNaN(at.getTime()) ? '' : at.toISOString();
}
