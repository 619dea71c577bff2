import { and, asc, gte, isNotNull, sql, type SQL } from 'drizzle-orm';
import { PgDatabase } from 'drizzle-orm/pg-core';
import { EventBus } from './bus';
import { AnyEventEnvelope } from './envelope';
import { classifyFailure } from './failures';
import { errorMessage, MessagingLogger } from './logger';
import { MessagingTables } from './tables';
import { contextOf, inSpan, SpanKind } from './tracing';

export interface OutboxRelayOptions {
  db: PgDatabase<any, any, any>;
  tables: MessagingTables;
  bus: EventBus;
  logger: MessagingLogger;
  /** Pause between polls when idle. Default 250 ms. */
  pollIntervalMs?: number;
  /** Rows claimed per transaction. Default 100. */
  batchSize?: number;
  /** Longest pause between attempts while the bus is unreachable. Default 10 s. */
  maxBackoffMs?: number;
  /** With a non-persistent bus, events younger than this are published again at start. Default 24 h. */
  replayWindowMs?: number;
  /** Refusals after which a row the bus refuses for a reason of its own (not an outage) is parked. Default 3. */
  parkAfterAttempts?: number;
  /** Told of every row parked (metrics). */
  onParked?: () => void;
  /** Told of the rows of each batch once they are published and marked so (metrics: how long each waited). */
  onPublished?: (rows: readonly PublishedRow[]) => void;
}

/** A row the relay published: its priority and when it was written. */
export interface PublishedRow {
  priority: number;
  createdAt: Date;
}

/** The outcome of one batch: rows published, rows parked, and the failure that stopped it, if any. */
interface BatchResult {
  published: number;
  rows: PublishedRow[];
  parked: number;
  failure?: unknown;
}

/**
 * Publishes committed outbox rows to the bus, most urgent first (eventPriority) and in the order
 * written within a priority, and marks them published in the same transaction that claimed them.
 * Rows are claimed with FOR UPDATE SKIP LOCKED so replicas share the work without publishing a
 * row twice; if a publish is repeated anyway (crash between publish
 * and commit), the bus drops it by envelope id and consumers deduplicate.
 */
export class OutboxRelay {
  private readonly pollIntervalMs: number;
  private readonly batchSize: number;
  private readonly maxBackoffMs: number;
  private readonly replayWindowMs: number;
  private readonly parkAfterAttempts: number;
  /** Refusals per row since this relay started (a restart gives a row its tries again). */
  private readonly refusals = new Map<string, number>();
  private running?: Promise<void>;
  private stopping = false;
  private wake?: () => void;
  private kicked = false;
  private failures = 0;
  private outageSince?: Date;

  constructor(private readonly options: OutboxRelayOptions) {
    this.pollIntervalMs = options.pollIntervalMs ?? 250;
    this.batchSize = options.batchSize ?? 100;
    // Short on purpose: after a NATS outage, waiting events (possibly alarms) go out within seconds.
    this.maxBackoffMs = options.maxBackoffMs ?? 2_000;
    this.replayWindowMs = options.replayWindowMs ?? 24 * 3600_000;
    this.parkAfterAttempts = options.parkAfterAttempts ?? 3;
  }

  async start(): Promise<void> {
    if (this.running) return;
    this.stopping = false;
    if (!this.options.bus.persistent) await this.replayRecent();
    this.running = this.loop();
  }

  /** Stops polling and waits for the batch being published. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.wake?.();
    await this.running;
    this.running = undefined;
  }

  /** Publish soon: call after committing a transaction that enqueued events. */
  kick(): void {
    this.kicked = true;
    if (!this.outageSince) this.wake?.();
  }

  private async loop(): Promise<void> {
    while (!this.stopping) {
      this.kicked = false;
      let delay = this.pollIntervalMs;
      try {
        const { published, rows, parked, failure } = await this.publishBatch();
        if (rows.length > 0) this.options.onPublished?.(rows);
        if (failure !== undefined) throw failure;
        this.recovered();
        if (published === this.batchSize || parked > 0) delay = 0;
      } catch (err) {
        delay = this.failed(err);
      }
      if (this.kicked && !this.outageSince) delay = 0;
      if (delay > 0 && !this.stopping) await this.sleep(delay);
    }
  }

  /**
   * Claims, publishes and marks one batch in one transaction. Templates, not the query builder:
   * under load the relay runs this once per few events, and the builder's CPU cost per statement
   * is about fifty times a template's (bench/checkin).
   */
  private async publishBatch(): Promise<BatchResult> {
    const { db, tables } = this.options;
    const outbox = tables.outbox;
    return db.transaction(async (tx) => {
      await tx.execute(INDEX_ORDER);
      const { rows } = (await tx.execute(claimUnpublished(outbox, this.batchSize))) as unknown as {
        rows: { id: string; subject: string; attempts: number; payload: unknown; priority: number; created_at: Date | string }[];
      };
      // Pipelined: every publish of the batch is handed to the bus, in order, before the first
      // acknowledgement is awaited (one round trip per batch, not per event: the relay kept up with
      // only about 1,800 events/s awaiting each, bench/escalation). The bus stores them in the order
      // sent. A row counts as published only when every row before it was too: after a failure the
      // rest stay in the outbox and go again in order, and what had landed anyway is dropped by the
      // bus as a repeat of its envelope id. An outage or a lost acknowledgement keeps the order (the
      // row whose publish failed either landed first or the later ones failed too); only an event the
      // bus refuses on its own while later ones are accepted would be overtaken by them.
      const outcomes = await Promise.allSettled(rows.map((row) => this.publishOne(parsePayload(row.payload))));
      const published: string[] = [];
      const done: PublishedRow[] = [];
      let parked = 0;
      let failure: unknown;
      for (const [i, outcome] of outcomes.entries()) {
        if (outcome.status === 'fulfilled') {
          published.push(rows[i].id);
          done.push({ priority: rows[i].priority, createdAt: new Date(rows[i].created_at) });
          continue;
        }
        const row = rows[i];
        const reason = outcome.reason ?? new Error('publish failed');
        const error = errorMessage(reason).slice(0, 2000);
        // An outage is waited out however long it lasts; a row the bus itself refuses (too large,
        // say) would block every row behind it, so after a few tries it is set aside for a person.
        // Only refusals count toward parking, not the failed tries of an outage (attempts counts both).
        const refused = classifyFailure(reason) !== 'infrastructure';
        const refusals = refused ? (this.refusals.get(row.id) ?? 0) + 1 : 0;
        if (refused) this.refusals.set(row.id, refusals);
        const park = refused && refusals >= this.parkAfterAttempts;
        if (park) this.refusals.delete(row.id);
        await tx.execute(sql`
          update ${outbox} set attempts = attempts + 1, last_error = ${error},
            parked_at = ${park ? new Date().toISOString() : null}::timestamptz
          where id = ${row.id}`);
        if (park) {
          parked = 1;
          this.options.onParked?.();
          this.options.logger.error(
            { eventId: row.id, subject: row.subject, attempts: row.attempts + 1, error },
            `outbox row parked: the bus refused event ${row.id} (${row.subject}) ${refusals} times: ${error}; the rows behind it go on`,
          );
        } else {
          failure = reason;
        }
        break;
      }
      if (this.refusals.size > 0) for (const id of published) this.refusals.delete(id);
      if (published.length > 0) {
        await tx.execute(sql`update ${outbox} set published_at = ${new Date().toISOString()}::timestamptz where id in ${published}`);
      }
      return { published: published.length, rows: done, parked, failure };
    });
  }

  /** A traced event is published in a span of the trace that wrote it, which the consumer's span then follows. */
  private publishOne(envelope: AnyEventEnvelope): Promise<void> {
    if (!envelope.trace) return this.options.bus.publish(envelope);
    return inSpan(`publish ${envelope.subject}`, SpanKind.PRODUCER, contextOf(envelope.trace), { 'messaging.message.id': envelope.id }, () =>
      this.options.bus.publish(envelope),
    );
  }

  /** Logs the start of an outage once, not on every retry, and backs off. */
  private failed(err: unknown): number {
    this.failures++;
    if (!this.outageSince) {
      this.outageSince = new Date();
      this.options.logger.error(
        { error: errorMessage(err) },
        'outbox relay cannot publish (bus or database unreachable); events stay in the outbox and are retried until it can',
      );
    } else {
      this.options.logger.debug({ error: errorMessage(err), failures: this.failures }, 'outbox relay still cannot publish');
    }
    return Math.min(this.maxBackoffMs, this.pollIntervalMs * 2 ** Math.min(this.failures, 16));
  }

  private recovered(): void {
    if (this.outageSince) {
      this.options.logger.info(
        { outageMs: Date.now() - this.outageSince.getTime(), failures: this.failures },
        'outbox relay publishing again',
      );
    }
    this.outageSince = undefined;
    this.failures = 0;
  }

  /** The in-process bus forgets everything on restart; consumers deduplicate, so replaying is safe. */
  private async replayRecent(): Promise<void> {
    const { db, tables, bus, logger } = this.options;
    const outbox = tables.outbox;
    const since = new Date(Date.now() - this.replayWindowMs);
    const rows = await db
      .select({ payload: outbox.payload })
      .from(outbox)
      .where(and(isNotNull(outbox.publishedAt), gte(outbox.createdAt, since)))
      .orderBy(asc(outbox.seq));
    for (const row of rows) await bus.publish(row.payload as AnyEventEnvelope);
    if (rows.length > 0) logger.info({ events: rows.length }, 'outbox relay replayed recent events onto the in-process bus');
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = () => {
        this.wake = undefined;
        done();
      };
    });
  }
}

/**
 * For the rest of the transaction, a claim reads the unpublished index in (priority, seq) order
 * whatever the statistics say. A burst writes rows faster than autovacuum analyses the table, and
 * with statistics that still count a handful of unpublished rows the planner fetches and sorts all
 * of them for every claim: at 170,000 behind, half a second a claim of 100, so the further behind
 * the relay was, the slower it went (bench/escalation/to-person.mjs, 500 alarms a second).
 */
export const INDEX_ORDER = sql`select set_config('enable_bitmapscan', 'off', true), set_config('enable_seqscan', 'off', true)`;

/** The oldest unpublished rows, most urgent first, that no other relay holds. */
export function claimUnpublished(outbox: MessagingTables['outbox'], limit: number): SQL {
  return sql`
    select id, subject, attempts, payload, priority, created_at from ${outbox}
    where published_at is null and parked_at is null
    order by priority, seq
    limit ${limit}
    for update skip locked`;
}

function parsePayload(payload: unknown): AnyEventEnvelope {
  return (typeof payload === 'string' ? JSON.parse(payload) : payload) as AnyEventEnvelope;
}
