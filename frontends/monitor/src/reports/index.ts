// The monitors' reports. Imported as '@lws/fe-monitor/reports': bundled into each remote that uses it,
// while components come from the shared '@lws/fe-ui' singleton.
export { AlarmReportCard } from './AlarmReportCard';
export { REPORT_KIND_LABELS, addMonths, fetchAlarmReport, formatSeconds, monthOf, parseAlarmReport } from './alarm-report-api';
export type { AlarmReport, AlarmReportRow, ReportKind } from './alarm-report-api';
