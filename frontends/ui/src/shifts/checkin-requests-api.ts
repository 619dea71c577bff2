// From '@lws/fe-ui', not a relative path: this module is bundled into each container that uses it,
// and the page's one translations instance is the shared singleton's.
import { api, i18n } from '@lws/fe-ui';

// "Check in now": a monitor asks one worker, or everyone on shift in a team, to check in at once
// (POST /api/check-in-requests). The monitors read the batches asked (GET /api/check-in-requests),
// the worker their own request still waiting (GET /api/profile/check-in-request). Every time is UTC ISO-8601.

/** Where one worker's request stands: answered by a check-in, turned into an alarm, or ended with the shift. */
export type CheckInWorkerState = 'waiting' | 'answered' | 'alarm' | 'ended';

export interface CheckInBatchWorker {
  requestId: string;
  userId: number;
  name: string;
  state: CheckInWorkerState;
  answeredAt: string | null;
  alarmId: string | null;
}

/** One ask: of a single worker (`teamId` null) or of everyone on shift in a team. */
export interface CheckInBatch {
  id: string;
  requestedBy: number;
  /** Null once the monitor's account is gone. */
  requestedByName: string | null;
  requestedAt: string;
  /** When an unanswered request opens its missed check-in alarm. */
  dueAt: string;
  teamId: number | null;
  answered: number;
  total: number;
  workers: CheckInBatchWorker[];
}

/** The signed-in worker's request still waiting for a check-in. */
export interface OwnCheckInRequest {
  id: string;
  requestedAt: string;
  dueAt: string;
  requestedByName: string | null;
}

/** Whom to ask; the server gives `answerWithinMinutes` (2 to 60) its default of 5 when left out. */
export type CheckInTarget = ({ userId: number } | { teamId: number }) & { answerWithinMinutes?: number };

type Fields = Record<string, unknown>;
const record = (v: unknown): Fields | null => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Fields) : null);
const text = (v: unknown): string | null => (typeof v === 'string' && v ? v : null);
/** An id the server may send as a number or as text, kept as text. */
const textId = (v: unknown): string | null => (typeof v === 'number' && Number.isFinite(v) ? String(v) : text(v));
const positiveId = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v > 0;
const count = (v: unknown): number | null => (typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : null);
/** An instant the screens can compute with, or null: an unparseable time must not pass as one. */
const instant = (v: unknown): string | null => (typeof v === 'string' && !Number.isNaN(Date.parse(v)) ? v : null);

const STATES: readonly string[] = ['waiting', 'answered', 'alarm', 'ended'];

function parseWorker(value: unknown): CheckInBatchWorker | null {
  const v = record(value);
  const requestId = textId(v?.requestId);
  if (!v || !requestId || !positiveId(v.userId)) return null;
  // A state this screen does not know reads as waiting: a worker is never shown safe on a guess.
  const state = typeof v.state === 'string' && STATES.includes(v.state) ? (v.state as CheckInWorkerState) : 'waiting';
  return {
    requestId,
    userId: v.userId,
    name: text(v.name) ?? i18n.t('Worker #{{id}}', { id: v.userId }),
    state,
    answeredAt: instant(v.answeredAt),
    alarmId: textId(v.alarmId),
  };
}

/** A batch the card can show, or null when it lacks what it is shown by (who, when, how many). */
export function parseCheckInBatch(value: unknown): CheckInBatch | null {
  const v = record(value);
  if (!v || !Array.isArray(v.workers)) return null;
  const id = textId(v.id);
  const requestedAt = instant(v.requestedAt);
  const dueAt = instant(v.dueAt);
  const answered = count(v.answered);
  const total = count(v.total);
  if (!id || !positiveId(v.requestedBy) || !requestedAt || !dueAt || answered === null || total === null || answered > total) return null;
  return {
    id,
    requestedBy: v.requestedBy,
    requestedByName: text(v.requestedByName),
    requestedAt,
    dueAt,
    teamId: positiveId(v.teamId) ? v.teamId : null,
    answered,
    total,
    workers: v.workers.map(parseWorker).filter((w): w is CheckInBatchWorker => w !== null),
  };
}

/** The list of GET /api/check-in-requests, newest first; a batch the card cannot show is left out. */
export function parseCheckInBatches(body: unknown): CheckInBatch[] {
  if (!Array.isArray(body)) throw new Error('Invalid response from server');
  return body
    .map(parseCheckInBatch)
    .filter((b): b is CheckInBatch => b !== null)
    .sort((a, b) => Date.parse(b.requestedAt) - Date.parse(a.requestedAt));
}

/**
 * GET /api/profile/check-in-request: the request, or null when none waits. An answer of another
 * shape is refused rather than read as "nothing waiting".
 */
export function parseOwnCheckInRequest(body: unknown): OwnCheckInRequest | null {
  const v = record(body);
  if (!v || !('request' in v)) throw new Error('Invalid response from server');
  if (v.request === null) return null;
  const r = record(v.request);
  const id = textId(r?.id);
  const requestedAt = instant(r?.requestedAt);
  const dueAt = instant(r?.dueAt);
  if (!r || !id || !requestedAt || !dueAt) throw new Error('Invalid response from server');
  return { id, requestedAt, dueAt, requestedByName: text(r.requestedByName) };
}

export async function fetchCheckInBatches(signal?: AbortSignal): Promise<CheckInBatch[]> {
  return parseCheckInBatches(await api.get('/api/check-in-requests', { signal }));
}

export async function fetchCheckInBatch(id: string, signal?: AbortSignal): Promise<CheckInBatch> {
  const batch = parseCheckInBatch(await api.get(`/api/check-in-requests/${encodeURIComponent(id)}`, { signal }));
  if (!batch) throw new Error('Invalid response from server');
  return batch;
}

/** Asks now; the answer is the new batch. A refusal (400, 404, 409) throws ApiError with the server's message. */
export async function askToCheckIn(target: CheckInTarget): Promise<CheckInBatch> {
  const batch = parseCheckInBatch(await api.post('/api/check-in-requests', target));
  if (!batch) throw new Error('Invalid response from server');
  return batch;
}

export async function fetchOwnCheckInRequest(signal?: AbortSignal): Promise<OwnCheckInRequest | null> {
  return parseOwnCheckInRequest(await api.get('/api/profile/check-in-request', { signal }));
}
