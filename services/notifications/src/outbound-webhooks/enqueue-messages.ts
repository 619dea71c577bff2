import { sql } from 'drizzle-orm';
import type { Tx } from '@lws/platform';
import { webhookDeliveries, webhookEndpoints, webhookMessages } from '../db/schema';
import type { WebhookPayload } from './event-catalogue';

/** A message to enqueue: to every enabled endpoint it matches, or (`endpointId`) to that one only. */
export interface MessageToEnqueue {
  id: string;
  eventType: string;
  payload: WebhookPayload;
  sourceEventId: string | null;
  /** A hand-off's alarm (withdrawn if the alarm is resolved before it is taken). */
  alarmId?: string | null;
  /** The worker's team; null: not known, so only endpoints of every team hear of it. */
  teamId: number | null;
  duress: boolean;
  priority: number;
  endpointId?: string;
}

export interface Enqueued {
  deliveryId: string;
  endpointId: string;
  messageId: string;
}

/**
 * Stores messages and one pending delivery per endpoint each matches, in one statement whatever
 * their number: an endpoint matches when it is enabled, subscribes to the type, covers the team
 * (every team, or the message's), and, for a duress message, is allowed duress. A message addressed
 * to one endpoint matches it alone (duress still needs it allowed). A message no endpoint matches
 * is not stored; one already stored (an event received again) adds nothing. `dueAt`: the first attempt.
 */
export async function enqueueMessages(tx: Tx, messages: readonly MessageToEnqueue[], now: Date, dueAt: Date): Promise<Enqueued[]> {
  if (messages.length === 0) return [];
  const rows = messages.map((m) => ({
    id: m.id,
    event_type: m.eventType,
    payload: m.payload,
    source_event_id: m.sourceEventId,
    alarm_id: m.alarmId ?? null,
    team_id: m.teamId,
    duress: m.duress,
    priority: m.priority,
    endpoint_id: m.endpointId ?? null,
  }));
  const at = now.toISOString();
  const { rows: enqueued } = (await tx.execute(sql`
    with m as (
      select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as m(
        id text, event_type text, payload jsonb, source_event_id uuid, alarm_id uuid, team_id int, duress boolean, priority smallint, endpoint_id uuid)
    ),
    matched as (
      select m.id as message_id, e.id as endpoint_id, m.priority
      from m join ${webhookEndpoints} e on e.enabled
        and (not m.duress or e.receives_duress)
        and case when m.endpoint_id is not null then e.id = m.endpoint_id
          else m.event_type = any(e.event_types) and (e.team_ids is null or m.team_id = any(e.team_ids)) end
    ),
    stored as (
      insert into ${webhookMessages} (id, event_type, payload, source_event_id, alarm_id, created_at)
      select m.id, m.event_type, m.payload, m.source_event_id, m.alarm_id, ${at}::timestamptz from m
      where exists (select 1 from matched where matched.message_id = m.id)
      on conflict (id) do nothing
      returning id
    )
    insert into ${webhookDeliveries} (id, endpoint_id, message_id, status, priority, next_attempt_at, created_at, updated_at)
    select gen_random_uuid(), matched.endpoint_id, matched.message_id, 'pending', matched.priority,
      ${dueAt.toISOString()}::timestamptz, ${at}::timestamptz, ${at}::timestamptz
    from matched join stored on stored.id = matched.message_id
    on conflict (endpoint_id, message_id) do nothing
    returning id, endpoint_id, message_id`)) as unknown as { rows: { id: string; endpoint_id: string; message_id: string }[] };
  return enqueued.map((r) => ({ deliveryId: r.id, endpointId: r.endpoint_id, messageId: r.message_id }));
}
