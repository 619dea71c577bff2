import { api, msg, parseOnCallSlot, parseOnCallTimeline, type OnCallGap, type OnCallSlot, type OnCallTimeline } from '@lws/fe-ui';

// The slot and timeline are @lws/fe-ui's, shared with the rota editor.
export { parseOnCallSlot, parseOnCallTimeline, type OnCallGap, type OnCallSlot, type OnCallTimeline } from '@lws/fe-ui';

// A team's on-call rota as its monitors read it (docs/api-teams.md, "On-call rota"): which teams in
// view have one (GET /api/teams), who is on call now (GET /api/teams/{id}/on-call) and the resolved
// timeline with its gaps (GET /api/teams/{id}/on-call/timeline). Every time is a UTC ISO instant.

/** A team in view that has a rota. */
export interface RotaTeam {
  id: number;
  name: string;
}

/** GET /api/teams/{id}/on-call: `now` absent while the team has a rota is a gap, nobody on call. */
export interface OnCallNow {
  hasRota: boolean;
  /** The moment answered for, by the server's clock. */
  at: string;
  now?: OnCallSlot;
  /** The next layer's person at that moment. */
  next?: OnCallSlot;
  /** Who takes over when `now` ends. */
  after?: OnCallSlot;
}

/** How often who is on call is read again: it changes with the time, not with an event. */
export const ON_CALL_POLL_MS = 60_000;
/** How far ahead the dashboard looks for gaps and for the next person on call. */
export const ON_CALL_LOOKAHEAD_MS = 48 * 3_600_000;

export const ROTA_TEAMS_KEY = ['teams', 'on-call'] as const;
export const onCallNowKey = (teamId: number) => ['teams', teamId, 'on-call', 'now'] as const;
export const onCallTimelineKey = (teamId: number) => ['teams', teamId, 'on-call', 'timeline'] as const;

type Fields = Record<string, unknown>;
const record = (v: unknown): Fields | null => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Fields) : null);
/** An instant the screen can compute with, or null: an unparseable time must not pass as one. */
const instant = (v: unknown): string | null => (typeof v === 'string' && !Number.isNaN(Date.parse(v)) ? v : null);

/** The teams of GET /api/teams that have a rota; a team whose rota is not an object has none. */
export function parseRotaTeams(body: unknown): RotaTeam[] {
  if (!Array.isArray(body)) throw new Error(msg('Expected a list of teams'));
  return body.flatMap((item: unknown) => {
    const v = record(item);
    if (!v || typeof v.id !== 'number' || typeof v.name !== 'string' || !record(v.onCallSchedule)) return [];
    return [{ id: v.id, name: v.name }];
  });
}

export function parseOnCallNow(body: unknown): OnCallNow {
  const v = record(body);
  if (!v || typeof v.hasRota !== 'boolean') throw new Error(msg('Invalid response format from server'));
  const now = parseOnCallSlot(v.now);
  const next = parseOnCallSlot(v.next);
  const after = parseOnCallSlot(v.after);
  return {
    hasRota: v.hasRota,
    at: instant(v.at) ?? new Date().toISOString(),
    ...(now ? { now } : {}),
    ...(next ? { next } : {}),
    ...(after ? { after } : {}),
  };
}

export const fetchRotaTeams = async ({ signal }: { signal?: AbortSignal }) => parseRotaTeams(await api.get('/api/teams', { signal }));

export const fetchOnCallNow = async (teamId: number, { signal }: { signal?: AbortSignal }) =>
  parseOnCallNow(await api.get(`/api/teams/${teamId}/on-call`, { signal }));

export async function fetchOnCallTimeline(teamId: number, from: Date, to: Date, { signal }: { signal?: AbortSignal }) {
  const query = new URLSearchParams({ from: from.toISOString(), to: to.toISOString() });
  return parseOnCallTimeline(await api.get(`/api/teams/${teamId}/on-call/timeline?${query}`, { signal }));
}

/**
 * Who is on call next after a gap that holds `at`: the first stretch of the timeline still to
 * come; undefined when nobody is on call before the timeline's end.
 */
export function nextOnCall(timeline: OnCallTimeline, at: string): OnCallSlot | undefined {
  const from = Date.parse(at);
  return timeline.final
    .filter((slot) => Date.parse(slot.end) > from)
    .sort((a, b) => Date.parse(a.start) - Date.parse(b.start))
    .find((slot) => Date.parse(slot.start) >= from);
}

/** The gaps still to come, or under way, at `at`, in time order. */
export function gapsFrom(timeline: OnCallTimeline, at: string): OnCallGap[] {
  const from = Date.parse(at);
  return timeline.gaps.filter((gap) => Date.parse(gap.end) > from).sort((a, b) => Date.parse(a.start) - Date.parse(b.start));
}
