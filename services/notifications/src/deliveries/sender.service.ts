import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { backoffDelay, type RetryBackoff } from '@lws/messaging';
import { CLOCK, LOGGER, metrics, UnitOfWork, type Clock, type Emit, type Logger, type Tx } from '@lws/platform';
import { PushService, type PushResult } from '../push/push.service';
import { TwilioProvider } from '../provider/twilio-provider';
import { DeliveriesRepository, type Delivery, type NewDelivery } from './deliveries.repository';
import { emitCallCompleted, emitMessageStatus } from './delivery-events';
import { callOutcome, isTerminalCallStatus } from './voice-flow';

/**
 * A transient failure (the provider answered 5xx or 429, timed out or could not be reached) is
 * retried after 2 s, doubling to at most 30 s, for as long as the message can still help
 * (retryHorizonMs): a provider outage that heals delays a message, it does not drop it. Only a
 * permanent refusal (an invalid number, say) fails it at once.
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
/** Rows claimed per query. */
const BATCH = 10;
/**
 * Deliveries in flight at once. Each mostly waits on the provider, so the sender keeps this many
 * going and claims more as each ends, rather than waiting for a whole batch (whose slowest
 * request would hold the rest back).
 */
const MAX_IN_FLIGHT = 40;
/** A call whose status callback has not come this long after its ring timeout is asked about. */
const CALL_GRACE_MS = 5 * 60_000;
/** ...and given up on (outcome failed) after this long, so escalation is never left waiting. */
const CALL_GIVE_UP_MS = 30 * 60_000;

/**
 * Sends the pending deliveries: claims due rows (FOR UPDATE SKIP LOCKED, so replicas share the
 * work and never send one row twice), calls the provider, records the result and publishes it.
 * Transient failures are retried with backoff; permanent ones fail at once.
 */
@Injectable()
export class SenderService implements OnModuleInit, OnModuleDestroy {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private again = false;
  private stopped = false;
  private readonly lastAsked = new Map<string, number>();

  constructor(
    private readonly repo: DeliveriesRepository,
    private readonly provider: TwilioProvider,
    private readonly push: PushService,
    private readonly uow: UnitOfWork,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onModuleInit(): void {
    this.timer = setInterval(() => this.kick(), POLL_MS);
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.running;
  }

  /** Runs a pass now (or right after the one in progress). */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
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
        const room = MAX_IN_FLIGHT - inFlight.size;
        const rows = room > 0 ? await this.repo.claimDue(this.clock(), Math.min(room, BATCH)) : [];
        for (const row of rows) {
          const delivery: Promise<void> = this.deliver(row)
            // A row whose result could not be recorded stays claimed; failLapsedClaims reports it.
            .catch((err) => this.logger.warn({ err, messageId: row.id }, 'recording a delivery failed'))
            .finally(() => inFlight.delete(delivery));
          inFlight.add(delivery);
        }
        if (rows.length === 0 && inFlight.size === 0) break;
        // Full, or nothing due right now: wait for one to end, then look again.
        if (room === 0 || rows.length < Math.min(room, BATCH)) await Promise.race(inFlight);
      }
    } finally {
      await Promise.all(inFlight);
    }
    await this.settleSilentCalls();
  }

  private async deliver(row: Delivery): Promise<void> {
    let result: PushResult;
    const started = performance.now();
    try {
      result =
        row.channel === 'push'
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
    let changes: Partial<NewDelivery>;
    if (result.ok) {
      changes = { status: result.status, providerSid: row.channel === 'push' ? null : result.sid, errorCode: null, errorMessage: null, updatedAt: now };
    } else if ('expired' in result) {
      changes = { status: 'expired', errorMessage: result.message, updatedAt: now };
    } else if (result.transient && now.getTime() + backoffDelay(TRANSIENT_BACKOFF, row.attempts) - row.createdAt.getTime() <= retryHorizonMs(row)) {
      changes = {
        status: 'pending',
        nextAttemptAt: new Date(now.getTime() + backoffDelay(TRANSIENT_BACKOFF, row.attempts)),
        errorCode: result.code ?? null,
        errorMessage: result.message,
        updatedAt: now,
      };
    } else if (result.transient) {
      const message = `${result.message} (gave up after ${row.attempts} attempts over ${Math.round((now.getTime() - row.createdAt.getTime()) / 1000)} s: too late to help)`;
      changes = { status: 'failed', errorCode: result.code ?? null, errorMessage: message, updatedAt: now };
    } else {
      changes = { status: 'failed', errorCode: result.code ?? null, errorMessage: result.message, updatedAt: now };
    }
    if (!result.ok) {
      const context = { messageId: row.id, channel: row.channel, purpose: row.purpose, attempt: row.attempts, code: !('expired' in result) ? result.code : undefined, error: changes.errorMessage };
      if (changes.status === 'pending') this.logger.warn(context, 'delivery failed; retrying until the provider answers');
      else this.logger.error(context, 'delivery failed for good');
    }
    await this.uow.run(async (tx, emit) => {
      const saved = await this.repo.finishClaim(tx, row.id, changes);
      if (!saved || saved.status === 'pending') return;
      await emitMessageStatus(emit, saved);
      if (saved.channel === 'voice' && saved.status === 'failed') await this.settle(tx, emit, saved, 'failed', now);
    });
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
      for (const row of await this.repo.lapsedClaims(tx, now, 50)) {
        const saved = await this.repo.finishClaim(tx, row.id, {
          status: 'failed',
          errorMessage: 'Interrupted while sending: whether it reached the provider is unknown',
          updatedAt: now,
        });
        if (!saved) continue;
        this.logger.error({ messageId: row.id, channel: row.channel }, 'delivery interrupted mid-send; marked failed');
        await emitMessageStatus(emit, saved);
        if (saved.channel === 'voice') await this.settle(tx, emit, saved, 'failed', now);
      }
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
