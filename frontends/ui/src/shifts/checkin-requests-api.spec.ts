import { describe, expect, it } from '@jest/globals';
import { parseCheckInBatch, parseCheckInBatches, parseOwnCheckInRequest } from './checkin-requests-api';

const worker = (userId: number, state: string, over: object = {}) => ({
  requestId: `r${userId}`,
  userId,
  name: `Worker ${userId}`,
  state,
  answeredAt: state === 'answered' ? '2026-11-28T10:02:00.000Z' : null,
  alarmId: state === 'alarm' ? 'a9' : null,
  ...over,
});

const batch = (over: object = {}) => ({
  id: 'b1',
  requestedBy: 2,
  requestedByName: 'Ada Min',
  requestedAt: '2026-11-28T10:00:00.000Z',
  dueAt: '2026-11-28T10:05:00.000Z',
  teamId: 1,
  answered: 1,
  total: 2,
  workers: [worker(7, 'answered'), worker(8, 'alarm')],
  ...over,
});

describe('parseCheckInBatch', () => {
  it('reads a batch as the server sends it', () => {
    expect(parseCheckInBatch(batch())).toEqual({
      id: 'b1',
      requestedBy: 2,
      requestedByName: 'Ada Min',
      requestedAt: '2026-11-28T10:00:00.000Z',
      dueAt: '2026-11-28T10:05:00.000Z',
      teamId: 1,
      answered: 1,
      total: 2,
      workers: [
        { requestId: 'r7', userId: 7, name: 'Worker 7', state: 'answered', answeredAt: '2026-11-28T10:02:00.000Z', alarmId: null },
        { requestId: 'r8', userId: 8, name: 'Worker 8', state: 'alarm', answeredAt: null, alarmId: 'a9' },
      ],
    });
  });

  it.each([
    ['no id', { id: '' }],
    ['no monitor', { requestedBy: null }],
    ['a time that is not one', { requestedAt: 'ten o clock' }],
    ['no deadline', { dueAt: undefined }],
    ['a count that is not a whole number', { answered: 1.5 }],
    ['more answered than asked', { answered: 3 }],
    ['no workers', { workers: 'all' }],
  ])('refuses a batch with %s', (_why, over) => {
    expect(parseCheckInBatch(batch(over))).toBeNull();
  });

  it('refuses what is not a batch at all', () => {
    expect(parseCheckInBatch(null)).toBeNull();
    expect(parseCheckInBatch([batch()])).toBeNull();
  });

  it('names a worker without a name by their id, reads an unknown state as waiting, and drops a worker it cannot tell', () => {
    const parsed = parseCheckInBatch(
      batch({ workers: [worker(7, 'answered', { name: null }), worker(8, 'teleported'), worker(9, 'waiting', { userId: 'nine' })] }),
    );
    expect(parsed?.workers.map((w) => [w.name, w.state])).toEqual([
      ['Worker #7', 'answered'],
      ['Worker 8', 'waiting'],
    ]);
  });
});

describe('parseCheckInBatches', () => {
  it('keeps the batches it can show, newest first', () => {
    const older = batch({ id: 'b0', requestedAt: '2026-11-28T09:00:00.000Z' });
    expect(parseCheckInBatches([older, batch(), batch({ id: 'bad', total: -1 })]).map((b) => b.id)).toEqual(['b1', 'b0']);
  });

  it('refuses an answer that is not a list', () => {
    expect(() => parseCheckInBatches({ batches: [] })).toThrow('Invalid response from server');
  });
});

describe('parseOwnCheckInRequest', () => {
  const request = { id: 'r7', requestedAt: '2026-11-28T10:00:00.000Z', dueAt: '2026-11-28T10:05:00.000Z', requestedByName: 'Ada Min' };

  it('reads the request waiting, or none', () => {
    expect(parseOwnCheckInRequest({ request })).toEqual(request);
    expect(parseOwnCheckInRequest({ request: { ...request, requestedByName: null } })?.requestedByName).toBeNull();
    expect(parseOwnCheckInRequest({ request: null })).toBeNull();
  });

  it.each([
    ['no answer', undefined],
    ['no request field', {}],
    ['a request without a deadline', { request: { ...request, dueAt: 'soon' } }],
    ['a request without an id', { request: { ...request, id: null } }],
    ['a list', [request]],
  ])('refuses %s rather than read it as nothing waiting', (_why, body) => {
    expect(() => parseOwnCheckInRequest(body)).toThrow('Invalid response from server');
  });
});
