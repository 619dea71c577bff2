import { Inject, Injectable } from '@nestjs/common';
import { and, asc, eq, sql, type Column, type SQL } from 'drizzle-orm';
import { DB, rowsOf, type Db, type Tx } from '@lws/platform';
import { webhookAttempts, webhookDeliveries, webhookEndpoints, webhookMessages, type WebhookDeliveryStatus } from '../db/schema';

export type EndpointRow = typeof webhookEndpoints.$inferSelect;
export type NewEndpointRow = typeof webhookEndpoints.$inferInsert;
export type AttemptRow = typeof webhookAttempts.$inferSelect;

/** What a caller may see: every endpoint (all), or those limited to teams all within theirs. */
export interface Visibility {
  all: boolean;
  teamIds: readonly number[];
}

/** An endpoint with what its list shows of its deliveries. */
export interface EndpointSummary {
  endpoint: EndpointRow;
  pending: number;
  last?: { deliveryId: string; eventType: string; status: WebhookDeliveryStatus; at: Date; httpStatus: number | null };
}

export interface DeliveryRow {
  id: string;
  messageId: string;
  eventType: string;
  status: WebhookDeliveryStatus;
  attempts: number;
  nextAttemptAt: Date | null;
  lastHttpStatus: number | null;
  lastLatencyMs: number | null;
  lastError: string | null;
  createdAt: Date;
  updatedAt: Date;
  payload: unknown;
  endpointId: string;
}

/** Where the previous page of deliveries ended: its last row's creation time and id. */
export interface DeliveryPosition {
  at: Date;
  id: string;
}

const intArray = (ids: readonly number[]) => sql`${`{${ids.join(',')}}`}::int[]`;

/** The endpoints a caller may see, as a condition on their team_ids (of webhook_endpoints `e` unless told). */
function visibleTo(v: Visibility, teamIds: SQL | Column = sql`e.team_ids`) {
  return v.all ? sql`true` : sql`(${teamIds} is not null and ${teamIds} <@ ${intArray(v.teamIds)})`;
}

const endpointRow = rowsOf(webhookEndpoints);

/** Webhook endpoints and their delivery log, as the commands read and change them. */
@Injectable()
export class WebhookEndpointsRepository {
  constructor(@Inject(DB) private readonly db: Db) {}

  async insert(tx: Tx, row: NewEndpointRow): Promise<EndpointRow> {
    const [saved] = await tx.insert(webhookEndpoints).values(row).returning();
    return saved;
  }

  /** The endpoint, when the caller may see it; locked for the rest of `tx` when given one. */
  async find(id: string, v: Visibility, tx?: Tx, lock = false): Promise<EndpointRow | undefined> {
    const query = (tx ?? this.db)
      .select()
      .from(webhookEndpoints)
      .where(and(eq(webhookEndpoints.id, id), visibleTo(v, webhookEndpoints.teamIds)));
    const [row] = lock ? await query.for('update') : await query;
    return row;
  }

  async update(tx: Tx, id: string, changes: Partial<NewEndpointRow>): Promise<EndpointRow> {
    const [row] = await tx.update(webhookEndpoints).set(changes).where(eq(webhookEndpoints.id, id)).returning();
    return row;
  }

  async delete(tx: Tx, id: string): Promise<void> {
    await tx.delete(webhookEndpoints).where(eq(webhookEndpoints.id, id));
  }

  /**
   * The endpoints the caller may see (or the one of them asked for), oldest first, each with its
   * deliveries still being tried and its latest delivery: one statement.
   */
  async list(v: Visibility, only?: string): Promise<EndpointSummary[]> {
    const { rows } = (await this.db.execute(sql`
      select e.*,
        (select count(*) from ${webhookDeliveries} p where p.endpoint_id = e.id and p.status = 'pending')::int as pending,
        l.id as last_id, l.status as last_status, l.updated_at as last_at, l.last_http_status as last_code, m.event_type as last_type
      from ${webhookEndpoints} e
      left join lateral (
        select d.id, d.status, d.updated_at, d.last_http_status, d.message_id from ${webhookDeliveries} d
        where d.endpoint_id = e.id order by d.created_at desc, d.id desc limit 1) l on true
      left join ${webhookMessages} m on m.id = l.message_id
      where ${visibleTo(v)}${only ? sql` and e.id = ${only}` : sql``}
      order by e.created_at, e.id`)) as unknown as { rows: Record<string, unknown>[] };
    return rows.map((r) => ({
      endpoint: endpointRow(r),
      pending: Number(r.pending),
      ...(r.last_id
        ? {
            last: {
              deliveryId: r.last_id as string,
              eventType: (r.last_type as string | null) ?? '',
              status: r.last_status as WebhookDeliveryStatus,
              at: new Date(r.last_at as string),
              httpStatus: (r.last_code as number | null) ?? null,
            },
          }
        : {}),
    }));
  }

  async summary(id: string): Promise<EndpointSummary | undefined> {
    return (await this.list({ all: true, teamIds: [] }, id))[0];
  }

  /** An endpoint's deliveries, newest first, after `after`; `limit` of them. */
  async deliveries(endpointId: string, limit: number, after?: DeliveryPosition, status?: WebhookDeliveryStatus): Promise<DeliveryRow[]> {
    const { rows } = (await this.db.execute(sql`
      select d.id, d.message_id, d.status, d.attempts, d.next_attempt_at, d.last_http_status, d.last_latency_ms, d.last_error,
        d.created_at, d.updated_at, d.endpoint_id, m.event_type, m.payload
      from ${webhookDeliveries} d join ${webhookMessages} m on m.id = d.message_id
      where d.endpoint_id = ${endpointId}
        ${status ? sql`and d.status = ${status}` : sql``}
        ${after ? sql`and (d.created_at, d.id) < (${after.at.toISOString()}::timestamptz, ${after.id}::uuid)` : sql``}
      order by d.created_at desc, d.id desc
      limit ${limit}`)) as unknown as { rows: Record<string, unknown>[] };
    return rows.map((r) => ({
      id: r.id as string,
      messageId: r.message_id as string,
      eventType: r.event_type as string,
      status: r.status as WebhookDeliveryStatus,
      attempts: Number(r.attempts),
      nextAttemptAt: r.next_attempt_at ? new Date(r.next_attempt_at as string) : null,
      lastHttpStatus: (r.last_http_status as number | null) ?? null,
      lastLatencyMs: (r.last_latency_ms as number | null) ?? null,
      lastError: (r.last_error as string | null) ?? null,
      createdAt: new Date(r.created_at as string),
      updatedAt: new Date(r.updated_at as string),
      payload: typeof r.payload === 'string' ? JSON.parse(r.payload) : r.payload,
      endpointId: r.endpoint_id as string,
    }));
  }

  /** The attempts of these deliveries, oldest first. */
  async attempts(deliveryIds: readonly string[]): Promise<AttemptRow[]> {
    if (deliveryIds.length === 0) return [];
    return this.db
      .select()
      .from(webhookAttempts)
      .where(sql`${webhookAttempts.deliveryId} = any(${`{${deliveryIds.join(',')}}`}::uuid[])`)
      .orderBy(asc(webhookAttempts.deliveryId), asc(webhookAttempts.startedAt), asc(webhookAttempts.id));
  }

  /** A delivery with its endpoint, when the caller may see the endpoint. */
  async delivery(
    tx: Tx,
    id: string,
    v: Visibility,
  ): Promise<{ deliveryId: string; endpoint: EndpointRow; status: WebhookDeliveryStatus } | undefined> {
    const { rows } = (await tx.execute(sql`
      select d.id, d.endpoint_id, d.status from ${webhookDeliveries} d join ${webhookEndpoints} e on e.id = d.endpoint_id
      where d.id = ${id} and ${visibleTo(v)}`)) as unknown as {
      rows: { id: string; endpoint_id: string; status: WebhookDeliveryStatus }[];
    };
    if (rows.length === 0) return undefined;
    const endpoint = await this.find(rows[0].endpoint_id, v, tx);
    return endpoint && { deliveryId: rows[0].id, endpoint, status: rows[0].status };
  }

  /** A message's deliveries that failed or were canceled, to enabled endpoints the caller may see. */
  async replayableOfMessage(tx: Tx, messageId: string, v: Visibility): Promise<string[]> {
    const { rows } = (await tx.execute(sql`
      select d.id from ${webhookDeliveries} d join ${webhookEndpoints} e on e.id = d.endpoint_id
      where d.message_id = ${messageId} and d.status in ('failed', 'canceled') and e.enabled and ${visibleTo(v)}`)) as unknown as {
      rows: { id: string }[];
    };
    return rows.map((r) => r.id);
  }

  /** Whether a message exists (a replay of an unknown one is a 404, of one with nothing to replay a no-op). */
  async messageVisible(tx: Tx, messageId: string, v: Visibility): Promise<boolean> {
    const { rows } = (await tx.execute(sql`
      select 1 from ${webhookDeliveries} d join ${webhookEndpoints} e on e.id = d.endpoint_id
      where d.message_id = ${messageId} and ${visibleTo(v)} limit 1`)) as unknown as { rows: unknown[] };
    return rows.length > 0;
  }

  /**
   * Puts deliveries that are not pending back on the queue, due now, their retry schedule starting
   * again (replayed_at_attempt). Returns those re-queued.
   */
  async requeue(tx: Tx, deliveryIds: readonly string[], now: Date): Promise<string[]> {
    if (deliveryIds.length === 0) return [];
    const rows = await tx
      .update(webhookDeliveries)
      .set({
        status: 'pending',
        nextAttemptAt: now,
        lockedUntil: null,
        replayedAtAttempt: sql`${webhookDeliveries.attempts}`,
        updatedAt: now,
        completedAt: null,
      })
      .where(
        and(sql`${webhookDeliveries.id} = any(${`{${deliveryIds.join(',')}}`}::uuid[])`, sql`${webhookDeliveries.status} <> 'pending'`),
      )
      .returning({ id: webhookDeliveries.id });
    return rows.map((r) => r.id);
  }
}
