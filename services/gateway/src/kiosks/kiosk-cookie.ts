import type { CookieOptions, Request } from 'express';

export const KIOSK_COOKIE = 'lws_kiosk';
/** Browsers cap cookie lifetimes at 400 days; an admin re-enrols a kiosk that outlives it. */
const KIOSK_COOKIE_DAYS = 400;

export function kioskCookieOptions(req: Request, secureSetting: 'auto' | 'true' | 'false'): CookieOptions {
  return {
    httpOnly: true,
    sameSite: 'lax',
    secure: secureSetting === 'auto' ? req.secure : secureSetting === 'true',
    path: '/',
    maxAge: KIOSK_COOKIE_DAYS * 24 * 3600 * 1000,
  };
}

/** The device token from the cookie, when it looks like one. */
export function kioskToken(req: Request): string | undefined {
  const token: unknown = req.cookies?.[KIOSK_COOKIE];
  return typeof token === 'string' && /^[A-Za-z0-9_-]{20,200}$/.test(token) ? token : undefined;
}
