import { Injectable } from '@nestjs/common';
import type { AlarmReportRow, CommandMap } from '@lws/contracts';
import { ALARM_KINDS } from '../db/schema';
import { monthBounds, REPORT_TIMEZONE } from './london-month';
import { ReportsRepository, type KindFigures } from './reports.repository';

type Monthly = CommandMap['escalation.report.monthly.v1'];

const none = (kind: AlarmReportRow['kind']): KindFigures => ({
  kind: kind === 'all' ? null : kind,
  team: 'all',
  count: 0,
  acknowledged: 0,
  resolved: 0,
  genuine: 0,
  falseAlarm: 0,
  test: 0,
  falseReasons: { forgotCheckIn: 0, noSignal: 0, device: 0, other: 0, notRecorded: 0 },
  ackP50: null,
  ackP90: null,
  ackMax: null,
  resolveP50: null,
  resolveP90: null,
  resolveMax: null,
});

function row(kind: AlarmReportRow['kind'], f: KindFigures): AlarmReportRow {
  const out: AlarmReportRow = {
    kind,
    count: f.count,
    acknowledged: f.acknowledged,
    resolved: f.resolved,
    genuine: f.genuine,
    falseAlarm: f.falseAlarm,
    test: f.test,
    falseReasons: { ...f.falseReasons },
    unresolved: f.count - f.resolved,
  };
  if (f.ackP50 !== null) out.ackP50Seconds = f.ackP50;
  if (f.ackP90 !== null) out.ackP90Seconds = f.ackP90;
  if (f.ackMax !== null) out.ackMaxSeconds = f.ackMax;
  if (f.resolveP50 !== null) out.resolveP50Seconds = f.resolveP50;
  if (f.resolveP90 !== null) out.resolveP90Seconds = f.resolveP90;
  if (f.resolveMax !== null) out.resolveMaxSeconds = f.resolveMax;
  return out;
}

/** The monthly alarm figures BS 8484 asks a lone-worker service to report. */
@Injectable()
export class ReportsService {
  constructor(private readonly repo: ReportsRepository) {}

  async monthly(req: Monthly['request']): Promise<Monthly['reply']> {
    const { from, to } = monthBounds(req.month);
    const figures = await this.repo.figures(from, to, req);
    const rowsOf = (team: number | null | 'all') => {
      const mine = figures.filter((f) => f.team === team);
      const of = (kind: AlarmReportRow['kind']) => mine.find((f) => (kind === 'all' ? f.kind === null : f.kind === kind)) ?? none(kind);
      return { byKind: ALARM_KINDS.map((kind) => row(kind, of(kind))), total: row('all', of('all')) };
    };
    const teams = [...new Set(figures.map((f) => f.team).filter((t): t is number | null => t !== 'all'))].sort(
      (a, b) => (a ?? Infinity) - (b ?? Infinity),
    );
    return {
      month: req.month,
      from: from.toISOString(),
      to: to.toISOString(),
      timezone: REPORT_TIMEZONE,
      ...rowsOf('all'),
      byTeam: teams.map((team) => ({ ...(team !== null ? { teamId: team } : {}), ...rowsOf(team) })),
    };
  }
}
