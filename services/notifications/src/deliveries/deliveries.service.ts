import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { CommandMap, EventMap } from '@lws/contracts';
import { RpcError } from '@lws/messaging';
import { CLOCK, UnitOfWork, type Clock, type Emit, type Tx } from '@lws/platform';
import { DELIVERY_PRIORITY } from '../db/schema';
import { SubscriptionsRepository } from '../push/subscriptions.repository';
import { TwilioProvider, WHATSAPP_NOT_OPTED_IN, type ProviderResult } from '../provider/twilio-provider';
import { CLAIM_MS, DeliveriesRepository, type Delivery, type NewDelivery } from './deliveries.repository';
import { emitMessageStatus } from './delivery-events';

type Cmd<K extends keyof CommandMap> = CommandMap[K];

export const DEFAULT_CALL_TIMEOUT_SECONDS = 60;

/**
 * What is asked of notifications: escalation's requests (stored here, sent by the sender),
 * and the superadmin tools' sends and test calls, which go out at once and answer with the
 * provider's reply.
 */
/** Delivery statuses of a message still being tried, and of one that will never be sent. */
const STILL_TRYING = new Set(['pending', 'sending']);
const GAVE_UP = new Set(['failed', 'undelivered', 'canceled', 'expired']);
/** The provider's receipt that a message reached the phone (Twilio's status callback). */
const DELIVERED = new Set(['delivered', 'read']);

@Injectable()
export class DeliveriesService {
  constructor(
    private readonly repo: DeliveriesRepository,
    private readonly subscriptions: SubscriptionsRepository,
    private readonly provider: TwilioProvider,
    private readonly uow: UnitOfWork,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /**
   * Stores the request's deliveries as pending, in the consumer's transaction; the sender sends
   * them. A push fans out to every subscription of its target, one row each.
   */
  async requested(tx: Tx, emit: Emit, e: EventMap['escalation.notification.requested.v1'], urgent = false): Promise<void> {
    // Asked again for a request already taken (escalation heard no status for it: the status or the
    // first request was lost on the way): the deliveries stand, and their status is reported again.
    const known = await this.repo.forRequest(tx, e.requestId);
    if (known.length > 0) {
      for (const row of known) await emitMessageStatus(emit, row);
      return;
    }
    const now = this.clock();
    const base = {
      requestId: e.requestId,
      channel: e.channel,
      purpose: e.purpose,
      title: e.title,
      body: e.body,
      status: 'pending',
      nextAttemptAt: now,
      userId: e.userId ?? null,
      alarmId: e.alarmId ?? null,
      dueSince: e.since ? new Date(e.since) : null,
      priority: urgent ? DELIVERY_PRIORITY.emergency : e.purpose.startsWith('reminder_') ? DELIVERY_PRIORITY.reminder : DELIVERY_PRIORITY.alarm,
      createdAt: now,
      updatedAt: now,
    } satisfies Partial<NewDelivery>;
    if (e.channel !== 'push') {
      if (!e.toPhone) {
        await this.rejected(tx, emit, { ...base, to: '(none)' }, `A ${e.channel} request needs to_phone`);
        return;
      }
      await this.repo.insert(tx, [
        {
          ...base,
          id: randomUUID(),
          to: e.toPhone,
          ...(e.channel === 'voice'
            ? {
                callTimeoutSeconds: e.callTimeoutSeconds ?? DEFAULT_CALL_TIMEOUT_SECONDS,
                body: e.contactName ? `Hello ${e.contactName}. ${e.body}` : e.body,
              }
            : {}),
        },
      ]);
      return;
    }
    const team = e.toUsers?.userIds ?? [];
    const target =
      e.toRole === 'monitors' ? 'role:monitors' : team.length > 0 ? `users:${team.join(',')}` : e.toUserId !== undefined ? `user:${e.toUserId}` : undefined;
    if (!target) {
      await this.rejected(tx, emit, { ...base, to: '(none)' }, 'A push request needs to_user_id, to_user_ids or to_role');
      return;
    }
    const subs =
      e.toRole === 'monitors'
        ? await this.subscriptions.forMonitors(tx)
        : team.length > 0
          ? await this.subscriptions.forUsers(tx, team)
          : await this.subscriptions.forUser(tx, e.toUserId!);
    if (subs.length === 0) {
      await this.rejected(tx, emit, { ...base, to: target }, `No push subscription for ${target}`);
      return;
    }
    await this.repo.insert(
      tx,
      subs.map((s) => ({ ...base, id: randomUUID(), to: s.id, fanoutKey: s.id })),
    );
  }

  /**
   * Which of these request ids this service holds a delivery for, and what became of each: failed
   * once every delivery of it failed for good (a push to the monitors is one delivery per browser),
   * delivered once the provider reported any reached the phone, sent once the provider or a browser
   * took any, pending while one is still being tried.
   */
  async taken(requestIds: string[]): Promise<Cmd<'notifications.requests.taken.v1'>['reply']> {
    const byRequest = new Map<string, { status: string; errorMessage: string | null }[]>();
    for (const r of await this.repo.requestStatuses(requestIds)) byRequest.set(r.requestId, [...(byRequest.get(r.requestId) ?? []), r]);
    const outcomes = [...byRequest].map(([requestId, rows]) => {
      if (rows.some((r) => DELIVERED.has(r.status))) return { requestId, outcome: 'delivered' as const };
      if (rows.some((r) => STILL_TRYING.has(r.status))) return { requestId, outcome: 'pending' as const };
      if (rows.every((r) => GAVE_UP.has(r.status))) {
        const error = rows.map((r) => r.errorMessage).find(Boolean);
        return { requestId, outcome: 'failed' as const, ...(error ? { error: error.slice(0, 500) } : {}) };
      }
      return { requestId, outcome: 'sent' as const };
    });
    return { requestIds: [...byRequest.keys()], outcomes };
  }

  /** The alarm was resolved: its messages still waiting for the provider are withdrawn and reported. */
  async alarmResolved(tx: Tx, emit: Emit, e: EventMap['escalation.alarm.resolved.v1']): Promise<void> {
    const withdrawn = await this.repo.withdrawPending(tx, e.alarmId, 'Withdrawn: the alarm was resolved before the provider took it', this.clock());
    for (const row of withdrawn) await emitMessageStatus(emit, row);
  }

  /** A request that can never be sent is logged as failed (once) and reported. */
  private async rejected(tx: Tx, emit: Emit, row: Omit<NewDelivery, 'id'>, reason: string): Promise<void> {
    const [saved] = await this.repo.insert(tx, [{ ...row, id: randomUUID(), status: 'failed', nextAttemptAt: null, errorMessage: reason }]);
    if (saved) await emitMessageStatus(emit, saved);
  }

  /** One SMS or WhatsApp message now, no retries: the superadmin sees the provider's answer. */
  async sendNow(req: Cmd<'notifications.message.send.v1'>['request']): Promise<Cmd<'notifications.message.send.v1'>['reply']> {
    const row = await this.startNow({ channel: req.channel, to: req.to, purpose: req.purpose, body: req.body, userId: req.userId ?? null });
    const result = await this.provider.sendMessage(req.channel, row.id, req.to, req.body);
    const saved = await this.recordNow(row, result);
    const failed = !result.ok;
    return {
      messageId: saved.id,
      status: saved.status,
      ...(saved.providerSid ? { providerSid: saved.providerSid } : {}),
      ...(failed && result.code !== undefined ? { errorCode: result.code } : {}),
      ...(failed ? { errorMessage: result.message } : {}),
      setupSteps: failed && result.code === WHATSAPP_NOT_OPTED_IN ? this.provider.whatsappSetupSteps() : [],
      from: this.provider.from(req.channel),
    };
  }

  /** A superadmin's test call through the real voice flow; it publishes no call outcome (there is no request). */
  async testCall(req: Cmd<'notifications.call.test.v1'>['request']): Promise<Cmd<'notifications.call.test.v1'>['reply']> {
    const body = `This is a test emergency call. ${req.workerName} at ${req.location} needs assistance.`;
    const row = await this.startNow({
      channel: 'voice',
      to: req.to,
      purpose: 'test_call',
      body,
      userId: null,
      callTimeoutSeconds: DEFAULT_CALL_TIMEOUT_SECONDS,
    });
    const result = await this.provider.placeCall({ messageId: row.id, to: req.to, timeoutSeconds: DEFAULT_CALL_TIMEOUT_SECONDS });
    const saved = await this.recordNow(row, result);
    if (!result.ok) {
      if (result.transient) throw new RpcError(503, `Call failed: ${result.message}`, { code: 'provider_unavailable' });
      throw new RpcError(400, `Call failed: ${result.message}`, { field: 'to', code: result.code !== undefined ? String(result.code) : undefined });
    }
    return { callSid: saved.providerSid!, status: saved.status };
  }

  async list(req: Cmd<'notifications.delivery.list.v1'>['request']): Promise<Cmd<'notifications.delivery.list.v1'>['reply']> {
    const rows = await this.repo.list(req.limit, req.userId);
    return { deliveries: rows.map(deliveryView) };
  }

  private async startNow(values: Pick<NewDelivery, 'channel' | 'to' | 'purpose' | 'body' | 'userId' | 'callTimeoutSeconds'>): Promise<Delivery> {
    const now = this.clock();
    return this.uow.run(async (tx) => {
      const [row] = await this.repo.insert(tx, [
        { ...values, id: randomUUID(), status: 'sending', attempts: 1, claimedUntil: new Date(now.getTime() + CLAIM_MS), createdAt: now, updatedAt: now },
      ]);
      return row;
    });
  }

  private async recordNow(row: Delivery, result: ProviderResult): Promise<Delivery> {
    const now = this.clock();
    return this.uow.run(async (tx, emit) => {
      const saved = await this.repo.finishClaim(
        tx,
        row.id,
        result.ok
          ? { status: result.status, providerSid: result.sid, updatedAt: now }
          : { status: 'failed', errorCode: result.code ?? null, errorMessage: result.message, updatedAt: now },
      );
      const current = saved ?? (await this.repo.lock(tx, row.id))!;
      if (saved) await emitMessageStatus(emit, saved);
      return current;
    });
  }
}

export function deliveryView(r: Delivery): Cmd<'notifications.delivery.list.v1'>['reply']['deliveries'][number] {
  return {
    messageId: r.id,
    channel: r.channel,
    to: r.to,
    purpose: r.purpose,
    status: r.status,
    ...(r.userId !== null ? { userId: r.userId } : {}),
    ...(r.alarmId !== null ? { alarmId: r.alarmId } : {}),
    ...(r.providerSid !== null ? { providerSid: r.providerSid } : {}),
    ...(r.errorCode !== null ? { errorCode: r.errorCode } : {}),
    ...(r.errorMessage !== null ? { errorMessage: r.errorMessage } : {}),
    attempts: r.attempts,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
    body: r.body,
  };
}
