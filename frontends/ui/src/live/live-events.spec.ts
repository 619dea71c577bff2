import { describe, expect, it } from '@jest/globals';
import { parseLiveEvent } from './live-events';

const frame = (change: string) => JSON.stringify({ alarmId: 'a1', userId: 7, change, at: '2026-11-28T10:00:00.000Z' });

describe('alarm frames', () => {
  it.each(['opened', 'acknowledged', 'resolved', 'escalated', 'late_check_in', 'worker_safe', 'pressed_again', 'note_added', 'message'])(
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

describe('check-in request frames', () => {
  const request = (over: object = {}) =>
    JSON.stringify({ requestId: 'r1', batchId: 'b1', userId: 7, change: 'requested', at: '2026-11-28T10:00:00.000Z', ...over });

  it('keeps a new request with its deadline, and a closed one with its outcome', () => {
    expect(parseLiveEvent('checkin_request', request({ dueAt: '2026-11-28T10:05:00.000Z' }))).toEqual({
      type: 'checkin_request',
      data: {
        requestId: 'r1',
        batchId: 'b1',
        userId: 7,
        change: 'requested',
        at: '2026-11-28T10:00:00.000Z',
        dueAt: '2026-11-28T10:05:00.000Z',
      },
    });
    expect(parseLiveEvent('checkin_request', request({ change: 'closed', outcome: 'alarm' }))).toEqual({
      type: 'checkin_request',
      data: { requestId: 'r1', batchId: 'b1', userId: 7, change: 'closed', outcome: 'alarm', at: '2026-11-28T10:00:00.000Z' },
    });
  });

  it('keeps a closed request whose outcome it does not know, without the outcome, so the screens still refresh', () => {
    expect(parseLiveEvent('checkin_request', request({ change: 'closed', outcome: 'vanished' }))?.data).toEqual({
      requestId: 'r1',
      batchId: 'b1',
      userId: 7,
      change: 'closed',
      at: '2026-11-28T10:00:00.000Z',
    });
  });

  it.each([
    ['no request id', { requestId: '' }],
    ['no batch id', { batchId: null }],
    ['no worker', { userId: 'seven' }],
    ['an unknown change', { change: 'postponed' }],
    ['no time', { at: 'now' }],
  ])('drops a frame with %s', (_why, over) => {
    expect(parseLiveEvent('checkin_request', request(over))).toBeNull();
  });
});
