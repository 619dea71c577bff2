import { useCallback, useEffect, useState, useSyncExternalStore } from 'react';
import { api } from '../api/api';
import { useInterval } from '../hooks/useInterval';

/**
 * The server owns time (decisions.md): deadlines are computed on the server, so every
 * countdown and status on screen reads the server's clock, estimated as the device clock
 * plus an offset. The offset is re-measured every 30 s while anything on the page shows
 * time, which also absorbs a device clock that drifts or is changed by hand. This takes
 * the place of the spec's "timer drift" page reload.
 */
export const SERVER_CLOCK_SYNC_MS = 30_000;

let offsetMs = 0;
let synced = false;
let version = 0;
let inflight: Promise<void> | null = null;
let timer: ReturnType<typeof setInterval> | null = null;
const listeners = new Set<() => void>();

function publish() {
  version += 1;
  for (const listener of listeners) listener();
}

/** The server's current time as best known: the device clock corrected by the last measured offset. */
export function serverNow(): Date {
  return new Date(Date.now() + offsetMs);
}

/** Measures the offset now; concurrent callers share one request. A failure keeps the last offset. */
export function syncServerClock(): Promise<void> {
  inflight ??= (async () => {
    try {
      const sent = Date.now();
      const body = await api.get<{ now?: unknown }>('/api/time');
      const received = Date.now();
      const server = typeof body?.now === 'string' ? Date.parse(body.now) : Number.NaN;
      if (Number.isNaN(server)) throw new Error('Invalid response from server');
      // The server read its clock about half-way through the round trip.
      offsetMs = Math.round(server - (sent + received) / 2);
      synced = true;
      publish();
    } catch (e) {
      console.error('Reading the server time failed; the last known offset stays in use', e);
    } finally {
      inflight = null;
    }
  })();
  return inflight;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  if (!timer) {
    void syncServerClock();
    timer = setInterval(() => void syncServerClock(), SERVER_CLOCK_SYNC_MS);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer) {
      clearInterval(timer);
      timer = null;
    }
  };
}

export interface ServerClock {
  /** The server's time at the moment of the call. */
  now(): Date;
  /** False until the first measurement answered; until then `now()` is the device clock. */
  synced: boolean;
  sync(): Promise<void>;
}

/**
 * Keeps the page's server-clock offset fresh while mounted. With `tickMs` the component also
 * re-renders that often (a countdown ticks every second), so `now()` read while rendering is current.
 */
export function useServerClock(tickMs: number | null = null): ServerClock {
  useSyncExternalStore(subscribe, () => version);
  const [, setTick] = useState(0);
  useInterval(() => setTick((t) => t + 1), tickMs);
  const now = useCallback(() => serverNow(), []);
  return { now, synced, sync: syncServerClock };
}

/**
 * The server time, re-read every `everyMs` and whenever the offset is re-measured: for values
 * the spec recomputes on a slower beat than the countdown (status every 15 s, the CHECK IN
 * button every 5 s).
 */
export function useServerTimeEvery(everyMs: number): Date {
  const [now, setNow] = useState(serverNow);
  const offsetVersion = useSyncExternalStore(subscribe, () => version);
  useEffect(() => setNow(serverNow()), [offsetVersion]);
  useInterval(() => setNow(serverNow()), everyMs);
  return now;
}
