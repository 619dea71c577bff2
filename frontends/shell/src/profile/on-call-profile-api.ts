import { api, msg } from '@lws/fe-ui';

// The signed-in admin's or superadmin's own on-call shifts and their calendar feed
// (GET /api/profile/on-call, POST and DELETE /api/profile/on-call/feed). Every time is a UTC ISO
// instant; a worker is refused (403) and never shown the card.

/** One stretch of the signed-in user on call for a team. */
export interface MyOnCallSlot {
  teamId: number;
  teamName: string;
  /** The rota layer's name; '' when the server sent none. */
  layerName: string;
  start: string;
  end: string;
  /** override: an override put them there (covering); deputy: standing in for `forUserId`, who is away. */
  via?: 'override' | 'deputy';
  forUserId?: number;
}

export interface MyOnCall {
  /** Whether a calendar feed address exists (the address itself is shown only when made). */
  hasFeed: boolean;
  /** In time order. */
  slots: MyOnCallSlot[];
}

export const MY_ON_CALL_KEY = ['on-call', 'mine'] as const;
/** How often the shifts are read again: the 14 days ahead move on with the time, not with an event. */
export const MY_ON_CALL_POLL_MS = 5 * 60_000;

type Fields = Record<string, unknown>;
const record = (v: unknown): Fields | null => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Fields) : null);
/** An instant the screen can show, or null: an unparseable time must not pass as one. */
const instant = (v: unknown): string | null => (typeof v === 'string' && !Number.isNaN(Date.parse(v)) ? v : null);

/** A slot, or null when it does not say which team and from when to when (it is then left out). */
export function parseMyOnCallSlot(value: unknown): MyOnCallSlot | null {
  const v = record(value);
  const start = instant(v?.start);
  const end = instant(v?.end);
  if (!v || typeof v.teamId !== 'number' || typeof v.teamName !== 'string' || !start || !end) return null;
  return {
    teamId: v.teamId,
    teamName: v.teamName,
    layerName: typeof v.layerName === 'string' ? v.layerName : '',
    start,
    end,
    ...(v.via === 'override' || v.via === 'deputy' ? { via: v.via } : {}),
    ...(typeof v.forUserId === 'number' ? { forUserId: v.forUserId } : {}),
  };
}

/** GET /api/profile/on-call; an answer without `hasFeed` is refused rather than half-trusted. */
export function parseMyOnCall(body: unknown): MyOnCall {
  const v = record(body);
  if (!v || typeof v.hasFeed !== 'boolean') throw new Error(msg('Invalid response format from server'));
  const slots = (Array.isArray(v.slots) ? v.slots : [])
    .flatMap((s: unknown) => parseMyOnCallSlot(s) ?? [])
    .sort((a, b) => Date.parse(a.start) - Date.parse(b.start));
  return { hasFeed: v.hasFeed, slots };
}

/**
 * POST /api/profile/on-call/feed: the new feed's path. Only a path on this site ('/…', not '//…')
 * is taken, so the address shown is always this site's.
 */
export function parseFeedPath(body: unknown): string {
  const path = record(body)?.path;
  if (typeof path !== 'string' || !/^\/[^/\\]/.test(path)) throw new Error(msg('Invalid response format from server'));
  return path;
}

/** The address a calendar app subscribes to: this site's origin and the feed's path. */
export const feedAddress = (path: string, origin: string = window.location.origin) => `${origin}${path}`;

export const fetchMyOnCall = async ({ signal }: { signal?: AbortSignal }) =>
  parseMyOnCall(await api.get('/api/profile/on-call', { signal }));

/** Makes a new feed address (the old one stops working) and gives the absolute address. */
export const createFeed = async () => feedAddress(parseFeedPath(await api.post('/api/profile/on-call/feed')));

/** Stops the feed; whether there was one to stop. */
export const revokeFeed = async () => {
  const body = record(await api.delete('/api/profile/on-call/feed'));
  return body?.revoked === true;
};
