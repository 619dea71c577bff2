import {
  layerTimeline,
  type OnCallLayer,
  type OnCallOverride,
  type OnCallPeople,
  type OnCallSchedule,
  onCallAt,
  onCallGaps,
  onCallTimeline,
} from './on-call';

const HOUR_MS = 3_600_000;

/** No one is away and no one has a deputy. */
const everyone: OnCallPeople = { awayUntil: () => undefined, deputyOf: () => undefined };

/** People with some away until given instants, and some deputies. */
function people(away: Record<number, string>, deputies: Record<number, number> = {}): OnCallPeople {
  return {
    awayUntil: (userId) => (away[userId] ? new Date(away[userId]) : undefined),
    deputyOf: (userId) => deputies[userId],
  };
}

function london(layers: OnCallLayer[], overrides: OnCallOverride[] = []): OnCallSchedule {
  return { timeZone: 'Europe/London', layers, overrides };
}

function weekly(userIds: number[], start = '2026-01-05T09:00', extra: Partial<OnCallLayer> = {}): OnCallLayer {
  return { name: 'Monitors', start, rotation: 'weekly', userIds, ...extra };
}

function override(id: string, userId: number, start: string, end: string, layer = 0): OnCallOverride {
  return { id, layer, userId, start, end };
}

/** Segments as short readable rows: [start, end, userId], with via/forUserId when present. */
function rows(segments: { start: Date; end: Date; userId: number; via?: string; forUserId?: number }[]) {
  return segments.map((s) => [s.start.toISOString(), s.end.toISOString(), s.userId, ...(s.via ? [s.via, s.forUserId] : [])]);
}

function gapRows(gaps: { start: Date; end: Date }[]) {
  return gaps.map((g) => [g.start.toISOString(), g.end.toISOString()]);
}

function whoAt(schedule: OnCallSchedule, at: string, who: OnCallPeople = everyone): number | undefined {
  return onCallAt(schedule, new Date(at), who).now?.userId;
}

const d = (iso: string) => new Date(iso);

describe('weekly rotation', () => {
  // January is GMT in London, so local times and UTC agree.
  const schedule = london([weekly([11, 12, 13])]);

  it('hands over every Monday at 09:00 to the next of three monitors', () => {
    expect(whoAt(schedule, '2026-01-05T10:00:00Z')).toBe(11);
    expect(whoAt(schedule, '2026-01-11T23:00:00Z')).toBe(11);
    expect(whoAt(schedule, '2026-01-12T08:59:00Z')).toBe(11);
    expect(whoAt(schedule, '2026-01-12T09:00:00Z')).toBe(12);
    expect(whoAt(schedule, '2026-01-21T15:00:00Z')).toBe(13);
  });

  it('starts again with the first monitor after the third', () => {
    expect(rows(layerTimeline(schedule, 0, d('2026-01-05T00:00:00Z'), d('2026-02-02T00:00:00Z'), everyone))).toEqual([
      ['2026-01-05T09:00:00.000Z', '2026-01-12T09:00:00.000Z', 11],
      ['2026-01-12T09:00:00.000Z', '2026-01-19T09:00:00.000Z', 12],
      ['2026-01-19T09:00:00.000Z', '2026-01-26T09:00:00.000Z', 13],
      ['2026-01-26T09:00:00.000Z', '2026-02-02T00:00:00.000Z', 11],
    ]);
  });

  it('has no one on call in a layer without monitors', () => {
    const empty = london([weekly([])]);
    expect(layerTimeline(empty, 0, d('2026-01-05T00:00:00Z'), d('2026-01-20T00:00:00Z'), everyone)).toEqual([]);
    expect(onCallAt(empty, d('2026-01-07T12:00:00Z'), everyone)).toEqual({});
  });
});

describe('daily rotation across the clock changes', () => {
  it('keeps the 08:00 hand-off when the clocks go forward in March, with a 23-hour turn', () => {
    const schedule = london([{ name: 'Daily', start: '2026-03-25T08:00', rotation: 'daily', userIds: [1, 2] }]);
    const segments = layerTimeline(schedule, 0, d('2026-03-27T00:00:00Z'), d('2026-03-31T00:00:00Z'), everyone);
    expect(rows(segments)).toEqual([
      ['2026-03-27T00:00:00.000Z', '2026-03-27T08:00:00.000Z', 2],
      ['2026-03-27T08:00:00.000Z', '2026-03-28T08:00:00.000Z', 1],
      ['2026-03-28T08:00:00.000Z', '2026-03-29T07:00:00.000Z', 2],
      ['2026-03-29T07:00:00.000Z', '2026-03-30T07:00:00.000Z', 1],
      ['2026-03-30T07:00:00.000Z', '2026-03-31T00:00:00.000Z', 2],
    ]);
    expect(segments[2].end.getTime() - segments[2].start.getTime()).toBe(23 * HOUR_MS);
  });

  it('keeps the 08:00 hand-off when the clocks go back in October, with a 25-hour turn', () => {
    const schedule = london([{ name: 'Daily', start: '2026-10-20T08:00', rotation: 'daily', userIds: [1, 2] }]);
    const segments = layerTimeline(schedule, 0, d('2026-10-23T12:00:00Z'), d('2026-10-27T12:00:00Z'), everyone);
    expect(rows(segments)).toEqual([
      ['2026-10-23T12:00:00.000Z', '2026-10-24T07:00:00.000Z', 2],
      ['2026-10-24T07:00:00.000Z', '2026-10-25T08:00:00.000Z', 1],
      ['2026-10-25T08:00:00.000Z', '2026-10-26T08:00:00.000Z', 2],
      ['2026-10-26T08:00:00.000Z', '2026-10-27T08:00:00.000Z', 1],
      ['2026-10-27T08:00:00.000Z', '2026-10-27T12:00:00.000Z', 2],
    ]);
    expect(segments[1].end.getTime() - segments[1].start.getTime()).toBe(25 * HOUR_MS);
  });
});

describe('custom rotation', () => {
  it('hands over every 3 days at the start time', () => {
    const schedule = london([{ name: 'Three days', start: '2026-02-01T12:00', rotation: 'custom', turnDays: 3, userIds: [1, 2, 3] }]);
    expect(rows(layerTimeline(schedule, 0, d('2026-02-01T00:00:00Z'), d('2026-02-13T12:00:00Z'), everyone))).toEqual([
      ['2026-02-01T12:00:00.000Z', '2026-02-04T12:00:00.000Z', 1],
      ['2026-02-04T12:00:00.000Z', '2026-02-07T12:00:00.000Z', 2],
      ['2026-02-07T12:00:00.000Z', '2026-02-10T12:00:00.000Z', 3],
      ['2026-02-10T12:00:00.000Z', '2026-02-13T12:00:00.000Z', 1],
    ]);
  });
});

describe('restricted hours', () => {
  const everyDay = [1, 2, 3, 4, 5, 6, 7] as const;
  const night = weekly([21], '2026-10-01T20:00', { name: 'Nights', windows: [{ days: [...everyDay], from: '20:00', to: '08:00' }] });
  const day = weekly([31], '2026-10-01T08:00', { name: 'Around the clock' });
  const schedule = london([night, day]);

  it('puts the night monitor on call at 02:00, with the day monitor next', () => {
    // 14 October 2026 is in summer time: 02:00 local is 01:00Z.
    const answer = onCallAt(schedule, d('2026-10-14T01:00:00Z'), everyone);
    expect(answer.now).toEqual({ start: d('2026-10-13T19:00:00Z'), end: d('2026-10-14T07:00:00Z'), userId: 21, layer: 0 });
    expect(answer.next?.userId).toBe(31);
    expect(answer.next?.layer).toBe(1);
    expect(answer.after).toMatchObject({ start: d('2026-10-14T07:00:00Z'), end: d('2026-10-14T19:00:00Z'), userId: 31 });
  });

  it('puts the day monitor on call at 10:00, with no one next', () => {
    const answer = onCallAt(schedule, d('2026-10-14T09:00:00Z'), everyone);
    expect(answer.now).toMatchObject({ userId: 31, layer: 1, end: d('2026-10-14T19:00:00Z') });
    expect(answer.next).toBeUndefined();
    expect(answer.after?.userId).toBe(21);
  });

  it('makes the night the clocks go back 13 hours long', () => {
    const segments = layerTimeline(schedule, 0, d('2026-10-24T12:00:00Z'), d('2026-10-25T12:00:00Z'), everyone);
    expect(rows(segments)).toEqual([['2026-10-24T19:00:00.000Z', '2026-10-25T08:00:00.000Z', 21]]);
    expect(segments[0].end.getTime() - segments[0].start.getTime()).toBe(13 * HOUR_MS);
  });

  it('leaves weekends as gaps with a Monday-to-Friday 09:00 to 17:00 window', () => {
    const office = london([weekly([1], '2026-01-05T09:00', { windows: [{ days: [1, 2, 3, 4, 5], from: '09:00', to: '17:00' }] })]);
    const timeline = onCallTimeline(office, d('2026-01-09T00:00:00Z'), d('2026-01-13T00:00:00Z'), everyone);
    expect(rows(timeline.final)).toEqual([
      ['2026-01-09T09:00:00.000Z', '2026-01-09T17:00:00.000Z', 1],
      ['2026-01-12T09:00:00.000Z', '2026-01-12T17:00:00.000Z', 1],
    ]);
    expect(gapRows(timeline.gaps)).toEqual([
      ['2026-01-09T00:00:00.000Z', '2026-01-09T09:00:00.000Z'],
      ['2026-01-09T17:00:00.000Z', '2026-01-12T09:00:00.000Z'],
      ['2026-01-12T17:00:00.000Z', '2026-01-13T00:00:00.000Z'],
    ]);
    expect(whoAt(office, '2026-01-10T12:00:00Z')).toBeUndefined();
  });
});

describe('overrides', () => {
  const saturday = [d('2026-01-10T00:00:00Z'), d('2026-01-11T00:00:00Z')] as const;

  it('lets a colleague cover one monitor’s Saturday daytime, and only that', () => {
    const schedule = london([weekly([1, 2])], [override('cover', 9, '2026-01-10T08:00:00Z', '2026-01-10T20:00:00Z')]);
    expect(rows(layerTimeline(schedule, 0, ...saturday, everyone))).toEqual([
      ['2026-01-10T00:00:00.000Z', '2026-01-10T08:00:00.000Z', 1],
      ['2026-01-10T08:00:00.000Z', '2026-01-10T20:00:00.000Z', 9, 'override', undefined],
      ['2026-01-10T20:00:00.000Z', '2026-01-11T00:00:00.000Z', 1],
    ]);
  });

  it('gives the overlap to the override later in the list', () => {
    const morning = override('morning', 8, '2026-01-10T08:00:00Z', '2026-01-10T14:00:00Z');
    const afternoon = override('afternoon', 9, '2026-01-10T12:00:00Z', '2026-01-10T20:00:00Z');
    expect(rows(layerTimeline(london([weekly([1])], [morning, afternoon]), 0, ...saturday, everyone)).slice(1, 3)).toEqual([
      ['2026-01-10T08:00:00.000Z', '2026-01-10T12:00:00.000Z', 8, 'override', undefined],
      ['2026-01-10T12:00:00.000Z', '2026-01-10T20:00:00.000Z', 9, 'override', undefined],
    ]);
    expect(rows(layerTimeline(london([weekly([1])], [afternoon, morning]), 0, ...saturday, everyone)).slice(1, 3)).toEqual([
      ['2026-01-10T08:00:00.000Z', '2026-01-10T14:00:00.000Z', 8, 'override', undefined],
      ['2026-01-10T14:00:00.000Z', '2026-01-10T20:00:00.000Z', 9, 'override', undefined],
    ]);
  });

  it('counts an override of a weekday-only layer on a Saturday', () => {
    const office = weekly([1], '2026-01-05T09:00', { windows: [{ days: [1, 2, 3, 4, 5], from: '09:00', to: '17:00' }] });
    const schedule = london([office], [override('weekend', 7, '2026-01-10T10:00:00Z', '2026-01-10T12:00:00Z')]);
    const timeline = onCallTimeline(schedule, ...saturday, everyone);
    expect(rows(timeline.final)).toEqual([['2026-01-10T10:00:00.000Z', '2026-01-10T12:00:00.000Z', 7, 'override', undefined]]);
    expect(timeline.gaps).toHaveLength(2);
  });

  it('leaves other layers alone', () => {
    const schedule = london([weekly([1]), weekly([2])], [override('second', 9, '2026-01-10T08:00:00Z', '2026-01-10T20:00:00Z', 1)]);
    const timeline = onCallTimeline(schedule, ...saturday, everyone);
    expect(rows(timeline.final)).toEqual([['2026-01-10T00:00:00.000Z', '2026-01-11T00:00:00.000Z', 1]]);
    expect(timeline.layers[1].map((s) => s.userId)).toEqual([2, 9, 2]);
  });
});

describe('monitors who are away', () => {
  const schedule = london([weekly([1])]);
  const range = [d('2026-01-06T00:00:00Z'), d('2026-01-08T00:00:00Z')] as const;

  it('hands an away monitor’s slot to their deputy until they are back', () => {
    const who = people({ 1: '2026-01-07T12:00:00Z' }, { 1: 5 });
    expect(rows(layerTimeline(schedule, 0, ...range, who))).toEqual([
      ['2026-01-06T00:00:00.000Z', '2026-01-07T12:00:00.000Z', 5, 'deputy', 1],
      ['2026-01-07T12:00:00.000Z', '2026-01-08T00:00:00.000Z', 1],
    ]);
    expect(whoAt(schedule, '2026-01-07T11:59:00Z', who)).toBe(5);
    expect(whoAt(schedule, '2026-01-07T12:00:00Z', who)).toBe(1);
  });

  it('leaves a gap when there is no deputy', () => {
    const timeline = onCallTimeline(schedule, ...range, people({ 1: '2026-01-07T12:00:00Z' }));
    expect(rows(timeline.final)).toEqual([['2026-01-07T12:00:00.000Z', '2026-01-08T00:00:00.000Z', 1]]);
    expect(gapRows(timeline.gaps)).toEqual([['2026-01-06T00:00:00.000Z', '2026-01-07T12:00:00.000Z']]);
  });

  it('leaves a gap while the deputy is away too', () => {
    const who = people({ 1: '2026-01-07T12:00:00Z', 5: '2026-01-07T00:00:00Z' }, { 1: 5 });
    const timeline = onCallTimeline(schedule, ...range, who);
    expect(rows(timeline.final)).toEqual([
      ['2026-01-07T00:00:00.000Z', '2026-01-07T12:00:00.000Z', 5, 'deputy', 1],
      ['2026-01-07T12:00:00.000Z', '2026-01-08T00:00:00.000Z', 1],
    ]);
    expect(gapRows(timeline.gaps)).toEqual([['2026-01-06T00:00:00.000Z', '2026-01-07T00:00:00.000Z']]);
  });

  it('lets the next layer step in where no one in the first can', () => {
    const twoLayers = london([weekly([1]), weekly([2])]);
    const answer = onCallAt(twoLayers, d('2026-01-06T12:00:00Z'), people({ 1: '2026-01-07T12:00:00Z' }));
    expect(answer.now).toMatchObject({ userId: 2, layer: 1, end: d('2026-01-07T12:00:00Z') });
    expect(answer.after).toMatchObject({ userId: 1, layer: 0 });
  });
});

describe('onCallAt', () => {
  const schedule = london([weekly([1, 2, 3])]);

  it('gives the true end of the stretch and who takes over', () => {
    const answer = onCallAt(schedule, d('2026-01-07T12:00:00Z'), everyone);
    expect(answer.now).toEqual({ start: d('2026-01-05T09:00:00Z'), end: d('2026-01-12T09:00:00Z'), userId: 1, layer: 0 });
    expect(answer.after).toEqual({ start: d('2026-01-12T09:00:00Z'), end: d('2026-01-19T09:00:00Z'), userId: 2, layer: 0 });
    expect(answer.next).toBeUndefined();
  });

  it('ends the stretch where an override takes over', () => {
    const covered = london([weekly([1, 2, 3])], [override('friday', 9, '2026-01-09T08:00:00Z', '2026-01-09T20:00:00Z')]);
    const answer = onCallAt(covered, d('2026-01-07T12:00:00Z'), everyone);
    expect(answer.now?.end).toEqual(d('2026-01-09T08:00:00Z'));
    expect(answer.after).toMatchObject({ userId: 9, via: 'override', end: d('2026-01-09T20:00:00Z') });
  });

  it('skips a later layer whose monitor is the one already on call', () => {
    const layered = london([weekly([1]), weekly([1]), weekly([4])]);
    expect(onCallAt(layered, d('2026-01-07T12:00:00Z'), everyone).next).toMatchObject({ userId: 4, layer: 2 });
  });
});

describe('gaps', () => {
  it('is one gap over the whole range when there are no layers', () => {
    const range = [d('2026-01-05T00:00:00Z'), d('2026-01-15T00:00:00Z')] as const;
    expect(gapRows(onCallGaps(london([]), ...range, everyone))).toEqual([['2026-01-05T00:00:00.000Z', '2026-01-15T00:00:00.000Z']]);
    expect(onCallTimeline(london([]), ...range, everyone)).toMatchObject({ layers: [], final: [] });
  });

  it('leaves a gap before a layer that starts later', () => {
    const schedule = london([weekly([1], '2026-01-10T09:00')]);
    expect(gapRows(onCallGaps(schedule, d('2026-01-05T00:00:00Z'), d('2026-01-15T00:00:00Z'), everyone))).toEqual([
      ['2026-01-05T00:00:00.000Z', '2026-01-10T09:00:00.000Z'],
    ]);
  });
});

describe('guards', () => {
  const schedule = london([weekly([1])]);
  const from = d('2026-01-01T00:00:00Z');

  it('refuses a range longer than 62 days, and takes exactly 62', () => {
    const tooFar = d('2026-03-04T00:00:01Z');
    expect(() => onCallTimeline(schedule, from, tooFar, everyone)).toThrow(RangeError);
    expect(() => layerTimeline(schedule, 0, from, tooFar, everyone)).toThrow(RangeError);
    expect(() => onCallGaps(schedule, from, tooFar, everyone)).toThrow(RangeError);
    expect(() => onCallTimeline(schedule, from, d('2026-03-04T00:00:00Z'), everyone)).not.toThrow();
  });

  it('refuses an unknown time zone', () => {
    const nowhere = { ...schedule, timeZone: 'Europe/Atlantis' };
    expect(() => onCallTimeline(nowhere, from, d('2026-01-02T00:00:00Z'), everyone)).toThrow(RangeError);
    expect(() => onCallAt(nowhere, from, everyone)).toThrow(RangeError);
  });

  it('refuses a layer start that is not a real local date-time', () => {
    for (const start of ['next Monday', '2026-02-30T08:00']) {
      expect(() => onCallAt(london([weekly([1], start)]), from, everyone)).toThrow(RangeError);
    }
  });

  it('refuses a custom turn outside 1 to 28 days and a window time that is not HH:mm', () => {
    for (const turnDays of [undefined, 0, 1.5, 29]) {
      const custom = london([{ name: 'Custom', start: '2026-01-05T09:00', rotation: 'custom', turnDays, userIds: [1] }]);
      expect(() => onCallAt(custom, from, everyone)).toThrow(RangeError);
    }
    const badWindow = london([weekly([1], '2026-01-05T09:00', { windows: [{ days: [1], from: '9am', to: '17:00' }] })]);
    expect(() => onCallAt(badWindow, d('2026-01-07T12:00:00Z'), everyone)).toThrow(RangeError);
  });
});

describe('a rotation that began long ago', () => {
  it('still names the right monitor for this week', () => {
    // 3 January 2000 was a Monday; 5 January 2026 is 9499 days (1357 weeks) later: turn 1357, the second monitor.
    const schedule = london([weekly([1, 2, 3], '2000-01-03T09:00')]);
    expect(onCallAt(schedule, d('2026-01-07T12:00:00Z'), everyone).now).toEqual({
      start: d('2026-01-05T09:00:00Z'),
      end: d('2026-01-12T09:00:00Z'),
      userId: 2,
      layer: 0,
    });
  });
});
