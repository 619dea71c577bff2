import { Inject, Injectable } from '@nestjs/common';
import { sql } from 'drizzle-orm';
import type { CommandMap } from '@lws/contracts';
import { DB, digestLines, lineHashesText, reconcileBuckets, reconcileIds, type Db } from '@lws/platform';
import { emergencies, shifts, workerState } from '../db/schema';

type Digest = CommandMap['shifts.reconcile.digest.v1'];
type Hashes = CommandMap['shifts.reconcile.hashes.v1'];
type Workers = CommandMap['shifts.reconcile.workers.v1'];

/**
 * What escalation's reconciliation compares its copy with: the workers on shift and those with a
 * recent emergency, digested by bucket (proto/shifts.proto, ReconcileDigestRequest, defines the
 * line each worker hashes to; escalation's side must build the same), then the workers of the
 * buckets that differ. Each is one statement over worker_state's on-shift index and the
 * emergencies of the window.
 */
@Injectable()
export class ReconcileService {
  constructor(@Inject(DB) private readonly db: Db) {}

  async digest(req: Digest['request']): Promise<Digest['reply']> {
    const digests = await digestLines(this.db, this.lines(req.emergenciesSince), req.buckets);
    return { digests: digests.map((d) => ({ bucket: d.bucket, digest: d.digest, workers: d.count })) };
  }

  async hashes(req: Hashes['request']): Promise<Hashes['reply']> {
    return { hashes: await lineHashesText(this.db, this.lines(req.emergenciesSince), req.buckets, reconcileBuckets(req)) };
  }

  async workers(req: Workers['request']): Promise<Workers['reply']> {
    const bucketIds = reconcileBuckets(req);
    const shiftIds = reconcileIds(req.shiftIds, 'shiftIds');
    const userIds = reconcileIds(req.userIds, 'userIds');
    const [workersRead, shiftsRead, nowRead] = await Promise.all([
      req.bucketIds.length === 0 && req.userIds.length === 0
        ? { rows: [] }
        : this.db.execute(sql`
            with ${this.lines(req.emergenciesSince)}
            select w.user_id, w.version, w.changed_at, w.on_shift, w.current_shift_id, w.location, w.next_check_in_at, w.latest_check_in_at,
              (select coalesce(json_agg(json_build_object('id', e.id, 'raisedAt', e.raised_at, 'shiftId', e.shift_id, 'location', e.location, 'duress', e.duress) order by e.raised_at), '[]')
                 from ${emergencies} e where e.user_id = k.user_id and e.raised_at >= ${req.emergenciesSince}::timestamptz) as emergencies
            from lines k left join ${workerState} w on w.user_id = k.user_id
            where k.user_id % ${req.buckets} = any(${bucketIds}::int[]) or k.user_id = any(${userIds}::int[])`),
      req.shiftIds.length === 0
        ? { rows: [] }
        : this.db.execute(sql`select id, user_id, ended_at, end_reason from ${shifts} where id = any(${shiftIds}::uuid[])`),
      this.db.execute(sql`select now() as now`),
    ]);
    const iso = (v: unknown) => (v === null || v === undefined ? undefined : new Date(v as string).toISOString());
    const workers = (workersRead.rows as WorkerRow[]).map((r) => ({
      userId: r.user_id,
      version: r.version ?? 0,
      ...(r.changed_at ? { changedAt: iso(r.changed_at) } : {}),
      onShift: r.on_shift === true,
      ...(r.on_shift && r.current_shift_id ? { shiftId: r.current_shift_id } : {}),
      ...(r.on_shift && r.location ? { location: r.location } : {}),
      ...(r.on_shift && r.next_check_in_at ? { nextCheckInAt: iso(r.next_check_in_at) } : {}),
      ...(r.on_shift && r.latest_check_in_at ? { latestCheckInAt: iso(r.latest_check_in_at) } : {}),
      emergencies: parseJson<EmergencyJson[]>(r.emergencies).map((e) => ({
        emergencyId: e.id,
        raisedAt: iso(e.raisedAt)!,
        ...(e.shiftId ? { shiftId: e.shiftId } : {}),
        ...(e.location ? { location: e.location } : {}),
        ...(e.duress ? { duress: true } : {}),
      })),
    }));
    const shiftRows = (shiftsRead.rows as ShiftRow[]).map((r) => ({
      shiftId: r.id,
      userId: r.user_id,
      ...(r.ended_at ? { endedAt: iso(r.ended_at) } : {}),
      ...(r.end_reason ? { endReason: r.end_reason } : {}),
    }));
    return { workers, shifts: shiftRows, now: iso((nowRead.rows[0] as { now: unknown }).now)! };
  }

  /** The workers a copy must know and the line each hashes to (the contract's definition), as `lines(user_id, line)`. */
  private lines(emergenciesSince: string) {
    return sql`em as (
        select user_id, string_agg(id::text, ',' order by id::text) as ids from ${emergencies}
        where raised_at >= ${emergenciesSince}::timestamptz group by user_id),
      on_shift as (select user_id, current_shift_id, next_check_in_at from ${workerState} where on_shift),
      lines as (
        select coalesce(s.user_id, em.user_id) as user_id,
          coalesce(s.user_id, em.user_id)::text || '|' || coalesce(s.current_shift_id::text, '') || '|'
            || coalesce(floor(extract(epoch from s.next_check_in_at) * 1000)::bigint::text, '') || '|' || coalesce(em.ids, '') as line
        from on_shift s full join em on em.user_id = s.user_id)`;
  }
}

interface WorkerRow {
  user_id: number;
  version: number | null;
  changed_at: string | Date | null;
  on_shift: boolean | null;
  current_shift_id: string | null;
  location: string | null;
  next_check_in_at: string | Date | null;
  latest_check_in_at: string | Date | null;
  emergencies: unknown;
}
interface ShiftRow {
  id: string;
  user_id: number;
  ended_at: string | Date | null;
  end_reason: string | null;
}
interface EmergencyJson {
  id: string;
  raisedAt: string;
  shiftId: string | null;
  location: string | null;
  duress: boolean;
}

const parseJson = <T>(v: unknown): T => (typeof v === 'string' ? (JSON.parse(v) as T) : (v as T));
