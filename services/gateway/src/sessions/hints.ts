import type { CookieOptions, Request, Response } from 'express';
import { KIOSK_COOKIE } from '../kiosks/kiosk-cookie';
import { SESSION_COOKIE } from './cookies';

/**
 * Hints the browser's script may read, since the session and kiosk cookies are httpOnly: "there is
 * a session cookie", "this device was enrolled as a kiosk". They carry no secret and grant nothing;
 * they only spare a signed-out visitor the session check (GET /api/auth/me answering 401) and an
 * ordinary browser on /kiosk the roster request (403), both of which cost a round trip before the
 * first screen and show as errors in the console. The server sets them with the real cookies and
 * brings them in line with those on every page load; the shell drops a hint the server proves
 * wrong (a 401 or a 403), so a stale hint costs one request, never a wrong screen.
 */
export const SIGNED_IN_HINT = 'lws_signed_in';
export const KIOSK_HINT = 'lws_kiosk_enrolled';

const DAY_MS = 24 * 3600 * 1000;
/** As long as the longest session (remember-me, 7 days) and the kiosk cookie (400 days). */
const HINT_DAYS: Record<string, number> = { [SIGNED_IN_HINT]: 7, [KIOSK_HINT]: 400 };

function hintOptions(req: Request, secureSetting: 'auto' | 'true' | 'false', hint: string): CookieOptions {
  return {
    httpOnly: false,
    sameSite: 'lax',
    secure: secureSetting === 'auto' ? req.secure : secureSetting === 'true',
    path: '/',
    maxAge: HINT_DAYS[hint]! * DAY_MS,
  };
}

export function setHint(req: Request, res: Response, secureSetting: 'auto' | 'true' | 'false', hint: string): void {
  res.cookie(hint, '1', hintOptions(req, secureSetting, hint));
}

export function clearHint(res: Response, hint: string): void {
  res.clearCookie(hint, { path: '/' });
}

/** At page load: each hint set exactly when its httpOnly cookie was sent. */
export function syncHints(req: Request, res: Response, secureSetting: 'auto' | 'true' | 'false'): void {
  for (const [cookie, hint] of [
    [SESSION_COOKIE, SIGNED_IN_HINT],
    [KIOSK_COOKIE, KIOSK_HINT],
  ] as const) {
    const present = typeof req.cookies?.[cookie] === 'string' && req.cookies[cookie] !== '';
    const hinted = req.cookies?.[hint] === '1';
    if (present && !hinted) setHint(req, res, secureSetting, hint);
    else if (!present && hinted) clearHint(res, hint);
  }
}
