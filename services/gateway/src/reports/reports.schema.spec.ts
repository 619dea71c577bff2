import { londonMonthOf, MONTH_MESSAGE, reportQuery } from './reports.schema';

const firstIssue = (r: { success: boolean; error?: { issues: { path: (string | number)[]; message: string }[] } }) =>
  r.success ? 'accepted' : [r.error!.issues[0].path.join('.'), r.error!.issues[0].message];

describe('reportQuery', () => {
  // 23:30 UTC on 31 March 2025 is 00:30 on 1 April in London (BST).
  const now = new Date('2025-03-31T23:30:00.000Z');

  it('defaults to the current London month, not the UTC one', () => {
    expect(reportQuery(now).parse({})).toEqual({ month: '2025-04' });
    expect(reportQuery(now).parse({ _t: '123' })).toEqual({ month: '2025-04' });
  });

  it('takes any month from 2000-01 up to twelve months ahead', () => {
    for (const month of ['2000-01', '2024-12', '2025-04', '2026-04']) expect(reportQuery(now).parse({ month })).toEqual({ month });
  });

  it.each([['2026-05'], ['2099-01'], ['2025-13'], ['2025-00'], ['2025-4'], ['1999-12'], ['April'], [''], ['2025-04-01']])(
    'refuses %p naming month',
    (month) => {
      expect(firstIssue(reportQuery(now).safeParse({ month }))).toEqual(['month', MONTH_MESSAGE]);
    },
  );

  it('refuses a repeated month parameter', () => {
    expect(firstIssue(reportQuery(now).safeParse({ month: ['2025-01', '2025-02'] }))).toEqual(['month', MONTH_MESSAGE]);
  });
});

describe('londonMonthOf', () => {
  it('follows London time across the clock changes', () => {
    expect(londonMonthOf(new Date('2025-03-31T22:59:59.000Z'))).toBe('2025-03');
    expect(londonMonthOf(new Date('2025-03-31T23:00:00.000Z'))).toBe('2025-04');
    expect(londonMonthOf(new Date('2025-10-31T23:30:00.000Z'))).toBe('2025-10');
    expect(londonMonthOf(new Date('2025-12-31T23:59:59.000Z'))).toBe('2025-12');
  });
});
