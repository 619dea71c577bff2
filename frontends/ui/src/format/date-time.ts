import { i18n, msg } from '../i18n/i18n';

/**
 * Times travel as UTC ISO-8601 and are shown in Europe/London, whatever the device's zone, written
 * here rather than by `Intl.DateTimeFormat`, for two reasons:
 * - a browser need not know a language's dates: Debian's Chromium has no Welsh and answers
 *   "Nov 28, 2026, 08:50 PM" in American English; the month names come from the catalogues instead;
 * - the first formatter for a time zone loads ICU's zone data, about 25 ms on this machine and four
 *   times that on a cheap phone, in the middle of the worker's first screen.
 * The UK's rule (The Summer Time Order 2002, as the EU's): British Summer Time from 01:00 UTC on the
 * last Sunday of March to 01:00 UTC on the last Sunday of October. A spec holds it to ICU's zone
 * data across two decades, so a change in the law fails a test rather than showing a wrong hour.
 */

/** Short month names, January first (the screens show them through `t()`). */
export const MONTHS = [
  msg('Jan'),
  msg('Feb'),
  msg('Mar'),
  msg('Apr'),
  msg('May'),
  msg('Jun'),
  msg('Jul'),
  msg('Aug'),
  msg('Sep'),
  msg('Oct'),
  msg('Nov'),
  msg('Dec'),
] as const;

export const HOUR_MS = 3_600_000;

/** 01:00 UTC on the last Sunday of a month (0-based) of a year, in ms. */
function lastSundayOneAm(year: number, month: number): number {
  const lastDay = new Date(Date.UTC(year, month + 1, 0));
  return Date.UTC(year, month, lastDay.getUTCDate() - lastDay.getUTCDay(), 1);
}

/** Whether British Summer Time applies at an instant. */
export function isBritishSummerTime(at: Date): boolean {
  const ms = at.getTime();
  const year = at.getUTCFullYear();
  return ms >= lastSundayOneAm(year, 2) && ms < lastSundayOneAm(year, 9);
}

/** The wall clock in London at an instant: its fields, read with the UTC getters. */
function londonClock(at: Date): Date {
  return new Date(at.getTime() + (isBritishSummerTime(at) ? HOUR_MS : 0));
}

const two = (n: number) => String(n).padStart(2, '0');
const toDate = (at: string | Date) => (typeof at === 'string' ? new Date(at) : at);

/** A time of day in Europe/London, "15:31". */
export function formatTime(at: string | Date): string {
  const clock = londonClock(toDate(at));
  return `${two(clock.getUTCHours())}:${two(clock.getUTCMinutes())}`;
}

/** The year and month (1-12) in Europe/London at an instant. */
export function londonYearMonth(at: string | Date): { year: number; month: number } {
  const clock = londonClock(toDate(at));
  return { year: clock.getUTCFullYear(), month: clock.getUTCMonth() + 1 };
}

/** A date and time in Europe/London, in the language shown now ("28 Nov 2026, 15:31", "28 Tach 2026, 15:31"). */
export function formatDateTime(iso: string | null | undefined, fallback = i18n.t('Never')): string {
  if (!iso) return fallback;
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return fallback;
  const clock = londonClock(date);
  const month = i18n.t(MONTHS[clock.getUTCMonth()]);
  return `${two(clock.getUTCDate())} ${month} ${clock.getUTCFullYear()}, ${two(clock.getUTCHours())}:${two(clock.getUTCMinutes())}`;
}
