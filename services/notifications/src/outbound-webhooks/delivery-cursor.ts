import { pageCursor } from '@lws/platform';
import { z } from 'zod';
import type { DeliveryPosition } from './webhook-endpoints.repository';

const cursor = pageCursor(
  z.object({ t: z.string().datetime(), i: z.string().uuid() }).strict(),
  (p: DeliveryPosition) => ({ t: p.at.toISOString(), i: p.id }),
  (b): DeliveryPosition => ({ at: new Date(b.t), id: b.i }),
);

/** Where a page of deliveries ended, opaque to clients. */
export const encodeDeliveryCursor = cursor.encode;
/** The position a cursor names, or undefined when it is not one this service handed out. */
export const decodeDeliveryCursor = cursor.decode;
