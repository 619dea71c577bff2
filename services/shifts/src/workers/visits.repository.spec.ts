import { visitDeadline, visitOverran } from './visits.repository';

const at = (hhmm: string) => new Date(`2026-11-29T${hhmm}:00.000Z`);
const visit = (endsAt: string) => ({
  id: 'v',
  where: 'Flat 3',
  startedAt: at('14:00').toISOString(),
  endsAt: at(endsAt).toISOString(),
  hasNote: false,
});

describe("a timed visit's end as the worker's deadline", () => {
  it('is the deadline when it comes before the regular one', () => {
    expect(visitDeadline(at('15:00'), visit('14:20'), at('14:05'))).toEqual(at('14:20'));
  });

  it('leaves a regular deadline that comes first', () => {
    expect(visitDeadline(at('14:10'), visit('14:20'), at('14:05'))).toEqual(at('14:10'));
  });

  it('sets no deadline once it has passed, nor without a visit', () => {
    expect(visitDeadline(at('15:30'), visit('14:20'), at('14:25'))).toEqual(at('15:30'));
    expect(visitDeadline(at('15:30'), null, at('14:25'))).toEqual(at('15:30'));
  });

  it('has run out from its end on, not before', () => {
    expect(visitOverran(visit('14:20'), at('14:19'))).toBe(false);
    expect(visitOverran(visit('14:20'), at('14:20'))).toBe(true);
    expect(visitOverran(null, at('14:20'))).toBe(false);
  });
});
