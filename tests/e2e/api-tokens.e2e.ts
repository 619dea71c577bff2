import { expect, test, type APIRequestContext } from '@playwright/test';
import { apiSession, baseURL, uniqueMobile } from './support/session';

// An admin makes an API token on the Integrations tab, hands its secret to another system (here,
// Playwright's own HTTP client, with no cookie), and revokes it there: the next call is refused.

const PASSWORD = 'Tokens123';

let superadmin: APIRequestContext;
let admin: { id: number; api: APIRequestContext };

test.beforeAll(async ({ playwright }) => {
  superadmin = await apiSession(playwright, 'superadmin', process.env.LWS_E2E_SUPERADMIN_PASSWORD!);
  const username = `tokens${Date.now().toString(36).slice(-5)}`;
  const res = await superadmin.post('/api/users', {
    data: { username, password: PASSWORD, name: 'Tara Tokens', phone: uniqueMobile(), role: 'admin' },
  });
  expect(res.status(), await res.text()).toBe(201);
  const id = ((await res.json()) as { user: { id: number } }).user.id;
  admin = { id, api: await apiSession(playwright, username, PASSWORD) };
});

test.afterAll(async () => {
  await admin?.api.dispose();
  if (admin) await superadmin.delete(`/api/users/${admin.id}`);
  await superadmin?.dispose();
});

test('an admin creates a token on the Integrations tab, another system calls the API with it, and once revoked it is refused', async ({
  browser,
  playwright,
}) => {
  const context = await browser.newContext({
    storageState: await admin.api.storageState(),
    permissions: ['clipboard-read', 'clipboard-write'],
  });
  const page = await context.newPage();
  await page.goto('/admin');
  await page.getByRole('tab', { name: 'Integrations', exact: true }).click();
  const card = page.getByTestId('api-tokens');
  await expect(card.getByRole('heading', { name: 'API tokens' })).toBeVisible();
  await expect(card.getByRole('link', { name: 'API reference' })).toHaveAttribute('href', '/api/docs');
  await expect(card.getByRole('link', { name: 'OpenAPI document' })).toHaveAttribute('href', '/api/openapi.json');

  await card.getByLabel('Token name').fill('Alarm centre');
  await card.getByRole('checkbox', { name: /alarms:read$/ }).check();
  await card.getByRole('button', { name: 'Create token' }).click();

  const shown = card.getByTestId('api-new-token');
  await expect(shown).toContainText('Copy this token now: it will not be shown again.');
  const secret = (await shown.getByTestId('api-new-token-secret').textContent())!.trim();
  expect(secret).toMatch(/^lws_api_[A-Za-z0-9_-]{43}$/);
  await shown.getByRole('button', { name: 'Copy' }).click();
  await expect(shown.getByRole('button', { name: 'Copied' })).toBeVisible();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toBe(secret);

  // Listed by its first and last characters only.
  const row = card.getByTestId('api-token').filter({ hasText: 'Alarm centre' });
  await expect(row).toContainText(`${secret.slice(0, 14)}…${secret.slice(-4)}`);
  await expect(row).toContainText('alarms:read');
  await expect(row.getByTestId('api-token-status')).toHaveText('Active');
  await shown.getByRole('button', { name: 'Done' }).click();
  await expect(card.getByTestId('api-new-token')).toHaveCount(0);
  await expect(page.locator('body')).not.toContainText(secret.slice(14, -4));

  // Another system: no cookie, no CSRF header, only the token.
  const machine = await playwright.request.newContext({ baseURL: baseURL() });
  try {
    const bearer = { Authorization: `Bearer ${copied}` };
    const allowed = await machine.get('/api/alarms', { headers: bearer });
    expect(allowed.status(), await allowed.text()).toBe(200);
    expect(Array.isArray(await allowed.json())).toBe(true);

    await row.getByRole('button', { name: 'Revoke Alarm centre' }).click();
    const dialog = page.getByTestId('api-revoke-dialog');
    await expect(dialog).toContainText('Revoke Alarm centre?');
    await dialog.getByRole('button', { name: 'Revoke', exact: true }).click();
    await expect(page.getByTestId('toast').filter({ hasText: 'Token revoked' })).toContainText('Alarm centre can no longer be used.');
    await expect(row.getByTestId('api-token-status')).toHaveText('Revoked');
    // The call made with it is counted.
    await expect(row.getByRole('cell').nth(6)).toHaveText('1');
    await expect(row.getByRole('button', { name: 'Revoke Alarm centre' })).toHaveCount(0);

    const refused = await machine.get('/api/alarms', { headers: bearer });
    expect(refused.status(), await refused.text()).toBe(401);
  } finally {
    await machine.dispose();
    await context.close();
  }
});
