import { Inject, Injectable, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { backoffDelay, errorMessage, type PendingEvent, type RetryBackoff } from '@lws/messaging';
import {
  CLOCK,
  LOGGER,
  metrics,
  OutageLog,
  priorityLabel,
  Readiness,
  UnitOfWork,
  type Clock,
  type Emit,
  type Logger,
  type Tx,
} from '@lws/platform';
import { SERVICE_NAME, SETTINGS, type EscalationSettings } from '../config';
import { PRIORITY, type DeadlineRow } from '../db/schema';
import type { AlarmScope } from '../alarms/alarm-scope';
import { AlarmsRepository } from '../alarms/alarms.repository';
import { AlarmMessages } from '../alarms/alarm-messages';
import { AlarmsService, type Fired } from '../alarms/alarms.service';
import { MissedAlarms, type Missed } from '../alarms/missed-alarms';
import { CheckinRequestsService } from '../checkin-requests/checkin-requests.service';
import { CheckinsService } from './checkins.service';
import { alarmKey, DeadlinesRepository } from './deadlines.repository';
import { ShiftsOwner, type OwnerAnswer } from './shifts-owner';

export interface PassResult {
  userId: number;
  jobKey: string;
  step: string;
  status: string;
}

/** Readiness fails when the loop has not completed a pass for this long. */
export const STALL_MS = 10_000;
/**
 * A step that failed is tried again after 5 s, doubling to at most 60 s, rather than at once, so
 * one bad row cannot spin the loop; never given up on (an alarm step may be someone's only help).
 * Its row keeps the count of tries and the last error.
 */
export const STEP_RETRY: RetryBackoff = { initialMs: 5_000, maxMs: 60_000 };
/**
 * Alarm steps fired one by one per pass, each in a savepoint of its own (missed check-ins are
 * opened together, below). Nothing a pass fires is visible until it commits, so when many fall due
 * at once a few at a time reach people sooner (and the other lanes take the next ones meanwhile);
 * the rest stay due for the next pass.
 */
export const SINGLES_PER_PASS = 20;
/**
 * Emergencies, missed check-ins and alarm steps claimed per pass. Missed check-ins are opened
 * together (MissedAlarms), so a flood of them goes in passes of this many; once they fill a pass,
 * no reminder is claimed.
 */
export const URGENT_PER_PASS = 200;
/** A lease outlasts shifts' answer (ESCALATION_OWNER_CHECK_TIMEOUT_MS) by this much. */
const LEASE_MARGIN_MS = 3_000;

/**
 * Fires due deadlines. One pass claims up to a batch of due rows in one transaction (FOR UPDATE
 * SKIP LOCKED: another loop or replica takes other rows), runs each step, and writes its follow-up
 * in the same transaction, fenced by the claimed version. A crash before commit fires nothing and
 * loses nothing; after commit the step has fired exactly once. Check-in reminders, nearly all of
 * the steps, are fired set-based: a few statements per pass rather than several per row.
 */
@Injectable()
export class Scheduler implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private stopped = true;
  private lastPassAt = 0;
  private readonly inflight = new Set<Promise<unknown>>();
  /**
   * Independent claim loops (ESCALATION_CONCURRENCY): while one pass waits on the database or
   * commits, another claims the next due rows; SKIP LOCKED keeps them apart as it keeps replicas apart.
   */
  private readonly lanes: Lane[];
  /** While the database is down every pass fails: one error line, not four a second. */
  private readonly outage: OutageLog;
  private unsample?: () => void;

  constructor(
    private readonly deadlines: DeadlinesRepository,
    private readonly checkins: CheckinsService,
    private readonly requests: CheckinRequestsService,
    private readonly messages: AlarmMessages,
    private readonly alarms: AlarmsService,
    private readonly missed: MissedAlarms,
    private readonly alarmsRepo: AlarmsRepository,
    private readonly owner: ShiftsOwner,
    @Inject(UnitOfWork) private readonly uow: UnitOfWork,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(SETTINGS) private readonly settings: EscalationSettings,
    @Inject(Readiness) private readonly readiness: Readiness,
  ) {
    this.lanes = Array.from({ length: settings.concurrency }, () => ({ looping: false, wakeRequested: false }));
    this.outage = new OutageLog(logger, 'deadline scheduler pass');
  }

  onApplicationBootstrap(): void {
    this.readiness.add('scheduler', async () => {
      if (!this.active()) throw new Error(`the deadline scheduler has not run for over ${STALL_MS / 1000} s`);
    });
    this.unsample = metrics.schedulerLastPassAge.sample((g) =>
      g.set({ service: SERVICE_NAME }, (performance.now() - this.lastPassAt) / 1000),
    );
    this.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.unsample?.();
    await this.stop();
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.lastPassAt = performance.now();
    // Staggered, so an idle service looks for due rows every tick / concurrency.
    for (const [i, lane] of this.lanes.entries()) this.arm(lane, Math.round((i * this.settings.tickMs) / this.lanes.length));
  }

  /** Stops claiming and waits for the transactions in flight. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const lane of this.lanes) {
      if (lane.timer) clearTimeout(lane.timer);
      lane.timer = undefined;
    }
    await Promise.allSettled([...this.inflight]);
  }

  /** The loop is running and completed a pass recently (wall time: the test clock does not stall it). */
  active(): boolean {
    return !this.stopped && performance.now() - this.lastPassAt <= STALL_MS;
  }

  /** How long the oldest due step has waited (0: none due): how far behind the scheduler is. */
  async behindSeconds(): Promise<number> {
    return this.uow.run((tx) => this.deadlines.oldestDueAgeSeconds(tx, this.clock()));
  }

  /** Something became due now (a consumer wrote it): run a pass without waiting for the tick. */
  wake(): void {
    if (this.stopped) return;
    const busy = this.lanes.find((l) => l.looping);
    if (busy) busy.wakeRequested = true;
    else this.arm(this.lanes[0], 0);
  }

  private arm(lane: Lane, ms: number): void {
    if (this.stopped) return;
    if (lane.timer) clearTimeout(lane.timer);
    lane.timer = setTimeout(() => void this.loop(lane), ms);
  }

  private async loop(lane: Lane): Promise<void> {
    lane.timer = undefined;
    lane.looping = true;
    try {
      // Straight on while rows may be waiting: a full batch, or an alarm step or missed check-in,
      // whose follow-ups can be due at once. Reminders alone make nothing due for minutes, and
      // passing again at once under a steady stream of them would run many passes of a few rows.
      while (!this.stopped) {
        lane.wakeRequested = false;
        const { more } = await this.run();
        this.outage.succeeded();
        if (!more && !lane.wakeRequested) break;
      }
    } catch (err) {
      this.outage.failed(err);
    } finally {
      lane.looping = false;
      // A wake that came in while this lane was failing is not dropped: it runs at once, once.
      const woken = lane.wakeRequested;
      lane.wakeRequested = false;
      this.arm(lane, woken ? 0 : this.settings.tickMs);
    }
  }

  /** One claim-and-fire transaction over the due rows (an admin's only, with a scope); what process_due runs. */
  async pass(scope: AlarmScope = {}): Promise<PassResult[]> {
    return (await this.run(scope)).results;
  }

  private async run(scope: AlarmScope = {}): Promise<{ results: PassResult[]; more: boolean }> {
    const run = this.claimAndFire(scope);
    this.inflight.add(run);
    try {
      const outcome = await run;
      this.lastPassAt = performance.now();
      return outcome;
    } finally {
      this.inflight.delete(run);
    }
  }

  /**
   * One pass, in two transactions when missed check-ins are due. The first claims the due rows and
   * fires all but the missed check-ins; those it leases instead (their due time moved a few seconds
   * on, so no other lane or replica takes them) and commits, so that shifts is asked whether their
   * deadlines stand with no row held. The second takes the leased rows back, at the lease's version
   * (a check-in that moved one meanwhile wins), and opens their alarms. A pass that dies between
   * the two leaves the rows due when the lease ends: nothing is lost, only seconds.
   */
  private async claimAndFire(scope: AlarmScope): Promise<{ results: PassResult[]; more: boolean }> {
    const now = this.clock();
    const first = await this.uow.run(async (tx, emit, afterCommit) => {
      const rows = await this.deadlines.claimDue(tx, now, { limit: this.settings.batchSize, urgentLimit: URGENT_PER_PASS }, scope);
      const checkins = rows.filter((r) => r.kind === 'checkin');
      const recipients =
        checkins.length > 0 ? await this.alarmsRepo.recipients(tx, [...new Set(checkins.map((r) => r.userId))]) : new Map();
      const planned: Planned[] = [];
      const single: DeadlineRow[] = [];
      for (const row of rows) {
        let plan: ReturnType<CheckinsService['planReminder']> = null;
        try {
          plan = row.kind === 'checkin' ? this.checkins.planReminder(row, recipients.get(row.userId), now) : null;
        } catch {
          // fire() meets the same error inside its savepoint and reports it.
        }
        if (plan) planned.push({ row, ...plan });
        else single.push(row);
      }
      // A request's missed step asks shifts first too: a check-in it has not heard of answers it.
      const missed = new Set(single.filter((r) => this.checkins.missedAt(r, now) || this.requests.missedAt(r)));
      const leased = await this.deadlines.lease(tx, [...missed], new Date(now.getTime() + this.leaseMs()));
      const others = single.filter((r) => !missed.has(r));
      // Claimed most urgent first: emergencies, then alarm steps and the rest, at most
      // SINGLES_PER_PASS of those one by one; the missed check-ins follow in the second transaction.
      const emergencies = others.filter((r) => r.priority === PRIORITY.emergency);
      const rest = others.filter((r) => r.priority !== PRIORITY.emergency).slice(0, Math.max(0, SINGLES_PER_PASS - emergencies.length));
      const results = new Map<DeadlineRow, PassResult>();
      const followUps = await this.fireSingles(tx, emit, [...emergencies, ...rest], now, new Map(), results);
      // Reminders wait while missed check-ins are being opened: they go in the next pass.
      if (planned.length > 0 && leased.length === 0) {
        let batched: Map<DeadlineRow, PassResult> | undefined;
        try {
          batched = await tx.transaction((sp) => this.fireReminders(sp, emit, planned));
        } catch (err) {
          this.logger.error({ err, rows: planned.length }, 'batched reminders failed; firing them one by one');
        }
        for (const p of planned) results.set(p.row, batched?.get(p.row) ?? (await this.fireOne(tx, emit, p.row, now)).result);
      }
      afterCommit(() => this.observe([...rows, ...followUps], results));
      // Rows left for the next pass (beyond SINGLES_PER_PASS, reminders behind missed check-ins) are unchanged and due: it runs at once.
      return { rows, results, leased, more: rows.length >= this.settings.batchSize || single.length > 0 };
    });
    const results = first.rows.flatMap((row) => first.results.get(row) ?? []);
    if (first.leased.length === 0) return { results, more: first.more };

    // One question to shifts for every missed check-in of the pass, with no row held: does the deadline still stand?
    const owner = await this.owner.current(first.leased.map((r) => r.userId));
    const opened = await this.uow.run(async (tx, emit, afterCommit) => {
      const held = await this.deadlines.retake(tx, first.leased);
      const standing: Missed[] = [];
      const moved: DeadlineRow[] = [];
      for (const row of held) {
        const miss = this.checkins.standingMiss(row, now, owner.get(row.userId));
        if (miss) standing.push({ row, ...miss });
        else moved.push(row);
      }
      const results = new Map<DeadlineRow, PassResult>();
      const followUps: DeadlineRow[] = [];
      if (standing.length > 0) {
        let batch: Awaited<ReturnType<MissedAlarms['open']>> | undefined;
        try {
          batch = await tx.transaction((sp) => this.missed.open(sp, emit, standing, now));
        } catch (err) {
          this.logger.error({ err, rows: standing.length }, 'opening missed check-in alarms together failed; opening them one by one');
        }
        if (batch) {
          for (const m of standing) {
            results.set(m.row, result(m.row, 'missed_check_in'));
            this.logger.debug(
              { jobKey: m.row.jobKey, step: m.row.step, status: 'missed_check_in', alarmId: batch.opened.get(m.row) },
              'deadline step fired',
            );
          }
          for (const id of batch.followUps) {
            const step = await this.deadlines.lock(tx, alarmKey(id));
            if (step) followUps.push(step);
          }
        } else {
          moved.unshift(...standing.map((m) => m.row));
        }
      }
      followUps.push(...(await this.fireSingles(tx, emit, moved, now, owner, results)));
      // An alarm opened here runs its first step here too, not a pass later.
      for (const row of followUps) results.set(row, (await this.fireOne(tx, emit, row, now)).result);
      // Late from when they fell due, not from the lease.
      const dueAt = new Map(first.rows.map((r) => [r.jobKey, r.dueAt]));
      afterCommit(() => this.observe([...held, ...followUps], results, dueAt));
      return held.flatMap((row) => results.get(row) ?? []);
    });
    return { results: [...results, ...opened], more: true };
  }

  /** Fires rows one by one, each in its savepoint; answers the deadlines of the alarms they opened, whose first steps run next. */
  private async fireSingles(
    tx: Tx,
    emit: Emit,
    rows: DeadlineRow[],
    now: Date,
    owner: Map<number, OwnerAnswer>,
    results: Map<DeadlineRow, PassResult>,
  ): Promise<DeadlineRow[]> {
    const followUps: DeadlineRow[] = [];
    for (const row of rows) {
      const fired = await this.fireOne(tx, emit, row, now, owner.get(row.userId));
      results.set(row, fired.result);
      const step = fired.opened ? await this.deadlines.lock(tx, alarmKey(fired.opened)) : undefined;
      if (step) followUps.push(step);
    }
    return followUps;
  }

  /** How long missed check-ins are leased while shifts is asked: its answer's timeout and a margin. */
  private leaseMs(): number {
    return this.settings.ownerCheckTimeoutMs + LEASE_MARGIN_MS;
  }

  /** Once committed, each step counts as fired: how late, and what it did. */
  private observe(rows: DeadlineRow[], results: Map<DeadlineRow, PassResult>, dueAt = new Map<string, Date>()): void {
    const firedAt = this.clock().getTime();
    for (const row of rows) {
      const r = results.get(row);
      if (!r) continue;
      metrics.stepsFired.inc({ service: SERVICE_NAME, step: r.step, status: r.status });
      const late = Math.max(0, firedAt - (dueAt.get(row.jobKey) ?? row.dueAt).getTime()) / 1000;
      metrics.deadlineLateness.observe({ service: SERVICE_NAME, kind: row.kind }, late);
      metrics.chainWait.observe({ service: SERVICE_NAME, stage: 'scheduler', priority: priorityLabel(row.priority) }, late);
    }
  }

  /**
   * The reminders of a pass as three statements whatever their number: their events in one
   * insert, and every row's next step in one update fenced by the versions claimed.
   */
  private async fireReminders(tx: Tx, emit: Emit, planned: Planned[]): Promise<Map<DeadlineRow, PassResult>> {
    await emit.many(planned.flatMap((p) => p.events));
    const moves = planned.flatMap(({ row, fired }) => (fired.next ? [{ claimed: row, next: fired.next }] : []));
    const applied = await this.deadlines.advanceMany(tx, moves);
    const results = new Map<DeadlineRow, PassResult>();
    for (const { row, fired } of planned) {
      if (!applied.has(row.jobKey))
        this.logger.warn({ jobKey: row.jobKey, version: row.version }, 'deadline moved while claimed; follow-up not written');
      this.logger.debug({ jobKey: row.jobKey, step: row.step, status: fired.status, next: fired.next?.step }, 'deadline step fired');
      results.set(row, result(row, fired.status));
    }
    return results;
  }

  /** One step in a savepoint of its own: a step that throws rolls back only its own writes and events. */
  private async fireOne(
    tx: Tx,
    emit: Emit,
    row: DeadlineRow,
    now: Date,
    owner?: OwnerAnswer,
  ): Promise<{ result: PassResult; opened?: string }> {
    let fired: Fired;
    try {
      fired = await tx.transaction((sp) =>
        row.kind === 'checkin'
          ? this.checkins.fire(sp, emit, row, now, owner)
          : row.kind === 'request'
            ? this.requests.fire(sp, emit, row, now, owner)
            : row.kind === 'message'
              ? this.messages.fire(sp, emit, row, now)
              : this.alarms.fire(sp, emit, row, now),
      );
    } catch (err) {
      const retryAt = new Date(now.getTime() + backoffDelay(STEP_RETRY, row.attempts + 1));
      this.logger.error(
        { err, jobKey: row.jobKey, step: row.step, attempts: row.attempts + 1, retryAt },
        'deadline step failed; trying again',
      );
      await this.deadlines.failed(tx, row, retryAt, errorMessage(err));
      return { result: result(row, 'failed') };
    }
    const applied = await this.deadlines.advance(tx, row, fired.next);
    if (!applied) this.logger.warn({ jobKey: row.jobKey, version: row.version }, 'deadline moved while claimed; follow-up not written');
    this.logger.debug({ jobKey: row.jobKey, step: row.step, status: fired.status, next: fired.next?.step }, 'deadline step fired');
    return { result: result(row, fired.status), ...(fired.opened ? { opened: fired.opened } : {}) };
  }
}

interface Lane {
  timer?: NodeJS.Timeout;
  looping: boolean;
  wakeRequested: boolean;
}

interface Planned {
  row: DeadlineRow;
  events: PendingEvent[];
  fired: Fired;
}

const result = (row: DeadlineRow, status: string): PassResult => ({ userId: row.userId, jobKey: row.jobKey, step: row.step, status });
