import { randomInt } from 'node:crypto';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { startTestIdp, type TestIdp } from '../integration/support/test-idp';
import { apiSession, baseURL } from './support/session';

// Single sign-on in a browser: the organisation's provider is panva's oidc-provider on 127.0.0.1,
// with its own login page. A worker it vouches for gets an account in the team their group names,
// sets a PIN, and checks in with it: SSO replaces the password, never the PIN.

let idp: TestIdp;
let superadminApi: APIRequestContext;
let teamId: number;
let workerId: number | undefined;

function toast(page: Page, title: string) {
  return page.getByTestId('toast').filter({ has: page.locator('.lws-toast__title', { hasText: new RegExp(`^${title}$`) }) });
}

test.beforeAll(async ({ playwright }) => {
  superadminApi = await apiSession(playwright, 'superadmin', process.env.LWS_E2E_SUPERADMIN_PASSWORD!);
  const team = await superadminApi.post('/api/teams', { data: { name: `SSO North ${Date.now().toString(36)}` } });
  expect(team.status(), await team.text()).toBe(201);
  teamId = ((await team.json()) as { id: number }).id;
  idp = await startTestIdp(
    [
      {
        client_id: 'lws-e2e',
        client_secret: 'e2e-client-secret',
        redirect_uris: [`${baseURL()}/api/auth/sso/callback`],
        post_logout_redirect_uris: [`${baseURL()}/login`],
      },
    ],
    { 'sam.single': { email: 'sam.single@example.org', email_verified: true, name: 'Sam Single', groups: ['lws-north'] } },
  );
});

test.afterAll(async () => {
  await superadminApi.post('/api/test-clock', { data: { offsetMs: 0 } });
  if (workerId !== undefined) await superadminApi.post(`/api/users/${workerId}/force-clock-out`);
  // The other files' login page has no provider button.
  const current = (await (await superadminApi.get('/api/system/sso')).json()) as Record<string, unknown>;
  const { clientSecretSet: _s, fromEnvironment: _e, redirectUri: _r, postLogoutRedirectUri: _p, ...settings } = current;
  await superadminApi.put('/api/system/sso', { data: { ...settings, enabled: false } });
  await superadminApi.dispose();
  await idp?.stop();
});

test("the superadmin sets up single sign-on on the Sign-in tab; a worker signs in on the organisation's login page, sets a PIN and checks in with it", async ({
  browser,
  page,
}) => {
  test.setTimeout(120_000);
  const pin = String(randomInt(7000, 7999));

  await test.step('the superadmin fills in the Sign-in tab', async () => {
    const context = await browser.newContext({ storageState: await superadminApi.storageState() });
    const admin = await context.newPage();
    await admin.goto('/superadmin');
    await admin.getByRole('tab', { name: 'Sign-in' }).click();
    const form = admin.getByRole('form', { name: 'Single sign-on' });
    await expect(form.getByText(`${baseURL()}/api/auth/sso/callback`)).toBeVisible();
    await form.getByLabel('Single sign-on enabled').check();
    await form.getByLabel('Name shown on the login page').fill('Example Trust');
    await form.getByLabel('Issuer URL').fill(idp.issuer);
    await form.getByLabel('Client ID').fill('lws-e2e');
    await form.getByLabel('Client secret').fill('e2e-client-secret');
    await form.getByLabel('Allowed e-mail domains').fill('example.org');
    await form.getByLabel('Create workers on first sign-in').check();
    await form.getByRole('button', { name: 'Add a mapping' }).click();
    await form.getByLabel('Group 1', { exact: true }).fill('lws-north');
    await form.getByLabel('Team for group 1').selectOption(String(teamId));
    await form.getByRole('button', { name: 'Save sign-in settings' }).click();
    await expect(toast(admin, 'Sign-in settings saved')).toBeVisible();
    // The secret is written, never shown again.
    await expect(form.getByLabel('Client secret')).toHaveValue('');
    await context.close();
  });

  await test.step('"Sign in with Example Trust" leads to the provider, and back to the worker screen', async () => {
    await page.goto('/login');
    await page.getByRole('link', { name: 'Sign in with Example Trust' }).click();
    await expect(page).toHaveURL(new RegExp(`^${idp.issuer}/interaction/`));
    await page.locator('input[name="login"]').fill('sam.single');
    await page.locator('input[name="password"]').fill('whatever the provider checks');
    await page.getByRole('button', { name: 'Sign-in' }).click();
    await expect(page).toHaveURL(/\/worker$/);
    await expect(page.getByTestId('header-user-name')).toHaveText('Sam Single');
    const me = (await (await page.request.get('/api/auth/me')).json()) as { id: number; role: string; pinSet: boolean };
    expect(me).toMatchObject({ role: 'worker', pinSet: false });
    workerId = me.id;
  });

  await test.step('the new worker sets a PIN on their profile', async () => {
    await page.goto('/profile');
    const card = page.getByTestId('profile-pin');
    await card.getByRole('button', { name: 'Set PIN' }).click();
    await card.getByLabel('New PIN', { exact: true }).fill(pin);
    await card.getByRole('button', { name: 'Next' }).click();
    await card.getByLabel('Confirm New PIN').fill(pin);
    await card.getByRole('button', { name: 'Save PIN' }).click();
    await expect(toast(page, 'PIN Updated')).toBeVisible();
  });

  await test.step('on shift, the check-in takes the PIN', async () => {
    await page.goto('/worker');
    const shiftCard = page.getByTestId('shift-status-card');
    await shiftCard.getByRole('button', { name: 'Start Shift' }).click();
    await expect(page.getByTestId('shift-badge')).toHaveText('On Shift');
    const moved = await superadminApi.post('/api/test-clock', { data: { advanceMinutes: 52 } });
    expect(moved.ok(), await moved.text()).toBe(true);
    await page.reload();
    await page.getByTestId('check-in-button').click();
    const pinDialog = page.getByTestId('pin-dialog');
    await expect(pinDialog.getByLabel('Security PIN')).toBeFocused();
    await page.keyboard.type(pin);
    await expect(toast(page, 'Check-in successful')).toContainText('Your status has been updated. Stay safe!');
    await expect(page.getByTestId('status-pill')).toHaveText("You're checked in");
  });
});
