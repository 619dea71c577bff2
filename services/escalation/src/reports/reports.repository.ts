import { Inject, Injectable } from '@nestjs/common';
import { sql } from 'drizzle-orm';
import { DB, type Db } from '@lws/platform';
import { alarmScopeSql, type AlarmScope } from '../alarms/alarm-scope';
import { alarms, type AlarmKind } from '../db/schema';

/** The false alarms by the reason recorded on resolving them; notRecorded: resolved before reasons were. */
export interface FalseReasonCounts {
  forgotCheckIn: number;
  noSignal: number;
  device: number;
  other: number;
  notRecorded: number;
}

/** One kind's figures, or every kind's when kind is null. Seconds are whole; null when no alarm reached the state. */
export interface KindFigures {
  kind: AlarmKind | null;
  /** The team's figures (null: alarms of no known team), or the whole report's ('all'). */
  team: number | null | 'all';
  count: number;
  acknowledged: number;
  resolved: number;
  genuine: number;
  falseAlarm: number;
  test: number;
  falseReasons: FalseReasonCounts;
  ackP50: number | null;
  ackP90: number | null;
  ackMax: number | null;
  resolveP50: number | null;
  resolveP90: number | null;
  resolveMax: number | null;
}

interface RawRow {
  kind: AlarmKind | null;
  total_row: number;
  team_id: number | null;
  all_teams: number;
  count: number;
  acknowledged: number;
  resolved: number;
  genuine: number;
  false_alarm: number;
  test: number;
  false_forgot_check_in: number;
  false_no_signal: number;
  false_device: number;
  false_other: number;
  false_not_recorded: number;
  ack_p50: number | null;
  ack_p90: number | null;
  ack_max: number | null;
  resolve_p50: number | null;
  resolve_p90: number | null;
  resolve_max: number | null;
}

@Injectable()
export class ReportsRepository {
  constructor(@Inject(DB) private readonly db: Db) {}

  /**
   * Alarms opened in [from, to), per kind and in total, in one pass over alarms_opened_idx.
   * percentile_disc is nearest-rank: the smallest value whose cumulative share reaches p. Both it
   * and max skip the nulls of alarms that never reached the state (hence the case: greatest()
   * would turn a null into 0). A duration is clamped at zero so a clock moved back (test clock)
   * cannot report a negative time. `only`: an admin's alarms (AlarmScope), that team's. Every
   * figure comes for the whole report and per team.
   */
  async figures(from: Date, to: Date, only: AlarmScope & { teamId?: number } = {}): Promise<KindFigures[]> {
    const mine = alarmScopeSql(only);
    const scoped = sql.join(
      [mine ? sql` and ${mine}` : sql``, only.teamId !== undefined ? sql` and ${alarms.teamId} = ${only.teamId}` : sql``],
      sql``,
    );
    const ack = sql`case when ${alarms.acknowledgedAt} is not null then greatest(0, round(extract(epoch from (${alarms.acknowledgedAt} - ${alarms.openedAt}))))::int end`;
    const res = sql`case when ${alarms.resolvedAt} is not null then greatest(0, round(extract(epoch from (${alarms.resolvedAt} - ${alarms.openedAt}))))::int end`;
    const result = (await this.db.execute(sql`
      with durations as (
        select ${alarms.kind} as kind, ${alarms.teamId} as team_id, ${alarms.acknowledgedAt} is not null as acked, ${alarms.resolvedAt} is not null as closed,
               ${alarms.verdict} as verdict, ${alarms.reason} as reason, ${ack} as ack_s, ${res} as resolve_s
        from ${alarms}
        where ${alarms.openedAt} >= ${from.toISOString()}::timestamptz and ${alarms.openedAt} < ${to.toISOString()}::timestamptz${scoped}
      )
      select kind, grouping(kind)::int as total_row, team_id, grouping(team_id)::int as all_teams,
             count(*)::int as count,
             (count(*) filter (where acked))::int as acknowledged,
             (count(*) filter (where closed))::int as resolved,
             (count(*) filter (where verdict = 'genuine'))::int as genuine,
             (count(*) filter (where verdict = 'false_alarm'))::int as false_alarm,
             (count(*) filter (where verdict = 'test'))::int as test,
             (count(*) filter (where verdict = 'false_alarm' and reason = 'forgot_check_in'))::int as false_forgot_check_in,
             (count(*) filter (where verdict = 'false_alarm' and reason = 'no_signal'))::int as false_no_signal,
             (count(*) filter (where verdict = 'false_alarm' and reason = 'device'))::int as false_device,
             (count(*) filter (where verdict = 'false_alarm' and reason = 'other'))::int as false_other,
             (count(*) filter (where verdict = 'false_alarm' and reason is null))::int as false_not_recorded,
             percentile_disc(0.5) within group (order by ack_s) as ack_p50,
             percentile_disc(0.9) within group (order by ack_s) as ack_p90,
             max(ack_s) as ack_max,
             percentile_disc(0.5) within group (order by resolve_s) as resolve_p50,
             percentile_disc(0.9) within group (order by resolve_s) as resolve_p90,
             max(resolve_s) as resolve_max
      from durations
      group by grouping sets ((kind), (), (team_id, kind), (team_id))
    `)) as unknown as { rows: RawRow[] };
    return result.rows.map((r) => ({
      kind: Number(r.total_row) === 1 ? null : r.kind,
      team: Number(r.all_teams) === 1 ? 'all' : r.team_id === null ? null : Number(r.team_id),
      count: Number(r.count),
      acknowledged: Number(r.acknowledged),
      resolved: Number(r.resolved),
      genuine: Number(r.genuine),
      falseAlarm: Number(r.false_alarm),
      test: Number(r.test),
      falseReasons: {
        forgotCheckIn: Number(r.false_forgot_check_in),
        noSignal: Number(r.false_no_signal),
        device: Number(r.false_device),
        other: Number(r.false_other),
        notRecorded: Number(r.false_not_recorded),
      },
      ackP50: seconds(r.ack_p50),
      ackP90: seconds(r.ack_p90),
      ackMax: seconds(r.ack_max),
      resolveP50: seconds(r.resolve_p50),
      resolveP90: seconds(r.resolve_p90),
      resolveMax: seconds(r.resolve_max),
    }));
  }
}

const seconds = (v: number | string | null): number | null => (v === null ? null : Number(v));
