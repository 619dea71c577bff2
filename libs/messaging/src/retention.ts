import { and, isNotNull, lt, sql } from 'drizzle-orm';
import type { MessagingDb, MessagingTables } from './tables';

export interface RetentionOptions {
  /** Published outbox rows are kept this long (the embedded relay replays the last 24 h). Default 8 days. */
  outboxRetentionMs?: number;
  /**
   * Dedupe rows must outlive every possible redelivery: the stream keeps events 7 days,
   * so the default is 14 days.
   */
  processedRetentionMs?: number;
  /** Rows deleted per statement, so pruning never holds long locks. */
  batchSize?: number;
}

const DAY = 24 * 3600_000;

/** Deletes published outbox rows and old dedupe rows; never touches an unpublished event. */
export async function pruneMessagingTables(
  db: MessagingDb,
  tables: MessagingTables,
  now: Date,
  options: RetentionOptions = {},
): Promise<{ outbox: number; processedEvents: number }> {
  const batch = options.batchSize ?? 1000;
  const outboxCutoff = new Date(now.getTime() - (options.outboxRetentionMs ?? 8 * DAY));
  const processedCutoff = new Date(now.getTime() - (options.processedRetentionMs ?? 14 * DAY));
  const { outbox, processedEvents } = tables;
  let prunedOutbox = 0;
  let prunedProcessed = 0;
  for (;;) {
    const ids = db
      .select({ id: outbox.id })
      .from(outbox)
      .where(and(isNotNull(outbox.publishedAt), lt(outbox.publishedAt, outboxCutoff)))
      .limit(batch);
    const deleted = await db.delete(outbox).where(sql`${outbox.id} in (${ids})`).returning({ id: outbox.id });
    prunedOutbox += deleted.length;
    if (deleted.length < batch) break;
  }
  for (;;) {
    const keys = db
      .select({ consumer: processedEvents.consumer, eventId: processedEvents.eventId })
      .from(processedEvents)
      .where(lt(processedEvents.processedAt, processedCutoff))
      .limit(batch);
    const deleted = await db
      .delete(processedEvents)
      .where(sql`(${processedEvents.consumer}, ${processedEvents.eventId}) in (${keys})`)
      .returning({ id: processedEvents.eventId });
    prunedProcessed += deleted.length;
    if (deleted.length < batch) break;
  }
  return { outbox: prunedOutbox, processedEvents: prunedProcessed };
}
