import { and, asc, gte, isNotNull, sql, type SQL } from 'drizzle-orm';
import { EventBus } from './bus';
import { AnyEventEnvelope } from './envelope';
import { classifyFailure } from './failures';
import { errorMessage, MessagingLogger } from './logger';
import { EVENT_PRIORITY } from './outbox';
import { MessagingDb, MessagingTables } from './tables';
import { contextOf, inSpan, SpanKind } from './tracing';
import { urgency } from './urgency';

export interface OutboxRelayOptions {
  db: MessagingDb;
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
 * A relay's lanes: an emergency's events (EVENT_PRIORITY.urgent) have one of their own, so one is
 * never queued behind a batch of the rest being published; the other lane takes the rest, most
 * urgent first. The other lane keeps its rows in the order written. Urgent events are published
 * as their transaction commits (committed()), each transaction's in the order written (one whose
 * publish fails is sent later by the lane); two transactions' may overtake each other, as two
 * replicas' always could. Handlers never trust arrival order.
 */
export type RelayLane = 'urgent' | 'other';

/** Which lanes have something new, for kick(). */
export interface Wrote {
  urgent?: boolean;
  other?: boolean;
}

/** What a committed transaction wrote to the outbox, for committed(): its urgent events, and whether it wrote others. */
export interface Written {
  urgent: AnyEventEnvelope[];
  other: boolean;
}

/** One lane's loop: its wake-up, and its own outage (a lane with nothing to publish never sees one). */
class Lane {
  wake?: () => void;
  kicked = false;
  failures = 0;
  outageSince?: Date;
  running?: Promise<void>;

  constructor(readonly name: RelayLane) {}
}

/**
 * Publishes committed outbox rows to the bus, most urgent first (eventPriority) and in the order
 * written within a priority, and marks them published in the same transaction that claimed them.
 * Urgent rows go on a lane of their own (RelayLane). Rows are claimed with FOR UPDATE SKIP LOCKED
 * so replicas share the work without publishing a row twice; if a publish is repeated anyway
 * (crash between publish and commit), the bus drops it by envelope id and consumers deduplicate.
 */
export class OutboxRelay {
  private readonly pollIntervalMs: number;
  private readonly batchSize: number;
  private readonly maxBackoffMs: number;
  private readonly replayWindowMs: number;
  private readonly parkAfterAttempts: number;
  /** Refusals per row since this relay started (a restart gives a row its tries again). */
  private readonly refusals = new Map<string, number>();
  private readonly lanes = { urgent: new Lane('urgent'), other: new Lane('other') };
  private started = false;
  private stopping = false;

  constructor(private readonly options: OutboxRelayOptions) {
    this.pollIntervalMs = options.pollIntervalMs ?? 250;
    this.batchSize = options.batchSize ?? 100;
    // Short on purpose: after a NATS outage, waiting events (possibly alarms) go out within seconds.
    this.maxBackoffMs = options.maxBackoffMs ?? 2_000;
    this.replayWindowMs = options.replayWindowMs ?? 24 * 3600_000;
    this.parkAfterAttempts = options.parkAfterAttempts ?? 3;
  }

  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    this.stopping = false;
    if (!this.options.bus.persistent) await this.replayRecent();
    for (const lane of Object.values(this.lanes)) lane.running = this.loop(lane);
  }

  /** Stops polling and waits for the batches being published. */
  async stop(): Promise<void> {
    this.stopping = true;
    const lanes = Object.values(this.lanes);
    for (const lane of lanes) lane.wake?.();
    await Promise.all(lanes.map((lane) => lane.running));
    for (const lane of lanes) lane.running = undefined;
    this.started = false;
  }

  /**
   * Publish soon: call after committing a transaction that enqueued events, saying which lanes it
   * wrote to (both when not known). A lane waits out an outage on its own schedule.
   */
  kick(wrote: Wrote = { urgent: true, other: true }): void {
    for (const lane of Object.values(this.lanes)) {
      if (!wrote[lane.name]) continue;
      lane.kicked = true;
      if (!lane.outageSince) lane.wake?.();
    }
  }

  /**
   * Call after committing a transaction that wrote events. Its urgent events are published at once
   * and marked so, without waiting for their lane to claim them: an emergency's path crosses the
   * outbox twice (the raise, then its messages), and a claim is four round trips, each waiting
   * behind a flood's work. The outbox still holds them: if publishing fails, or the process dies
   * first, the urgent lane publishes them (the bus drops a repeat by envelope id, and consumers
   * deduplicate). An event whose row is not there (written in a savepoint rolled back) is never
   * published. The rest goes out on the other lane, woken here.
   */
  committed(written: Written): void {
    if (written.other) this.kick({ other: true });
    if (written.urgent.length === 0) return;
    if (!this.started || this.stopping || this.lanes.urgent.outageSince) {
      this.kick({ urgent: true });
      return;
    }
    urgency
      .during(() => this.publishNow(written.urgent))
      .catch((err: unknown) => {
        this.options.logger.warn(
          { error: errorMessage(err), events: written.urgent.length },
          'publishing urgent events as they were committed failed; their lane publishes them',
        );
        this.kick({ urgent: true });
      });
  }

  private async publishNow(written: readonly AnyEventEnvelope[]): Promise<void> {
    const { db, tables } = this.options;
    // Only rows that are there: one written in a savepoint that was rolled back never is, though its
    // transaction committed (and one the lane already published needs no second send).
    const { rows } = (await db.execute(sql`
      select id from ${tables.outbox} where id in ${written.map((e) => e.id)} and published_at is null and parked_at is null`)) as unknown as {
      rows: { id: string }[];
    };
    const there = new Set(rows.map((r) => r.id));
    const envelopes = written.filter((e) => there.has(e.id));
    if (envelopes.length === 0) return;
    const outcomes = await Promise.allSettled(envelopes.map((e) => this.publishOne(e)));
    const published = envelopes.filter((_, i) => outcomes[i].status === 'fulfilled');
    if (published.length > 0) {
      // A row the lane holds meanwhile is waited for, then left as the lane marked it.
      await db.execute(sql`
        update ${tables.outbox} set published_at = ${new Date().toISOString()}::timestamptz
        where id in ${published.map((e) => e.id)} and published_at is null`);
      this.options.onPublished?.(published.map((e) => ({ priority: EVENT_PRIORITY.urgent, createdAt: new Date(e.occurredAt) })));
    }
    const failed = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
    if (failed) throw failed.reason ?? new Error('publish failed');
  }

  private async loop(lane: Lane): Promise<void> {
    let polling = false;
    while (!this.stopping) {
      // A poll nobody kicked usually finds nothing: one look at the index, not a claim's transaction
      // of four round trips (each service's two lanes poll four times a second each).
      const quiet = polling && !lane.kicked;
      lane.kicked = false;
      let delay = this.pollIntervalMs;
      try {
        if (!quiet || (await this.anyUnpublished(lane))) {
          // The rest waits while an emergency is under way in this process (Urgency).
          if (lane.name === 'other') await urgency.pass();
          const { published, rows, parked, failure } = await this.publishBatch(lane);
          // An emergency's events handed on: the gate stays shut for their consumers to take them.
          if (lane.name === 'urgent' && published > 0) urgency.handedOn();
          if (rows.length > 0) this.options.onPublished?.(rows);
          if (failure !== undefined) throw failure;
          this.recovered(lane);
          if (published === this.batchSize || parked > 0) delay = 0;
        }
      } catch (err) {
        delay = this.failed(lane, err);
      }
      if (lane.kicked && !lane.outageSince) delay = 0;
      polling = delay > 0 && !lane.outageSince;
      if (delay > 0 && !this.stopping) await this.sleep(lane, delay);
    }
  }

  /** Whether the lane has a row to publish (held by another relay or not). */
  private async anyUnpublished(lane: Lane): Promise<boolean> {
    const { rows } = (await this.options.db.execute(
      sql`select exists (select 1 from ${this.options.tables.outbox} where ${ofLane(lane.name)} and published_at is null and parked_at is null) as any`,
    )) as unknown as { rows: { any: boolean }[] };
    return rows[0]?.any === true;
  }

  /**
   * Claims, publishes and marks one batch of a lane in one transaction. Templates, not the query
   * builder: under load the relay runs this once per few events, and the builder's CPU cost per
   * statement is about fifty times a template's (bench/checkin).
   */
  private async publishBatch(lane: Lane): Promise<BatchResult> {
    const { db, tables } = this.options;
    const outbox = tables.outbox;
    return db.transaction(async (tx) => {
      await tx.execute(INDEX_ORDER);
      const { rows } = (await tx.execute(claimUnpublished(outbox, this.batchSize, lane.name))) as unknown as {
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
    return inSpan(
      `publish ${envelope.subject}`,
      SpanKind.PRODUCER,
      contextOf(envelope.trace),
      { 'messaging.message.id': envelope.id },
      () => this.options.bus.publish(envelope),
    );
  }

  /** Logs the start of a lane's outage once, not on every retry, and backs off. */
  private failed(lane: Lane, err: unknown): number {
    lane.failures++;
    if (!lane.outageSince) {
      lane.outageSince = new Date();
      this.options.logger.error(
        { error: errorMessage(err), lane: lane.name },
        'outbox relay cannot publish (bus or database unreachable); events stay in the outbox and are retried until it can',
      );
    } else {
      this.options.logger.debug(
        { error: errorMessage(err), failures: lane.failures, lane: lane.name },
        'outbox relay still cannot publish',
      );
    }
    return Math.min(this.maxBackoffMs, this.pollIntervalMs * 2 ** Math.min(lane.failures, 16));
  }

  private recovered(lane: Lane): void {
    if (lane.outageSince) {
      this.options.logger.info(
        { outageMs: Date.now() - lane.outageSince.getTime(), failures: lane.failures, lane: lane.name },
        'outbox relay publishing again',
      );
    }
    lane.outageSince = undefined;
    lane.failures = 0;
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

  private sleep(lane: Lane, ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      lane.wake = () => {
        lane.wake = undefined;
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

/** The rows of a lane, by their priority. */
const ofLane = (lane: RelayLane): SQL =>
  lane === 'urgent' ? sql`priority = ${EVENT_PRIORITY.urgent}` : sql`priority > ${EVENT_PRIORITY.urgent}`;

/** A lane's oldest unpublished rows, most urgent first, that no other relay holds. */
export function claimUnpublished(outbox: MessagingTables['outbox'], limit: number, lane: RelayLane): SQL {
  return sql`
    select id, subject, attempts, payload, priority, created_at from ${outbox}
    where ${ofLane(lane)} and published_at is null and parked_at is null
    order by priority, seq
    limit ${limit}
    for update skip locked`;
}

function parsePayload(payload: unknown): AnyEventEnvelope {
  return (typeof payload === 'string' ? JSON.parse(payload) : payload) as AnyEventEnvelope;
}
