import { z } from 'zod';
import type { DeliveryPosition } from './webhook-endpoints.repository';

const shape = z
  .object({
    t: z.string().datetime(),
    i: z.string().uuid(),
  })
  .strict();

/** Where a page of deliveries ended, opaque to clients. */
export function encodeDeliveryCursor(position: DeliveryPosition): string {
  return Buffer.from(JSON.stringify({ t: position.at.toISOString(), i: position.id })).toString('base64url');
}

/** The position a cursor names, or undefined when it is not one this service handed out. */
export function decodeDeliveryCursor(cursor: string): DeliveryPosition | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  const parsed = shape.safeParse(raw);
  return parsed.success ? { at: new Date(parsed.data.t), id: parsed.data.i } : undefined;
}
