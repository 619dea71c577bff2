import { z } from 'zod';

/** Where the previous page ended: the sort key (time, then id) of its last entry. */
export interface Position {
  at: Date;
  id: number;
}

const shape = z
  .object({
    t: z.string().datetime(),
    i: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER),
  })
  .strict();

/** Opaque to clients. */
export function encodeCursor(position: Position): string {
  return Buffer.from(JSON.stringify({ t: position.at.toISOString(), i: position.id })).toString('base64url');
}

/** The position a cursor names, or undefined when it is not one this service handed out. */
export function decodeCursor(cursor: string): Position | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  const parsed = shape.safeParse(raw);
  return parsed.success ? { at: new Date(parsed.data.t), id: parsed.data.i } : undefined;
}
