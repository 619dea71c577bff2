import { randomUUID } from 'node:crypto';
import { Inject, Injectable, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { sql } from 'drizzle-orm';
import type { PendingEvent } from '@lws/messaging';
import {
  CLOCK,
  Consumers,
  DB,
  LOGGER,
  metrics,
  OutageLog,
  UnitOfWork,
  type Clock,
  type Db,
  type Emit,
  type Logger,
  type Tx,
} from '@lws/platform';
import { SERVICE_NAME, SETTINGS, type EscalationSettings } from '../config';
import { leases } from '../db/schema';
import { systemAlertEvent } from '../alarms/notifier';
import { Scheduler } from '../deadlines/scheduler';
import { IdentitySide } from './identity-side';
import { ShiftsSide } from './shifts-side';
import {
  bucketChunks,
  chunk,
  FETCH_CONCURRENCY,
  inParallel,
  type Owner,
  type ReconcileSide,
  type Repair,
  type RepairKind,
  type RepairOutcome,
  type RepairSet,
} from './side';

/** A round put off for a consumer's backlog is tried again this soon, and put off this long at most. */
const BACKLOG_RETRY_MS = 1000;
const MAX_BACKLOG_WAIT_MS = 5 * 60_000;
/** A scheduler whose oldest due step waits longer than this is behind: reconciliation waits for it. */
const SCHEDULER_BEHIND_MS = 5_000;
/** How long past a period a lease holds: room for a slow round before another replica takes over. */
const LEASE_MARGIN_MS = 30_000;
/** Line hashes per fetch (about 25 bytes each: a reply well under NATS's 1 MB), and workers compared per fetch. */
const HASHES_PER_FETCH = 20_000;
const COMPARE_PER_FETCH = 1000;
/** Repairs per transaction, and transactions at once. */
const REPAIRS_PER_TX = 50;
const APPLY_LANES = 3;

export interface RoundResult {
  owner: Owner;
  buckets: number;
  /** Buckets whose digests differed (only these were fetched). */
  differing: number;
  /** Workers whose lines differed, compared one by one. */
  compared: number;
  repairs: { kind: RepairKind; userId: number }[];
  /** Wall time of the phases: digests, fetching and comparing the differing buckets, applying the repairs. */
  ms: { digest: number; compare: number; apply: number };
}

/**
 * Compares escalation's copies with the services that own the data, and repairs every difference
 * through the projection's own paths. Events can be lost for good (a bus that lost what it had
 * acknowledged, a stream purged): without this, escalation would be blind to a worker whose shift
 * start never arrived, or call a contact's old number.
 *
 * From shifts: who is on shift, each worker's deadline, their emergencies (ShiftsSide). From
 * identity: names, phones, teams, away times, check-in settings and emergency contacts, and the
 * teams themselves, whose monitors and policy an alarm follows (IdentitySide). A round runs
 * at start-up and every ESCALATION_RECONCILE_INTERVAL_SECONDS, on one replica at a time (a lease
 * per owner in the database). Both sides digest their data by bucket of user ids, and only
 * differing buckets are fetched and compared. A change younger than
 * ESCALATION_RECONCILE_GRACE_SECONDS is left to its event, which is likely on its way; the next
 * round repairs it if not. Every repair counts in lws_reconcile_repairs_total{kind} and raises a
 * system alert naming the worker; a round of many raises one summary alert instead (apply).
 */
@Injectable()
export class Reconciler implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly holder = randomUUID();
  private readonly sides: ReconcileSide[];
  private readonly outages = new Map<Owner, OutageLog>();
  /** Since when (wall time) a round with an owner has waited for escalation's consumer of its events. */
  private readonly backlogSince = new Map<Owner, number>();
  /** When (wall time) each owner's next round is due. */
  private readonly nextAt = new Map<Owner, number>();
  private timer?: NodeJS.Timeout;
  private running?: Promise<unknown>;
  private stopped = false;

  constructor(
    shifts: ShiftsSide,
    identity: IdentitySide,
    private readonly scheduler: Scheduler,
    @Inject(Consumers) private readonly consumers: Consumers,
    @Inject(DB) private readonly db: Db,
    @Inject(UnitOfWork) private readonly uow: UnitOfWork,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(SETTINGS) private readonly settings: EscalationSettings,
  ) {
    this.sides = [shifts, identity];
    for (const side of this.sides) this.outages.set(side.owner, new OutageLog(logger, `reconciliation with ${side.owner}`));
  }

  onApplicationBootstrap(): void {
    // At start-up, once the consumers run (a round compares with what they have applied), then
    // on the period; a round put off while a consumer catches up is tried again within seconds.
    const tick = () => {
      this.running = this.due()
        .then(() => {
          if (this.stopped) return;
          const next = Math.min(...this.sides.map((side) => this.nextAt.get(side.owner) ?? 0));
          this.timer = setTimeout(tick, Math.max(0, next - Date.now()));
          this.timer.unref();
        })
        .finally(() => (this.running = undefined));
    };
    void this.consumers.allRunning.then(() => {
      if (!this.stopped) tick();
    });
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
    // Handed on at once: a replica starting now (a rolling deploy) reconciles at its start-up.
    await this.db
      .execute(sql`delete from ${leases} where name like 'reconcile-%' and holder = ${this.holder}`)
      .catch((err) =>
        this.logger.warn({ err }, 'could not release the reconciliation leases; another replica takes them when they expire'),
      );
  }

  /**
   * A round with each owner whose turn it is (wall time); a failure with one does not keep the
   * other from its round. A round put off for a consumer's backlog is tried again within a second.
   */
  private async due(): Promise<void> {
    for (const side of this.sides) {
      if (this.stopped) return;
      if ((this.nextAt.get(side.owner) ?? 0) > Date.now()) continue;
      const outage = this.outages.get(side.owner)!;
      let wait = this.settings.reconcileIntervalMs;
      try {
        if (await this.behind(side)) wait = BACKLOG_RETRY_MS;
        else {
          await this.round(side.owner);
          outage.succeeded();
        }
      } catch (err) {
        metrics.reconcileRounds.inc({ service: SERVICE_NAME, owner: side.owner, outcome: 'failed' });
        outage.failed(err);
      }
      this.nextAt.set(side.owner, Date.now() + wait);
    }
  }

  /**
   * Whether the owner's events waiting for escalation's consumer are older than the grace: they
   * would be "repaired" a moment before they arrive (after a restart, a consumer catches up on what
   * was published while it was away). Then the round waits, but only so long: a consumer stuck for
   * minutes is no reason to leave the copy unrepaired (it pages of its own, LwsConsumerLagging).
   */
  private async behind(side: ReconcileSide): Promise<boolean> {
    const waiting = await this.waitsFor(side.owner);
    if (waiting) {
      const since = this.backlogSince.get(side.owner) ?? Date.now();
      this.backlogSince.set(side.owner, since);
      if (Date.now() - since > MAX_BACKLOG_WAIT_MS) {
        this.logger.warn(
          { owner: side.owner, waitingFor: waiting, waitedMs: Date.now() - since },
          `reconciling with ${side.owner} although ${waiting} is still behind`,
        );
        return false;
      }
      this.logger.debug({ owner: side.owner, waitingFor: waiting }, 'reconciliation waits for escalation to catch up');
      return true;
    }
    this.backlogSince.delete(side.owner);
    return false;
  }

  /**
   * What a round with this owner would wait for now: escalation's consumer of its events, whose
   * backlog it would "repair" a moment before it arrives; or the scheduler, whose due steps (an
   * alarm flood) come first: a round's repairs would compete with them for the database, and a
   * missed check-in still due is no difference to repair. Undefined: nothing, the round may run.
   */
  async waitsFor(owner: Owner): Promise<'the consumer' | 'the scheduler' | undefined> {
    const lag = await this.consumers.lag(owner);
    if (lag.pending > 0 && lag.oldestAgeSeconds * 1000 > this.settings.reconcileGraceMs) return 'the consumer';
    if ((await this.scheduler.behindSeconds()) * 1000 > SCHEDULER_BEHIND_MS) return 'the scheduler';
    return undefined;
  }

  /** One round with one owner; undefined when another replica holds its lease. */
  async round(owner: Owner): Promise<RoundResult | undefined> {
    const side = this.sides.find((s) => s.owner === owner)!;
    if (!(await this.lease(owner))) return undefined;
    const buckets = this.settings.reconcileBuckets;
    const startedAt = this.clock();
    let t = performance.now();
    const lap = () => {
      const now = performance.now();
      const ms = Math.round(now - t);
      t = now;
      return ms;
    };
    const { theirs, ours } = await side.digests(buckets, startedAt);
    const size = new Map<number, number>();
    const theirDigest = new Map<number, string>();
    for (const d of theirs) {
      theirDigest.set(d.bucket, d.digest);
      size.set(d.bucket, d.count);
    }
    const ourDigest = new Map<number, string>();
    for (const d of ours) {
      ourDigest.set(d.bucket, d.digest);
      size.set(d.bucket, Math.max(size.get(d.bucket) ?? 0, d.count));
    }
    const differing = [...size.keys()].filter((b) => theirDigest.get(b) !== ourDigest.get(b));
    const result: RoundResult = {
      owner,
      buckets,
      differing: differing.length,
      compared: 0,
      repairs: [],
      ms: { digest: lap(), compare: 0, apply: 0 },
    };
    const whole = (await side.wholeRepairs?.(startedAt)) ?? [];
    if (whole.length > 0) await this.apply(whole, result);
    if (differing.length > 0) {
      // Which workers of the differing buckets differ: one hash each, not their data.
      const changed: number[] = [];
      await inParallel(bucketChunks(differing, size, HASHES_PER_FETCH), FETCH_CONCURRENCY, async (bucketIds) => {
        const { theirs, ours } = await side.hashes(buckets, bucketIds, startedAt);
        for (const pair of theirs ? theirs.split(',') : []) {
          const at = pair.indexOf(':');
          const userId = Number(pair.slice(0, at));
          if (ours.get(userId) !== pair.slice(at + 1)) changed.push(userId);
          ours.delete(userId);
        }
        changed.push(...ours.keys());
      });
      const repairs: Repair[] = [];
      await inParallel(chunk(changed, COMPARE_PER_FETCH), FETCH_CONCURRENCY, async (userIds) => {
        const compared = await side.compare(buckets, userIds, startedAt);
        result.compared += compared.compared;
        repairs.push(...compared.repairs);
      });
      result.ms.compare = lap();
      await this.apply(repairs, result);
      result.ms.apply = lap();
    }
    metrics.reconcileRounds.inc({ service: SERVICE_NAME, owner, outcome: 'ok' });
    if (result.repairs.length > 0) {
      this.logger.warn(
        { owner, repairs: result.repairs.length, differingBuckets: result.differing, ms: result.ms },
        `reconciliation repaired escalation's copy from ${owner}`,
      );
    } else if (result.differing > 0) {
      this.logger.debug(
        { owner, differingBuckets: result.differing, compared: result.compared },
        'reconciliation: buckets differed, nothing to repair',
      );
    }
    return result;
  }

  /**
   * Holds (or renews) the owner's lease for a period and LEASE_MARGIN_MS; false while another
   * replica holds it. A replica that stops releases it; one that dies hands it on when it expires.
   */
  private async lease(owner: Owner): Promise<boolean> {
    const now = this.clock();
    const until = new Date(now.getTime() + this.settings.reconcileIntervalMs + LEASE_MARGIN_MS).toISOString();
    const { rows } = (await this.db.execute(sql`
      insert into ${leases} (name, holder, expires_at) values (${`reconcile-${owner}`}, ${this.holder}, ${until}::timestamptz)
      on conflict (name) do update set holder = excluded.holder, expires_at = excluded.expires_at
        where ${leases.holder} = excluded.holder or ${leases.expiresAt} < ${now.toISOString()}::timestamptz
      returning holder`)) as unknown as { rows: unknown[] };
    return rows.length > 0;
  }

  /**
   * Applies the repairs, a batch per transaction and APPLY_LANES transactions at once (each waits on
   * the database as much as it computes); a worker's repairs stay in one batch, so two batches
   * never wait on each other's rows. Each repair that changed something is counted, and alerted in
   * its transaction; a round of more than ALERT_EACH_AT_MOST repairs raises one summary alert
   * instead, naming the count and the first workers (a flood of alerts buries the one that matters).
   */
  private async apply(repairs: Repair[], result: RoundResult): Promise<void> {
    const each = repairs.length <= ALERT_EACH_AT_MOST;
    const before = result.repairs.length;
    const batches: Repair[][] = [];
    let current: Repair[] = [];
    repairs.forEach((r, i) => {
      current.push(r);
      if (current.length >= REPAIRS_PER_TX && repairs[i + 1]?.userId !== r.userId) {
        batches.push(current);
        current = [];
      }
    });
    if (current.length > 0) batches.push(current);
    let wake = false;
    await inParallel(batches, APPLY_LANES, async (batch) => {
      const done = await this.uow.run(async (tx: Tx, emit: Emit) => {
        const now = this.clock();
        const outcomes = await this.applyBatch(tx, emit, batch);
        const changed: { kind: RepairKind; userId: number; dueNow: boolean }[] = [];
        const alerts: PendingEvent[] = [];
        for (const [i, r] of batch.entries()) {
          const outcome = outcomes[i];
          if (!outcome.changed) continue;
          if (each)
            alerts.push(
              systemAlertEvent('reconcile_repaired', `Reconciliation: ${outcome.details}`, now, r.userId > 0 ? r.userId : undefined),
            );
          changed.push({ kind: r.kind, userId: r.userId, dueNow: outcome.dueNow });
        }
        // The batch's alerts in one statement, after its repairs' own events.
        if (alerts.length > 0) await emit.many(alerts);
        return changed;
      });
      for (const d of done) {
        metrics.reconcileRepairs.inc({ service: SERVICE_NAME, kind: d.kind });
        result.repairs.push({ kind: d.kind, userId: d.userId });
        wake ||= d.dueNow;
      }
    });
    const applied = result.repairs.slice(before);
    if (!each && applied.length > 0)
      await this.uow.run((_tx: Tx, emit: Emit) => emit.many([summaryAlert(result.owner, applied, this.clock())]));
    if (wake) this.scheduler.wake();
  }

  /**
   * One batch's repairs in the caller's transaction; answers their outcomes in order. They go in
   * turns, each worker's first repair, then each one's second, and so on, so a worker's repairs
   * keep the order compare planned them in (a shift's end before the next shift's deadline). In
   * each, the repairs of a numerous kind go together, a few statements for all of them (a lost
   * change can touch thousands of workers); a set that fails is rolled back to its savepoint and
   * its repairs go one by one.
   */
  private async applyBatch(tx: Tx, emit: Emit, batch: Repair[]): Promise<RepairOutcome[]> {
    const outcomes: RepairOutcome[] = [];
    const turns: number[][] = [];
    const seen = new Map<number, number>();
    batch.forEach((r, i) => {
      const nth = seen.get(r.userId) ?? 0;
      seen.set(r.userId, nth + 1);
      turns[nth] ??= [];
      turns[nth].push(i);
    });
    for (const turn of turns) {
      const sets = new Map<RepairSet<unknown>, number[]>();
      for (const i of turn) {
        const together = batch[i].together;
        if (!together) outcomes[i] = await batch[i].apply(tx, emit);
        else if (sets.has(together.set)) sets.get(together.set)!.push(i);
        else sets.set(together.set, [i]);
      }
      for (const [set, members] of sets) {
        let many: RepairOutcome[] | undefined;
        try {
          many = await tx.transaction((sp) =>
            set.applyMany(
              sp,
              emit,
              members.map((i) => batch[i].together!.item),
            ),
          );
        } catch (err) {
          this.logger.error(
            { err, kind: batch[members[0]].kind, repairs: members.length },
            'applying repairs together failed; applying them one by one',
          );
        }
        for (const [n, i] of members.entries()) outcomes[i] = many ? many[n] : await batch[i].apply(tx, emit);
      }
    }
    return outcomes;
  }
}

/** A round of more repairs than this raises one summary alert, not one each. */
export const ALERT_EACH_AT_MOST = 10;

/** "Reconciliation with identity repaired 12 copies whose change was lost (profile_stale 12): workers 4, 5, 6 and 9 more." */
function summaryAlert(owner: Owner, repairs: RoundResult['repairs'], now: Date): PendingEvent {
  const kinds = new Map<string, number>();
  for (const r of repairs) kinds.set(r.kind, (kinds.get(r.kind) ?? 0) + 1);
  const workers = [...new Set(repairs.map((r) => r.userId).filter((id) => id > 0))];
  const shown = workers.slice(0, 3);
  const more = workers.length - shown.length;
  const who = shown.length > 0 ? `: workers ${shown.join(', ')}${more > 0 ? ` and ${more} more` : ''}` : '';
  const byKind = [...kinds].map(([kind, n]) => `${kind} ${n}`).join(', ');
  const details = `Reconciliation with ${owner} repaired ${repairs.length} copies whose change was lost (${byKind})${who}; each is counted in lws_reconcile_repairs_total`;
  return systemAlertEvent('reconcile_repaired', details, now);
}
