/** The event types of GET /api/events that screens subscribe to. */
export const LIVE_EVENT_TYPES = ['worker', 'alarm', 'activity', 'account', 'checkin_request'] as const;
export type LiveEventType = (typeof LIVE_EVENT_TYPES)[number];

export type WorkerChange =
  | 'shift_started'
  | 'shift_ended'
  | 'checked_in'
  | 'deadline_changed'
  | 'emergency'
  | 'visit_started'
  | 'visit_ended';
export type AlarmChange =
  | 'opened'
  | 'acknowledged'
  | 'resolved'
  | 'escalated'
  | 'late_check_in'
  | 'worker_safe'
  | 'pressed_again'
  | 'note_added'
  | 'message';
export type AccountChange = 'created' | 'updated' | 'deleted';
export type CheckInRequestChange = 'requested' | 'closed';
export type CheckInRequestOutcome = 'answered' | 'alarm' | 'shift_ended';

/** A worker's shift moved. Admins hear of every worker; a worker only of themselves. */
export interface WorkerEvent {
  userId: number;
  change: WorkerChange;
  at: string;
  nextCheckInTime?: string;
  location?: string;
}

/** An alarm changed. Admins hear of every alarm; a worker only that one opened about themselves. */
export interface AlarmEvent {
  alarmId: string;
  userId: number;
  change: AlarmChange;
  kind?: string;
  at: string;
}

/** A new activity log entry, as GET /api/activity-logs lists it (admins). */
export interface ActivityEvent {
  id: number;
  userId: number | null;
  username: string;
  type: string;
  label: string;
  timestamp: string;
  details: string;
  location: string | null;
}

/** An account was created, changed or deleted (admins); a worker hears of changes to its own account. */
export interface AccountEvent {
  userId: number;
  change: AccountChange;
}

/**
 * A monitor asked a worker to check in now, or that request closed. Admins hear of the requests
 * they may see; a worker only of their own.
 */
export interface CheckInRequestEvent {
  requestId: string;
  /** The request of one worker, or of a whole team, it belongs to. */
  batchId: string;
  userId: number;
  change: CheckInRequestChange;
  /** How a closed request ended. */
  outcome?: CheckInRequestOutcome;
  at: string;
  /** When a new request opens its missed check-in alarm if unanswered. */
  dueAt?: string;
}

export type LiveEvent =
  | { type: 'worker'; data: WorkerEvent }
  | { type: 'alarm'; data: AlarmEvent }
  | { type: 'activity'; data: ActivityEvent }
  | { type: 'account'; data: AccountEvent }
  | { type: 'checkin_request'; data: CheckInRequestEvent };

const WORKER_CHANGES: readonly string[] = [
  'shift_started',
  'shift_ended',
  'checked_in',
  'deadline_changed',
  'emergency',
  'visit_started',
  'visit_ended',
];
const ALARM_CHANGES: readonly string[] = [
  'opened',
  'acknowledged',
  'resolved',
  'escalated',
  'late_check_in',
  'worker_safe',
  'pressed_again',
  'note_added',
  'message',
];
const ACCOUNT_CHANGES: readonly string[] = ['created', 'updated', 'deleted'];
const CHECK_IN_REQUEST_CHANGES: readonly string[] = ['requested', 'closed'];
const CHECK_IN_REQUEST_OUTCOMES: readonly string[] = ['answered', 'alarm', 'shift_ended'];

const rec = (v: unknown): Record<string, unknown> | null =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
const id = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v > 0;
const time = (v: unknown): v is string => typeof v === 'string' && !Number.isNaN(Date.parse(v));
const optText = (v: unknown): string | undefined => (typeof v === 'string' && v ? v : undefined);
/** An id the server may send as a number or as text, kept as text. */
const textId = (v: unknown): string | undefined => (typeof v === 'number' && Number.isFinite(v) ? String(v) : optText(v));

export function isLiveEventType(type: string): type is LiveEventType {
  return (LIVE_EVENT_TYPES as readonly string[]).includes(type);
}

/** An activity entry from the stream or the list; null when it lacks what a row shows. */
export function parseActivityEntry(value: unknown): ActivityEvent | null {
  const v = rec(value);
  if (!v || !id(v.id) || typeof v.type !== 'string' || !time(v.timestamp)) return null;
  return {
    id: v.id,
    userId: id(v.userId) ? v.userId : null,
    username: typeof v.username === 'string' && v.username ? v.username : id(v.userId) ? `User #${v.userId}` : 'Unknown user',
    type: v.type,
    label: typeof v.label === 'string' ? v.label : '',
    timestamp: v.timestamp,
    details: typeof v.details === 'string' ? v.details : '',
    location: optText(v.location) ?? null,
  };
}

/**
 * The payload of a stream message of a known type, or null when it is malformed (the caller then
 * refetches everything rather than trust a half-read change).
 */
export function parseLiveEvent(type: LiveEventType, data: string): LiveEvent | null {
  let v: Record<string, unknown> | null;
  try {
    v = rec(JSON.parse(data));
  } catch {
    return null;
  }
  if (!v) return null;
  switch (type) {
    case 'worker': {
      if (!id(v.userId) || typeof v.change !== 'string' || !WORKER_CHANGES.includes(v.change) || !time(v.at)) return null;
      const next = time(v.nextCheckInTime) ? v.nextCheckInTime : undefined;
      const location = optText(v.location);
      return {
        type,
        data: {
          userId: v.userId,
          change: v.change as WorkerChange,
          at: v.at,
          ...(next ? { nextCheckInTime: next } : {}),
          ...(location ? { location } : {}),
        },
      };
    }
    case 'alarm': {
      const alarmId = typeof v.alarmId === 'number' ? String(v.alarmId) : v.alarmId;
      if (
        typeof alarmId !== 'string' ||
        !alarmId ||
        !id(v.userId) ||
        typeof v.change !== 'string' ||
        !ALARM_CHANGES.includes(v.change) ||
        !time(v.at)
      )
        return null;
      const kind = optText(v.kind);
      return { type, data: { alarmId, userId: v.userId, change: v.change as AlarmChange, at: v.at, ...(kind ? { kind } : {}) } };
    }
    case 'activity': {
      const entry = parseActivityEntry(v);
      return entry ? { type, data: entry } : null;
    }
    case 'account': {
      if (!id(v.userId) || typeof v.change !== 'string' || !ACCOUNT_CHANGES.includes(v.change)) return null;
      return { type, data: { userId: v.userId, change: v.change as AccountChange } };
    }
    case 'checkin_request': {
      const requestId = textId(v.requestId);
      const batchId = textId(v.batchId);
      if (
        !requestId ||
        !batchId ||
        !id(v.userId) ||
        typeof v.change !== 'string' ||
        !CHECK_IN_REQUEST_CHANGES.includes(v.change) ||
        !time(v.at)
      )
        return null;
      // An outcome this screen does not know still closes the request: the frame is kept without it.
      const outcome = typeof v.outcome === 'string' && CHECK_IN_REQUEST_OUTCOMES.includes(v.outcome) ? v.outcome : undefined;
      const dueAt = time(v.dueAt) ? v.dueAt : undefined;
      return {
        type,
        data: {
          requestId,
          batchId,
          userId: v.userId,
          change: v.change as CheckInRequestChange,
          at: v.at,
          ...(outcome ? { outcome: outcome as CheckInRequestOutcome } : {}),
          ...(dueAt ? { dueAt } : {}),
        },
      };
    }
  }
}
