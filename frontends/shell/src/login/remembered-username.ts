// Remember-me keeps the username only, to pre-fill the form. The password
// never touches browser storage; the session itself lives in an httpOnly cookie.
const KEY = 'lws.rememberedUsername';

export function readRememberedUsername(): string | null {
  try {
    return localStorage.getItem(KEY);
  } catch {
    return null;
  }
}

export function saveRememberedUsername(username: string | null): void {
  try {
    if (username) localStorage.setItem(KEY, username);
    else localStorage.removeItem(KEY);
  } catch {
    // Storage can be disabled; the form then simply starts empty.
  }
}
