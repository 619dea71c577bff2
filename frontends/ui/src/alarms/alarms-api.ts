// From '@lws/fe-ui', not a relative path: this module is bundled into each container that uses it,
// and the page's one translations instance is the shared singleton's.
import { api, i18n, msg } from '@lws/fe-ui';
import { parseVisit, type Visit } from '@lws/fe-ui/shifts';
import { parseAlarmMessages, type AlarmMessage } from './alarm-thread-api';

export type AlarmKind = 'missed_check_in' | 'emergency';
export type AlarmState = 'open' | 'acknowledged' | 'resolved';
export type AlarmVerdict = 'genuine' | 'false_alarm' | 'test';
export type IncidentSeverity = 'minor' | 'serious' | 'critical';
export type FalseAlarmReason = 'forgot_check_in' | 'no_signal' | 'device' | 'other';
/** What resolving records: the outcome, its detail, and the monitor's note. */
export type AlarmOutcome =
  | { verdict: 'genuine'; severity: IncidentSeverity; note: string }
  | { verdict: 'false_alarm'; reason: FalseAlarmReason; note: string }
  | { verdict: 'test'; note: string };

/** An alarm as GET /api/alarms lists it; every time is UTC ISO-8601. */
export interface Alarm {
  id: string;
  userId: number;
  workerName: string;
  location: string | null;
  kind: AlarmKind;
  state: AlarmState;
  openedAt: string;
  dueAt: string | null;
  acknowledgedBy: number | null;
  /** Who acknowledged it, by name (the server's; null when it does not know them yet). */
  acknowledgedByName: string | null;
  acknowledgedAt: string | null;
  lateCheckInAt: string | null;
  /** Raised by the worker's duress PIN: they may be under threat. */
  duress: boolean;
  /** When the worker said they are safe with their PIN: escalation stopped, to be confirmed. */
  workerSafeAt: string | null;
  /** "Where I'll be", as the worker wrote it when the shift started. */
  shiftNote: string | null;
  /** Opened on this timed visit (its timer ran out, or an emergency during it); its sealed note may be read. */
  visit: Visit | null;
  /** The worker's last known position (a check-in's) and when it was taken. */
  lastPosition: AlarmPosition | null;
  history: string[];
  /** The messages between the monitors and the worker while it is open, oldest first. */
  messages: AlarmMessage[];
}

/** Writes a text with its {{placeholders}} filled in: a screen's `t()`, or English as it is. */
export type Translate = (text: string, values: Record<string, string | number>) => string;

const english: Translate = (text, values) => text.replace(/{{\s*(\w+)\s*}}/g, (whole, name: string) => String(values[name] ?? whole));

/**
 * How long ago: "just now", "1 min", "14 min", "2 h 5 min". In English unless the screen passes its
 * `t()`, so a screen not yet translated never shows half of it in another language.
 */
export function alarmAge(openedAt: string, now: Date, t: Translate = english): string {
  const minutes = Math.max(0, Math.floor((now.getTime() - Date.parse(openedAt)) / 60_000));
  if (minutes < 1) return t('just now', {});
  if (minutes < 60) return t('{{minutes}} min', { minutes });
  return t('{{hours}} h {{minutes}} min', { hours: Math.floor(minutes / 60), minutes: minutes % 60 });
}

/** Where a position is, on a map a monitor can open. */
export function mapLink(p: Pick<AlarmPosition, 'lat' | 'lng'>): string {
  return `https://www.openstreetmap.org/?mlat=${p.lat}&mlon=${p.lng}#map=17/${p.lat}/${p.lng}`;
}

export interface AlarmPosition {
  lat: number;
  lng: number;
  accuracy: number | null;
  at: string;
}

export const KIND_LABELS: Record<AlarmKind, string> = {
  missed_check_in: msg('Missed Check-In'),
  emergency: msg('Emergency'),
};

/** What a monitor reads first: DURESS outranks the kind. */
export function alarmLabel(alarm: Pick<Alarm, 'kind' | 'duress'>): string {
  return alarm.duress ? msg('DURESS') : KIND_LABELS[alarm.kind];
}

export const STATE_LABELS: Record<AlarmState, string> = {
  open: msg('Open'),
  acknowledged: msg('Acknowledged'),
  resolved: msg('Resolved'),
};

export const VERDICT_LABELS: Record<AlarmVerdict, string> = {
  genuine: msg('Genuine'),
  false_alarm: msg('False alarm'),
  test: msg('Test'),
};

export const SEVERITY_LABELS: Record<IncidentSeverity, string> = {
  minor: msg('Minor'),
  serious: msg('Serious'),
  critical: msg('Critical'),
};

export const FALSE_REASON_LABELS: Record<FalseAlarmReason, string> = {
  forgot_check_in: msg('Forgot to check in'),
  no_signal: msg('No signal'),
  device: msg('Device problem'),
  other: msg('Other'),
};

const str = (value: unknown): string | null => (typeof value === 'string' && value ? value : null);
const num = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);

function parsePosition(value: unknown): AlarmPosition | null {
  if (!value || typeof value !== 'object') return null;
  const v = value as Record<string, unknown>;
  const lat = num(v.lat);
  const lng = num(v.lng);
  const at = str(v.at);
  return lat !== null && lng !== null && at ? { lat, lng, accuracy: num(v.accuracy), at } : null;
}

/**
 * An alarm the panel can show. One with an unknown kind or state is still listed (as an emergency
 * that nobody owns): a monitor must never miss an alarm because its payload surprised the screen.
 */
export function parseAlarm(value: unknown): Alarm | null {
  if (!value || typeof value !== 'object') return null;
  const v = value as Record<string, unknown>;
  const id = str(v.id);
  const userId = num(v.userId);
  if (!id || userId === null) return null;
  const kind: AlarmKind = v.kind === 'missed_check_in' ? 'missed_check_in' : 'emergency';
  const state: AlarmState = v.state === 'acknowledged' || v.state === 'resolved' ? v.state : 'open';
  return {
    id,
    userId,
    workerName: str(v.workerName) ?? i18n.t('Worker #{{id}}', { id: userId }),
    location: str(v.location),
    kind,
    state,
    openedAt: str(v.openedAt) ?? '',
    dueAt: str(v.dueAt),
    acknowledgedBy: num(v.acknowledgedBy),
    acknowledgedByName: str(v.acknowledgedByName),
    acknowledgedAt: str(v.acknowledgedAt),
    lateCheckInAt: str(v.lateCheckInAt),
    duress: v.duress === true,
    workerSafeAt: str(v.workerSafeAt),
    shiftNote: str(v.shiftNote),
    visit: parseVisit(v.visit),
    lastPosition: parsePosition(v.lastPosition),
    history: Array.isArray(v.history) ? v.history.filter((h): h is string => typeof h === 'string') : [],
    // A message the screen cannot read is left out, never shown on a guess; the alarm itself stays.
    messages: parseAlarmMessages(v.messages),
  };
}

export function parseAlarms(body: unknown): Alarm[] {
  if (!Array.isArray(body)) throw new Error('Invalid response from server');
  return body.map(parseAlarm).filter((a): a is Alarm => a !== null);
}

/** Every alarm not yet resolved, newest first. */
export async function fetchOpenAlarms(signal?: AbortSignal): Promise<Alarm[]> {
  return parseAlarms(await api.get('/api/alarms?open=true&limit=50', { signal }));
}

export const acknowledgeAlarm = (id: string) => api.post(`/api/alarms/${encodeURIComponent(id)}/acknowledge`);

export const resolveAlarm = (id: string, outcome: AlarmOutcome) => api.post(`/api/alarms/${encodeURIComponent(id)}/resolve`, outcome);

/**
 * The sealed note of the alarm's visit, for a monitor handling it; the read is logged, naming them.
 * A refusal (404: no sealed note; 410: deleted after 30 days) throws ApiError with the server's message.
 */
export async function revealVisitNote(id: string): Promise<string> {
  const body = (await api.post(`/api/alarms/${encodeURIComponent(id)}/visit-note`)) as { note?: unknown } | null;
  if (typeof body?.note !== 'string') throw new Error('Invalid response from server');
  return body.note;
}

/**
 * A monitor's message to the worker. The answer is the alarm with its messages, or null when it
 * cannot be read (the message went all the same). A refusal (400 naming `text`; 409 once resolved,
 * or on a duress alarm) throws ApiError with the server's message.
 */
export async function sendAlarmMessage(id: string, text: string): Promise<Alarm | null> {
  return parseAlarm(await api.post(`/api/alarms/${encodeURIComponent(id)}/messages`, { text }));
}

/** The open alarms are read afresh on every alarm event; this poll runs only while live updates are down. */
export const ALARMS_POLL_MS = 5000;
