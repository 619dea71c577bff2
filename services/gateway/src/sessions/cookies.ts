import type { CookieOptions, Request } from 'express';

export const SESSION_COOKIE = 'lws_sid';
const WEEK = 7 * 24 * 3600;
const BROWSER_SESSION_IDLE = 12 * 3600;

/**
 * A session signed in at a kiosk (a shared terminal) ends after 2 minutes without a request, and
 * 15 minutes after sign-in whatever happens: the next person at the kiosk must not find it open.
 * The kiosk screen also signs out after 2 minutes without input (polls keep a session alive).
 */
export const KIOSK_SESSION_IDLE_SECONDS = 120;
export const KIOSK_SESSION_MAX_SECONDS = 15 * 60;

/** Remember-me: 7 days. Otherwise the cookie dies with the browser and the server forgets after 12 idle hours. */
export function sessionTtlSeconds(remember: boolean): number {
  return remember ? WEEK : BROWSER_SESSION_IDLE;
}

export function sessionCookieOptions(req: Request, secureSetting: 'auto' | 'true' | 'false', remember: boolean): CookieOptions {
  return {
    httpOnly: true,
    sameSite: 'lax',
    secure: secureSetting === 'auto' ? req.secure : secureSetting === 'true',
    path: '/',
    ...(remember ? { maxAge: WEEK * 1000 } : {}),
  };
}
