/** Where the device is, as a check-in sends it. */
export interface DevicePosition {
  lat: number;
  lng: number;
  accuracy?: number;
}

const DENIED_KEY = 'lws.position.denied';
/** How long a check-in waits for a position it asked for when its dialog opened. */
export const POSITION_WAIT_MS = 500;

function denied(): boolean {
  try {
    return window.localStorage.getItem(DENIED_KEY) === '1';
  } catch {
    return false;
  }
}

function rememberDenied(): void {
  try {
    window.localStorage.setItem(DENIED_KEY, '1');
  } catch {
    // Private browsing: the browser's own answer still stands.
  }
}

/**
 * The device's position, when the worker allows it: the browser asks them once (and remembers);
 * a refusal is remembered here too, so it is never asked for again. Only ever called on shift, as
 * a check-in's PIN dialog opens. Resolves undefined rather than fail or wait long.
 */
export async function devicePosition(timeoutMs = 10_000): Promise<DevicePosition | undefined> {
  if (typeof navigator === 'undefined' || !navigator.geolocation || denied()) return undefined;
  const permission = await navigator.permissions?.query({ name: 'geolocation' }).then(
    (s) => s.state,
    () => undefined,
  );
  if (permission === 'denied') {
    rememberDenied();
    return undefined;
  }
  return new Promise((resolve) => {
    navigator.geolocation.getCurrentPosition(
      (p) =>
        resolve({
          lat: p.coords.latitude,
          lng: p.coords.longitude,
          ...(Number.isFinite(p.coords.accuracy) ? { accuracy: p.coords.accuracy } : {}),
        }),
      (err) => {
        if (err.code === err.PERMISSION_DENIED) rememberDenied();
        resolve(undefined);
      },
      { enableHighAccuracy: true, timeout: timeoutMs, maximumAge: 60_000 },
    );
  });
}

/** The position if it is already known or arrives within `waitMs`; a check-in never waits longer for it. */
export function within<T>(pending: Promise<T | undefined> | null, waitMs = POSITION_WAIT_MS): Promise<T | undefined> {
  if (!pending) return Promise.resolve(undefined);
  return Promise.race([pending, new Promise<undefined>((r) => setTimeout(() => r(undefined), waitMs))]);
}
