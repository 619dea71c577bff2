import { useQuery } from '@tanstack/react-query';
import { ApiError, api } from '@lws/fe-ui';
import { WORKER_READS } from '@lws/fe-ui/early-reads';
import { parseLocationOptions, type LocationOption } from '@lws/fe-ui/locations';

export type LocationsLoad = { state: 'loading' } | { state: 'error' } | { state: 'ready'; active: LocationOption[] };

const parseActive = (body: unknown) => parseLocationOptions(body).filter((l) => l.isActive);

async function activeLocations(signal: AbortSignal): Promise<LocationOption[]> {
  try {
    return parseActive(await api.get(WORKER_READS.locations(), { signal }));
  } catch (e) {
    // A 401 means the session ended; the session check takes the worker to the login page.
    if (e instanceof ApiError && e.status === 401) return [];
    throw e;
  }
}

/**
 * The active locations a shift can start at. Spec section 7: the worker screen fetches the list
 * once and keeps it for the session; a failed fetch is not kept, so the next visit tries again.
 */
export function useLocationOptions(): LocationsLoad {
  const { data, isError } = useQuery({
    queryKey: ['location-options', 'active'],
    queryFn: ({ signal }) => activeLocations(signal),
    staleTime: Infinity,
  });
  return data ? { state: 'ready', active: data } : isError ? { state: 'error' } : { state: 'loading' };
}
