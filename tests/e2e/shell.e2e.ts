import { expect, test } from '@playwright/test';

const XHR = { 'X-Requested-With': 'XMLHttpRequest' };

test('the cookie banner appears after a second; Accept hides it for good, Decline only until the next visit', async ({ page }) => {
  await page.goto('/login');
  const banner = page.getByTestId('cookie-banner');
  await expect(banner).toBeHidden();
  await expect(banner).toBeVisible({ timeout: 3000 });
  // What the session cookie really lasts (decisions.md: remember-me keeps it 7 days), not the spec's 30.
  await expect(banner).toContainText('for up to 7 days when you choose "Remember me"');
  await page.getByTestId('cookie-decline').click();
  await expect(banner).toBeHidden();
  expect(await page.evaluate(() => localStorage.getItem('cookieConsent'))).toBe('declined');

  await page.reload();
  await expect(banner).toBeVisible({ timeout: 3000 });
  await page.getByTestId('cookie-accept').click();
  expect(await page.evaluate(() => localStorage.getItem('cookieConsent'))).toBe('accepted');
  await page.reload();
  await page.waitForTimeout(1500);
  await expect(banner).toBeHidden();
});

test('/ and /test-reminders send each user to their own page', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveURL(/\/login$/);

  const password = process.env.LWS_E2E_SUPERADMIN_PASSWORD!;
  expect((await page.request.post('/api/auth/login', { headers: XHR, data: { username: 'superadmin', password } })).status()).toBe(200);
  await page.goto('/');
  await expect(page).toHaveURL(/\/superadmin$/);
  await page.goto('/test-reminders');
  await expect(page).toHaveURL(/\/superadmin$/);
  await page.goto('/login');
  await expect(page).toHaveURL(/\/superadmin$/);
});
