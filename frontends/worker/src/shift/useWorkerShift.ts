import { useCallback, useEffect, useRef, useState } from 'react';
import { api, useInterval } from '@lws/fe-ui';
import { parseShiftState, type ShiftState } from '@lws/fe-ui/shifts';

/** Spec section 9: the worker's own record is fetched again every 15 s (it catches a forced clock-out too). */
export const WORKER_REFETCH_MS = 15_000;

export type ShiftLoad = { state: 'loading' } | { state: 'error' } | { state: 'ready'; shift: ShiftState };

/**
 * The signed-in worker's shift, from GET /api/users/{id}/with-relations. `set` records a state
 * the screen already knows (an optimistic start, a server's answer); a fetch that was already
 * in flight then cannot put an older state back on screen.
 */
export function useWorkerShift(userId: number, { paused }: { paused: boolean }) {
  const [load, setLoad] = useState<ShiftLoad>({ state: 'loading' });
  const generation = useRef(0);

  const reload = useCallback(async () => {
    const started = generation.current;
    try {
      const shift = parseShiftState(await api.get(`/api/users/${userId}/with-relations`));
      if (started === generation.current) setLoad({ state: 'ready', shift });
    } catch (e) {
      console.error('Loading your shift failed', e);
      // A failed poll keeps what is on screen; only a first load shows the error.
      if (started === generation.current) setLoad((current) => (current.state === 'ready' ? current : { state: 'error' }));
    }
  }, [userId]);

  const set = useCallback((shift: ShiftState) => {
    generation.current += 1;
    setLoad({ state: 'ready', shift });
  }, []);

  useEffect(() => {
    void reload();
  }, [reload]);
  // No poll while a shift change or check-in is in flight: it could answer the state from before it.
  useInterval(() => void reload(), paused ? null : WORKER_REFETCH_MS);

  return { load, reload, set };
}
