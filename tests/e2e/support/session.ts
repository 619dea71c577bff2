import { expect, type APIRequest } from '@playwright/test';

/** The CSRF header the gateway asks of every state-changing call. */
export const XHR = { 'X-Requested-With': 'XMLHttpRequest' };

/** The stack global-setup.ts started. */
export const baseURL = () => process.env.LWS_E2E_URL!;

/** An API client signed in as `username` (its cookie jar holds the session). */
export async function apiSession(playwright: { request: APIRequest }, username: string, password: string) {
  const ctx = await playwright.request.newContext({ baseURL: baseURL(), extraHTTPHeaders: XHR });
  const res = await ctx.post('/api/auth/login', { data: { username, password } });
  expect(res.status(), await res.text()).toBe(200);
  return ctx;
}
