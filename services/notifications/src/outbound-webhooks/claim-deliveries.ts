import { sql } from 'drizzle-orm';
import { INDEX_ORDER } from '@lws/messaging';
import type { Db } from '@lws/platform';
import { DELIVERY_PRIORITIES, webhookDeliveries, webhookEndpoints, webhookMessages } from '../db/schema';
import type { WebhookPayload } from './event-catalogue';

/** A delivery the sender holds for one attempt, with what it needs to send it. */
export interface ClaimedDelivery {
  id: string;
  /** This attempt's number (attempts so far, this one included). */
  attempt: number;
  replayedAtAttempt: number;
  priority: number;
  createdAt: Date;
  endpointId: string;
  messageId: string;
  url: string;
  secretSealed: string;
  previousSecretSealed: string | null;
  previousSecretUntil: Date | null;
  eventType: string;
  payload: WebhookPayload;
}

/**
 * Takes up to `limit` due deliveries, most urgent first and oldest first within each priority (one
 * range of the due index per priority), in one statement (a disabled endpoint has none pending: they
 * are canceled as it is disabled): each is leased until
 * `leaseUntil` (its next_attempt_at moves there, so a sender that dies mid-send leaves a row that
 * falls due again) and its attempt counted. The lock ends with the statement, before any request.
 */
export async function claimDeliveries(db: Db, now: Date, limit: number, leaseUntil: Date): Promise<ClaimedDelivery[]> {
  const at = sql`${now.toISOString()}::timestamptz`;
  const ranges = DELIVERY_PRIORITIES.map((priority, i) => {
    const before = DELIVERY_PRIORITIES.slice(0, i).map((_, j) => sql`(select count(*) from ${sql.identifier(`c${j}`)})`);
    const room = before.length === 0 ? sql`${limit}` : sql`greatest(0, ${limit} - (${sql.join(before, sql` + `)}))`;
    return sql`${sql.identifier(`c${i}`)} as (
      select id from ${webhookDeliveries}
      where status = 'pending' and priority = ${priority} and next_attempt_at <= ${at}
      order by next_attempt_at limit ${room} for update skip locked)`;
  });
  const claimed = sql.join(
    DELIVERY_PRIORITIES.map((_, i) => sql`select id from ${sql.identifier(`c${i}`)}`),
    sql` union all `,
  );
  const lease = sql`${leaseUntil.toISOString()}::timestamptz`;
  return db.transaction(async (tx) => {
    await tx.execute(INDEX_ORDER);
    const { rows } = (await tx.execute(sql`
      with ${sql.join(ranges, sql`, `)}, claimed as (${claimed})
      update ${webhookDeliveries} as d set attempts = d.attempts + 1, next_attempt_at = ${lease}, locked_until = ${lease}, updated_at = ${at}
      from claimed c, ${webhookEndpoints} e, ${webhookMessages} m
      where d.id = c.id and e.id = d.endpoint_id and e.enabled and m.id = d.message_id
      returning d.id, d.attempts, d.replayed_at_attempt, d.priority, d.created_at, d.endpoint_id, d.message_id,
        e.url, e.secret_sealed, e.previous_secret_sealed, e.previous_secret_until, m.event_type, m.payload`)) as unknown as {
      rows: Record<string, unknown>[];
    };
    return rows
      .map(
        (r): ClaimedDelivery => ({
          id: r.id as string,
          attempt: Number(r.attempts),
          replayedAtAttempt: Number(r.replayed_at_attempt),
          priority: Number(r.priority),
          createdAt: new Date(r.created_at as string),
          endpointId: r.endpoint_id as string,
          messageId: r.message_id as string,
          url: r.url as string,
          secretSealed: r.secret_sealed as string,
          previousSecretSealed: (r.previous_secret_sealed as string | null) ?? null,
          previousSecretUntil: r.previous_secret_until ? new Date(r.previous_secret_until as string) : null,
          eventType: r.event_type as string,
          payload: (typeof r.payload === 'string' ? JSON.parse(r.payload) : r.payload) as WebhookPayload,
        }),
      )
      .sort((a, b) => a.priority - b.priority);
  });
}
