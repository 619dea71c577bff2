import { describe, expect, it } from '@jest/globals';
import { parseLiveEvent } from './live-events';

const frame = (change: string) => JSON.stringify({ alarmId: 'a1', userId: 7, change, at: '2026-11-28T10:00:00.000Z' });

describe('alarm frames', () => {
  it.each(['opened', 'acknowledged', 'resolved', 'escalated', 'late_check_in', 'worker_safe', 'pressed_again'])(
    "keeps the gateway's '%s' frame, so the worker's emergency screen refetches at once rather than at its next poll",
    (change) => {
      expect(parseLiveEvent('alarm', frame(change))).toEqual({
        type: 'alarm',
        data: { alarmId: 'a1', userId: 7, change, at: '2026-11-28T10:00:00.000Z' },
      });
    },
  );

  it('drops a change it does not know', () => {
    expect(parseLiveEvent('alarm', frame('exploded'))).toBeNull();
  });
});
