import { randomInt } from 'node:crypto';
import { expect, test, type Browser, type BrowserContextOptions } from '@playwright/test';
import { apiSession, uniqueMobile } from './support/session';

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

test.describe('the first screen', () => {
  // A fresh visit, as a phone's first: no service worker serving files from its cache.
  test.use({ serviceWorkers: 'block' });

  /**
   * The app's code a page asked for before `testId` showed, and what the page itself names: its
   * scripts and <link rel="preload">s. Each file the first screen needs is named in the page, so
   * the browser asks for all of them as it reads it, none after the script before it has run.
   */
  async function firstScreen(browser: Browser, path: string, testId: string, options: BrowserContextOptions = {}) {
    const context = await browser.newContext(options);
    const page = await context.newPage();
    const asked: string[] = [];
    let shown = false;
    page.on('request', (req) => {
      const url = new URL(req.url());
      if (!shown && (url.pathname.endsWith('.js') || url.pathname.endsWith('mf-manifest.json'))) asked.push(url.pathname);
    });
    await page.goto(path);
    await expect(page.getByTestId(testId)).toBeVisible();
    shown = true;
    const named = await page.evaluate(() =>
      [...document.querySelectorAll<HTMLLinkElement | HTMLScriptElement>('link[rel="preload"], script[src]')].map(
        (el) => new URL('href' in el ? el.href : el.src).pathname,
      ),
    );
    await context.close();
    return { asked: [...new Set(asked)].sort(), named };
  }

  test("a signed-out visitor's login page: the app's code and the login form's, named in the page", async ({ browser }) => {
    const { asked, named } = await firstScreen(browser, '/login', 'login-form');
    expect(asked.some((file) => /^\/login\.[0-9a-f]{8}\.js$/.test(file))).toBe(true);
    expect(asked.filter((file) => !named.includes(file))).toEqual([]);
  });

  test("the kiosk: the kiosk's manifest, entry and exposed module are named in the page", async ({ browser }) => {
    const { asked, named } = await firstScreen(browser, '/kiosk', 'remote-kiosk');
    expect(asked).toEqual(expect.arrayContaining(['/remotes/kiosk/mf-manifest.json', '/remotes/kiosk/remoteEntry.js']));
    expect(asked.filter((file) => !named.includes(file))).toEqual([]);
  });

  test("a signed-in worker's screen: the worker's remote is named in the page, and their data asked for before it loads", async ({
    browser,
    playwright,
  }) => {
    const superadmin = await apiSession(playwright, 'superadmin', process.env.LWS_E2E_SUPERADMIN_PASSWORD!);
    const username = `first${Date.now().toString(36)}`;
    let created = false;
    // PINs are unique across users: this test draws from 9800-9899 and retries a taken one.
    for (let attempt = 0; attempt < 10 && !created; attempt++) {
      const res = await superadmin.post('/api/users', {
        data: {
          username,
          password: 'FirstScreen1',
          name: 'Fay Firstscreen',
          phone: uniqueMobile(),
          role: 'worker',
          pinCode: String(randomInt(9800, 9900)),
        },
      });
      if (res.status() === 409) continue;
      expect(res.status(), await res.text()).toBe(201);
      created = true;
    }
    expect(created).toBe(true);
    const worker = await apiSession(playwright, username, 'FirstScreen1');
    const storageState = await worker.storageState();
    await Promise.all([worker.dispose(), superadmin.dispose()]);
    const { asked, named } = await firstScreen(browser, '/worker', 'remote-worker', { storageState });
    expect(asked).toEqual(expect.arrayContaining(['/remotes/worker/mf-manifest.json', '/remotes/worker/remoteEntry.js']));
    expect(asked.filter((file) => !named.includes(file))).toEqual([]);

    // The worker's own data is asked for as soon as the session check names them, while the
    // screen's code is still on its way (held back here), and read once: not asked for again.
    const context = await browser.newContext({ storageState });
    const page = await context.newPage();
    const events: string[] = [];
    await context.route('**/remotes/worker/__federation_expose_*', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1500));
      events.push('worker code sent');
      await route.continue();
    });
    page.on('request', (req) => {
      const { pathname } = new URL(req.url());
      if (/^\/api\/(users\/\d+\/(with-relations|emergency)|location-options)$/.test(pathname)) events.push(pathname.replace(/\d+/, 'N'));
    });
    await page.goto('/worker');
    await expect(page.getByRole('button', { name: 'Start Shift' })).toBeVisible();
    await context.close();
    expect(events.slice(0, 3).sort()).toEqual(['/api/location-options', '/api/users/N/emergency', '/api/users/N/with-relations']);
    expect(events.filter((e) => e.startsWith('/api/')).sort()).toEqual([
      '/api/location-options',
      '/api/users/N/emergency',
      '/api/users/N/with-relations',
    ]);
  });
});
