import { expect, type APIRequest } from '@playwright/test';

/** The CSRF header the gateway asks of every state-changing call. */
export const XHR = { 'X-Requested-With': 'XMLHttpRequest' };

/** The stack global-setup.ts started. */
export const baseURL = () => process.env.LWS_E2E_URL!;

/**
 * An API client signed in as `username` (its cookie jar holds the session). A 503 did nothing and
 * may be retried (the API's own rule): a client a moment after a busy file's clean-up tries again,
 * as the screens do, at most a few times.
 */
export async function apiSession(playwright: { request: APIRequest }, username: string, password: string) {
  const ctx = await playwright.request.newContext({ baseURL: baseURL(), extraHTTPHeaders: XHR });
  let res = await ctx.post('/api/auth/login', { data: { username, password } });
  for (let retry = 0; retry < 3 && res.status() === 503; retry++) {
    await new Promise((r) => setTimeout(r, 2000));
    res = await ctx.post('/api/auth/login', { data: { username, password } });
  }
  expect(res.status(), await res.text()).toBe(200);
  return ctx;
}

let mobiles = 0;
/** Playwright runs each file in a process of its own: each counts from a random start of its own. */
const FIRST_MOBILE = Math.floor(Math.random() * 10_000_000);

/**
 * A UK mobile no other worker of the run is likely to have (the files share one stack): a worker's
 * number must be their own, as a texted PIN finds its worker by it.
 */
export function uniqueMobile(): string {
  mobiles += 1;
  return `+44795${String((FIRST_MOBILE + mobiles) % 10_000_000).padStart(7, '0')}`;
}
