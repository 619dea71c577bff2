import {
  QueryClientProvider,
  useQuery,
  useQueryClient,
  type Query,
  type QueryClient,
  type QueryKey,
  type UseQueryOptions,
  type UseQueryResult,
} from '@tanstack/react-query';
import { useRef, useState, type ReactNode } from 'react';
import { useAuth } from '../auth/AuthContext';
import { useLiveEvents, useStreaming } from '../live/LiveEventsContext';
import { LIVE_EVENT_TYPES, type LiveEvent, type LiveEventType } from '../live/live-events';
import { createQueryClient } from './query-client';

/** Which stream events make a query's data old. Kept in the query's `meta`, read by LiveQueries. */
export interface LiveSource {
  types: readonly LiveEventType[];
  /** Which events concern this query; all of the types by default. */
  when?(event: LiveEvent): boolean;
}

function liveSourceOf(query: Query): LiveSource | undefined {
  const live = query.meta?.live as LiveSource | undefined;
  return live && Array.isArray(live.types) ? live : undefined;
}

/** Whether `event` makes `query` old: a query with no live source is left alone. */
export function concerns(query: Query, event: LiveEvent): boolean {
  const live = liveSourceOf(query);
  return !!live && live.types.includes(event.type) && (!live.when || live.when(event));
}

/**
 * Marks old every query an event concerns, and every live query after a gap in the stream (a
 * (re)connection, the server's `reset`): those on screen are fetched again at once, the rest when
 * next shown. A query whose screen has a change of its own in flight (`enabled: false` meanwhile)
 * is fetched when the change has settled.
 */
export function invalidateFor(client: QueryClient, event: LiveEvent | 'resync'): Promise<void> {
  return client.invalidateQueries({ predicate: (q) => (event === 'resync' ? !!liveSourceOf(q) : concerns(q, event)) });
}

function LiveInvalidation() {
  const client = useQueryClient();
  useLiveEvents(
    LIVE_EVENT_TYPES,
    (event) => void invalidateFor(client, event),
    () => void invalidateFor(client, 'resync'),
  );
  return null;
}

let singleton: QueryClient | null = null;

/** The page's query client (one per page, whoever asks first creates it). */
export function queryClientSingleton(): QueryClient {
  singleton ??= createQueryClient();
  return singleton;
}

/** Server state for every screen below, kept current by the event stream. Inside LiveEventsProvider. */
export function LiveQueries({ children, client }: { children: ReactNode; client?: QueryClient }) {
  const [c] = useState(() => client ?? queryClientSingleton());
  // What one user read is never shown to the next (a kiosk, a shared phone): signing out, or in as
  // someone else, empties the cache. Done as this renders, before any screen below reads it, so no
  // screen of the new session starts a read the emptying would then orphan.
  const { user } = useAuth();
  const session = user ? `${user.id}:${user.role}` : null;
  const shownFor = useRef(session);
  if (shownFor.current !== session) {
    shownFor.current = session;
    c.clear();
  }
  return (
    <QueryClientProvider client={c}>
      <LiveInvalidation />
      {children}
    </QueryClientProvider>
  );
}

export interface LiveQueryOptions<T> extends Omit<UseQueryOptions<T, Error, T, QueryKey>, 'meta' | 'refetchInterval'> {
  live: LiveSource;
  /** The spec's polling interval, used only while the stream is down; null for none. */
  pollMs: number | null;
}

/**
 * `useQuery` for data the event stream announces changes to: fetched again on each event that
 * concerns it and after any gap in the stream, and every `pollMs` only while the stream is down.
 */
export function useLiveQuery<T>({ live, pollMs, ...options }: LiveQueryOptions<T>): UseQueryResult<T, Error> {
  const streaming = useStreaming();
  return useQuery<T, Error, T, QueryKey>({ ...options, meta: { live }, refetchInterval: streaming || pollMs === null ? false : pollMs });
}
