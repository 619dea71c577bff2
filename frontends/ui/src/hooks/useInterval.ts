import { useEffect, useRef } from 'react';

/**
 * Calls `callback` every `ms` milliseconds while `ms` is a number; `null` pauses it
 * (e.g. while the user is editing what the poll would refresh). The latest callback
 * is always the one called, without restarting the timer.
 */
export function useInterval(callback: () => void, ms: number | null): void {
  const saved = useRef(callback);
  saved.current = callback;
  useEffect(() => {
    if (ms === null) return;
    const timer = setInterval(() => saved.current(), ms);
    return () => clearInterval(timer);
  }, [ms]);
}
