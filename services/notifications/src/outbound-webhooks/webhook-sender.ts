import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { sql } from 'drizzle-orm';
import { urgency } from '@lws/messaging';
import {
  Batcher,
  CLOCK,
  CONFIG,
  ConfigError,
  DB,
  LOGGER,
  metrics,
  oncePerScrape,
  OutageLog,
  UnitOfWork,
  type BaseConfig,
  type Clock,
  type Db,
  type Logger,
} from '@lws/platform';
import type { NotificationsConfig } from '../config';
import { webhookDeliveries, type WebhookAttemptOutcome } from '../db/schema';
import { claimDeliveries, type ClaimedDelivery } from './claim-deliveries';
import { disableEndpoints, finishAttempts, type AttemptResult } from './finish-attempts';
import { nextAttemptDelay, retryAfterMs } from './retry-schedule';
import { signedHeaders } from './signing';
import { WebhookHttp, type PostResult } from './webhook-http';
import { WebhookSecrets } from './webhook-secrets';

/** The sender looks for due deliveries at least this often (retries falling due, other replicas' rows). */
const POLL_MS = 500;
/** Deliveries taken per claim at most; it claims again as each attempt ends. */
const CLAIM_SIZE = 50;
/** A lease lasts the attempt's timeout and this much more: past it, a sender is presumed dead and the row falls due again. */
const LEASE_MARGIN_MS = 60_000;
/** A finished attempt's result waits at most this long for others to be recorded with it... */
const FLUSH_MS = 10;
/** ...in one transaction of at most this many. */
const RESULTS_PER_FLUSH = 100;

const SERVICE = 'notifications';
const GONE_REASON = 'The endpoint answered 410 Gone';

/** An attempt's result, waiting to be recorded with others'. */
interface Finished {
  result: AttemptResult;
  /** The endpoint answered 410: it is disabled in the same transaction. */
  goneEndpointId?: string;
}

/**
 * Sends webhook deliveries, on a loop and a queue of its own: it shares nothing with the SMS, call
 * and push sender, so a slow or dead endpoint never delays a message to a person.
 *
 * It claims due deliveries in one statement (FOR UPDATE SKIP LOCKED, so replicas share the work;
 * each row leased past its attempt's timeout) and commits before any request; keeps up to
 * WEBHOOKS_IN_FLIGHT requests going, claiming more as each ends; and records results that finish
 * close together in one transaction. Bulk work: it gives way while an emergency crosses the process.
 *
 * 2xx succeeds. 410 Gone disables the endpoint and cancels what waits for it. Anything else (another
 * status, a timeout, a network error) is tried again on the retry schedule, never sooner than a
 * Retry-After asks, and failed once the schedule is spent. A delivery that can never be sent (its
 * address is forbidden, its secret cannot be opened) fails at once.
 */
@Injectable()
export class WebhookSender implements OnModuleInit, OnModuleDestroy {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private again = false;
  private stopped = false;
  private wake?: () => void;
  private unsample: (() => void)[] = [];
  private readonly http: WebhookHttp;
  private readonly schedule: readonly number[];
  private readonly timeoutMs: number;
  private readonly retryAfterMaxMs: number;
  private readonly inFlightLimit: number;
  /** A pass that fails (the database is away) is logged once per outage, not once per poll. */
  private readonly outage: OutageLog;
  private readonly results = new Batcher<Finished>({
    maxWaitMs: FLUSH_MS,
    maxSize: RESULTS_PER_FLUSH,
    save: (batch) => this.saveTogether(batch),
    onSplit: (err, size) =>
      this.logger.warn({ err, results: size }, 'recording webhook attempts together failed; recording them one at a time'),
  });
  /** Spreads retries (tests replace it to pin the jitter). */
  random: () => number = Math.random;

  constructor(
    private readonly secrets: WebhookSecrets,
    private readonly uow: UnitOfWork,
    @Inject(DB) private readonly db: Db,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(CONFIG) config: NotificationsConfig & BaseConfig,
  ) {
    if (config.WEBHOOKS_ALLOW_LOOPBACK && config.NODE_ENV === 'production') {
      throw new ConfigError([
        { variable: 'WEBHOOKS_ALLOW_LOOPBACK', message: 'is for tests and development only and is refused in production' },
      ]);
    }
    this.schedule = config.WEBHOOKS_RETRY_SCHEDULE;
    this.timeoutMs = config.WEBHOOKS_TIMEOUT_MS;
    this.retryAfterMaxMs = config.WEBHOOKS_RETRY_AFTER_MAX_SECONDS * 1000;
    this.inFlightLimit = config.WEBHOOKS_IN_FLIGHT;
    this.outage = new OutageLog(logger, 'webhook sender');
    this.http = new WebhookHttp({
      timeoutMs: this.timeoutMs,
      policy: { allowLoopback: config.WEBHOOKS_ALLOW_LOOPBACK },
      maxSockets: config.WEBHOOKS_IN_FLIGHT,
    });
  }

  onModuleInit(): void {
    this.timer = setInterval(() => this.kick(), POLL_MS);
    this.timer.unref();
    const queue = oncePerScrape(() => this.queueState());
    this.unsample = [
      metrics.webhookQueue.sample(async (g) => {
        const q = await queue();
        for (const state of ['due', 'sending', 'waiting'] as const) g.set({ service: SERVICE, state }, q[state]);
      }),
      metrics.webhookOldestDueAge.sample(async (g) => g.set({ service: SERVICE }, (await queue()).oldestDueSeconds)),
    ];
  }

  async onModuleDestroy(): Promise<void> {
    for (const unsample of this.unsample) unsample();
    this.stopped = true;
    clearInterval(this.timer);
    this.wake?.();
    // Requests under way are cut off rather than waited for (up to the timeout each): they are
    // recorded as failed attempts and tried again, by this replica or another.
    this.http.close();
    await this.running;
    await this.results.drained();
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
      .then(
        () => this.outage.succeeded(),
        (err) => this.outage.failed(err),
      )
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  /** Due deliveries until none is left, up to WEBHOOKS_IN_FLIGHT at once. */
  private async pass(): Promise<void> {
    const inFlight = new Set<Promise<void>>();
    try {
      while (!this.stopped) {
        const woken = new Promise<void>((resolve) => (this.wake = resolve));
        const wanted = Math.min(this.inFlightLimit - inFlight.size, CLAIM_SIZE);
        let rows: ClaimedDelivery[] = [];
        if (wanted > 0) {
          await urgency.pass();
          const now = this.clock();
          rows = await claimDeliveries(this.db, now, wanted, new Date(now.getTime() + this.timeoutMs + LEASE_MARGIN_MS));
        }
        for (const row of rows) {
          const attempt: Promise<void> = this.attempt(row)
            // A result that could not be recorded leaves the row leased: it falls due again when the lease ends.
            .catch((err) => this.logger.warn({ err, deliveryId: row.id }, 'recording a webhook attempt failed'))
            .finally(() => inFlight.delete(attempt));
          inFlight.add(attempt);
        }
        if (rows.length === 0 && inFlight.size === 0) break;
        if (wanted === 0 || rows.length < wanted) await Promise.race([woken, ...inFlight]);
      }
    } finally {
      this.wake = undefined;
      await Promise.all(inFlight);
    }
  }

  /** One attempt: sign, POST, judge the answer, record it. */
  private async attempt(row: ClaimedDelivery): Promise<void> {
    const startedAt = this.clock();
    const secrets = this.signingSecrets(row, startedAt);
    let answer: PostResult;
    if (!secrets) {
      answer = {
        latencyMs: 0,
        error: "the endpoint's secret cannot be opened (SECRETS_KEY is missing or changed): rotate its secret",
        forbidden: true,
      };
    } else {
      const body = JSON.stringify(row.payload);
      // Signed at the wall clock's time, whatever the service clock says: the receiver checks the
      // timestamp against its own clock (5 minutes either way), not against LWS's test clock.
      answer = await this.http.post(row.url, signedHeaders(row.messageId, new Date(), body, secrets), body);
    }
    const finished = this.judge(row, answer, startedAt);
    metrics.webhookDeliveries.inc({ service: SERVICE, outcome: finished.result.outcome });
    metrics.webhookAttemptDuration.observe({ service: SERVICE, outcome: finished.result.outcome }, answer.latencyMs / 1000);
    this.log(row, finished.result);
    await this.results.add(finished);
  }

  /** The secrets to sign with: the endpoint's, and its previous one while a rotation's grace lasts. */
  private signingSecrets(row: ClaimedDelivery, now: Date): string[] | undefined {
    const current = this.secrets.open(row.secretSealed);
    if (!current) return undefined;
    const previous =
      row.previousSecretSealed && row.previousSecretUntil && row.previousSecretUntil > now
        ? this.secrets.open(row.previousSecretSealed)
        : undefined;
    return previous ? [current, previous] : [current];
  }

  /** What an answer makes of the delivery. */
  private judge(row: ClaimedDelivery, answer: PostResult, startedAt: Date): Finished {
    const now = this.clock();
    const base = {
      deliveryId: row.id,
      attempt: row.attempt,
      startedAt,
      latencyMs: answer.latencyMs,
      httpStatus: answer.status ?? null,
      excerpt: answer.excerpt ?? null,
    };
    const settle = (
      status: AttemptResult['status'],
      outcome: WebhookAttemptOutcome,
      error: string | null,
      nextAttemptAt: Date | null = null,
    ) => ({
      ...base,
      status,
      outcome,
      error,
      nextAttemptAt,
    });
    const status = answer.status;
    if (status !== undefined && status >= 200 && status < 300) return { result: settle('succeeded', 'succeeded', null) };
    if (status === 410) {
      return { result: settle('failed', 'gone', `${GONE_REASON}: the endpoint is disabled`), goneEndpointId: row.endpointId };
    }
    const error =
      answer.error ??
      `The endpoint answered ${status}${status !== undefined && status >= 300 && status < 400 ? ' (redirects are not followed)' : ''}`;
    if (answer.forbidden) return { result: settle('failed', 'failed', error) };
    const made = row.attempt - row.replayedAtAttempt;
    const delay = nextAttemptDelay(this.schedule, made, this.random(), retryAfterMs(answer.retryAfter, now, this.retryAfterMaxMs));
    if (delay === undefined) return { result: settle('failed', 'failed', `${error} (gave up after ${made} attempts)`) };
    return { result: settle('pending', 'retrying', error, new Date(now.getTime() + delay)) };
  }

  private log(row: ClaimedDelivery, r: AttemptResult): void {
    if (r.outcome === 'succeeded') return;
    const context = {
      deliveryId: row.id,
      endpointId: row.endpointId,
      messageId: row.messageId,
      eventType: row.eventType,
      attempt: `${row.attempt - row.replayedAtAttempt} of ${this.schedule.length}`,
      httpStatus: r.httpStatus ?? undefined,
      error: r.error,
    };
    if (r.outcome === 'retrying')
      this.logger.warn({ ...context, nextAttemptAt: r.nextAttemptAt?.toISOString() }, 'webhook attempt failed; retrying');
    else if (r.outcome === 'gone') this.logger.warn(context, 'webhook endpoint answered 410 Gone; endpoint disabled');
    else this.logger.error(context, 'webhook delivery failed for good');
  }

  private async saveTogether(batch: Finished[]): Promise<void> {
    const now = this.clock();
    await this.uow.run(async (tx) => {
      await finishAttempts(
        tx,
        batch.map((f) => f.result),
        now,
      );
      await disableEndpoints(
        tx,
        batch.flatMap((f) => (f.goneEndpointId ? [f.goneEndpointId] : [])),
        GONE_REASON,
        now,
      );
    });
  }

  /** The queue as an operator sees it: one statement over the pending rows. */
  private async queueState(): Promise<{ due: number; sending: number; waiting: number; oldestDueSeconds: number }> {
    const at = sql`${this.clock().toISOString()}::timestamptz`;
    const { rows } = (await this.db.execute(sql`
      select
        count(*) filter (where locked_until > ${at})::int as sending,
        count(*) filter (where next_attempt_at <= ${at} and (locked_until is null or locked_until <= ${at}))::int as due,
        count(*) filter (where next_attempt_at > ${at} and (locked_until is null or locked_until <= ${at}))::int as waiting,
        coalesce(extract(epoch from ${at} - min(next_attempt_at) filter (where next_attempt_at <= ${at})), 0)::float8 as oldest
      from ${webhookDeliveries} where status = 'pending'`)) as unknown as {
      rows: { sending: number; due: number; waiting: number; oldest: number }[];
    };
    const r = rows[0];
    return { due: Number(r.due), sending: Number(r.sending), waiting: Number(r.waiting), oldestDueSeconds: Math.max(0, Number(r.oldest)) };
  }
}
