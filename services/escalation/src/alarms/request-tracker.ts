import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { and, asc, eq, inArray, isNotNull, lte, sql } from 'drizzle-orm';
import type { CommandMap, EventMap } from '@lws/contracts';
import { errorMessage, type RpcClient } from '@lws/messaging';
import { Chores, CLOCK, LOGGER, metrics, RPC, UnitOfWork, type Clock, type Logger } from '@lws/platform';
import { SERVICE_NAME, SETTINGS, type EscalationSettings } from '../config';
import { alarms, notificationRequests } from '../db/schema';
import { resolved } from './alarm-state';
import { AlarmsService } from './alarms.service';
import { emitRequest, Notifier } from './notifier';

type Outcome = CommandMap['notifications.requests.taken.v1']['reply']['outcomes'][number];

/** Asks without a confirmation before the system alert. */
export const ASKS_BEFORE_ALERT = 3;
/** How often the tracker looks for requests to ask again (wall time; the due times follow the service clock). */
const SWEEP_MS = 1000;
const BATCH = 100;

/**
 * Follows every request escalation made on an alarm's behalf until notifications holds a delivery
 * for it: the request event can be lost on the way (a bus that lost what it acknowledged, a dead
 * letter). ESCALATION_REQUEST_CONFIRM_SECONDS after a request, notifications is asked which of the
 * requests due it holds (one command per sweep, not an event per delivery status: that cost the
 * benchmark's p99); any it lacks is asked for again, as it was and with the same request id
 * (notifications takes each request id once), every period while its alarm is not resolved. After
 * 3 unanswered asks an operator hears of it (system alert, metric). A taken request is asked about
 * every period until notifications reports it sent (an SMS or WhatsApp message: delivered) or failed;
 * each goes on the alarm's history
 * (a failure with its reason), and a failure can bring its next step forward (AlarmsService.messageFailed). Reminders are not tracked: a
 * lost reminder is not asked for again (the missed check-in alarm still fires at the deadline).
 */
@Injectable()
export class RequestTracker implements OnApplicationBootstrap {
  constructor(
    private readonly notifier: Notifier,
    private readonly alarmsService: AlarmsService,
    @Inject(RPC) private readonly rpc: RpcClient,
    @Inject(UnitOfWork) private readonly uow: UnitOfWork,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(SETTINGS) private readonly settings: EscalationSettings,
    private readonly chores: Chores,
  ) {}

  onApplicationBootstrap(): void {
    this.chores.every('request-sweep', SWEEP_MS, () => this.sweep());
  }

  /** Asks again for the requests due for it; returns how many it asked for. Replicas share them (SKIP LOCKED). */
  async sweep(): Promise<number> {
    const now = this.clock();
    const next = new Date(now.getTime() + this.settings.requestConfirmMs);
    // Leased, not locked: the rows due are taken and their next ask moved a period on in a short
    // transaction of their own (another replica's sweep passes them by), so no row is held while
    // notifications is asked. A sweep that dies before it applies the answer leaves them to the
    // next period, as an unanswered ask would.
    const due = await this.uow.run(async (tx) => {
      const rows = await tx
        .select()
        .from(notificationRequests)
        .where(and(isNotNull(notificationRequests.nextAskAt), lte(notificationRequests.nextAskAt, now)))
        .orderBy(asc(notificationRequests.nextAskAt))
        .limit(BATCH)
        .for('update', { skipLocked: true });
      if (rows.length > 0)
        await tx
          .update(notificationRequests)
          .set({ nextAskAt: next })
          .where(
            inArray(
              notificationRequests.requestId,
              rows.map((r) => r.requestId),
            ),
          );
      return rows;
    });
    if (due.length === 0) return 0;
    // Which of them notifications already holds (those were taken, only the news of it was slow or
    // lost), and what became of them.
    const taken = await this.taken(due.map((r) => r.requestId));
    return this.uow.run(async (tx, emit) => {
      const alarmsOf = await tx
        .select({ id: alarms.id, state: alarms.state, kind: alarms.kind })
        .from(alarms)
        .where(inArray(alarms.id, [...new Set(due.map((r) => r.alarmId))]));
      const closed = new Set(alarmsOf.filter(resolved).map((a) => a.id));
      const emergencies = new Set(alarmsOf.filter((a) => a.kind === 'emergency').map((a) => a.id));
      // One statement per outcome, not one per request: a burst of alarms confirms hundreds at once.
      const confirmed = new Map<string, { outcome: Outcome['outcome']; final: boolean; ids: string[] }>();
      for (const r of due) {
        const outcome = taken.get(r.requestId);
        if (!outcome) continue;
        // Asked about again (not for) while the alarm is open: while it is still being tried, and a sent
        // SMS or WhatsApp message until its delivery receipt (or failure) comes.
        const final = settled(outcome.outcome, r.request.channel) || closed.has(r.alarmId);
        const key = `${outcome.outcome}:${final}`;
        if (!confirmed.has(key)) confirmed.set(key, { outcome: outcome.outcome, final, ids: [] });
        confirmed.get(key)!.ids.push(r.requestId);
      }
      for (const group of confirmed.values()) {
        await tx
          .update(notificationRequests)
          .set({
            confirmedAt: sql`coalesce(${notificationRequests.confirmedAt}, ${now.toISOString()}::timestamptz)`,
            lastStatus: group.outcome,
            nextAskAt: group.final ? null : next,
          })
          .where(inArray(notificationRequests.requestId, group.ids));
      }
      // What actually happened, per channel, on the alarm's history: sent, delivered, or failed and why.
      const reported: { alarmId: string; what: string; outcome: 'sent' | 'delivered' }[] = [];
      for (const r of due) {
        const outcome = taken.get(r.requestId);
        if (outcome?.outcome === 'failed' && r.lastStatus !== 'failed') {
          await this.alarmsService.messageFailed(tx, emit, r.alarmId, describe(r.request), outcome.error, now);
          // Nobody here answered and the receiving centre was not reached: an operator must know now
          // (not when it was withdrawn because the alarm had been resolved).
          if (r.request.channel === 'webhook' && !closed.has(r.alarmId))
            await this.notifier.systemAlert(
              emit,
              'handoff_failed',
              `The hand-off of alarm ${r.alarmId} to the receiving centre failed${outcome.error ? `: ${outcome.error}` : ''}; the alarm goes on escalating here`,
              now,
              r.request.userId,
            );
        } else if ((outcome?.outcome === 'sent' || outcome?.outcome === 'delivered') && r.lastStatus !== outcome.outcome) {
          reported.push({ alarmId: r.alarmId, what: describe(r.request), outcome: outcome.outcome });
        }
      }
      await this.alarmsService.messagesReported(tx, reported, now);
      let asked = 0;
      for (const r of due) {
        if (taken.has(r.requestId)) continue;
        if (closed.has(r.alarmId)) {
          // Nobody needs it any more: notifications withdraws what it still holds for the alarm.
          await tx.update(notificationRequests).set({ nextAskAt: null }).where(eq(notificationRequests.requestId, r.requestId));
          continue;
        }
        const asks = r.asks + 1;
        await emitRequest(emit, r.request, emergencies.has(r.alarmId));
        metrics.requestsAskedAgain.inc({ service: SERVICE_NAME });
        asked++;
        const alert = asks > ASKS_BEFORE_ALERT && !r.alertedAt;
        await tx
          .update(notificationRequests)
          .set({ asks, nextAskAt: next, ...(alert ? { alertedAt: now } : {}) })
          .where(eq(notificationRequests.requestId, r.requestId));
        const what = describe(r.request);
        this.logger.warn({ requestId: r.requestId, alarmId: r.alarmId, asks }, `notifications has not confirmed ${what}; asking again`);
        if (alert) {
          metrics.requestsUnconfirmed.inc({ service: SERVICE_NAME });
          await this.notifier.systemAlert(
            emit,
            'notification_unconfirmed',
            `Notifications has not confirmed ${what} for alarm ${r.alarmId} after ${ASKS_BEFORE_ALERT} requests over ${Math.round((now.getTime() - r.requestedAt.getTime()) / 1000)} s; still asking`,
            now,
            r.request.userId,
          );
          this.logger.error(
            { requestId: r.requestId, alarmId: r.alarmId, asks: ASKS_BEFORE_ALERT },
            `notifications has not confirmed ${what} after ${ASKS_BEFORE_ALERT} requests`,
          );
        }
      }
      return asked;
    });
  }

  /**
   * The request ids notifications holds a delivery for, with what became of each; none when it
   * cannot answer (all are asked for again: it takes each once).
   */
  private async taken(requestIds: string[]): Promise<Map<string, Outcome>> {
    try {
      // The reply's outcomes are required: a notifications from before them fails validation here
      // and is treated as one that could not answer (docs/operations.md, upgrade order).
      const reply = await this.rpc.send('notifications.requests.taken.v1', { requestIds }, { timeoutMs: 2000 });
      const outcomes = new Map(reply.outcomes.map((o) => [o.requestId, o]));
      // A taken request with no outcome listed is still being tried.
      return new Map(reply.requestIds.map((id) => [id, outcomes.get(id) ?? { requestId: id, outcome: 'pending' }]));
    } catch (err) {
      this.logger.warn(
        { error: errorMessage(err), requests: requestIds.length },
        'notifications could not say which requests it has; asking for them again',
      );
      return new Map();
    }
  }
}

/** Whether a request's outcome is its last word: SMS and WhatsApp have a delivery receipt to wait for once sent. */
function settled(outcome: Outcome['outcome'], channel: string): boolean {
  if (outcome === 'pending') return false;
  if (outcome === 'sent') return channel !== 'sms' && channel !== 'whatsapp';
  return true;
}

function describe(request: EventMap['escalation.notification.requested.v1']): string {
  if (request.channel === 'webhook') return 'the hand-off to the receiving centre';
  const to =
    request.toPhone ??
    (request.toRole === 'monitors'
      ? 'the monitors'
      : request.toUsers
        ? `the team's monitors (${request.toUsers.userIds.length})`
        : request.toUserId !== undefined
          ? 'the worker'
          : 'someone');
  const what = request.channel === 'voice' ? 'call' : request.channel === 'push' ? 'push notification' : request.channel.toUpperCase();
  return `the ${what} to ${to}`;
}
