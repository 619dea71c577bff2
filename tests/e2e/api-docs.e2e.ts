import { expect, test } from '@playwright/test';

// The API reference page (GET /api/docs), served by the gateway itself under its strict
// Content-Security-Policy (scripts from its own origin only, none inline): it renders the
// document's operations, and the browser refuses nothing on the way.

test('the API reference renders the operations without a Content-Security-Policy violation', async ({ page }) => {
  // Redoc lays out every operation of a large document in the browser first: slow on a busy machine.
  test.setTimeout(180_000);
  const violations: string[] = [];
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || /Content Security Policy|Refused to/i.test(m.text())) errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  await page.exposeFunction('lwsViolation', (v: string) => violations.push(v));
  // Registered before any script of the page runs, so a violation while it loads is seen too.
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      (window as unknown as { lwsViolation(v: string): void }).lwsViolation(`${e.violatedDirective} ${e.blockedURI}`);
    });
  });

  const res = await page.goto('/api/docs');
  expect(res?.status()).toBe(200);
  expect(res?.headers()['content-security-policy']).toContain("script-src 'self'");

  await expect(page.getByRole('heading', { name: /LWS API/ })).toBeVisible({ timeout: 90_000 });
  // An operation of the Alarms tag, opened from the side menu: its heading, method and path.
  await page.locator('li[data-item-id="tag/Alarms"] > label').click();
  await page.locator('li[data-item-id="tag/Alarms/operation/alarms.acknowledge"] > label').click();
  await expect(page.getByRole('heading', { name: 'Acknowledge an alarm' })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText('/api/alarms/{id}/acknowledge').first()).toBeVisible({ timeout: 30_000 });

  expect({ violations, errors }).toEqual({ violations: [], errors: [] });
});
