import { describe, expect, it } from '@jest/globals';
import { withNewEntry } from './ActivityLogsCard';
import type { ActivityEntry } from './activity-api';

const entry = (id: number, userId: number | null, at: string): ActivityEntry => ({
  id,
  userId,
  username: userId ? `w${userId}` : 'system',
  type: 'check_in',
  label: 'Check In',
  timestamp: at,
  details: '',
  location: null,
});

const pages = (...lists: ActivityEntry[][]) => ({
  pages: lists.map((entries, i) => ({ entries, nextCursor: i < lists.length - 1 ? `c${i}` : null })),
  pageParams: lists.map((_, i) => (i ? `c${i - 1}` : null)),
});

// Patched into the query, not refetched: a busy log would otherwise be read afresh on every entry.
describe('a live activity entry on the Activity Logs tab', () => {
  it('goes on top of the first page, once, for every filter it belongs to', () => {
    const before = pages([entry(2, 7, '2026-11-27T10:00:00Z'), entry(1, 8, '2026-11-27T09:00:00Z')], [entry(0, 7, '2026-11-27T08:00:00Z')]);
    const fresh = entry(3, 7, '2026-11-27T10:05:00Z');
    const all = withNewEntry(before, null, fresh)!;
    expect(all.pages[0].entries.map((e) => e.id)).toEqual([3, 2, 1]);
    expect(all.pages[1]).toBe(before.pages[1]);
    expect(withNewEntry(all, null, fresh)!.pages[0].entries.map((e) => e.id)).toEqual([3, 2, 1]);
    expect(withNewEntry(before, 7, fresh)!.pages[0].entries[0].id).toBe(3);
  });

  it('leaves a filter for another worker, and a log not read yet, as they are', () => {
    const before = pages([entry(1, 8, '2026-11-27T09:00:00Z')]);
    expect(withNewEntry(before, 8, entry(3, 7, '2026-11-27T10:05:00Z'))).toBe(before);
    expect(withNewEntry(undefined, null, entry(3, 7, '2026-11-27T10:05:00Z'))).toBeUndefined();
  });
});
