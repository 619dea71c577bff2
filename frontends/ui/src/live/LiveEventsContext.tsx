import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useSyncExternalStore, type ReactNode } from 'react';
import { useAuth } from '../auth/AuthContext';
import { useInterval } from '../hooks/useInterval';
import type { LiveEvent, LiveEventType } from './live-events';
import { LiveStream, type LiveState } from './live-stream';

type Listener = { types: readonly LiveEventType[]; onEvent(event: LiveEvent): void; onResync(): void };

/** Hands each stream message to the screens that asked for its type. */
class LiveHub {
  private readonly listeners = new Set<Listener>();

  add(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit = (event: LiveEvent): void => {
    for (const l of [...this.listeners]) if (l.types.includes(event.type)) l.onEvent(event);
  };

  resync = (): void => {
    for (const l of [...this.listeners]) l.onResync();
  };

  /** The stream's state, kept here rather than in React state: a screen re-renders only for what it reads of it. */
  state: LiveState = 'idle';
  private readonly stateListeners = new Set<() => void>();

  setState = (state: LiveState): void => {
    if (state === this.state) return;
    this.state = state;
    for (const l of [...this.stateListeners]) l();
  };

  subscribeState = (listener: () => void): (() => void) => {
    this.stateListeners.add(listener);
    return () => this.stateListeners.delete(listener);
  };
}

const LiveEventsContext = createContext<LiveHub | null>(null);

/**
 * The page's one connection to the server's event stream, opened while someone is signed in and
 * shared by every screen on the page (the shell's and the remotes': this module is a singleton).
 */
export function LiveEventsProvider({ children }: { children: ReactNode }) {
  const { user } = useAuth();
  const session = user ? `${user.id}:${user.role}` : null;
  const hub = useMemo(() => new LiveHub(), []);

  useEffect(() => {
    if (!session) {
      hub.setState('idle');
      return;
    }
    const stream = new LiveStream({ onState: hub.setState, onEvent: hub.emit, onResync: hub.resync });
    stream.start();
    return () => stream.stop();
  }, [session, hub]);

  return <LiveEventsContext.Provider value={hub}>{children}</LiveEventsContext.Provider>;
}

const noHub = () => () => undefined;

/** Whether live updates arrive; 'idle' outside a provider. Polling is for every other state. */
export function useLiveState(): LiveState {
  const hub = useContext(LiveEventsContext);
  return useSyncExternalStore(hub?.subscribeState ?? noHub, () => hub?.state ?? 'idle');
}

/**
 * Whether events flow now. A screen that only needs this (to poll or not) re-renders when it flips,
 * not at every step of a reconnection.
 */
export function useStreaming(): boolean {
  const hub = useContext(LiveEventsContext);
  return useSyncExternalStore(hub?.subscribeState ?? noHub, () => hub?.state === 'open');
}

/**
 * Calls `onEvent` for each stream event of the given types, and `onResync` whenever the screen
 * may have missed some (a (re)connection or the server's `reset`): it should then fetch afresh.
 * The latest callbacks are always the ones called.
 */
export function useLiveEvents(types: readonly LiveEventType[], onEvent: (event: LiveEvent) => void, onResync: () => void): void {
  const hub = useContext(LiveEventsContext);
  const callbacks = useRef({ onEvent, onResync });
  callbacks.current = { onEvent, onResync };
  const key = types.join(',');
  useEffect(() => {
    if (!hub) return;
    return hub.add({
      types: key.split(',') as LiveEventType[],
      onEvent: (event) => callbacks.current.onEvent(event),
      onResync: () => callbacks.current.onResync(),
    });
  }, [hub, key]);
}

/**
 * A reload that never runs twice at once: asked again while it runs, it runs once more afterwards
 * (the running one may have read the server before the change that asked for it). While `paused`
 * (e.g. a change of the user's own is in flight) requests wait and one reload runs when it ends.
 */
function useCoalescedReload(reload: () => unknown, paused = false): () => void {
  const latest = useRef(reload);
  latest.current = reload;
  const flags = useRef({ running: false, again: false, paused, waiting: false });
  flags.current.paused = paused;

  const trigger = useCallback(() => {
    const f = flags.current;
    if (f.paused) {
      f.waiting = true;
      return;
    }
    if (f.running) {
      f.again = true;
      return;
    }
    f.running = true;
    void Promise.resolve()
      .then(() => latest.current())
      .catch(() => undefined)
      .finally(() => {
        f.running = false;
        if (f.again) {
          f.again = false;
          trigger();
        }
      });
  }, []);

  useEffect(() => {
    if (!paused && flags.current.waiting) {
      flags.current.waiting = false;
      trigger();
    }
  }, [paused, trigger]);

  return trigger;
}

/** `callback` every `ms` while live updates are not flowing (the spec's polling, kept as the fallback). */
function usePollWhileDown(callback: () => void, ms: number | null): void {
  const live = useStreaming();
  useInterval(callback, live ? null : ms);
}

export interface LiveRefreshOptions {
  types: readonly LiveEventType[];
  /** Which events concern this screen; all of the types by default. */
  when?(event: LiveEvent): boolean;
  /** The spec's polling interval, used only while the stream is down; null for none. */
  pollMs: number | null;
  paused?: boolean;
}

/**
 * Keeps a screen's data current: `reload` runs on each event that concerns it, after any gap in the
 * stream, and every `pollMs` while the stream is down. Returns the coalesced reload for the
 * screen's own use (after a change it made).
 */
export function useLiveRefresh(reload: () => unknown, { types, when, pollMs, paused = false }: LiveRefreshOptions): () => void {
  const trigger = useCoalescedReload(reload, paused);
  const filter = useRef(when);
  filter.current = when;
  useLiveEvents(
    types,
    (event) => {
      if (!filter.current || filter.current(event)) trigger();
    },
    trigger,
  );
  usePollWhileDown(trigger, paused ? null : pollMs);
  return trigger;
}
