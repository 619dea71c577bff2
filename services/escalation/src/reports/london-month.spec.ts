import { londonMonthOf, monthBounds } from './london-month';

describe('monthBounds (Europe/London)', () => {
  it.each([
    ['2025-01', '2025-01-01T00:00:00.000Z', '2025-02-01T00:00:00.000Z'],
    // The clocks go forward on 30 March 2025: April starts at 00:00 BST, 23:00 UTC the day before.
    ['2025-03', '2025-03-01T00:00:00.000Z', '2025-03-31T23:00:00.000Z'],
    ['2025-04', '2025-03-31T23:00:00.000Z', '2025-04-30T23:00:00.000Z'],
    // The clocks go back on 26 October 2025: November starts at 00:00 GMT.
    ['2025-10', '2025-09-30T23:00:00.000Z', '2025-11-01T00:00:00.000Z'],
    ['2025-12', '2025-12-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z'],
    ['2024-02', '2024-02-01T00:00:00.000Z', '2024-03-01T00:00:00.000Z'],
  ])('%s runs from %s to %s', (month, from, to) => {
    const b = monthBounds(month);
    expect([b.from.toISOString(), b.to.toISOString()]).toEqual([from, to]);
  });

  it('refuses anything but YYYY-MM', () => {
    for (const bad of ['2025-13', '2025-00', '2025-1', '25-01', '1999-12', '2025-01-01', ''])
      expect(() => monthBounds(bad)).toThrow(RangeError);
  });
});

describe('londonMonthOf', () => {
  it.each([
    ['2025-03-31T22:59:59.999Z', '2025-03'],
    ['2025-03-31T23:00:00.000Z', '2025-04'],
    ['2025-10-31T23:30:00.000Z', '2025-10'],
    ['2025-12-31T23:59:59.000Z', '2025-12'],
    ['2026-01-01T00:00:00.000Z', '2026-01'],
  ])('%s is in %s', (at, month) => {
    expect(londonMonthOf(new Date(at))).toBe(month);
  });
});
