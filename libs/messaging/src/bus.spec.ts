import { subjectFilter, subjectMatches } from './bus';

describe('subjectFilter', () => {
  const subjects = [
    'shifts.shift.started.v1',
    'escalation.alarm.opened.v1',
    'identity.user.created.v1',
    'escalation.notification.requested.v1',
    'audit.entry.recorded.v1',
    'shifts',
  ];

  it.each([
    [['escalation.alarm.opened.v1', 'shifts.shift.started.v1']],
    [['escalation.*.opened.v1', 'identity.>']],
    [['escalation.>', 'audit.entry.recorded.v1', 'shifts.*']],
    [['>']],
    [[]],
  ])('keeps what subjectMatches keeps, for %j', (filters) => {
    const wanted = subjectFilter(filters);
    for (const s of subjects) expect([s, wanted(s)]).toEqual([s, filters.some((f) => subjectMatches(f, s))]);
  });

  it('matches exact subjects exactly, wildcards by token', () => {
    const wanted = subjectFilter(['escalation.alarm.opened.v1', 'identity.>']);
    expect(subjects.filter(wanted)).toEqual(['escalation.alarm.opened.v1', 'identity.user.created.v1']);
  });
});
