import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { CommandMap, EventMap } from '@lws/contracts';
import { isLanguage, msg, SOURCE_LANGUAGE, translate } from '@lws/i18n';
import { RpcError, type AfterCommit } from '@lws/messaging';
import { CLOCK, UnitOfWork, type Clock, type Emit, type Tx } from '@lws/platform';
import { DELIVERY_PRIORITY } from '../db/schema';
import { HandOffs } from '../outbound-webhooks/hand-offs';
import { SubscriptionsRepository, type PushTarget } from '../push/subscriptions.repository';
import { TwilioProvider, WHATSAPP_NOT_OPTED_IN, type ProviderResult } from '../provider/twilio-provider';
import { CLAIM_MS, DeliveriesRepository, type Delivery, type NewDelivery } from './deliveries.repository';
import { emitMessageStatus, messageStatusEvent } from './delivery-events';

type Cmd<K extends keyof CommandMap> = CommandMap[K];
type Request = EventMap['escalation.notification.requested.v1'];

export const DEFAULT_CALL_TIMEOUT_SECONDS = 60;

/** Rows per insert statement: well under PostgreSQL's 65,535 parameters at a row's 20-odd columns. */
const INSERT_CHUNK = 1000;

/** The longest title and body a request may carry (its contract's rules): a push translated here is held to them too. */
const TITLE_MAX = 200;
const BODY_MAX = 1600;
const clip = (s: string, n: number) => (s.length <= n ? s : `${s.slice(0, n - 1)}…`);

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
    private readonly handOffs: HandOffs,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /**
   * Stores the request's deliveries as pending, in the consumer's transaction; the sender sends
   * them. A push fans out to every subscription of its target, one row each.
   */
  requested(tx: Tx, emit: Emit, e: Request, urgent = false, afterCommit?: AfterCommit): Promise<void> {
    return this.requestedMany(tx, emit, [e], urgent, afterCommit);
  }

  /**
   * `requested` for the requests of one batch, in a few statements whatever their number: one read
   * of the requests already taken, one of the push subscriptions of every push target, one insert
   * of every new row (in chunks only past INSERT_CHUNK rows), one outbox write of the statuses to
   * report. The same rows and statuses as `requested` on each in turn.
   */
  async requestedMany(tx: Tx, emit: Emit, all: readonly Request[], urgent = false, afterCommit?: AfterCommit): Promise<void> {
    if (all.length === 0) return;
    const known = new Map<string, Delivery[]>();
    for (const row of await this.repo.forRequests(tx, [...new Set(all.map((e) => e.requestId))])) {
      known.set(row.requestId!, [...(known.get(row.requestId!) ?? []), row]);
    }
    // A hand-off goes on the webhook sender's queue; only one that can never be sent becomes a
    // (failed) row here, which reports it like any request refused.
    const handOffs = all.filter((e) => e.channel === 'webhook' && !known.has(e.requestId));
    const taken = handOffs.length > 0 ? await this.handOffs.take(tx, handOffs, urgent, afterCommit) : [];
    const refused = new Map(taken.map((r) => [r.request.requestId, r.reason]));
    const requests = all.filter((e) => e.channel !== 'webhook' || refused.has(e.requestId) || known.has(e.requestId));
    const pushTo = requests.filter((e) => e.channel === 'push' && !known.has(e.requestId));
    const userIds = new Set<number>();
    for (const e of pushTo) {
      if (e.toRole === 'monitors') continue;
      if (e.toUsers?.userIds.length) {
        for (const u of e.toUsers.userIds) userIds.add(u);
      } else if (e.toUserId !== undefined) userIds.add(e.toUserId);
    }
    const needMonitors = pushTo.some((e) => e.toRole === 'monitors');
    const subs = userIds.size > 0 || needMonitors ? await this.subscriptions.forTargets(tx, [...userIds], needMonitors) : [];

    const now = this.clock();
    const rows: NewDelivery[] = [];
    // Per request, in order: the rows whose status is reported (read once the rows are saved).
    const reports: ((saved: ReadonlyMap<string, Delivery>) => Delivery[])[] = [];
    const asked = new Map<string, string[]>();
    for (const e of requests) {
      // Asked again for a request already taken (escalation heard no status for it: the status or the
      // first request was lost on the way): the deliveries stand, and their status is reported again.
      const before = known.get(e.requestId);
      if (before) {
        reports.push(() => before);
        continue;
      }
      const earlier = asked.get(e.requestId);
      if (earlier) {
        reports.push((saved) => earlier.flatMap((id) => saved.get(id) ?? []));
        continue;
      }
      const { created, rejected } = this.deliveriesOf(e, urgent, subs, now, refused.get(e.requestId));
      rows.push(...created);
      asked.set(
        e.requestId,
        created.map((r) => r.id!),
      );
      // A request that can never be sent is logged as failed (once) and reported.
      if (rejected) reports.push((saved) => created.flatMap((r) => saved.get(r.id!) ?? []));
    }
    const saved = new Map<string, Delivery>();
    for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
      for (const row of await this.repo.insert(tx, rows.slice(i, i + INSERT_CHUNK))) saved.set(row.id, row);
    }
    await emit.many(reports.flatMap((report) => report(saved)).map(messageStatusEvent));
  }

  /** The rows one new request becomes; `rejected` when it can never be sent (one failed row). */
  private deliveriesOf(
    e: Request,
    urgent: boolean,
    subs: readonly Pick<PushTarget, 'id' | 'userId' | 'monitor' | 'language'>[],
    now: Date,
    refusedHandOff?: string,
  ): { created: NewDelivery[]; rejected: boolean } {
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
      language: e.language ?? null,
      priority: urgent
        ? DELIVERY_PRIORITY.emergency
        : e.purpose.startsWith('reminder_')
          ? DELIVERY_PRIORITY.reminder
          : DELIVERY_PRIORITY.alarm,
      createdAt: now,
      updatedAt: now,
    } satisfies Partial<NewDelivery>;
    const reject = (to: string, reason: string) => ({
      created: [{ ...base, id: randomUUID(), to, status: 'failed', nextAttemptAt: null, errorMessage: reason }],
      rejected: true,
    });
    if (e.channel === 'webhook') return reject(e.toEndpointId ?? '(none)', refusedHandOff ?? 'The hand-off could not be queued');
    if (e.channel !== 'push') {
      if (!e.toPhone) return reject('(none)', `A ${e.channel} request needs to_phone`);
      const voice =
        e.channel === 'voice'
          ? {
              callTimeoutSeconds: e.callTimeoutSeconds ?? DEFAULT_CALL_TIMEOUT_SECONDS,
              body: e.contactName
                ? translate(e.language, msg('Hello {{name}}. {{message}}'), { name: e.contactName, message: e.body })
                : e.body,
            }
          : {};
      return { created: [{ ...base, id: randomUUID(), to: e.toPhone, ...voice }], rejected: false };
    }
    const team = e.toUsers?.userIds ?? [];
    const target =
      e.toRole === 'monitors'
        ? 'role:monitors'
        : team.length > 0
          ? `users:${team.join(',')}`
          : e.toUserId !== undefined
            ? `user:${e.toUserId}`
            : undefined;
    if (!target) return reject('(none)', 'A push request needs to_user_id, to_user_ids or to_role');
    const members = new Set(team.length > 0 ? team : [e.toUserId]);
    const to = subs.filter((s) => (e.toRole === 'monitors' ? s.monitor : members.has(s.userId)));
    if (to.length === 0) return reject(target, `No push subscription for ${target}`);
    return {
      created: to.map((s) => ({ ...base, ...writtenFor(e, s.language), id: randomUUID(), to: s.id, fanoutKey: s.id })),
      rejected: false,
    };
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
    // Hand-offs queued for a webhook endpoint: what their delivery came to.
    for (const h of await this.handOffs.outcomes(requestIds)) {
      const status = h.outcome === 'delivered' ? 'delivered' : h.outcome === 'pending' ? 'pending' : 'failed';
      byRequest.set(h.requestId, [{ status, errorMessage: h.error ?? null }]);
    }
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

  /**
   * The alarm was resolved: its messages still waiting for the provider are withdrawn and reported,
   * and a hand-off still waiting for its endpoint is withdrawn too.
   */
  async alarmResolved(tx: Tx, emit: Emit, e: EventMap['escalation.alarm.resolved.v1']): Promise<void> {
    const now = this.clock();
    await this.handOffs.withdraw(tx, e.alarmId, now);
    const withdrawn = await this.repo.withdrawPending(tx, e.alarmId, 'Withdrawn: the alarm was resolved before the provider took it', now);
    for (const row of withdrawn) await emitMessageStatus(emit, row);
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
      throw new RpcError(400, `Call failed: ${result.message}`, {
        field: 'to',
        code: result.code !== undefined ? String(result.code) : undefined,
      });
    }
    return { callSid: saved.providerSid!, status: saved.status };
  }

  async list(req: Cmd<'notifications.delivery.list.v1'>['request']): Promise<Cmd<'notifications.delivery.list.v1'>['reply']> {
    const rows = await this.repo.list(req.limit, req.userId);
    return { deliveries: rows.map(deliveryView) };
  }

  private async startNow(
    values: Pick<NewDelivery, 'channel' | 'to' | 'purpose' | 'body' | 'userId' | 'callTimeoutSeconds'>,
  ): Promise<Delivery> {
    const now = this.clock();
    return this.uow.run(async (tx) => {
      const [row] = await this.repo.insert(tx, [
        {
          ...values,
          id: randomUUID(),
          status: 'sending',
          attempts: 1,
          claimedUntil: new Date(now.getTime() + CLAIM_MS),
          createdAt: now,
          updatedAt: now,
        },
      ]);
      return row;
    });
  }

  private async recordNow(row: Delivery, result: ProviderResult): Promise<Delivery> {
    const now = this.clock();
    return this.uow.run(async (tx, emit) => {
      const [saved] = await this.repo.finishClaims(tx, [
        result.ok
          ? { id: row.id, status: result.status, providerSid: result.sid, updatedAt: now }
          : { id: row.id, status: 'failed', errorCode: result.code ?? null, errorMessage: result.message, updatedAt: now },
      ]);
      const current = saved ?? (await this.repo.lock(tx, row.id))!;
      if (saved) await emitMessageStatus(emit, saved);
      return current;
    });
  }
}

/**
 * A push carrying texts to translate (one request to monitors who may speak different languages):
 * its title and body in this subscriber's language. English, an unknown language, or a request
 * without them: the request's own title and body, as written.
 */
function writtenFor(e: Request, language: string | null): Partial<Pick<NewDelivery, 'title' | 'body' | 'language'>> | undefined {
  if (!e.titleText && !e.bodyText) return undefined;
  if (!language || language === SOURCE_LANGUAGE || !isLanguage(language)) return { language: null };
  return {
    title: e.titleText ? clip(translate(language, e.titleText.text, e.titleText.values), TITLE_MAX) : e.title,
    body: e.bodyText ? clip(translate(language, e.bodyText.text, e.bodyText.values), BODY_MAX) : e.body,
    language,
  };
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
