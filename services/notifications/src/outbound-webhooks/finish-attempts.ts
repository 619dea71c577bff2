import { sql } from 'drizzle-orm';
import type { Tx } from '@lws/platform';
import { webhookAttempts, webhookDeliveries, webhookEndpoints, type WebhookAttemptOutcome, type WebhookDeliveryStatus } from '../db/schema';

/** One attempt's result, as the sender records it. */
export interface AttemptResult {
  deliveryId: string;
  attempt: number;
  /** 'pending' with nextAttemptAt: tried again then. */
  status: WebhookDeliveryStatus;
  nextAttemptAt: Date | null;
  outcome: WebhookAttemptOutcome;
  startedAt: Date;
  latencyMs: number;
  httpStatus: number | null;
  excerpt: string | null;
  error: string | null;
}

/**
 * Records attempts' results in one statement: each delivery still held by that attempt (still
 * pending at that attempt number: a lease that lapsed and was taken again is not overwritten) takes
 * its result, and every attempt goes into the log of a delivery that still exists. Returns the ids
 * of the deliveries written.
 */
export async function finishAttempts(tx: Tx, results: readonly AttemptResult[], now: Date): Promise<string[]> {
  if (results.length === 0) return [];
  const rows = results.map((r) => ({
    id: r.deliveryId,
    attempt: r.attempt,
    status: r.status,
    next_attempt_at: r.nextAttemptAt?.toISOString() ?? null,
    outcome: r.outcome,
    started_at: r.startedAt.toISOString(),
    latency_ms: r.latencyMs,
    http_status: r.httpStatus,
    excerpt: r.excerpt,
    error: r.error,
  }));
  const at = sql`${now.toISOString()}::timestamptz`;
  const { rows: written } = (await tx.execute(sql`
    with r as (
      select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(
        id uuid, attempt int, status text, next_attempt_at timestamptz, outcome text, started_at timestamptz,
        latency_ms int, http_status int, excerpt text, error text)
    ),
    written as (
      update ${webhookDeliveries} d set status = r.status, next_attempt_at = r.next_attempt_at, locked_until = null,
        last_http_status = r.http_status, last_latency_ms = r.latency_ms, last_error = r.error, updated_at = ${at},
        completed_at = case when r.status = 'pending' then null else ${at} end
      from r where d.id = r.id and d.attempts = r.attempt and d.status = 'pending'
      returning d.id
    ),
    logged as (
      insert into ${webhookAttempts} (delivery_id, attempt, started_at, latency_ms, http_status, response_excerpt, error, outcome)
      select r.id, r.attempt, r.started_at, r.latency_ms, r.http_status, r.excerpt, r.error, r.outcome from r
      where exists (select 1 from ${webhookDeliveries} d where d.id = r.id)
    )
    select id from written`)) as unknown as { rows: { id: string }[] };
  return written.map((r) => r.id);
}

/**
 * Disables endpoints (those still enabled) with the reason, and cancels their pending deliveries
 * in the same statement: nothing more is sent to them until they are enabled again and the
 * deliveries replayed. Returns the endpoints disabled now.
 */
export async function disableEndpoints(tx: Tx, endpointIds: readonly string[], reason: string, now: Date): Promise<string[]> {
  if (endpointIds.length === 0) return [];
  const at = sql`${now.toISOString()}::timestamptz`;
  const ids = sql`${`{${[...new Set(endpointIds)].join(',')}}`}::uuid[]`;
  const { rows } = (await tx.execute(sql`
    with disabled as (
      update ${webhookEndpoints} set enabled = false, disabled_at = ${at}, disabled_reason = ${reason}, updated_at = ${at}
      where id = any(${ids}) and enabled
      returning id
    ),
    canceled as (
      update ${webhookDeliveries} set status = 'canceled', next_attempt_at = null, locked_until = null,
        last_error = ${`Canceled: the endpoint was disabled (${reason})`}, updated_at = ${at}, completed_at = ${at}
      where endpoint_id in (select id from disabled) and status = 'pending'
    )
    select id from disabled`)) as unknown as { rows: { id: string }[] };
  return rows.map((r) => r.id);
}
