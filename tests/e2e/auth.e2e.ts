import { expect, test, type APIRequestContext, type Page } from '@playwright/test';

const XHR = { 'X-Requested-With': 'XMLHttpRequest' };
const superadmin = () => ({ username: 'superadmin', password: process.env.LWS_E2E_SUPERADMIN_PASSWORD! });

async function logIn(page: Page, username: string, password: string) {
  await page.goto('/login');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log In' }).click();
}

async function createWorker(request: APIRequestContext, username: string) {
  const { username: su, password } = superadmin();
  await request.post('/api/auth/login', { headers: XHR, data: { username: su, password } });
  // PINs are unique across users: 91xx is this file's range (see accounts.e2e.ts).
  for (const pinCode of ['9123', '9124', '9125']) {
    const res = await request.post('/api/users', {
      headers: XHR,
      data: { username, password: 'worker1', name: 'Wendy Worker', phone: '+447911123111', role: 'worker', pinCode },
    });
    if (res.status() === 201) return;
    const body = await res.json();
    if (res.status() === 409 && body.field === 'username') return;
    expect(res.status() === 409 && body.field === 'pinCode', JSON.stringify(body)).toBe(true);
  }
  throw new Error('no free PIN for the test worker');
}

test('the superadmin logs in, lands on /superadmin, stays logged in on reload and logs out to /login', async ({ page }) => {
  const { username, password } = superadmin();
  await logIn(page, username.toUpperCase(), password);
  await expect(page).toHaveURL(/\/superadmin$/);
  await expect(page.getByRole('heading', { name: 'Super Admin Dashboard' })).toBeVisible();
  await expect(page.getByTestId('header-user-name')).toHaveText('Super Admin');

  await page.reload();
  await expect(page).toHaveURL(/\/superadmin$/);
  await expect(page.getByTestId('header-user-name')).toHaveText('Super Admin');

  const cookies = await page.context().cookies();
  const sid = cookies.find((c) => c.name === 'lws_sid');
  expect(sid?.httpOnly).toBe(true);
  expect(sid?.sameSite).toBe('Lax');
  expect(await page.evaluate(() => document.cookie)).not.toContain('lws_sid');

  await page.getByTestId('user-menu-button').click();
  await page.getByTestId('menu-logout').click();
  await expect(page).toHaveURL(/\/login$/);
  // Logged out, /superadmin shows the login screen in place (spec: same as /admin), never the dashboard.
  await page.goto('/superadmin');
  await expect(page.getByTestId('login-form')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Super Admin Dashboard' })).toHaveCount(0);
  expect((await page.request.get('/api/auth/me')).status()).toBe(401);
});

test('the login form shows the spec validation texts and a failed login', async ({ page }) => {
  await page.goto('/login');
  await page.getByRole('button', { name: 'Log In' }).click();
  await expect(page.getByText('Username is required')).toBeVisible();
  await expect(page.getByText('Password is required')).toBeVisible();
  await page.getByLabel('Username').fill('nobody');
  await page.getByLabel('Password', { exact: true }).fill('wrong-password');
  await page.getByRole('button', { name: 'Log In' }).click();
  await expect(page.getByText('Invalid username or password')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
});

test('remember me keeps only the username in the browser', async ({ page }) => {
  const { username, password } = superadmin();
  await page.goto('/login');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel(/remember me/i).check();
  await page.getByRole('button', { name: 'Log In' }).click();
  await expect(page).toHaveURL(/\/superadmin$/);
  const stored = await page.evaluate(() => JSON.stringify({ ...localStorage }));
  expect(stored).toContain(username);
  expect(stored).not.toContain(password);
  const sid = (await page.context().cookies()).find((c) => c.name === 'lws_sid');
  expect(sid!.expires).toBeGreaterThan(Date.now() / 1000 + 6 * 24 * 3600);
});

test('a worker opening /admin lands on /worker', async ({ page, request }) => {
  await createWorker(request, 'wendy');
  await logIn(page, 'wendy', 'worker1');
  await expect(page).toHaveURL(/\/worker$/);
  await page.goto('/admin');
  await expect(page).toHaveURL(/\/worker$/);
  await expect(page.getByTestId('signed-in-name')).toHaveText('Wendy Worker');
});

test('an unknown path shows the 404 page with the header', async ({ page }) => {
  await page.goto('/no/such/page');
  await expect(page.getByText('404 Page Not Found')).toBeVisible();
  await expect(page.getByTestId('header-user-name')).toBeVisible();
});

test('a remote that cannot be loaded shows the unavailable state, and Retry recovers', async ({ page }) => {
  let down = true;
  await page.route('**/remotes/superadmin/**', (route) => (down ? route.abort('connectionrefused') : route.continue()));
  const { username, password } = superadmin();
  await logIn(page, username, password);
  await expect(page).toHaveURL(/\/superadmin$/);
  const unavailable = page.getByTestId('remote-unavailable');
  await expect(unavailable).toBeVisible();
  await expect(unavailable.getByText('Section unavailable')).toBeVisible();
  await expect(page.getByTestId('header-user-name')).toBeVisible();

  down = false;
  await unavailable.getByRole('button', { name: 'Retry' }).click();
  await expect(page.getByRole('heading', { name: 'Super Admin Dashboard' })).toBeVisible();
});

test('the login page or the profile failing to download offers Retry instead of a blank page', async ({ browser }) => {
  // No service worker: it would answer from its own copies, which this page's routes do not see.
  const context = await browser.newContext({ serviceWorkers: 'block' });
  const page = await context.newPage();
  let down = true;
  await page.route(/\/(login|profile)\.[0-9a-f]{8}\.js$/, (route) => (down ? route.abort('connectionrefused') : route.continue()));
  await page.goto('/login');
  const login = page.getByTestId('login-unavailable');
  await expect(login).toContainText('Cannot load the login page');
  down = false;
  await login.getByRole('button', { name: 'Retry' }).click();
  await expect(page.getByTestId('login-form')).toBeVisible();

  down = true;
  const { username, password } = superadmin();
  expect((await page.request.post('/api/auth/login', { headers: XHR, data: { username, password } })).status()).toBe(200);
  await page.goto('/profile');
  const profile = page.getByTestId('profile-unavailable');
  await expect(profile).toContainText('Cannot load the profile page');
  await expect(page.getByTestId('header-user-name')).toBeVisible();
  down = false;
  await profile.getByRole('button', { name: 'Retry' }).click();
  await expect(page.getByRole('heading', { name: 'Profile', level: 1 })).toBeVisible();
  await context.close();
});
