import { useCallback, useEffect, useRef, useState } from 'react';
import { api, useLiveRefresh } from '@lws/fe-ui';
import { parseShiftState, type ShiftState } from '@lws/fe-ui/shifts';
import { DEFAULT_CHECK_IN_INTERVAL_MINUTES } from '@lws/rules';

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

export type ShiftLoad = { state: 'loading' } | { state: 'error' } | { state: 'ready'; shift: ShiftState };

/**
 * The signed-in worker's shift, from GET /api/users/{id}/with-relations. `set` records a state
 * the screen already knows (an optimistic start, a server's answer); a fetch that was already
 * in flight then cannot put an older state back on screen.
 */
export function useWorkerShift(userId: number, { paused }: { paused: boolean }) {
  const [load, setLoad] = useState<ShiftLoad>({ state: 'loading' });
  // The worker's own check-in interval (their settings; 60 minutes without), which the texts follow.
  const [intervalMinutes, setIntervalMinutes] = useState(DEFAULT_CHECK_IN_INTERVAL_MINUTES);
  // "+15 min" presses this shift has left (issue 13); 0 off shift or when there are none.
  const [extensionsLeft, setExtensionsLeft] = useState(0);
  // "Where I'll be" of the current shift (issue 13).
  const [shiftNote, setShiftNote] = useState<string | null>(null);
  const generation = useRef(0);

  /** Resolves with the shift read, or null when it could not be read. */
  const reload = useCallback(async (): Promise<ShiftState | null> => {
    const started = generation.current;
    try {
      const body = await api.get<{ settings?: { checkInInterval?: unknown } | null; extensionsLeft?: unknown; shiftNote?: unknown }>(
        `/api/users/${userId}/with-relations`,
      );
      const shift = parseShiftState(body);
      const interval = body?.settings?.checkInInterval;
      setIntervalMinutes(typeof interval === 'number' && interval > 0 ? interval : DEFAULT_CHECK_IN_INTERVAL_MINUTES);
      setExtensionsLeft(extensionsOf(body));
      setShiftNote(typeof body?.shiftNote === 'string' && body.shiftNote ? body.shiftNote : null);
      if (started === generation.current) setLoad({ state: 'ready', shift });
      return shift;
    } catch (e) {
      console.error('Loading your shift failed', e);
      // A failed poll keeps what is on screen; only a first load shows the error.
      if (started === generation.current) setLoad((current) => (current.state === 'ready' ? current : { state: 'error' }));
      return null;
    }
  }, [userId]);

  const set = useCallback((shift: ShiftState) => {
    generation.current += 1;
    setLoad({ state: 'ready', shift });
  }, []);

  useEffect(() => {
    void reload();
  }, [reload]);
  // Nothing is fetched while a shift change or check-in is in flight: it could answer the state from
  // before it. A change heard meanwhile is fetched once it has settled.
  useLiveRefresh(reload, { types: ['worker', 'alarm'], when: (e) => 'userId' in e.data && e.data.userId === userId, pollMs: WORKER_REFETCH_MS, paused });

  return { load, reload, set, intervalMinutes, extensionsLeft, setExtensionsLeft, shiftNote };
}
