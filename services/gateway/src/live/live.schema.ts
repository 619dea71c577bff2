import { z } from 'zod';
import { LiveFeed } from './live-feed';

export const BAD_CURSOR = 'lastEventId must be an event id this stream sent';

const cursor = z
  .string()
  .max(60, BAD_CURSOR)
  .refine((v) => LiveFeed.isCursor(v), BAD_CURSOR);

/**
 * `GET /api/events?lastEventId=`: EventSource polyfills that cannot set Last-Event-ID send it here.
 * Other parameters (cache busters) are ignored.
 */
export const liveQuery = z.object({ lastEventId: cursor.optional() });

/** The Last-Event-ID header a browser sends when it reconnects by itself. */
export const lastEventIdHeader = z.object({ 'Last-Event-ID': cursor.optional() });
