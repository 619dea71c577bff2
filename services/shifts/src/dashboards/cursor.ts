import { z } from 'zod';

export type WorkerList = 'active' | 'due' | 'missed';

/** Where the previous page ended: the sort key of its last row. */
export interface Position {
  userId: number;
  /** The last row's next check-in (due and missed pages are sorted by it). */
  nextCheckInAt?: Date;
}

const shape = z
  .object({
    l: z.enum(['active', 'due', 'missed']),
    u: z.number().int().min(1).max(2147483647),
    t: z.string().datetime().optional(),
  })
  .strict();

/** Opaque to clients; names its list so a cursor of one list is refused by another. */
export function encodeCursor(list: WorkerList, position: Position): string {
  const body = { l: list, u: position.userId, ...(position.nextCheckInAt ? { t: position.nextCheckInAt.toISOString() } : {}) };
  return Buffer.from(JSON.stringify(body)).toString('base64url');
}

/** The position a cursor names, or undefined when it is not one this list handed out. */
export function decodeCursor(list: WorkerList, cursor: string): Position | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  const parsed = shape.safeParse(raw);
  if (!parsed.success || parsed.data.l !== list) return undefined;
  if ((list === 'active') !== (parsed.data.t === undefined)) return undefined;
  return { userId: parsed.data.u, ...(parsed.data.t ? { nextCheckInAt: new Date(parsed.data.t) } : {}) };
}
