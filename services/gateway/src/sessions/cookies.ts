import type { CookieOptions, Request } from 'express';

export const SESSION_COOKIE = 'lws_sid';
const WEEK = 7 * 24 * 3600;
const BROWSER_SESSION_IDLE = 12 * 3600;

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
