import { noticeDue } from './gap-notice';

describe('when the daily on-call gap notice is due', () => {
  it('reads the day and the time of day in London, summer and winter', () => {
    // 07:30Z in summer is 08:30 in London: due at 08:00.
    expect(noticeDue(new Date('2026-06-01T07:30:00Z'), '08:00')).toEqual({ day: '2026-06-01', due: true });
    // 07:30Z in winter is 07:30 in London: not yet.
    expect(noticeDue(new Date('2026-12-01T07:30:00Z'), '08:00')).toEqual({ day: '2026-12-01', due: false });
    // 23:30Z on 31 May is already 1 June in London.
    expect(noticeDue(new Date('2026-05-31T23:30:00Z'), '00:00')).toEqual({ day: '2026-06-01', due: true });
  });

  it('is due from its minute to the end of the day', () => {
    expect(noticeDue(new Date('2026-12-01T08:00:00Z'), '08:00').due).toBe(true);
    expect(noticeDue(new Date('2026-12-01T07:59:59Z'), '08:00').due).toBe(false);
    expect(noticeDue(new Date('2026-12-01T23:59:00Z'), '08:00').due).toBe(true);
  });
});
