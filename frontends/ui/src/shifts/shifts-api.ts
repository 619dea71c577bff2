// From '@lws/fe-ui', not a relative path: this module is bundled into each container that uses it,
// and the page's one translations instance is the shared singleton's.
import { apiResponse, i18n, msg, type WorkerEvent } from '@lws/fe-ui';

/** The last check-in of a worker's current shift. */
export interface LatestCheckIn {
  /** A UUID. */
  id: string;
  timestamp: string;
  location: string | null;
  nextCheckInTime: string | null;
}

/**
 * Nobody is on call for the worker's team for a while within their shift's first hours: what a
 * shift start answers when the team only warns of it (`coverRequired: 'warn'`).
 */
export interface CoverWarning {
  gapStart: string;
  gapEnd: string;
}

/** A timed visit on shift: its end is the worker's deadline when sooner than the regular one. Never its sealed note. */
export interface Visit {
  id: string;
  /** An address or a location, as the worker gave it. */
  where: string;
  startedAt: string;
  /** When its timer runs out ("+15 min" moves it). */
  endsAt: string;
  /** The worker left a sealed note, revealed only on an alarm of the visit. */
  hasNote: boolean;
  /** The team's visit type it was started as (e.g. "Home visit, high risk"); null: none. */
  type: { id: string; name: string } | null;
  /** Minutes between check-ins while it lasts (the type's); null: the worker's own interval. */
  checkInInterval: number | null;
}

/** A worker's shift as the server reports it; every time is UTC ISO-8601 and computed by the server. */
export interface ShiftState {
  onShift: boolean;
  /** 'Off Shift' when off shift. */
  location: string | null;
  shiftStartTime: string | null;
  latestCheckIn: LatestCheckIn | null;
  nextCheckInTime: string | null;
  /** The timed visit under way; null when none (always off shift). */
  visit: Visit | null;
  /** Only in the answer to a shift start, when the team has no cover for part of it. */
  coverWarning?: CoverWarning;
}

/** A row of GET /api/workers/active (also /due and /missed). */
export interface ShiftWorker extends ShiftState {
  id: number;
  name: string;
  username: string;
  phone?: string;
}

export const OFF_SHIFT: ShiftState = {
  onShift: false,
  // Shown as the location: a screen passes it through t().
  location: msg('Off Shift'),
  shiftStartTime: null,
  latestCheckIn: null,
  nextCheckInTime: null,
  visit: null,
};

function record(value: unknown): Record<string, unknown> | null {
  return value && typeof value === 'object' ? (value as Record<string, unknown>) : null;
}

/** A time the screens can compute with, or null: an unparseable time must not pass as one. */
function isoTime(value: unknown): string | null {
  return typeof value === 'string' && !Number.isNaN(Date.parse(value)) ? value : null;
}

const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** A check-in's id, kept as text whatever form the server sent it in. */
export function checkInId(value: unknown): string | null {
  if (typeof value === 'string' && value) return value;
  return typeof value === 'number' && Number.isFinite(value) ? String(value) : null;
}

function parseLatestCheckIn(value: unknown): LatestCheckIn | null {
  const v = record(value);
  const timestamp = isoTime(v?.timestamp);
  const id = checkInId(v?.id);
  if (!v || !id || !timestamp) return null;
  return { id, timestamp, location: str(v.location), nextCheckInTime: isoTime(v.nextCheckInTime) };
}

/** A cover warning with both ends as times, the end after the start; null otherwise (it is then ignored). */
function parseCoverWarning(value: unknown): CoverWarning | null {
  const v = record(value);
  const gapStart = isoTime(v?.gapStart);
  const gapEnd = isoTime(v?.gapEnd);
  return gapStart && gapEnd && Date.parse(gapEnd) > Date.parse(gapStart) ? { gapStart, gapEnd } : null;
}

/** A visit the screens can show: an id, a place and both times, the end after the start; null otherwise. */
export function parseVisit(value: unknown): Visit | null {
  const v = record(value);
  const id = str(v?.id);
  const where = str(v?.where);
  const startedAt = isoTime(v?.startedAt);
  const endsAt = isoTime(v?.endsAt);
  if (!v || !id || !where || !startedAt || !endsAt) return null;
  const type = record(v.type);
  const typeId = str(type?.id);
  const typeName = str(type?.name);
  return {
    id,
    where,
    startedAt,
    endsAt,
    hasNote: v.hasNote === true,
    type: typeId && typeName ? { id: typeId, name: typeName } : null,
    checkInInterval: typeof v.checkInInterval === 'number' && v.checkInInterval > 0 ? v.checkInInterval : null,
  };
}

/**
 * The shift fields of a user, account or worker payload. Anything missing reads as off shift, so a
 * payload from before shifts existed never shows a worker as safely on shift.
 */
export function parseShiftState(value: unknown): ShiftState {
  const v = record(value);
  if (v?.onShift !== true) return { ...OFF_SHIFT, location: str(v?.location) ?? OFF_SHIFT.location };
  const latestCheckIn = parseLatestCheckIn(v.latestCheckIn);
  const coverWarning = parseCoverWarning(v.coverWarning);
  return {
    onShift: true,
    location: str(v.location),
    shiftStartTime: isoTime(v.shiftStartTime),
    latestCheckIn,
    nextCheckInTime: isoTime(v.nextCheckInTime) ?? latestCheckIn?.nextCheckInTime ?? null,
    visit: parseVisit(v.visit),
    ...(coverWarning ? { coverWarning } : {}),
  };
}

/**
 * A worker on shift is never dropped from a monitor's list: one whose name the shifts service has
 * not heard yet is listed under their id.
 */
export function parseShiftWorkers(body: unknown): ShiftWorker[] {
  if (!Array.isArray(body)) throw new Error('Expected worker array but received different data');
  const workers: ShiftWorker[] = [];
  for (const item of body) {
    const v = record(item);
    if (!v || typeof v.id !== 'number') continue;
    workers.push({
      id: v.id,
      name: str(v.name) || i18n.t('Worker #{{id}}', { id: v.id }),
      username: str(v.username) ?? '',
      ...(str(v.phone) ? { phone: str(v.phone)! } : {}),
      ...parseShiftState(v),
    });
  }
  return workers;
}

/** Page size asked of the dashboard lists, and how many pages one load follows at most. */
const PAGE_LIMIT = 500;
const MAX_PAGES = 40;

/**
 * Every worker on shift, following the server's `X-Next-Cursor` pages. The server never loads a
 * whole fleet for one answer; the cap only stops a misbehaving server from looping forever.
 */
export async function fetchActiveWorkers(): Promise<ShiftWorker[]> {
  const workers: ShiftWorker[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < MAX_PAGES; page++) {
    const query = new URLSearchParams({ limit: String(PAGE_LIMIT) });
    if (cursor) query.set('cursor', cursor);
    const { body, headers } = await apiResponse(`/api/workers/active?${query}`);
    workers.push(...parseShiftWorkers(body));
    cursor = headers.get('X-Next-Cursor');
    if (!cursor) break;
  }
  return workers;
}

/**
 * A shift after a check-in or a moved deadline heard on the event stream, without asking the server
 * again; null when the event does not say enough (the screen then fetches the worker afresh).
 */
export function applyWorkerChange(shift: ShiftState, event: WorkerEvent): ShiftState | null {
  const next = event.nextCheckInTime;
  if (!shift.onShift || !next) return null;
  if (event.change === 'checked_in') {
    const location = event.location ?? shift.location;
    return {
      ...shift,
      latestCheckIn: { id: `live:${event.at}`, timestamp: event.at, location, nextCheckInTime: next },
      nextCheckInTime: next,
    };
  }
  if (event.change === 'deadline_changed') {
    return {
      ...shift,
      latestCheckIn: shift.latestCheckIn ? { ...shift.latestCheckIn, nextCheckInTime: next } : null,
      nextCheckInTime: next,
    };
  }
  return null;
}
