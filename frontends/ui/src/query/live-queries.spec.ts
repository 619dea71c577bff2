import { describe, expect, it } from '@jest/globals';
import { ApiError } from '../api/api';
import type { LiveEvent } from '../live/live-events';
import { invalidateFor } from './live-queries';
import { createQueryClient, queryRetryDelay, shouldRetryQuery } from './query-client';

const workerEvent = (userId: number): LiveEvent => ({ type: 'worker', data: { userId, change: 'checked_in', at: '2026-11-27T10:00:00Z' } });

function clientWith() {
  const client = createQueryClient();
  const seed = (key: unknown[], meta?: Record<string, unknown>) => {
    client.getQueryCache().build(client, { queryKey: key, meta }).setData('old');
    return () => client.getQueryState(key)?.isInvalidated;
  };
  return { client, seed };
}

describe('live queries: the stream invalidates server state', () => {
  it('marks old only the queries an event concerns', async () => {
    const { client, seed } = clientWith();
    const own = seed(['worker-shift', 7], {
      live: { types: ['worker', 'alarm'], when: (e: LiveEvent) => 'userId' in e.data && e.data.userId === 7 },
    });
    const other = seed(['worker-shift', 8], {
      live: { types: ['worker'], when: (e: LiveEvent) => 'userId' in e.data && e.data.userId === 8 },
    });
    const report = seed(['alarm-report'], { live: { types: ['alarm'] } });
    const quiet = seed(['teams']);
    await invalidateFor(client, workerEvent(7));
    expect([own(), other(), report(), quiet()]).toEqual([true, false, false, false]);
  });

  it('after a gap in the stream marks every live query old, and no other', async () => {
    const { client, seed } = clientWith();
    const shift = seed(['worker-shift', 7], { live: { types: ['worker'] } });
    const report = seed(['alarm-report'], { live: { types: ['alarm'] } });
    const quiet = seed(['teams']);
    await invalidateFor(client, 'resync');
    expect([shift(), report(), quiet()]).toEqual([true, true, false]);
  });

  it('tries a server or network failure twice more, 1 s then 2 s later (spec section 9), never a refusal', () => {
    expect(shouldRetryQuery(0, new TypeError('Failed to fetch'))).toBe(true);
    expect(shouldRetryQuery(1, new ApiError(503, 'Service Unavailable', '', null))).toBe(true);
    expect(shouldRetryQuery(2, new ApiError(503, 'Service Unavailable', '', null))).toBe(false);
    expect(shouldRetryQuery(0, new ApiError(403, 'Forbidden', '', null))).toBe(false);
    expect([0, 1, 2, 3, 4].map(queryRetryDelay)).toEqual([1000, 2000, 4000, 8000, 10000]);
  });
});
