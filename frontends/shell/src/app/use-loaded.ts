import { useEffect, useState } from 'react';

export interface Loaded<T> {
  value?: T;
  error?: unknown;
  /** Loads again after a failure. */
  retry(): void;
}

/**
 * Code the page loads on first need (a remote, the login page), read without a Suspense boundary:
 * React holds back content that resolves within 300 ms of a Suspense fallback, which put a screen
 * on the page 0.3 s after it had arrived. `loaded` gives it at once when it is already there, so a
 * second visit never shows a loader.
 */
export function useLoaded<T>(loaded: () => T | undefined, load: () => Promise<T>): Loaded<T> {
  const [state, setState] = useState<{ value?: T; error?: unknown }>(() => ({ value: loaded() }));
  const [attempt, setAttempt] = useState(0);
  const ready = state.value !== undefined;
  // biome-ignore lint/correctness/useExhaustiveDependencies: `load` is the same loader for the component's life; a retry runs it again.
  useEffect(() => {
    if (ready) return;
    let current = true;
    load().then(
      (value) => current && setState({ value }),
      (error: unknown) => current && setState({ error }),
    );
    return () => {
      current = false;
    };
  }, [ready, attempt]);
  return {
    ...state,
    retry: () => {
      setState({});
      setAttempt((n) => n + 1);
    },
  };
}
