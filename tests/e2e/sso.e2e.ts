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
  const res = await superadminApi.put('/api/system/sso', {
    data: {
      enabled: true,
      displayName: 'Example Trust',
      issuer: idp.issuer,
      clientId: 'lws-e2e',
      clientSecret: 'e2e-client-secret',
      subjectClaim: 'sub',
      emailDomains: ['example.org'],
      passwordLogin: 'everyone',
      jitEnabled: true,
      groupsClaim: 'groups',
      groupTeams: [{ group: 'lws-north', teamId }],
      linkByEmail: false,
    },
  });
  expect(res.status(), await res.text()).toBe(200);
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

test("a worker signs in on the organisation's login page, sets a PIN and checks in with it", async ({ page }) => {
  test.setTimeout(120_000);
  const pin = String(randomInt(7000, 7999));

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
