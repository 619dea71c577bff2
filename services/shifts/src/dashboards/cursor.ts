import { pageCursor } from '@lws/platform';
import { z } from 'zod';

export type WorkerList = 'active' | 'due' | 'missed';

/** Where the previous page ended: the sort key of its last row. */
export interface Position {
  userId: number;
  /** The last row's next check-in (due and missed pages are sorted by it). */
  nextCheckInAt?: Date;
}

interface Named extends Position {
  list: WorkerList;
}

const cursor = pageCursor(
  z
    .object({
      l: z.enum(['active', 'due', 'missed']),
      u: z.number().int().min(1).max(2147483647),
      t: z.string().datetime().optional(),
    })
    .strict(),
  (p: Named) => ({ l: p.list, u: p.userId, ...(p.nextCheckInAt ? { t: p.nextCheckInAt.toISOString() } : {}) }),
  // The active list is sorted by user alone; the others carry the time they are sorted by.
  (b): Named | undefined =>
    (b.l === 'active') === (b.t === undefined) ? { list: b.l, userId: b.u, ...(b.t ? { nextCheckInAt: new Date(b.t) } : {}) } : undefined,
);

/** Opaque to clients; names its list so a cursor of one list is refused by another. */
export function encodeCursor(list: WorkerList, position: Position): string {
  return cursor.encode({ ...position, list });
}

/** The position a cursor names, or undefined when it is not one this list handed out. */
export function decodeCursor(list: WorkerList, text: string): Position | undefined {
  const named = cursor.decode(text);
  if (named?.list !== list) return undefined;
  const { list: _, ...position } = named;
  return position;
}
