import { QueryCache, QueryClient, type UseQueryResult } from '@tanstack/react-query';
import { ApiError } from '../api/api';

/**
 * Spec section 9's data-query settings: 2 retries with an exponential delay from 1000 ms capped at
 * 10000 ms; fresh for 5000 ms; refetched when the window regains focus; requests run even when the
 * browser believes it is offline (the service worker answers the worker screen then). Its 30-second
 * auto-refetch is each query's poll, which runs only while the live stream is down (useLiveQuery).
 */
export const QUERY_RETRIES = 2;
export const QUERY_RETRY_FIRST_MS = 1000;
export const QUERY_RETRY_MAX_MS = 10_000;
export const QUERY_FRESH_MS = 5000;

/** A refusal (4xx) answers the same when asked again; a server or network failure may not. */
export function shouldRetryQuery(failures: number, error: unknown): boolean {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
  return failures < QUERY_RETRIES;
}

export const queryRetryDelay = (attempt: number) => Math.min(QUERY_RETRY_FIRST_MS * 2 ** attempt, QUERY_RETRY_MAX_MS);

/**
 * The page's one cache of server state, shared by the shell and every remote (this module and
 * `@tanstack/react-query` are singletons). The event stream keeps it current (LiveQueries); a
 * failed refetch keeps what is on screen.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    // Every failed read is in the console, named by its key; the screen says what the user needs.
    queryCache: new QueryCache({ onError: (error, query) => console.error(`Loading ${query.queryKey.join(' ')} failed`, error) }),
    defaultOptions: {
      queries: {
        retry: shouldRetryQuery,
        retryDelay: queryRetryDelay,
        staleTime: QUERY_FRESH_MS,
        refetchOnWindowFocus: true,
        networkMode: 'always',
      },
      mutations: { retry: false, networkMode: 'always' },
    },
  });
}

/** What a screen shows of one read: a skeleton, an error, or the data. */
export type Load<T> = { state: 'loading' } | { state: 'error'; error: Error } | { state: 'ready'; data: T };

/**
 * A query as a screen shows it. Data once read stays on screen when a later refresh fails (the
 * table a monitor works in does not vanish); only a first read that fails shows the error.
 */
export function loadOf<T>(query: Pick<UseQueryResult<T, Error>, 'data' | 'error'>): Load<T> {
  if (query.data !== undefined) return { state: 'ready', data: query.data };
  if (query.error) return { state: 'error', error: query.error };
  return { state: 'loading' };
}
