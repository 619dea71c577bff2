import { teamRecipients, type People } from './alarm-steps';
import type { FrozenOnCall } from './policy';

const NOW = new Date('2030-01-08T02:00:00Z');
const monitors = [{ userId: 5, deputyUserId: 6 }, { userId: 7 }];
const people = (awayUntil: Record<number, Date> = {}): People =>
  new Map(
    [
      [5, 'Dan Day'],
      [6, 'Dee Deputy'],
      [7, 'Nia Night'],
    ].map(([id, name]) => [id as number, { name: name as string, awayUntil: awayUntil[id as number] ?? null, deletedAt: null }]),
  );
const onCall: FrozenOnCall = {
  now: { userId: 7, layer: 0, layerName: 'Nights', until: '2030-01-08T08:00:00.000Z' },
  next: { userId: 5, layer: 1, layerName: 'Days', until: '2030-01-08T20:00:00.000Z' },
};
const step = (action: 'notify_on_call' | 'notify_on_call_next') => ({ action, after: 0 });

describe('who an on-call step reaches', () => {
  it("reaches the night layer's monitor on call, not the day monitor; the next step the day layer's", () => {
    expect(teamRecipients(monitors, step('notify_on_call'), people(), NOW, onCall)).toEqual({
      userIds: [7],
      label: 'On call (Nights), Nia Night,',
    });
    expect(teamRecipients(monitors, step('notify_on_call_next'), people(), NOW, onCall)).toEqual({
      userIds: [5],
      label: 'On call (Days), Dan Day,',
    });
  });

  it('reaches the deputy of someone on call who is away', () => {
    const away = people({ 5: new Date('2030-01-09T00:00:00Z') });
    expect(teamRecipients(monitors, step('notify_on_call_next'), away, NOW, onCall)).toEqual({
      userIds: [6],
      label: 'On call (Days), Dee Deputy (deputy for Dan Day, away),',
    });
  });

  it("never reaches nobody: a gap, no next layer or no rota falls back to the team's monitors, saying why", () => {
    const gap = teamRecipients(monitors, step('notify_on_call'), people(), NOW, {});
    expect(gap.userIds).toEqual([5, 7]);
    expect(gap.label).toBe('Team monitors Dan Day, Nia Night (nobody was on call for the team when the alarm opened)');
    const noNext = teamRecipients(monitors, step('notify_on_call_next'), people(), NOW, { now: onCall.now });
    expect(noNext.label).toContain('(no other layer of the rota had someone on call when the alarm opened)');
    expect(teamRecipients(monitors, step('notify_on_call'), people(), NOW).label).toContain('(the team has no on-call rota)');
  });

  it('falls back when the person on call has no deputy and is away', () => {
    const away = people({ 7: new Date('2030-01-09T00:00:00Z') });
    const who = teamRecipients(monitors, step('notify_on_call'), away, NOW, onCall);
    expect(who.userIds).toEqual([5]);
    expect(who.label).toBe('Team monitors Dan Day (Nia Night, on call, and their deputy are away)');
  });
});
