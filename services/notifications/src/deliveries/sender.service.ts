import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { backoffDelay, urgency, type RetryBackoff } from '@lws/messaging';
import {
  Batcher,
  CLOCK,
  CONFIG,
  LOGGER,
  metrics,
  priorityLabel,
  UnitOfWork,
  type BaseConfig,
  type Clock,
  type Emit,
  type Logger,
  type Tx,
} from '@lws/platform';
import type { NotificationsConfig } from '../config';
import { DELIVERY_PRIORITIES, DELIVERY_PRIORITY } from '../db/schema';
import { PushService, type PushResult } from '../push/push.service';
import { BudgetClosedError, ProviderBudget } from '../provider/provider-budget';
import { TwilioProvider } from '../provider/twilio-provider';
import { DeliveriesRepository, type ClaimResult, type Delivery } from './deliveries.repository';
import { emitCallCompleted, emitMessageStatus, messageStatusEvent } from './delivery-events';
import { callOutcome, isTerminalCallStatus } from './voice-flow';

/**
 * A transient failure (the provider answered 5xx or 429, timed out or could not be reached) is
 * retried after 2 s, doubling to at most 30 s (after a 429's Retry-After instead, when it gives
 * one), for as long as the message can still help (retryHorizonMs): a provider outage that heals
 * delays a message, it does not drop it. Only a permanent refusal (an invalid number, say) fails
 * it at once.
 */
export const TRANSIENT_BACKOFF: RetryBackoff = { initialMs: 2_000, maxMs: 30_000 };

/**
 * How long after the request a transiently failing message is still worth sending: an alarm's
 * until the alarm is resolved (its pending messages are then withdrawn), bounded at a day; a
 * check-in reminder only until the deadline it warns of (5 minutes at most); anything else 10 minutes.
 */
export function retryHorizonMs(row: Pick<Delivery, 'alarmId' | 'purpose'>): number {
  if (row.alarmId) return 24 * 3600_000;
  if (row.purpose.startsWith('reminder_')) return 5 * 60_000;
  return 10 * 60_000;
}
const POLL_MS = 500;
/** A finished delivery's result waits at most this long for others to be recorded with it... */
const FLUSH_MS = 5;
/** ...in one transaction of at most this many. */
const RESULTS_PER_FLUSH = 100;
/**
 * While the provider's budget is short, push rows are looked for on their own at most this often:
 * that scan reads past the provider's backlog in the due index.
 */
const PUSH_SCAN_MS = 100;
/**
 * The longest a 429 pauses non-urgent sends, whatever its Retry-After: rows waiting for the
 * budget are held in memory and must be sent well inside their claim (CLAIM_MS).
 */
const MAX_PAUSE_MS = 60_000;
/** A call whose status callback has not come this long after its ring timeout is asked about. */
const CALL_GRACE_MS = 5 * 60_000;
/** ...and given up on (outcome failed) after this long, so escalation is never left waiting. */
const CALL_GIVE_UP_MS = 30 * 60_000;

/** A delivery's result, waiting to be recorded with others'. */
interface Finished {
  row: Delivery;
  result: ClaimResult;
  now: Date;
}

/**
 * Sends the pending deliveries: claims due rows (FOR UPDATE SKIP LOCKED, so replicas share the
 * work and never send one row twice), calls the provider, records the result and publishes it.
 * Transient failures are retried with backoff; permanent ones fail at once.
 *
 * It keeps NOTIFICATIONS_SENDER_IN_FLIGHT deliveries going (each mostly waits on the provider) and
 * claims more as each ends, rather than waiting for a whole batch (whose slowest request would
 * hold the rest back). Results that finish close together are recorded in one transaction. SMS,
 * WhatsApp and calls start no faster than the provider budget allows (most urgent first), and a
 * 429 pauses all but an emergency's for as long as the provider asked.
 */
@Injectable()
export class SenderService implements OnModuleInit, OnModuleDestroy {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private again = false;
  private stopped = false;
  private readonly lastAsked = new Map<string, number>();
  private unsample: (() => void)[] = [];
  private readonly inFlightLimit: number;
  private readonly claimSize: number;
  /** How fast provider requests may start; a 429 pauses it. */
  readonly budget: ProviderBudget;
  /** Wakes the running pass: rows were added, or the budget has room again. */
  private wake?: () => void;
  private lastPushScan = 0;
  /** Results that finish close together are recorded in one transaction. */
  private readonly results = new Batcher<Finished>({
    maxWaitMs: FLUSH_MS,
    maxSize: RESULTS_PER_FLUSH,
    save: (batch) => this.saveTogether(batch),
    onSplit: (err, size) =>
      this.logger.warn({ err, results: size }, 'recording delivery results together failed; recording them one at a time'),
  });

  constructor(
    private readonly repo: DeliveriesRepository,
    private readonly provider: TwilioProvider,
    private readonly push: PushService,
    private readonly uow: UnitOfWork,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(CONFIG) config: NotificationsConfig & BaseConfig,
  ) {
    this.inFlightLimit = config.NOTIFICATIONS_SENDER_IN_FLIGHT;
    this.claimSize = config.NOTIFICATIONS_SENDER_CLAIM_SIZE;
    this.budget = new ProviderBudget(config.NOTIFICATIONS_PROVIDER_MAX_PER_SECOND);
    this.budget.onRoom = () => this.kick();
  }

  onModuleInit(): void {
    this.timer = setInterval(() => this.kick(), POLL_MS);
    this.timer.unref();
    // The sender's queue by priority: due deliveries not yet claimed.
    this.unsample = [
      metrics.chainQueued.sample(async (g) => {
        const due = await this.repo.dueByPriority(this.clock());
        for (const priority of DELIVERY_PRIORITIES)
          g.set({ service: 'notifications', stage: 'sender', priority: priorityLabel(priority) }, due.get(priority) ?? 0);
      }),
      // A 429's pause, which otherwise shows only as a warning in the log when it begins.
      metrics.providerPauseRemaining.sample((g) => g.set({ service: 'notifications' }, this.budget.pauseRemainingMs / 1000)),
    ];
  }

  async onModuleDestroy(): Promise<void> {
    for (const unsample of this.unsample) unsample();
    this.stopped = true;
    clearInterval(this.timer);
    // Rows still waiting for the budget go back to pending, unsent, for the next sender.
    this.budget.close();
    this.wake?.();
    await this.running;
  }

  /** Runs a pass now (or has the one in progress look again). */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      this.wake?.();
      return;
    }
    this.running = this.pass()
      .catch((err) => this.logger.warn({ err }, 'notifications sender pass failed; will retry'))
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  /** One pass: lapsed claims, due rows until none are left, then calls whose end never came. */
  async pass(): Promise<void> {
    await this.failLapsedClaims();
    const inFlight = new Set<Promise<void>>();
    try {
      while (!this.stopped) {
        const woken = new Promise<void>((resolve) => (this.wake = resolve));
        const wanted = Math.min(this.inFlightLimit - inFlight.size, this.claimSize);
        const { rows, pushDeferredMs } = wanted > 0 ? await this.claim(wanted) : { rows: [], pushDeferredMs: 0 };
        for (const row of rows) {
          // An emergency's delivery shuts the process's gate to bulk work until it is recorded (Urgency).
          const send = () => this.deliver(row);
          const delivery: Promise<void> = (row.priority === DELIVERY_PRIORITY.emergency ? urgency.during(send) : send())
            // A row whose result could not be recorded stays claimed; failLapsedClaims reports it.
            .catch((err) => this.logger.warn({ err, messageId: row.id }, 'recording a delivery failed'))
            .finally(() => inFlight.delete(delivery));
          inFlight.add(delivery);
        }
        if (rows.length === 0 && inFlight.size === 0 && pushDeferredMs === 0) break;
        // Full, or nothing more due right now: wait for one to end, new rows, or room in the budget.
        if (wanted === 0 || rows.length < wanted) {
          const waits: Promise<unknown>[] = [woken, ...inFlight];
          if (pushDeferredMs > 0) waits.push(new Promise((resolve) => setTimeout(resolve, pushDeferredMs).unref()));
          await Promise.race(waits);
        }
      }
    } finally {
      this.wake = undefined;
      await Promise.all(inFlight);
    }
    await this.settleSilentCalls();
  }

  /**
   * Due rows, most urgent first. While the provider budget is short or paused, only as many
   * non-urgent provider rows as it has room for (the rest wait in the database, where a later
   * emergency is claimed ahead of them), and push rows on their own, at most every PUSH_SCAN_MS.
   */
  private async claim(limit: number): Promise<{ rows: Delivery[]; pushDeferredMs: number }> {
    const now = this.clock();
    if (!this.budget.limited && !this.budget.paused(DELIVERY_PRIORITY.alarm))
      return { rows: await this.repo.claimDue(now, limit), pushDeferredMs: 0 };
    const sinceScan = performance.now() - this.lastPushScan;
    const push = sinceScan >= PUSH_SCAN_MS;
    if (push) this.lastPushScan = performance.now();
    const rows = await this.repo.claimDue(now, limit, { provider: this.budget.room(), push });
    return { rows, pushDeferredMs: push ? 0 : Math.ceil(PUSH_SCAN_MS - sinceScan) };
  }

  private async deliver(row: Delivery): Promise<void> {
    if (row.channel !== 'push') {
      try {
        await this.budget.take(row.priority);
      } catch (err) {
        if (!(err instanceof BudgetClosedError)) throw err;
        const now = this.clock();
        return this.record({ id: row.id, status: 'pending', nextAttemptAt: now, updatedAt: now, unsent: true }, row, now);
      }
    }
    // How long the first try waited to be sent (a retry's wait is its backoff, not a queue's).
    if (row.attempts === 1) this.observeWait('sender', row, row.createdAt);
    let result: PushResult;
    const started = performance.now();
    try {
      result =
        row.channel === 'webhook'
          ? // Never pending here (a hand-off is the webhook sender's): a row that somehow is gives up.
            { ok: false, transient: false, message: 'A hand-off is sent by the webhook sender, not this one' }
          : row.channel === 'push'
            ? await this.push.send(row)
            : row.channel === 'voice'
              ? await this.provider.placeCall({ messageId: row.id, to: row.to, timeoutSeconds: row.callTimeoutSeconds ?? 60 })
              : await this.provider.sendMessage(row.channel, row.id, row.to, row.body);
    } catch (err) {
      result = { ok: false, transient: true, message: err instanceof Error ? err.message : String(err) };
    }
    const outcome = result.ok ? 'sent' : 'failed';
    metrics.providerDuration.observe({ service: 'notifications', channel: row.channel, outcome }, (performance.now() - started) / 1000);
    metrics.notifications.inc({ service: 'notifications', channel: row.channel, outcome });
    const now = this.clock();
    if (result.ok && row.dueSince) {
      metrics.dueToProvider.observe(
        { service: 'notifications', channel: row.channel, priority: priorityLabel(row.priority) },
        Math.max(0, now.getTime() - row.dueSince.getTime()) / 1000,
      );
    }
    let changes: ClaimResult;
    const retryInMs =
      !result.ok && !('expired' in result) ? (result.rateLimited?.retryAfterMs ?? backoffDelay(TRANSIENT_BACKOFF, row.attempts)) : 0;
    if (result.ok) {
      changes = {
        id: row.id,
        status: result.status,
        providerSid: row.channel === 'push' ? null : result.sid,
        errorCode: null,
        errorMessage: null,
        updatedAt: now,
      };
    } else if ('expired' in result) {
      changes = { id: row.id, status: 'expired', errorMessage: result.message, updatedAt: now };
    } else if (result.transient && now.getTime() + retryInMs - row.createdAt.getTime() <= retryHorizonMs(row)) {
      changes = {
        id: row.id,
        status: 'pending',
        nextAttemptAt: new Date(now.getTime() + retryInMs),
        errorCode: result.code ?? null,
        errorMessage: result.message,
        updatedAt: now,
      };
    } else if (result.transient) {
      const message = `${result.message} (gave up after ${row.attempts} attempts over ${Math.round((now.getTime() - row.createdAt.getTime()) / 1000)} s: too late to help)`;
      changes = { id: row.id, status: 'failed', errorCode: result.code ?? null, errorMessage: message, updatedAt: now };
    } else {
      changes = { id: row.id, status: 'failed', errorCode: result.code ?? null, errorMessage: result.message, updatedAt: now };
    }
    if (!result.ok && !('expired' in result) && result.rateLimited) {
      metrics.providerThrottled.inc({ service: 'notifications', channel: row.channel });
      if (this.budget.pause(Math.min(retryInMs, MAX_PAUSE_MS))) {
        this.logger.warn(
          {
            messageId: row.id,
            channel: row.channel,
            pauseSeconds: Math.round(Math.min(retryInMs, MAX_PAUSE_MS) / 1000),
            retryAfterMs: result.rateLimited.retryAfterMs,
          },
          'provider asked to slow down (429): new sends other than emergencies paused',
        );
      }
    }
    if (!result.ok) {
      const context = {
        messageId: row.id,
        channel: row.channel,
        purpose: row.purpose,
        attempt: row.attempts,
        code: !('expired' in result) ? result.code : undefined,
        error: changes.errorMessage,
      };
      if (changes.status === 'pending') this.logger.warn(context, 'delivery failed; retrying until the provider answers');
      else this.logger.error(context, 'delivery failed for good');
    }
    await this.record(changes, row, now);
  }

  /** Records a claimed row's result with the others that finish within FLUSH_MS; resolves once it is saved. */
  private record(result: ClaimResult, row: Delivery, now: Date): Promise<void> {
    return this.results.add({ row, result, now });
  }

  private async saveTogether(batch: Finished[]): Promise<void> {
    await this.uow.run(async (tx, emit) => {
      const saved = new Map(
        (
          await this.repo.finishClaims(
            tx,
            batch.map((f) => f.result),
          )
        ).map((row) => [row.id, row]),
      );
      const told = batch.flatMap((f) => {
        const row = saved.get(f.row.id);
        return row && row.status !== 'pending' ? [{ row, now: f.now }] : [];
      });
      await emit.many(told.map(({ row }) => messageStatusEvent(row)));
      // A call that could not be placed: escalation hears its outcome (rare: no loop on the hot path).
      for (const { row, now } of told)
        if (row.channel === 'voice' && row.status === 'failed') await this.settle(tx, emit, row, 'failed', now);
    });
  }

  private observeWait(stage: string, row: Delivery, since: Date): void {
    metrics.chainWait.observe(
      { service: 'notifications', stage, priority: priorityLabel(row.priority) },
      Math.max(0, this.clock().getTime() - since.getTime()) / 1000,
    );
  }

  /** Sets a voice row's outcome (once) and publishes call.completed for a request's call. */
  async settle(tx: Tx, emit: Emit, row: Delivery, status: string, now: Date): Promise<Delivery | undefined> {
    const settled = await this.repo.settleCall(tx, row.id, callOutcome(status, row.accepted), status, now);
    if (settled) await emitCallCompleted(emit, settled, now);
    return settled;
  }

  /**
   * A sender died between claiming a row and recording the provider's answer: whether it went
   * out is unknown, and sending again could send it twice. It is failed and reported, so
   * escalation moves on rather than waiting.
   */
  private async failLapsedClaims(): Promise<void> {
    const now = this.clock();
    await this.uow.run(async (tx, emit) => {
      const lapsed = await this.repo.lapsedClaims(tx, now, 50);
      if (lapsed.length === 0) return;
      const errorMessage = 'Interrupted while sending: whether it reached the provider is unknown';
      const saved = await this.repo.finishClaims(
        tx,
        lapsed.map((row) => ({ id: row.id, status: 'failed', errorMessage, updatedAt: now })),
      );
      for (const row of saved)
        this.logger.error({ messageId: row.id, channel: row.channel }, 'delivery interrupted mid-send; marked failed');
      await emit.many(saved.map(messageStatusEvent));
      for (const row of saved) if (row.channel === 'voice') await this.settle(tx, emit, row, 'failed', now);
    });
  }

  /** Calls whose status callback never arrived (webhook unreachable): ask the provider, then give up. */
  private async settleSilentCalls(): Promise<void> {
    const now = this.clock();
    const rows = await this.repo.openCallsBefore(new Date(now.getTime() - CALL_GRACE_MS), 20);
    for (const row of rows) {
      const waited = now.getTime() - row.updatedAt.getTime() - (row.callTimeoutSeconds ?? 60) * 1000;
      if (waited < CALL_GRACE_MS) continue;
      if (now.getTime() - (this.lastAsked.get(row.id) ?? 0) < 60_000 && waited < CALL_GIVE_UP_MS) continue;
      this.lastAsked.set(row.id, now.getTime());
      const status = await this.provider.callStatus(row.providerSid!);
      const terminal = status !== undefined && isTerminalCallStatus(status);
      if (!terminal && waited < CALL_GIVE_UP_MS) continue;
      await this.uow.run(async (tx, emit) => {
        const current = await this.repo.lock(tx, row.id);
        if (!current || current.outcome !== null) return;
        const settled = await this.settle(tx, emit, current, terminal ? status! : 'failed', now);
        this.lastAsked.delete(row.id);
        if (settled) {
          this.logger.warn({ messageId: row.id, status: settled.status }, 'call settled without its status callback');
          await emitMessageStatus(emit, settled);
        }
      });
    }
  }
}
