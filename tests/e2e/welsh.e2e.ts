import { randomInt } from 'node:crypto';
import { expect, test, type APIRequestContext, type Browser } from '@playwright/test';
import { seriousViolations } from './support/axe';
import { apiSession, uniqueMobile } from './support/session';

// A Welsh-speaking worker (their account's language is Welsh) sees the worker's screens in Welsh
// from their first sign-in, on and off shift, and they pass axe in Welsh at both sizes. The kiosk
// and the login page offer the language switch; the profile changes the account's language.

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1366, height: 900 };
const PASSWORD = 'Cymraeg123';

let superadmin: APIRequestContext;
let worker: { id: number; username: string; api: APIRequestContext };

async function signedIn(browser: Browser, viewport: { width: number; height: number }) {
  const context = await browser.newContext({ viewport, storageState: await worker.api.storageState() });
  const page = await context.newPage();
  await page.goto('/worker');
  return page;
}

test.beforeAll(async ({ playwright }) => {
  superadmin = await apiSession(playwright, 'superadmin', process.env.LWS_E2E_SUPERADMIN_PASSWORD!);
  for (let attempt = 0; attempt < 10; attempt++) {
    const username = `cymraeg${Date.now().toString(36).slice(-4)}${attempt}`;
    const res = await superadmin.post('/api/users', {
      data: {
        username,
        password: PASSWORD,
        name: 'Siân Gofal',
        phone: uniqueMobile(),
        role: 'worker',
        pinCode: String(randomInt(9700, 9800)),
        language: 'cy',
      },
    });
    if (res.status() === 409) continue;
    expect(res.status(), await res.text()).toBe(201);
    const id = ((await res.json()) as { user: { id: number } }).user.id;
    worker = { id, username, api: await apiSession(playwright, username, PASSWORD) };
    return;
  }
  throw new Error('Could not create the Welsh worker');
});

test.afterAll(async () => {
  await superadmin.post(`/api/users/${worker.id}/force-clock-out`);
  await Promise.all([superadmin.dispose(), worker.api.dispose()]);
});

test('a Welsh-speaking worker signs in and everything on the worker screen is in Welsh, on and off shift, clean under axe at both sizes', async ({
  browser,
}) => {
  for (const viewport of [PHONE, DESKTOP]) {
    const page = await signedIn(browser, viewport);
    await expect(page.getByTestId('emergency-button')).toHaveText('GOFYN AM GYMORTH BRYS');
    await expect(page.getByRole('button', { name: 'Dechrau sifft' })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'cy');
    expect({ screen: `off shift ${viewport.width}`, violations: await seriousViolations(page) }).toEqual({
      screen: `off shift ${viewport.width}`,
      violations: [],
    });
    await page.context().close();
  }

  const started = await worker.api.post(`/api/users/${worker.id}/start-shift`, { data: { location: 'The Prospect Building' } });
  expect(started.ok(), await started.text()).toBe(true);
  for (const viewport of [PHONE, DESKTOP]) {
    const page = await signedIn(browser, viewport);
    await expect(page.getByRole('heading', { name: 'Eich statws' })).toBeVisible();
    await expect(page.getByTestId('emergency-button')).toHaveText('GOFYN AM GYMORTH BRYS');
    // Not one English word of the worker's own screen is left (the bottom navigation too).
    const text = await page.locator('main, nav').allInnerTexts();
    for (const english of ['Check In', 'Your Status', 'Emergency Options', 'Next check-in required', 'Profile'])
      expect(text.join('\n')).not.toContain(english);
    expect({ screen: `on shift ${viewport.width}`, violations: await seriousViolations(page) }).toEqual({
      screen: `on shift ${viewport.width}`,
      violations: [],
    });
    await page.context().close();
  }
});

test('the kiosk and the login page switch to Welsh, keep it on this device, and stay clean under axe', async ({ browser }) => {
  const context = await browser.newContext({ viewport: PHONE });
  const page = await context.newPage();
  await page.goto('/kiosk');
  await expect(page.getByTestId('remote-kiosk')).toBeVisible();
  await page.getByRole('button', { name: 'Cymraeg' }).click();
  await expect(page.getByRole('button', { name: 'Cymraeg' })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.locator('html')).toHaveAttribute('lang', 'cy');
  expect(await page.getByTestId('remote-kiosk').innerText()).not.toContain('This device is not an enrolled kiosk');
  expect({ screen: 'kiosk', violations: await seriousViolations(page) }).toEqual({ screen: 'kiosk', violations: [] });

  await page.goto('/login');
  await expect(page.getByRole('button', { name: 'Mewngofnodi' })).toBeVisible();
  await expect(page.getByLabel('Enw defnyddiwr')).toBeVisible();
  expect({ screen: 'login', violations: await seriousViolations(page) }).toEqual({ screen: 'login', violations: [] });
  await page.getByRole('button', { name: 'English' }).click();
  await expect(page.getByRole('button', { name: 'Log In' })).toBeVisible();
  await context.close();
});

test("the worker changes their account's language on the profile, and the screens follow at once", async ({ browser }) => {
  const page = await signedIn(browser, PHONE);
  await page.goto('/profile');
  const select = page.getByTestId('language-select');
  await expect(select).toHaveValue('cy');
  await select.selectOption('en');
  await expect(page.getByRole('heading', { name: 'Language' })).toBeVisible();
  await page.goto('/worker');
  await expect(page.getByTestId('emergency-button')).toHaveText('REQUEST EMERGENCY ASSISTANCE');
  const me = await worker.api.get('/api/auth/me');
  expect(((await me.json()) as { language: string }).language).toBe('en');
  // Back to Welsh for the other tests of the run.
  await worker.api.patch(`/api/users/${worker.id}`, { data: { language: 'cy' } });
  await page.context().close();
});
