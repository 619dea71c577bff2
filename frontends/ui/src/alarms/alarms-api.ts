import { api } from '@lws/fe-ui';

export type AlarmKind = 'missed_check_in' | 'emergency';
export type AlarmState = 'open' | 'acknowledged' | 'resolved';
export type AlarmVerdict = 'genuine' | 'false_alarm';

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
  /** Raised by the worker's duress PIN (issue 13): they may be under threat. */
  duress: boolean;
  /** When the worker said they are safe with their PIN: escalation stopped, to be confirmed. */
  workerSafeAt: string | null;
  /** "Where I'll be", as the worker wrote it when the shift started (issue 13). */
  shiftNote: string | null;
  /** The worker's last known position (a check-in's) and when it was taken. */
  lastPosition: AlarmPosition | null;
  history: string[];
}

/** How long ago: "just now", "1 min", "14 min", "2 h 5 min". */
export function alarmAge(openedAt: string, now: Date): string {
  const minutes = Math.max(0, Math.floor((now.getTime() - Date.parse(openedAt)) / 60_000));
  if (minutes < 1) return 'just now';
  if (minutes < 60) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
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
  missed_check_in: 'Missed Check-In',
  emergency: 'Emergency',
};

/** What a monitor reads first: DURESS outranks the kind. */
export function alarmLabel(alarm: Pick<Alarm, 'kind' | 'duress'>): string {
  return alarm.duress ? 'DURESS' : KIND_LABELS[alarm.kind];
}

export const STATE_LABELS: Record<AlarmState, string> = {
  open: 'Open',
  acknowledged: 'Acknowledged',
  resolved: 'Resolved',
};

export const VERDICT_LABELS: Record<AlarmVerdict, string> = {
  genuine: 'Genuine',
  false_alarm: 'False alarm',
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
    workerName: str(v.workerName) ?? `Worker #${userId}`,
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
    lastPosition: parsePosition(v.lastPosition),
    history: Array.isArray(v.history) ? v.history.filter((h): h is string => typeof h === 'string') : [],
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

export const resolveAlarm = (id: string, verdict: AlarmVerdict, note: string) =>
  api.post(`/api/alarms/${encodeURIComponent(id)}/resolve`, { verdict, note });

/** The open alarms are read afresh on every alarm event; this poll runs only while live updates are down. */
export const ALARMS_POLL_MS = 5000;
