import { useEffect, useState } from 'react';
import { ApiError, api } from '@lws/fe-ui';
import { parseLocationOptions, type LocationOption } from '@lws/fe-ui/locations';

export type LocationsLoad = { state: 'loading' } | { state: 'error' } | { state: 'ready'; active: LocationOption[] };

const parseActive = (body: unknown) => parseLocationOptions(body).filter((l) => l.isActive);

// Spec section 7: the worker screen fetches the location list once and keeps it for the
// session; a failed fetch is forgotten so the next visit tries again.
let cached: Promise<LocationOption[]> | null = null;

function activeLocations(): Promise<LocationOption[]> {
  cached ??= api
    .get('/api/location-options')
    .then(parseActive)
    .catch((e: unknown) => {
      cached = null;
      // A 401 means the session ended; the session check takes the worker to the login page.
      if (e instanceof ApiError && e.status === 401) return [];
      throw e;
    });
  return cached;
}

/** The active locations a shift can start at. */
export function useLocationOptions(): LocationsLoad {
  const [load, setLoad] = useState<LocationsLoad>({ state: 'loading' });
  useEffect(() => {
    let live = true;
    activeLocations().then(
      (active) => live && setLoad({ state: 'ready', active }),
      (e: unknown) => {
        console.error('Loading locations failed', e);
        if (live) setLoad({ state: 'error' });
      },
    );
    return () => {
      live = false;
    };
  }, []);
  return load;
}
