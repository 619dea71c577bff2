// From '@lws/fe-ui', not a relative path: this module is bundled into each container that uses it,
// and the page's one API client is the shared singleton's.
import { api } from '@lws/fe-ui';
import type { AlarmKind } from './alarms-api';

// Messages during an alarm: the monitor handling it and the worker exchange short texts while it
// is open. The monitors read them on each alarm (GET /api/alarms), the worker the thread of their
// newest open alarm (GET /api/profile/alarm-messages). Every time is UTC ISO-8601.

export type AlarmMessageFrom = 'monitor' | 'worker';

export interface AlarmMessage {
  id: string;
  from: AlarmMessageFrom;
  /** Who wrote it, by name (a machine by its token); null when the server does not know them. */
  byName: string | null;
  text: string;
  at: string;
  /** When the worker's screen showed a monitor's message; null until it has (and for the worker's own). */
  seenAt: string | null;
}

/** The signed-in worker's thread: that of their newest open alarm. */
export interface AlarmThread {
  alarmId: string;
  kind: AlarmKind;
  /** Oldest first. */
  messages: AlarmMessage[];
}

type Fields = Record<string, unknown>;
const record = (v: unknown): Fields | null => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Fields) : null);
const text = (v: unknown): string | null => (typeof v === 'string' && v ? v : null);
/** An id the server may send as a number or as text, kept as text. */
const textId = (v: unknown): string | null => (typeof v === 'number' && Number.isFinite(v) ? String(v) : text(v));
/** An instant the screens can show, or null: an unparseable time must not pass as one. */
const instant = (v: unknown): string | null => (typeof v === 'string' && !Number.isNaN(Date.parse(v)) ? v : null);

/**
 * A message the screens can show, or null. One whose sender is unknown is refused: a worker's
 * words must never be shown as a monitor's, nor the other way round.
 */
export function parseAlarmMessage(value: unknown): AlarmMessage | null {
  const v = record(value);
  const id = textId(v?.id);
  const at = instant(v?.at);
  if (!v || !id || !at || (v.from !== 'monitor' && v.from !== 'worker') || typeof v.text !== 'string' || !v.text.trim()) return null;
  return { id, from: v.from, byName: text(v.byName), text: v.text, at, seenAt: instant(v.seenAt) };
}

/** The messages of an alarm, in the server's order (oldest first), without those it cannot show. */
export function parseAlarmMessages(value: unknown): AlarmMessage[] {
  return Array.isArray(value) ? value.map(parseAlarmMessage).filter((m): m is AlarmMessage => m !== null) : [];
}

/**
 * GET /api/profile/alarm-messages and its writes: the thread, or null when no alarm of the worker's
 * is open. An answer of another shape, or of an alarm kind the screen cannot place, is refused
 * rather than read as "no thread".
 */
export function parseAlarmThread(body: unknown): AlarmThread | null {
  const v = record(body);
  if (!v || !('thread' in v)) throw new Error('Invalid response from server');
  if (v.thread === null) return null;
  const thread = record(v.thread);
  const alarmId = textId(thread?.alarmId);
  const kind = thread?.kind;
  if (!thread || !alarmId || (kind !== 'missed_check_in' && kind !== 'emergency') || !Array.isArray(thread.messages))
    throw new Error('Invalid response from server');
  return { alarmId, kind, messages: parseAlarmMessages(thread.messages) };
}

export const ALARM_THREAD_PATH = '/api/profile/alarm-messages';

export async function fetchAlarmThread(signal?: AbortSignal): Promise<AlarmThread | null> {
  return parseAlarmThread(await api.get(ALARM_THREAD_PATH, { signal }));
}

/** The worker's answer; a refusal (400 naming `text`, 409 with no alarm open) throws ApiError with the server's message. */
export async function replyToAlarm(text: string): Promise<AlarmThread | null> {
  return parseAlarmThread(await api.post(ALARM_THREAD_PATH, { text }));
}

/** The worker's screen has shown the monitors' messages: no SMS copy of them follows. */
export async function markAlarmMessagesSeen(): Promise<AlarmThread | null> {
  return parseAlarmThread(await api.post(`${ALARM_THREAD_PATH}/seen`));
}
