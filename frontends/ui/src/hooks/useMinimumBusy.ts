import { useCallback, useEffect, useRef, useState } from 'react';

/**
 * Runs `task` with a busy flag that stays on for at least `ms` (spec: the refresh
 * spinner shows 500 ms), so a fast answer still shows that something happened.
 */
export function useMinimumBusy(ms: number): [busy: boolean, run: <T>(task: () => Promise<T>) => Promise<T>] {
  const [busy, setBusy] = useState(false);
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  const run = useCallback(
    async <T>(task: () => Promise<T>): Promise<T> => {
      setBusy(true);
      const started = Date.now();
      try {
        return await task();
      } finally {
        const left = ms - (Date.now() - started);
        if (left > 0) await new Promise((resolve) => setTimeout(resolve, left));
        if (mounted.current) setBusy(false);
      }
    },
    [ms],
  );
  return [busy, run];
}
