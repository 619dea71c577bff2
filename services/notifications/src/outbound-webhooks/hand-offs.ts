import { Inject, Injectable } from '@nestjs/common';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { EventMap } from '@lws/contracts';
import type { AfterCommit } from '@lws/messaging';
import { DB, type Db, type Tx } from '@lws/platform';
import { DELIVERY_PRIORITY, webhookDeliveries, webhookMessages } from '../db/schema';
import { WebhookQueue } from './webhook-queue';

type Request = EventMap['escalation.notification.requested.v1'];

/** The webhook event type a hand-off is sent as. */
export const HANDOFF_TYPE = 'alarm.handoff.v1';

export interface RefusedHandOff {
  request: Request;
  reason: string;
}

/** What became of a hand-off, as notifications.requests.taken.v1 reports a request. */
export interface HandOffOutcome {
  requestId: string;
  outcome: 'pending' | 'delivered' | 'failed';
  error?: string;
}

/**
 * Escalation's hand_off steps: a request on the webhook channel becomes one signed message to the
 * endpoint it names, on the webhook sender's own queue, keyed by the request id. Escalation asks
 * after it like any request (notifications.requests.taken.v1) and asks for it again if the request
 * was lost, so a hand-off survives a bus that lost it; a request asked again is taken once.
 */
@Injectable()
export class HandOffs {
  constructor(
    private readonly queue: WebhookQueue,
    @Inject(DB) private readonly db: Db,
  ) {}

  /** Queues each hand-off not queued before; answers those that can never be sent, with why. */
  async take(tx: Tx, requests: readonly Request[], urgent: boolean, afterCommit?: AfterCommit): Promise<RefusedHandOff[]> {
    if (requests.length === 0) return [];
    const queued = new Set(
      (
        await tx
          .select({ id: webhookMessages.sourceEventId })
          .from(webhookMessages)
          .where(inArray(webhookMessages.sourceEventId, [...new Set(requests.map((r) => r.requestId))]))
      ).map((r) => r.id),
    );
    const refused: RefusedHandOff[] = [];
    for (const request of requests) {
      if (queued.has(request.requestId)) continue;
      queued.add(request.requestId);
      if (!request.toEndpointId || !request.handOff) {
        refused.push({ request, reason: 'A webhook request needs to_endpoint_id and hand_off' });
        continue;
      }
      const sent = await this.queue.enqueueDirect(
        tx,
        request.toEndpointId,
        HANDOFF_TYPE,
        { ...request.handOff },
        {
          sourceEventId: request.requestId,
          alarmId: request.handOff.alarmId,
          duress: request.handOff.duress === true,
          priority: urgent ? DELIVERY_PRIORITY.emergency : DELIVERY_PRIORITY.alarm,
          ...(afterCommit ? { afterCommit } : {}),
        },
      );
      if (!sent)
        refused.push({
          request,
          reason:
            request.handOff.duress === true
              ? 'The webhook endpoint does not exist, is disabled, or does not receive duress alarms'
              : 'The webhook endpoint does not exist or is disabled',
        });
    }
    return refused;
  }

  /**
   * The alarm was resolved here: a hand-off still waiting for its endpoint (down, retrying) is
   * withdrawn, so a receiving centre never acts hours later on an alarm already closed. One being
   * sent right now finishes as it goes (the sender records only on a still-pending row).
   */
  async withdraw(tx: Tx, alarmId: string, now: Date): Promise<number> {
    const at = now.toISOString();
    const { rows } = (await tx.execute(sql`
      update ${webhookDeliveries} d set status = 'canceled', next_attempt_at = null,
        last_error = 'Withdrawn: the alarm was resolved before the endpoint took it', updated_at = ${at}::timestamptz,
        completed_at = ${at}::timestamptz
      from ${webhookMessages} m
      where m.alarm_id = ${alarmId} and m.event_type = ${HANDOFF_TYPE} and d.message_id = m.id and d.status = 'pending'
        and (d.locked_until is null or d.locked_until <= ${at}::timestamptz)
      returning d.id`)) as unknown as { rows: { id: string }[] };
    return rows.length;
  }

  /** The hand-offs among these request ids, and what became of each (one statement). */
  async outcomes(requestIds: readonly string[]): Promise<HandOffOutcome[]> {
    if (requestIds.length === 0) return [];
    const rows = await this.db
      .select({ requestId: webhookMessages.sourceEventId, status: webhookDeliveries.status, error: webhookDeliveries.lastError })
      .from(webhookMessages)
      .innerJoin(webhookDeliveries, eq(webhookDeliveries.messageId, webhookMessages.id))
      .where(and(inArray(webhookMessages.sourceEventId, [...requestIds]), eq(webhookMessages.eventType, HANDOFF_TYPE)));
    return rows.map((r) => {
      if (r.status === 'succeeded') return { requestId: r.requestId!, outcome: 'delivered' as const };
      if (r.status === 'pending') return { requestId: r.requestId!, outcome: 'pending' as const };
      const error = r.status === 'canceled' ? 'canceled: the endpoint was disabled' : (r.error ?? 'the endpoint never accepted it');
      return { requestId: r.requestId!, outcome: 'failed' as const, error: error.slice(0, 500) };
    });
  }
}
