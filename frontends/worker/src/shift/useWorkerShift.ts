import { useCallback } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { api, useLiveQuery } from '@lws/fe-ui';
import { WORKER_READS } from '@lws/fe-ui/early-reads';
import { parseShiftState, type ShiftState } from '@lws/fe-ui/shifts';
import { DEFAULT_CHECK_IN_INTERVAL_MINUTES } from '@lws/rules';
import { parseVisitTypes, type VisitType } from '../visit/visit-rules';

/**
 * Spec section 9: the worker's own record is fetched again every 15 s (it catches a forced
 * clock-out too). That poll runs only while live updates are down: otherwise every change to the
 * worker's shift (from any screen: a forced clock-out, a moved deadline, an alarm) arrives at once.
 */
export const WORKER_REFETCH_MS = 15_000;

/** The `extensionsLeft` of a worker the server sent (absent off shift). */
export function extensionsOf(body: unknown): number {
  const v = body && typeof body === 'object' ? (body as { extensionsLeft?: unknown }).extensionsLeft : undefined;
  return typeof v === 'number' && Number.isInteger(v) && v > 0 ? v : 0;
}

const NO_VISIT_TYPES: VisitType[] = [];

export type ShiftLoad = { state: 'loading' } | { state: 'error' } | { state: 'ready'; shift: ShiftState };

/** What the worker screen reads of GET /api/users/{id}/with-relations. */
export interface OwnShift {
  shift: ShiftState;
  /** The worker's check-in interval (their own, else their team's default), which the texts follow. */
  intervalMinutes: number;
  /** "+15 min" presses this shift has left; 0 off shift or when there are none. */
  extensionsLeft: number;
  /** "Where I'll be" of the current shift. */
  shiftNote: string | null;
  /** The visit types of the worker's team, offered when they start a visit; none when the team has none. */
  visitTypes: VisitType[];
}

export function parseOwnShift(body: unknown): OwnShift {
  const b = (body && typeof body === 'object' ? body : {}) as {
    checkInInterval?: unknown;
    settings?: { checkInInterval?: unknown } | null;
    shiftNote?: unknown;
    team?: unknown;
  };
  const interval = b.checkInInterval ?? b.settings?.checkInInterval;
  return {
    shift: parseShiftState(body),
    intervalMinutes: typeof interval === 'number' && interval > 0 ? interval : DEFAULT_CHECK_IN_INTERVAL_MINUTES,
    extensionsLeft: extensionsOf(body),
    shiftNote: typeof b.shiftNote === 'string' && b.shiftNote ? b.shiftNote : null,
    visitTypes: parseVisitTypes(b.team),
  };
}

export const ownShiftKey = (userId: number) => ['worker-shift', userId] as const;

/**
 * The signed-in worker's shift. `set` records a state the screen already knows (an optimistic
 * start, a server's answer): a fetch already in flight is cancelled, so it cannot put an older
 * state back on screen. While `paused` (a shift change or check-in in flight, which a fetch could
 * answer with the state from before it) nothing is fetched; afterwards it is fetched once.
 */
export function useWorkerShift(userId: number, { paused }: { paused: boolean }) {
  const client = useQueryClient();
  const key = ownShiftKey(userId);
  const query = useLiveQuery({
    queryKey: key,
    queryFn: async ({ signal }) => parseOwnShift(await api.get(WORKER_READS.shift(userId), { signal })),
    // An account frame: the worker's settings or team changed, and with them perhaps their interval.
    live: { types: ['worker', 'alarm', 'account'], when: (e) => 'userId' in e.data && e.data.userId === userId },
    pollMs: WORKER_REFETCH_MS,
    enabled: !paused,
  });
  const { data, error, refetch } = query;

  /** Resolves with the shift read, or null when it could not be read. */
  const reload = useCallback(async (): Promise<ShiftState | null> => {
    const r = await refetch();
    return r.isError || !r.data ? null : r.data.shift;
  }, [refetch]);

  const update = useCallback(
    (change: Partial<OwnShift>) => {
      void client.cancelQueries({ queryKey: ownShiftKey(userId) });
      // Before the first read there is nothing to amend but a shift itself: a count alone waits for the read.
      client.setQueryData<OwnShift>(ownShiftKey(userId), (old) =>
        old
          ? { ...old, ...change }
          : change.shift
            ? {
                shift: change.shift,
                intervalMinutes: DEFAULT_CHECK_IN_INTERVAL_MINUTES,
                extensionsLeft: 0,
                shiftNote: null,
                visitTypes: [],
                ...change,
              }
            : old,
      );
    },
    [client, userId],
  );
  const set = useCallback((shift: ShiftState) => update({ shift }), [update]);
  const setExtensionsLeft = useCallback((extensionsLeft: number) => update({ extensionsLeft }), [update]);

  // A failed refetch keeps what is on screen; only a first load shows the error.
  const load: ShiftLoad = data ? { state: 'ready', shift: data.shift } : error ? { state: 'error' } : { state: 'loading' };
  return {
    load,
    reload,
    set,
    intervalMinutes: data?.intervalMinutes ?? DEFAULT_CHECK_IN_INTERVAL_MINUTES,
    /** The interval as read from the server; null before the first read. */
    intervalRead: data?.intervalMinutes ?? null,
    extensionsLeft: data?.extensionsLeft ?? 0,
    setExtensionsLeft,
    shiftNote: data?.shiftNote ?? null,
    visitTypes: data?.visitTypes ?? NO_VISIT_TYPES,
  };
}
