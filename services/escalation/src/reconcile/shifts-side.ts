import { Inject, Injectable } from '@nestjs/common';
import { sql } from 'drizzle-orm';
import type { CommandMap } from '@lws/contracts';
import { type RpcClient } from '@lws/messaging';
import {
  CLOCK,
  DB,
  digestLines,
  lineHashes,
  LOGGER,
  pgArray,
  RECONCILE_MAX_IDS,
  RPC,
  type Clock,
  type Db,
  type Logger,
} from '@lws/platform';
import { SETTINGS, type EscalationSettings } from '../config';
import { alarms, joinedEmergencies, workers } from '../db/schema';
import { londonTime, workerLabel } from '../alarms/messages';
import { WorkersProjection, type DeadlineRepair, type ShiftEndRepair } from '../workers/workers.projection';
import {
  chunk,
  FETCH_CONCURRENCY,
  inParallel,
  inSet,
  RPC_TIMEOUT_MS,
  type BucketDigest,
  type ReconcileSide,
  type Repair,
  type RepairKind,
  type RepairSet,
} from './side';

type OwnerWorker = CommandMap['shifts.reconcile.workers.v1']['reply']['workers'][number];
type OwnerShift = CommandMap['shifts.reconcile.workers.v1']['reply']['shifts'][number];

/** An emergency raised this long ago still needs its alarm (the window both sides digest). */
export const EMERGENCY_WINDOW_MS = 24 * 3600_000;
const emergenciesSince = (startedAt: Date) => new Date(startedAt.getTime() - EMERGENCY_WINDOW_MS).toISOString();

interface OwnWorker {
  user_id: number;
  name: string | null;
  on_shift: boolean;
  shift_id: string | null;
  next_check_in_at: string | Date | null;
  shifts_version: number;
}

/**
 * Escalation's copy of shifts' data: who is on shift, each worker's check-in deadline, and the
 * emergencies of the last day. Repairs: a shift escalation never heard start (shift_missing; a
 * passed deadline opens its missed check-in alarm at once), a newer deadline (deadline_stale; a
 * check-in newer than the deadline held stops a missed alarm, as the check-in would have), a shift
 * that ended (shift_ended), an emergency without an alarm (emergency_missing, opened at once).
 */
@Injectable()
export class ShiftsSide implements ReconcileSide {
  readonly owner = 'shifts' as const;
  /** shift_missing and deadline_stale, many together; what an operator is told depends on whether the deadline has passed. */
  private readonly deadlineRepairs: RepairSet<{ repair: () => DeadlineRepair; details: (dueNow: boolean) => string }> = {
    applyMany: async (tx, emit, items) =>
      (
        await this.projection.repairDeadlineMany(
          tx,
          emit,
          items.map((i) => i.repair()),
        )
      ).map((set, n) => ({ changed: set.applied, dueNow: set.dueNow, details: items[n].details(set.dueNow) })),
  };
  /** shift_ended, many together. */
  private readonly endRepairs: RepairSet<{ end: ShiftEndRepair; details: string }> = {
    applyMany: async (tx, _emit, items) =>
      (
        await this.projection.repairShiftEndedMany(
          tx,
          items.map((i) => i.end),
        )
      ).map((changed, n) => ({ changed, dueNow: false, details: items[n].details })),
  };

  constructor(
    private readonly projection: WorkersProjection,
    @Inject(RPC) private readonly rpc: RpcClient,
    @Inject(DB) private readonly db: Db,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(SETTINGS) private readonly settings: EscalationSettings,
  ) {}

  async digests(buckets: number, startedAt: Date): Promise<{ theirs: BucketDigest[]; ours: BucketDigest[] }> {
    const since = emergenciesSince(startedAt);
    const [theirs, ours] = await Promise.all([
      this.rpc.send('shifts.reconcile.digest.v1', { buckets, emergenciesSince: since }, { timeoutMs: RPC_TIMEOUT_MS }),
      digestLines(this.db, this.lines(since), buckets),
    ]);
    return { theirs: theirs.digests.map((d) => ({ bucket: d.bucket, digest: d.digest, count: d.workers })), ours };
  }

  async hashes(buckets: number, bucketIds: number[], startedAt: Date): Promise<{ theirs: string; ours: Map<number, string> }> {
    const since = emergenciesSince(startedAt);
    const [theirs, ours] = await Promise.all([
      this.rpc.send('shifts.reconcile.hashes.v1', { buckets, bucketIds, emergenciesSince: since }, { timeoutMs: RPC_TIMEOUT_MS }),
      lineHashes(this.db, this.lines(since), buckets, pgArray(bucketIds)),
    ]);
    return { theirs: theirs.hashes, ours };
  }

  /** The workers escalation must know (on shift, or an emergency alarm since `since`) and each one's line, as shifts defines them. */
  private lines(since: string) {
    // An emergency is heard when an alarm opened for it or when it joined one still escalating.
    return sql`em as (
        select e.user_id, string_agg(e.emergency_id::text, ',' order by e.emergency_id::text) as ids from (
          select a.user_id, a.emergency_id from ${alarms} a
          where a.kind = 'emergency' and a.emergency_id is not null and a.opened_at >= ${since}::timestamptz
          union all
          select j.user_id, j.emergency_id from ${joinedEmergencies} j where j.joined_at >= ${since}::timestamptz) e
        where not exists (select 1 from ${workers} d where d.user_id = e.user_id and d.deleted_at is not null)
        group by e.user_id),
      on_shift as (select user_id, shift_id, next_check_in_at from ${workers} where on_shift and deleted_at is null),
      lines as (
        select coalesce(s.user_id, em.user_id) as user_id,
          coalesce(s.user_id, em.user_id)::text || '|' || coalesce(s.shift_id::text, '') || '|'
            || coalesce(floor(extract(epoch from s.next_check_in_at) * 1000)::bigint::text, '') || '|' || coalesce(em.ids, '') as line
        from on_shift s full join em on em.user_id = s.user_id)`;
  }

  async compare(buckets: number, userIds: number[], startedAt: Date): Promise<{ compared: number; repairs: Repair[] }> {
    const since = emergenciesSince(startedAt);
    const owner = new Map<number, OwnerWorker>();
    let ownerNow = 0;
    const [, { rows: mineRows }] = await Promise.all([
      inParallel(chunk(userIds, RECONCILE_MAX_IDS), FETCH_CONCURRENCY, async (ids) => {
        const reply = await this.rpc.send(
          'shifts.reconcile.workers.v1',
          { buckets, bucketIds: [], userIds: ids, emergenciesSince: since, shiftIds: [] },
          { timeoutMs: RPC_TIMEOUT_MS },
        );
        for (const w of reply.workers) owner.set(w.userId, w);
        ownerNow = Math.max(ownerNow, Date.parse(reply.now));
      }),
      this.db.execute(sql`
        select user_id, name, on_shift, shift_id, next_check_in_at, shifts_version from ${workers}
        where deleted_at is null and user_id = any(${pgArray(userIds)}::int[])`) as unknown as Promise<{ rows: OwnWorker[] }>,
    ]);
    const mine = new Map(mineRows.map((r) => [r.user_id, r]));
    const emergencyIds = [...owner.values()].flatMap((w) => w.emergencies.map((e) => e.emergencyId));
    const heard = new Set<string>();
    if (emergencyIds.length > 0) {
      const { rows } = (await this.db.execute(
        sql`select emergency_id from ${alarms} where emergency_id = any(${pgArray(emergencyIds)}::uuid[])
          union all select emergency_id from ${joinedEmergencies} where emergency_id = any(${pgArray(emergencyIds)}::uuid[])`,
      )) as unknown as { rows: { emergency_id: string }[] };
      for (const r of rows) heard.add(r.emergency_id);
    }
    // Shifts escalation still watches that the owner no longer calls current: did they end?
    const lookups = [...mine.values()]
      .filter((e) => e.on_shift && e.shift_id && owner.get(e.user_id)?.shiftId !== e.shift_id)
      .map((e) => e.shift_id!);
    const ended = new Map<string, OwnerShift>();
    await inParallel(chunk(lookups, RECONCILE_MAX_IDS), FETCH_CONCURRENCY, async (shiftIds) => {
      const reply = await this.rpc.send(
        'shifts.reconcile.workers.v1',
        { buckets, bucketIds: [], userIds: [], emergenciesSince: since, shiftIds },
        { timeoutMs: RPC_TIMEOUT_MS },
      );
      for (const s of reply.shifts) if (s.endedAt) ended.set(s.shiftId, s);
      ownerNow = Math.max(ownerNow, Date.parse(reply.now));
    });

    const graceMs = this.settings.reconcileGraceMs;
    const settled = (at: string | undefined) => !at || ownerNow - Date.parse(at) >= graceMs;
    const repairs: Repair[] = [];
    let compared = 0;
    for (const userId of new Set([...owner.keys(), ...mine.keys()])) {
      compared++;
      const o = owner.get(userId);
      const e = mine.get(userId);
      const label = workerLabel(e?.name, userId);
      for (const em of o?.emergencies ?? []) {
        if (heard.has(em.emergencyId) || !settled(em.raisedAt)) continue;
        repairs.push({
          kind: 'emergency_missing',
          userId,
          apply: async (tx, emit) => {
            const heardAs = await this.projection.emergencyHeard(tx, emit, {
              emergencyId: em.emergencyId,
              userId,
              raisedAt: em.raisedAt,
              ...(em.shiftId ? { shiftId: em.shiftId } : {}),
              ...(em.location ? { location: em.location } : {}),
              ...(em.duress ? { duress: true } : {}),
            });
            const raised = `${label} raised an emergency at ${londonTime(new Date(em.raisedAt))} that escalation had not heard of`;
            return {
              changed: heardAs !== 'known',
              dueNow: heardAs === 'opened',
              details:
                heardAs === 'joined' ? `${raised}; it joins their emergency alarm still escalating` : `${raised}; its alarm opens now`,
            };
          },
        });
      }
      if (e?.on_shift && e.shift_id && o?.shiftId !== e.shift_id) {
        const end = ended.get(e.shift_id);
        if (end && settled(end.endedAt)) {
          const repair: ShiftEndRepair = {
            userId,
            shiftId: e.shift_id,
            endedAt: new Date(end.endedAt!),
            reason: end.endReason ?? 'worker',
          };
          const details = `${label}'s shift ended at ${londonTime(repair.endedAt)} (shifts), but escalation had not heard and was still waiting for their check-ins; it no longer does`;
          repairs.push({
            kind: 'shift_ended',
            userId,
            apply: async (tx) => ({ changed: await this.projection.repairShiftEnded(tx, repair), dueNow: false, details }),
            together: inSet(this.endRepairs, { end: repair, details }),
          });
        } else if (!end) {
          // Not proof the shift ended: the worker stays watched (a false alarm beats a silent one).
          this.logger.warn(
            { userId, shiftId: e.shift_id },
            'escalation watches a shift that shifts does not call current nor ended; leaving it watched',
          );
        }
      }
      if (o?.onShift && o.shiftId && o.nextCheckInAt) {
        const same = e?.on_shift && e.shift_id === o.shiftId;
        const due = new Date(o.nextCheckInAt);
        const ours = e?.next_check_in_at ? new Date(e.next_check_in_at) : undefined;
        if (same && ours?.getTime() === due.getTime()) continue;
        if (!settled(o.changedAt) || (e && o.version > 0 && e.shifts_version > o.version)) continue;
        const kind: RepairKind = same ? 'deadline_stale' : 'shift_missing';
        const shiftId = o.shiftId;
        // As of when it is applied, if shifts does not say when it changed.
        const repair = (): DeadlineRepair => ({
          userId,
          shiftId,
          location: o.location ?? null,
          nextCheckInAt: due,
          asOf: o.changedAt ? new Date(o.changedAt) : this.clock(),
          version: o.version,
          ...(o.latestCheckInAt ? { latestCheckInAt: new Date(o.latestCheckInAt) } : {}),
        });
        const details = (dueNow: boolean) => {
          const passed = dueNow ? ': it has passed, so the missed check-in alarm opens now' : '';
          return kind === 'shift_missing'
            ? `${label} is on shift${o.location ? ` at ${o.location}` : ''} (shifts), but escalation had not heard the shift start; their check-in deadline (${londonTime(due)}) is watched now${passed}`
            : `${label}'s check-in deadline is ${londonTime(due)} in shifts, but escalation was watching ${ours ? londonTime(ours) : 'none'} (a check-in or change was lost); it watches ${londonTime(due)} now${passed}`;
        };
        repairs.push({
          kind,
          userId,
          apply: async (tx, emit) => {
            const set = await this.projection.repairDeadline(tx, emit, repair());
            return { changed: set.applied, dueNow: set.dueNow, details: details(set.dueNow) };
          },
          together: inSet(this.deadlineRepairs, { repair, details }),
        });
      }
    }
    return { compared, repairs };
  }
}
