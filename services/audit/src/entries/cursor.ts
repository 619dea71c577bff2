import { pageCursor } from '@lws/platform';
import { z } from 'zod';

/** Where the previous page ended: the sort key (time, then id) of its last entry. */
export interface Position {
  at: Date;
  id: number;
}

const cursor = pageCursor(
  z.object({ t: z.string().datetime(), i: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER) }).strict(),
  (p: Position) => ({ t: p.at.toISOString(), i: p.id }),
  (b): Position => ({ at: new Date(b.t), id: b.i }),
);

/** Opaque to clients. */
export const encodeCursor = cursor.encode;
/** The position a cursor names, or undefined when it is not one this service handed out. */
export const decodeCursor = cursor.decode;
