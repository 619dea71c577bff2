import { api, english, londonYearMonth, msg, type Translate } from '@lws/fe-ui';
import { FALSE_REASON_LABELS } from '@lws/fe-ui/alarms';

export type ReportKind = 'missed_check_in' | 'emergency' | 'all';

export const FALSE_REASON_KEYS = ['forgotCheckIn', 'noSignal', 'device', 'other', 'notRecorded'] as const;
export type FalseReasons = Record<(typeof FALSE_REASON_KEYS)[number], number>;

/** In English; a screen shows them through `t()`: the Resolve Alarm dialog's words for each reason. */
export const FALSE_REASON_COLUMNS: Record<keyof FalseReasons, string> = {
  forgotCheckIn: FALSE_REASON_LABELS.forgot_check_in,
  noSignal: FALSE_REASON_LABELS.no_signal,
  device: FALSE_REASON_LABELS.device,
  other: FALSE_REASON_LABELS.other,
  notRecorded: msg('Not recorded'),
};

/** One row of GET /api/reports/alarms; times are whole seconds, null when no alarm reached the state. */
export interface AlarmReportRow {
  kind: ReportKind;
  count: number;
  acknowledged: number;
  resolved: number;
  genuine: number;
  falseAlarm: number;
  /** The false alarms by the reason recorded on resolving them; they add up to falseAlarm. */
  falseReasons: FalseReasons;
  /** Resolved as a test alarm: neither genuine nor false. */
  test: number;
  unresolved: number;
  ackP50Seconds: number | null;
  ackP90Seconds: number | null;
  ackMaxSeconds: number | null;
  resolveP50Seconds: number | null;
  resolveP90Seconds: number | null;
  resolveMaxSeconds: number | null;
}

/** One team's figures, so each team's monitors can be held to their own: the worker's team when the alarm opened. */
export interface TeamAlarmReport {
  teamId: number | null;
  team: string;
  byKind: AlarmReportRow[];
  total: AlarmReportRow;
}

export interface AlarmReport {
  month: string;
  byKind: AlarmReportRow[];
  total: AlarmReportRow;
  byTeam: TeamAlarmReport[];
}

/** In English; a screen shows them through `t()`. */
export const REPORT_KIND_LABELS: Record<ReportKind, string> = {
  missed_check_in: msg('Missed Check-In'),
  emergency: msg('Emergency'),
  all: msg('Total'),
};

const COUNTS = ['count', 'acknowledged', 'resolved', 'genuine', 'falseAlarm', 'test', 'unresolved'] as const;
const TIMES = ['ackP50Seconds', 'ackP90Seconds', 'ackMaxSeconds', 'resolveP50Seconds', 'resolveP90Seconds', 'resolveMaxSeconds'] as const;

const whole = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

function parseRow(value: unknown): AlarmReportRow {
  const v = (value ?? {}) as Record<string, unknown>;
  if (v.kind !== 'missed_check_in' && v.kind !== 'emergency' && v.kind !== 'all') throw new Error('Invalid response from server');
  const row = { kind: v.kind } as AlarmReportRow;
  for (const k of COUNTS) {
    if (!whole(v[k])) throw new Error('Invalid response from server');
    row[k] = v[k];
  }
  for (const k of TIMES) row[k] = whole(v[k]) ? v[k] : null;
  const reasons = (v.falseReasons ?? {}) as Record<string, unknown>;
  row.falseReasons = {} as FalseReasons;
  for (const k of FALSE_REASON_KEYS) {
    if (!whole(reasons[k])) throw new Error('Invalid response from server');
    row.falseReasons[k] = reasons[k];
  }
  return row;
}

/** A report the card can show; a figure that is not a count is refused rather than shown wrong. */
export function parseAlarmReport(body: unknown): AlarmReport {
  const b = (body ?? {}) as Record<string, unknown>;
  if (typeof b.month !== 'string' || !Array.isArray(b.byKind)) throw new Error('Invalid response from server');
  const byTeam = Array.isArray(b.byTeam) ? b.byTeam : [];
  return {
    month: b.month,
    byKind: b.byKind.map(parseRow),
    total: parseRow(b.total),
    byTeam: byTeam.map((t: unknown) => {
      const v = (t ?? {}) as Record<string, unknown>;
      if (typeof v.team !== 'string' || !Array.isArray(v.byKind)) throw new Error('Invalid response from server');
      return {
        teamId: typeof v.teamId === 'number' ? v.teamId : null,
        team: v.team,
        byKind: v.byKind.map(parseRow),
        total: parseRow(v.total),
      };
    }),
  };
}

const query = (month: string, teamId?: number) => `month=${encodeURIComponent(month)}${teamId !== undefined ? `&teamId=${teamId}` : ''}`;
export const alarmReportPath = (month: string, teamId?: number) => `/api/reports/alarms?${query(month, teamId)}`;
export const alarmReportCsvPath = (month: string, teamId?: number) => `/api/reports/alarms.csv?${query(month, teamId)}`;

export async function fetchAlarmReport(month: string, signal?: AbortSignal, teamId?: number): Promise<AlarmReport> {
  return parseAlarmReport(await api.get(alarmReportPath(month, teamId), { signal }));
}

const two = (n: number) => String(n).padStart(2, '0');

/**
 * Seconds as a monitor reads them: '45s', '1m 05s', '2h 03m 09s'; '—' when there is no figure. In
 * English unless the screen passes its `t()`.
 */
export function formatSeconds(seconds: number | null, t: Translate = english): string {
  if (seconds === null || !Number.isFinite(seconds) || seconds < 0) return '—';
  const s = Math.round(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = s % 60;
  if (h > 0) return t('{{hours}}h {{minutes}}m {{seconds}}s', { hours: h, minutes: two(m), seconds: two(rest) });
  if (m > 0) return t('{{minutes}}m {{seconds}}s', { minutes: m, seconds: two(rest) });
  return t('{{seconds}}s', { seconds: rest });
}

/** The London month an instant falls in, as `YYYY-MM` (the value of an input of type month). */
export function monthOf(at: Date): string {
  const { year, month } = londonYearMonth(at);
  return `${year}-${two(month)}`;
}

/** `YYYY-MM` moved by whole months. */
export function addMonths(month: string, n: number): string {
  const i = Number(month.slice(0, 4)) * 12 + Number(month.slice(5, 7)) - 1 + n;
  return `${Math.floor(i / 12)}-${two((i % 12) + 1)}`;
}

export const MONTH_VALUE = /^20[0-9]{2}-(0[1-9]|1[0-2])$/;
