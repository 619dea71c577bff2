import { keepTeamPeople } from './rota';

const schedule = {
  timeZone: 'Europe/London',
  layers: [{ name: 'Days', start: '2026-01-05T08:00', rotation: 'weekly' as const, userIds: [1, 2, 3] }],
  overrides: [
    { id: 'a', layer: 0, userId: 2, start: '2026-01-10T08:00:00Z', end: '2026-01-10T20:00:00Z' },
    { id: 'b', layer: 0, userId: 3, start: '2026-01-11T08:00:00Z', end: '2026-01-11T20:00:00Z' },
  ],
};

describe('who stays on a rota when people leave the team', () => {
  it('keeps the monitors and deputies who stay, and drops a leaving monitor with their deputy', () => {
    // Monitor 2 left with their deputy 3; monitor 1 stays.
    const kept = keepTeamPeople(schedule, [{ userId: 1 }]);
    expect(kept?.layers[0].userIds).toEqual([1]);
    expect(kept?.overrides).toEqual([]);
  });

  it('keeps a deputy who still stands in for someone who stays', () => {
    const kept = keepTeamPeople(schedule, [{ userId: 1, deputyUserId: 3 }]);
    expect(kept?.layers[0].userIds).toEqual([1, 3]);
    expect(kept?.overrides.map((o) => o.id)).toEqual(['b']);
  });

  it('leaves a team without a rota without one', () => {
    expect(keepTeamPeople(null, [{ userId: 1 }])).toBeNull();
  });
});
