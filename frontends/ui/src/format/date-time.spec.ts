import { afterEach, describe, expect, it } from '@jest/globals';
import { setLanguage } from '../i18n/i18n';
import { formatDateTime, formatTime, isBritishSummerTime, londonYearMonth } from './date-time';

// ICU's own data for Europe/London (Node carries all of it): what the screens' formatter is held to.
const icu = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/London',
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});
const icuParts = (at: Date) => Object.fromEntries(icu.formatToParts(at).map((p) => [p.type, p.value]));

afterEach(() => setLanguage('en'));

describe('dates and times in Europe/London, written without Intl', () => {
  it('agrees with ICU every 15 minutes around each clock change from 2000 to 2045, and at noon every day between', () => {
    const differ: string[] = [];
    const check = (at: Date) => {
      const p = icuParts(at);
      if (formatTime(at) !== `${p.hour}:${p.minute}`) differ.push(`${at.toISOString()}: ${formatTime(at)}, ICU ${p.hour}:${p.minute}`);
      const ym = londonYearMonth(at);
      if (ym.year !== Number(p.year) || ym.month !== Number(p.month)) differ.push(`${at.toISOString()}: ${JSON.stringify(ym)}`);
    };
    for (let year = 2000; year <= 2045; year++) {
      for (const month of [2, 9]) {
        // Every 15 minutes of the last eight days of March and October: the changes fall in them.
        const from = Date.UTC(year, month, 24);
        for (let ms = from; ms < Date.UTC(year, month + 1, 1, 3); ms += 15 * 60_000) check(new Date(ms));
      }
      for (let day = 0; day < 366; day++) check(new Date(Date.UTC(year, 0, 1 + day, 12)));
      // New Year in London, in winter time: the year turns with UTC's.
      check(new Date(Date.UTC(year, 11, 31, 23, 59)));
    }
    expect(differ).toEqual([]);
  });

  it('changes at 01:00 UTC on the last Sunday of March and of October', () => {
    expect(formatTime('2026-03-29T00:59:00Z')).toBe('00:59');
    expect(formatTime('2026-03-29T01:00:00Z')).toBe('02:00');
    expect(isBritishSummerTime(new Date('2026-10-25T00:59:59Z'))).toBe(true);
    expect(formatTime('2026-10-25T00:59:00Z')).toBe('01:59');
    expect(formatTime('2026-10-25T01:00:00Z')).toBe('01:00');
  });

  it("writes a date with the month's name in the language shown, whatever the browser knows of it", async () => {
    expect(formatDateTime('2026-07-01T08:05:00.000Z')).toBe('01 Jul 2026, 09:05');
    await setLanguage('cy');
    expect(formatDateTime('2026-07-01T08:05:00.000Z')).toBe('01 Gor 2026, 09:05');
    expect(formatDateTime('2026-09-30T23:30:00.000Z')).toBe('01 Hyd 2026, 00:30');
  });

  it('shows the fallback for no time or one that is not a time', () => {
    expect(formatDateTime(null)).toBe('Never');
    expect(formatDateTime('not a time', '—')).toBe('—');
  });
});
