// Remembers that the current session was opened on the kiosk PIN pad, so that
// logging out returns the shared terminal to the PIN pad instead of /login.
// A flag only: no credential or session id is ever kept in the browser.
const KEY = 'lws.kioskSession';

export function markKioskSession(): void {
  try {
    localStorage.setItem(KEY, 'true');
  } catch {
    // Storage can be disabled; logout then falls back to /login.
  }
}

export function isKioskSession(): boolean {
  try {
    return localStorage.getItem(KEY) === 'true';
  } catch {
    return false;
  }
}

export function clearKioskSession(): void {
  try {
    localStorage.removeItem(KEY);
  } catch {
    // Nothing to clear when storage is unavailable.
  }
}
