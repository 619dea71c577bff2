import type { AlarmReportRow, MonthlyAlarmReport } from '@lws/contracts';

/** A report row as the browser sees it: every figure present, null where no alarm reached the state. */
function browserRow(r: AlarmReportRow) {
  return {
    kind: r.kind,
    count: r.count,
    acknowledged: r.acknowledged,
    resolved: r.resolved,
    genuine: r.genuine,
    falseAlarm: r.falseAlarm,
    unresolved: r.unresolved,
    ackP50Seconds: r.ackP50Seconds ?? null,
    ackP90Seconds: r.ackP90Seconds ?? null,
    ackMaxSeconds: r.ackMaxSeconds ?? null,
    resolveP50Seconds: r.resolveP50Seconds ?? null,
    resolveP90Seconds: r.resolveP90Seconds ?? null,
    resolveMaxSeconds: r.resolveMaxSeconds ?? null,
  };
}

export function browserReport(r: MonthlyAlarmReport) {
  return { month: r.month, from: r.from, to: r.to, timezone: r.timezone, byKind: r.byKind.map(browserRow), total: browserRow(r.total) };
}

export const CSV_COLUMNS = [
  'month',
  'kind',
  'alarms',
  'acknowledged',
  'resolved',
  'genuine',
  'false_alarm',
  'unresolved',
  'ack_p50_s',
  'ack_p90_s',
  'ack_max_s',
  'resolve_p50_s',
  'resolve_p90_s',
  'resolve_max_s',
] as const;

const KIND = /^[a-z_]+$/;
const MONTH = /^[0-9]{4}-[0-9]{2}$/;

/**
 * The report as CSV (RFC 4180, CRLF). Every cell is a non-negative whole number, an empty cell
 * (no alarm reached the state), the month or a kind word; anything else is refused rather than
 * written, so a cell a spreadsheet would run as a formula (= + - @) can never appear.
 */
export function reportCsv(r: MonthlyAlarmReport): string {
  if (!MONTH.test(r.month)) throw new Error('report month is not YYYY-MM');
  const n = (v: number | undefined) => {
    if (v === undefined) return '';
    if (!Number.isSafeInteger(v) || v < 0) throw new Error('report figure is not a whole number');
    return String(v);
  };
  const line = (row: AlarmReportRow) => {
    if (!KIND.test(row.kind)) throw new Error('report kind is not a plain word');
    return [
      r.month,
      row.kind,
      n(row.count),
      n(row.acknowledged),
      n(row.resolved),
      n(row.genuine),
      n(row.falseAlarm),
      n(row.unresolved),
      n(row.ackP50Seconds),
      n(row.ackP90Seconds),
      n(row.ackMaxSeconds),
      n(row.resolveP50Seconds),
      n(row.resolveP90Seconds),
      n(row.resolveMaxSeconds),
    ].join(',');
  };
  return [CSV_COLUMNS.join(','), ...r.byKind.map(line), line(r.total)].join('\r\n') + '\r\n';
}
