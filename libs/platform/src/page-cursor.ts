import type { z } from 'zod';

/**
 * A page cursor: where the previous page ended, as the JSON of its sort key in base64url, opaque to
 * clients. `decode` answers undefined for anything `shape` refuses, so a forged or foreign cursor
 * is a 400 at the caller, never a query on what it claims.
 */
export interface PageCursor<T> {
  encode(position: T): string;
  decode(cursor: string): T | undefined;
}

/** A cursor whose body is what `shape` accepts, turned to and from the position by the two maps. */
export function pageCursor<Body extends object, T>(
  shape: z.ZodType<Body, z.ZodTypeDef, unknown>,
  toBody: (position: T) => Body,
  fromBody: (body: Body) => T | undefined,
): PageCursor<T> {
  return {
    encode: (position) => Buffer.from(JSON.stringify(toBody(position))).toString('base64url'),
    decode: (cursor) => {
      let raw: unknown;
      try {
        raw = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
      } catch {
        return undefined;
      }
      const parsed = shape.safeParse(raw);
      return parsed.success ? fromBody(parsed.data) : undefined;
    },
  };
}
