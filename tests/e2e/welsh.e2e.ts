import { randomInt } from 'node:crypto';
import { expect, test, type APIRequestContext, type Browser } from '@playwright/test';
import { seriousViolations } from './support/axe';
import { apiSession, uniqueMobile } from './support/session';

// A Welsh-speaking worker (their account's language is Welsh) sees the worker's screens in Welsh
// from their first sign-in, on and off shift, and they pass axe in Welsh at both sizes. The kiosk
// and the login page offer the language switch; the profile changes the account's language. A
// Welsh-speaking admin's dashboard (the monitors' shared tabs) is in Welsh and passes axe in it.

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
    // Dates too, in a browser that knows no Welsh dates of its own (Debian's Chromium): a Welsh
    // month, London's 24-hour clock, never "Nov 28, 2026, 08:50 PM".
    await expect(page.getByTestId('shift-start-time')).toHaveText(
      /^\d{2} (Ion|Chw|Maw|Ebr|Mai|Meh|Gor|Awst|Medi|Hyd|Tach|Rhag) \d{4}, [0-2]\d:[0-5]\d$/,
    );
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

/** The admin dashboard's tabs in Welsh, and the heading each one's panel opens with. */
const ADMIN_TABS: { tab: string; heading: RegExp }[] = [
  { tab: 'Dangosfwrdd gweithwyr', heading: /^Dangosfwrdd statws gweithwyr/ },
  { tab: 'Creu defnyddiwr', heading: /^Creu defnyddiwr newydd$/ },
  { tab: 'Lleoliadau', heading: /^Rheoli lleoliadau$/ },
  { tab: 'Logiau gweithgarwch', heading: /^Logiau gweithgarwch/ },
  { tab: 'Ciosgau', heading: /^Ymrestru'r ddyfais hon fel ciosg$/ },
  { tab: 'Adroddiadau', heading: /^Adroddiad larymau$/ },
  { tab: 'Integreiddiadau', heading: /^Tocynnau API$/ },
];

test('a Welsh-speaking admin sees the admin dashboard in Welsh, every tab clean under axe at both sizes', async ({
  browser,
  playwright,
}) => {
  test.setTimeout(180_000);
  let admin: { id: number; api: APIRequestContext } | undefined;
  for (let attempt = 0; attempt < 10 && !admin; attempt++) {
    const username = `gweinyddwr${Date.now().toString(36).slice(-4)}${attempt}`;
    const res = await superadmin.post('/api/users', {
      data: { username, password: PASSWORD, name: 'Elin Gweinyddu', phone: uniqueMobile(), role: 'admin', language: 'cy' },
    });
    if (res.status() === 409) continue;
    expect(res.status(), await res.text()).toBe(201);
    const id = ((await res.json()) as { user: { id: number } }).user.id;
    admin = { id, api: await apiSession(playwright, username, PASSWORD) };
  }
  if (!admin) throw new Error('Could not create the Welsh admin');

  try {
    for (const viewport of [PHONE, DESKTOP]) {
      const context = await browser.newContext({ viewport, storageState: await admin.api.storageState() });
      const page = await context.newPage();
      await page.goto('/admin');
      await expect(page.getByTestId('remote-admin')).toBeVisible();
      await expect(page.locator('html')).toHaveAttribute('lang', 'cy');
      await expect(page.getByRole('heading', { level: 1, name: 'Dangosfwrdd y Gweinyddwr' })).toBeVisible();
      const tabNames = (await page.getByRole('tab').allInnerTexts()).map((name) => name.trim());
      expect(tabNames).toEqual(ADMIN_TABS.map((t) => t.tab));
      await expect(page.getByRole('heading', { name: 'Larymau agored' })).toBeVisible();

      for (const { tab, heading } of ADMIN_TABS) {
        const trigger = page.getByRole('tab', { name: tab, exact: true });
        await trigger.click();
        await expect(trigger).toHaveAttribute('aria-selected', 'true');
        const panel = page.getByRole('tabpanel', { name: tab, exact: true });
        await expect(panel.getByRole('heading', { name: heading }).first()).toBeVisible();
        // Nothing still loading, in either language.
        await expect(panel.getByRole('status', { name: /^(Wrthi'n llwytho|Loading)/ })).toHaveCount(0);
        const text = await panel.innerText();
        for (const english of [
          'Worker Status Dashboard',
          'Create New User',
          'Location Management',
          'Activity Logs',
          'Kiosks',
          'Alarm Report',
          'API tokens',
        ])
          expect(text).not.toContain(english);
        const where = `${tab} ${viewport.width}`;
        expect({ where, violations: await seriousViolations(page) }).toEqual({ where, violations: [] });
      }
      await context.close();
    }
  } finally {
    await admin.api.dispose();
    await superadmin.delete(`/api/users/${admin.id}`);
  }
});
