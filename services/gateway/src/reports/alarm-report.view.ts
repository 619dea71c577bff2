import type { AlarmReportRow, MonthlyAlarmReport } from '@lws/contracts';
import { textCell } from '../common/csv-cell';

const NO_REASONS = { forgotCheckIn: 0, noSignal: 0, device: 0, other: 0, notRecorded: 0 };

/** The false alarms by reason; a row without them (an older escalation) counts every one as not recorded. */
const falseReasons = (r: AlarmReportRow) => r.falseReasons ?? { ...NO_REASONS, notRecorded: r.falseAlarm };

/** A report row as the browser sees it: every figure present, null where no alarm reached the state. */
function browserRow(r: AlarmReportRow) {
  return {
    kind: r.kind,
    count: r.count,
    acknowledged: r.acknowledged,
    resolved: r.resolved,
    genuine: r.genuine,
    falseAlarm: r.falseAlarm,
    falseReasons: falseReasons(r),
    test: r.test ?? 0,
    unresolved: r.unresolved,
    ackP50Seconds: r.ackP50Seconds ?? null,
    ackP90Seconds: r.ackP90Seconds ?? null,
    ackMaxSeconds: r.ackMaxSeconds ?? null,
    resolveP50Seconds: r.resolveP50Seconds ?? null,
    resolveP90Seconds: r.resolveP90Seconds ?? null,
    resolveMaxSeconds: r.resolveMaxSeconds ?? null,
  };
}

/** Team ids to names, for the report's per-team part. */
export type TeamNames = ReadonlyMap<number, string>;

/** A team's label in the report: its name, or what the alarms were of when no team is known. */
export const teamLabel = (teamId: number | undefined, names: TeamNames) =>
  teamId === undefined ? 'No team' : (names.get(teamId) ?? `Team #${teamId}`);

export function browserReport(r: MonthlyAlarmReport, names: TeamNames = new Map()) {
  return {
    month: r.month,
    from: r.from,
    to: r.to,
    timezone: r.timezone,
    byKind: r.byKind.map(browserRow),
    total: browserRow(r.total),
    byTeam: (r.byTeam ?? []).map((t) => ({
      teamId: t.teamId ?? null,
      team: teamLabel(t.teamId, names),
      byKind: t.byKind.map(browserRow),
      total: browserRow(t.total),
    })),
  };
}

export const CSV_COLUMNS = [
  'month',
  'kind',
  'alarms',
  'acknowledged',
  'resolved',
  'genuine',
  'false_alarm',
  'false_forgot_check_in',
  'false_no_signal',
  'false_device',
  'false_other',
  'false_not_recorded',
  'test',
  'unresolved',
  'ack_p50_s',
  'ack_p90_s',
  'ack_max_s',
  'resolve_p50_s',
  'resolve_p90_s',
  'resolve_max_s',
  'team',
] as const;

const KIND = /^[a-z_]+$/;
const MONTH = /^[0-9]{4}-[0-9]{2}$/;

/**
 * The report as CSV (RFC 4180, CRLF): the organisation's rows (empty `team`), then each team's.
 * Every cell is a non-negative whole number, an empty cell (no alarm reached the state), the month,
 * a kind word or a team name made safe by textCell; anything else is refused rather than written,
 * so a cell a spreadsheet would run as a formula (= + - @) can never appear.
 */
export function reportCsv(r: MonthlyAlarmReport, names: TeamNames = new Map()): string {
  if (!MONTH.test(r.month)) throw new Error('report month is not YYYY-MM');
  const n = (v: number | undefined) => {
    if (v === undefined) return '';
    if (!Number.isSafeInteger(v) || v < 0) throw new Error('report figure is not a whole number');
    return String(v);
  };
  const line = (row: AlarmReportRow, team = '') => {
    if (!KIND.test(row.kind)) throw new Error('report kind is not a plain word');
    const reasons = falseReasons(row);
    return [
      r.month,
      row.kind,
      n(row.count),
      n(row.acknowledged),
      n(row.resolved),
      n(row.genuine),
      n(row.falseAlarm),
      n(reasons.forgotCheckIn),
      n(reasons.noSignal),
      n(reasons.device),
      n(reasons.other),
      n(reasons.notRecorded),
      n(row.test ?? 0),
      n(row.unresolved),
      n(row.ackP50Seconds),
      n(row.ackP90Seconds),
      n(row.ackMaxSeconds),
      n(row.resolveP50Seconds),
      n(row.resolveP90Seconds),
      n(row.resolveMaxSeconds),
      team,
    ].join(',');
  };
  const teams = (r.byTeam ?? []).flatMap((t) => {
    const name = textCell(teamLabel(t.teamId, names));
    return [...t.byKind.map((row) => line(row, name)), line(t.total, name)];
  });
  return `${[CSV_COLUMNS.join(','), ...r.byKind.map((row) => line(row)), line(r.total), ...teams].join('\r\n')}\r\n`;
}
