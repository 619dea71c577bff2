import { QueryCache, QueryClient, type UseQueryResult } from '@tanstack/react-query';
import { ApiError } from '../api/api';

/** How often a failed read is tried again at once, before the screen shows its error. */
export const QUERY_RETRIES = 1;
export const QUERY_RETRY_MS = 500;

/** A refusal (4xx) answers the same when asked again; a server or network failure may not. */
export function shouldRetryQuery(failures: number, error: unknown): boolean {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
  return failures < QUERY_RETRIES;
}

/**
 * The page's one cache of server state, shared by the shell and every remote (this module and
 * `@tanstack/react-query` are singletons). The event stream keeps it current (LiveQueries), so a
 * window regaining focus does not refetch; a failed refetch keeps what is on screen.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    // Every failed read is in the console, named by its key; the screen says what the user needs.
    queryCache: new QueryCache({ onError: (error, query) => console.error(`Loading ${query.queryKey.join(' ')} failed`, error) }),
    defaultOptions: {
      queries: {
        retry: shouldRetryQuery,
        retryDelay: QUERY_RETRY_MS,
        refetchOnWindowFocus: false,
      },
      mutations: { retry: false },
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
