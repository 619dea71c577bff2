import { randomInt } from 'node:crypto';
import { expect, test, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { seriousViolations } from './support/axe';
import { apiSession, uniqueMobile } from './support/session';

// axe-core on every screen: the public pages, the worker's, the profile, every tab of
// the admin and super admin dashboards, on a desktop and on a phone. No serious or critical
// violation of WCAG 2.1 A/AA or axe's best practices is allowed; the named findings
// (a main landmark on login and kiosk, the header logo link's name on phones, the activity list
// and report table reachable by keyboard) are also checked one by one.

type StorageState = Awaited<ReturnType<APIRequestContext['storageState']>>;

const run = Date.now().toString(36).slice(-5);
const PHONE = { width: 390, height: 844 };
const ADMIN_TABS = ['Worker Dashboard', 'Create User', 'Locations', 'Activity Logs', 'Kiosks', 'Reports', 'Integrations'];
const SUPERADMIN_TABS = [
  ...ADMIN_TABS,
  'Teams',
  'Import',
  'Sign-in',
  'Force Clock Out',
  'System Config',
  'System Testing',
  'Test Account',
  'SMS Test Panel',
  'Dead Letters',
];

let superadminApi: APIRequestContext;
let superadminState: StorageState;
let adminState: StorageState;
let workerState: StorageState;
let workerId: number;
let offShiftState: StorageState;
const sessions: APIRequestContext[] = [];

async function expectAccessible(page: Page, screen: string) {
  expect({ screen, violations: await seriousViolations(page) }).toEqual({ screen, violations: [] });
}

async function open(browser: Browser, state: StorageState | undefined, path: string, viewport = { width: 1280, height: 720 }) {
  const context = await browser.newContext({ ...(state ? { storageState: state } : {}), viewport });
  const page = await context.newPage();
  await page.goto(path);
  return page;
}

/** The Axe worker's number (a worker's number is their own). */
const AXE_PHONE = uniqueMobile();

/** PINs are unique across users: this file draws from 9600-9699 (see accounts.e2e.ts). */
async function createUser(playwright: { request: import('@playwright/test').APIRequest }, role: 'worker' | 'admin', phone = AXE_PHONE) {
  const password = 'Axe12345';
  for (let attempt = 0; attempt < 10; attempt++) {
    const username = `axe${role[0]}${run}${attempt}`;
    const res = await superadminApi.post('/api/users', {
      data: { username, password, name: `Axe ${role}`, phone, role, pinCode: String(randomInt(9600, 9700)) },
    });
    if (res.status() === 409) continue;
    expect(res.status(), await res.text()).toBe(201);
    const { user } = (await res.json()) as { user: { id: number } };
    const api = await apiSession(playwright, username, password);
    sessions.push(api);
    return { id: user.id, api, state: await api.storageState() };
  }
  throw new Error('Could not find a free PIN');
}

test.beforeAll(async ({ playwright }) => {
  superadminApi = await apiSession(playwright, 'superadmin', process.env.LWS_E2E_SUPERADMIN_PASSWORD!);
  superadminState = await superadminApi.storageState();
  const admin = await createUser(playwright, 'admin');
  adminState = admin.state;
  // A worker on shift, so the worker's screen, the dashboards' tables and the activity list have rows.
  const worker = await createUser(playwright, 'worker');
  workerState = worker.state;
  workerId = worker.id;
  const started = await worker.api.post(`/api/users/${worker.id}/start-shift`, { data: { location: 'The Prospect Building' } });
  expect(started.ok(), await started.text()).toBe(true);
  offShiftState = (await createUser(playwright, 'worker', uniqueMobile())).state;
});

test.afterAll(async () => {
  // The other files count the workers on shift and the alarms: this one leaves none behind.
  const ended = await superadminApi.post(`/api/users/${workerId}/force-clock-out`);
  expect(ended.ok(), await ended.text()).toBe(true);
  await Promise.all([superadminApi, ...sessions].map((s) => s?.dispose()));
});

test.describe('public pages', () => {
  for (const viewport of [{ width: 1280, height: 720 }, PHONE]) {
    test(`login at ${viewport.width}px has a main landmark and no serious violations`, async ({ browser }) => {
      const page = await open(browser, undefined, '/login', viewport);
      await expect(page.getByRole('button', { name: 'Log In' })).toBeVisible();
      await expect(page.getByRole('main')).toHaveCount(1);
      await expectAccessible(page, `/login ${viewport.width}px`);
    });

    test(`kiosk at ${viewport.width}px has a main landmark and no serious violations`, async ({ browser }) => {
      const page = await open(browser, undefined, '/kiosk', viewport);
      await expect(page.getByTestId('remote-kiosk')).toBeVisible();
      await expect(page.getByRole('main')).toHaveCount(1);
      await expectAccessible(page, `/kiosk ${viewport.width}px`);
    });
  }

  test('on a phone the cookie banner appearing moves nothing on the login page, and the page scrolls clear of it', async ({ browser }) => {
    const page = await open(browser, undefined, '/login', PHONE);
    const card = page.locator('.lws-auth-card');
    await expect(card).toBeVisible();
    const before = (await card.boundingBox())!;
    const banner = page.getByTestId('cookie-banner');
    await expect(banner).toBeVisible({ timeout: 10_000 });
    expect((await card.boundingBox())!.y).toBe(before.y);
    const logIn = page.getByRole('button', { name: 'Log In' });
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    expect((await logIn.boundingBox())!.y + (await logIn.boundingBox())!.height).toBeLessThanOrEqual((await banner.boundingBox())!.y);
  });

  test('the not-found page has no serious violations', async ({ browser }) => {
    const page = await open(browser, undefined, `/no-such-page-${run}`);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expectAccessible(page, 'not found');
  });
});

test.describe('a worker', () => {
  for (const viewport of [{ width: 1280, height: 720 }, PHONE]) {
    test(`the worker screen at ${viewport.width}px, on shift`, async ({ browser }) => {
      const page = await open(browser, workerState, '/worker', viewport);
      await expect(page.getByTestId('remote-worker')).toBeVisible();
      await expect(page.getByRole('button', { name: /check in/i }).first()).toBeVisible();
      await expectAccessible(page, `/worker ${viewport.width}px`);
    });
  }

  for (const viewport of [{ width: 1280, height: 720 }, PHONE]) {
    test(`the worker screen at ${viewport.width}px, with a toast shown`, async ({ browser }) => {
      const page = await open(browser, workerState, '/worker', viewport);
      // "+15 min" answers with a toast ("Check-in extended"), as starting a shift or checking in does.
      await page.getByTestId('extend-button').click();
      await expect(page.getByTestId('toast').first()).toBeVisible();
      await expectAccessible(page, `/worker ${viewport.width}px with a toast`);
    });
  }

  for (const [viewport, shift] of [PHONE, { width: 1366, height: 900 }].flatMap(
    (v) =>
      [
        [v, 'on'],
        [v, 'off'],
      ] as const,
  )) {
    test(`at ${viewport.width}x${viewport.height}, ${shift} shift, with the cookie banner shown, nothing covers the emergency button`, async ({
      browser,
    }) => {
      const page = await open(browser, shift === 'on' ? workerState : offShiftState, '/worker', viewport);
      const button = page.getByTestId('emergency-button');
      // The banner comes a second after the shell mounts, which under load is well after the page opens.
      await expect(page.getByTestId('cookie-banner')).toBeVisible({ timeout: 10_000 });
      await expect(button).toBeVisible();
      // What is on top at the corners and the centre of the button (those on the screen): the
      // button, or what covers it.
      const onTop = () =>
        button.evaluate((el) => {
          const r = el.getBoundingClientRect();
          const points = [
            [r.left + 2, r.top + 2],
            [r.right - 2, r.top + 2],
            [r.left + 2, r.bottom - 2],
            [r.right - 2, r.bottom - 2],
            [(r.left + r.right) / 2, (r.top + r.bottom) / 2],
          ].filter(([, y]) => y >= 0 && y < window.innerHeight);
          return points.map(([x, y]) => {
            const top = document.elementFromPoint(x, y);
            if (!top || top === el || el.contains(top)) return 'button';
            return top.closest('[data-testid="cookie-banner"]')
              ? 'cookie banner'
              : (top.closest('[data-testid]')?.getAttribute('data-testid') ?? top.tagName);
          });
        });
      // Where the worker first sees it, without scrolling, all of it is on the screen and nothing
      // (the banner, the bottom navigation) covers any of it...
      const seen = await onTop();
      // (Off shift on a phone the shift form comes first and the button may start below the screen: then none of it is covered.)
      expect(seen).toEqual(seen.map(() => 'button'));
      if (shift === 'on') expect(seen).toHaveLength(5);
      const banner = (await page.getByTestId('cookie-banner').boundingBox())!;
      const box = (await button.boundingBox())!;
      expect(box.y + box.height <= banner.y || box.y >= banner.y + banner.height).toBe(true);
      // ...and scrolled to the middle of the screen, nothing at all is.
      await button.evaluate((el) => el.scrollIntoView({ block: 'center' }));
      expect(new Set(await onTop())).toEqual(new Set(['button']));
      await button.click({ trial: true, timeout: 2000 });
    });
  }

  test("on a phone the header's logo link has a name", async ({ browser }) => {
    const page = await open(browser, workerState, '/worker', PHONE);
    const links = page.getByRole('banner').getByRole('link');
    await expect(links.first()).toBeVisible();
    for (const link of await links.all()) expect((await link.getAttribute('aria-label')) ?? (await link.innerText())).toMatch(/\w/);
  });

  test('the profile page', async ({ browser }) => {
    const page = await open(browser, workerState, '/profile');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expectAccessible(page, '/profile');
  });
});

/** Each tab in turn, once its panel's first answer from the API is in (no "Loading..."). */
async function eachTab(page: Page, tabs: string[], where: string) {
  for (const name of tabs) {
    const tab = page.getByRole('tab', { name, exact: true });
    await tab.click();
    await expect(tab).toHaveAttribute('aria-selected', 'true');
    const panel = page.getByRole('tabpanel', { name, exact: true });
    await expect(panel).toBeVisible();
    await expect(panel.getByText('Loading...', { exact: true })).toHaveCount(0);
    await expectAccessible(page, `${where} · ${name}`);
  }
}

test.describe('the monitors', () => {
  test('every tab of the admin dashboard', async ({ browser }) => {
    const page = await open(browser, adminState, '/admin');
    await expect(page.getByTestId('remote-admin')).toBeVisible();
    await eachTab(page, ADMIN_TABS, '/admin');
  });

  test('every tab of the super admin dashboard', async ({ browser }) => {
    // Twenty panels, each checked by axe once its data is in.
    test.setTimeout(180_000);
    const page = await open(browser, superadminState, '/superadmin');
    await expect(page.getByTestId('remote-superadmin')).toBeVisible();
    await eachTab(page, SUPERADMIN_TABS, '/superadmin');
    // System Testing has tabs of its own.
    await page.getByRole('tab', { name: 'System Testing', exact: true }).click();
    await eachTab(page, ['Check-in Simulation', 'Emergency Tests', 'System Tools', 'Simulation Settings'], '/superadmin · System Testing');
  });

  test('the admin dashboard on a phone', async ({ browser }) => {
    const page = await open(browser, adminState, '/admin', PHONE);
    await expect(page.getByTestId('remote-admin')).toBeVisible();
    await expectAccessible(page, '/admin 390px');
  });

  test('the activity list and the report table can be reached and scrolled by keyboard', async ({ browser }) => {
    const page = await open(browser, adminState, '/admin');
    for (const name of ['Activity Logs', 'Reports']) {
      await page.getByRole('tab', { name, exact: true }).click();
      const panel = page.getByRole('tabpanel');
      await expect(panel.getByText('Loading...', { exact: true })).toHaveCount(0);
      // Every scrolling region in the panel takes focus (axe: scrollable-region-focusable).
      const regions = await panel.locator('*').evaluateAll((els) =>
        els
          .filter((el) => {
            const style = getComputedStyle(el);
            const scrolls = /(auto|scroll)/.test(style.overflowY + style.overflowX);
            return scrolls && (el.scrollHeight > el.clientHeight || el.scrollWidth > el.clientWidth);
          })
          .map((el) => ({
            tabIndex: (el as HTMLElement).tabIndex,
            name: el.getAttribute('aria-label') ?? el.getAttribute('aria-labelledby'),
          })),
      );
      for (const region of regions) expect({ name, region }).toEqual({ name, region: { tabIndex: 0, name: expect.stringMatching(/\w/) } });
    }
  });
});

// The monitor console fits the screen it is given.
test.describe('the monitor console at 1280×720 and 1920×1080', () => {
  for (const viewport of [
    { width: 1280, height: 720 },
    { width: 1920, height: 1080 },
  ]) {
    test(`at ${viewport.width}×${viewport.height} every super admin tab is in view and the worker column stays put`, async ({
      browser,
    }) => {
      const page = await open(browser, superadminState, '/superadmin', viewport);
      await expect(page.getByTestId('remote-superadmin')).toBeVisible();
      // No tab is cut off: each lies wholly inside the window.
      const tabs = page.getByRole('tablist', { name: 'Super Admin Dashboard sections' }).getByRole('tab');
      await expect(tabs).toHaveCount(SUPERADMIN_TABS.length);
      for (const tab of await tabs.all()) {
        const box = (await tab.boundingBox())!;
        expect({ tab: await tab.innerText(), left: box.x >= 0, right: box.x + box.width <= viewport.width }).toEqual({
          tab: await tab.innerText(),
          left: true,
          right: true,
        });
      }
      // The dashboard uses the width: wider than the 1024 px reading column of the other pages.
      const main = (await page.getByRole('main').boundingBox())!;
      expect(main.width).toBeGreaterThan(Math.min(viewport.width - 64, 1800));
      // The accounts table scrolls inside its frame, the worker's name staying in view.
      const region = page.getByRole('region', { name: 'All worker accounts' });
      await expect(region).toBeVisible();
      const fits = await region.evaluate((el) => el.scrollWidth <= el.clientWidth);
      if (viewport.width >= 1920) expect(fits).toBe(true);
      await region.evaluate((el) => el.scrollTo({ left: el.scrollWidth }));
      const frame = (await region.boundingBox())!;
      const firstCell = (await region.locator('tbody tr').first().locator('td').first().boundingBox())!;
      expect(Math.abs(firstCell.x - frame.x)).toBeLessThanOrEqual(2);
    });
  }

  test('the worker tables offer to call a worker on their phone', async ({ browser }) => {
    const page = await open(browser, adminState, '/admin');
    const row = page.getByTestId('active-workers-table').locator('tbody tr', { hasText: 'Axe worker' });
    const call = row.getByRole('link', { name: `Call Axe worker on ${AXE_PHONE}` });
    await expect(call).toHaveAttribute('href', `tel:${AXE_PHONE}`);
  });
});

// What each first screen downloads (each remote loads only its own code). The login
// page's code is the chunk named "login"; remotes are under /remotes/<name>/.
test.describe('what each page downloads', () => {
  async function scriptsFor(browser: Browser, state: StorageState | undefined, path: string, ready: string) {
    const context = await browser.newContext({ ...(state ? { storageState: state } : {}) });
    const page = await context.newPage();
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
    await page.goto(path);
    await expect(page.getByTestId(ready)).toBeVisible();
    await context.close();
    return {
      remotes: [...new Set(scripts.flatMap((s) => /^\/remotes\/([a-z]+)\//.exec(s)?.[1] ?? []))],
      login: scripts.some((s) => /^\/login\.[0-9a-f]{8}\.js$/.test(s)),
    };
  }

  test('the kiosk loads its own remote and not the login form', async ({ browser }) => {
    expect(await scriptsFor(browser, undefined, '/kiosk', 'remote-kiosk')).toEqual({ remotes: ['kiosk'], login: false });
  });

  test("a signed-in worker's screen loads the worker remote and not the login form", async ({ browser }) => {
    expect(await scriptsFor(browser, workerState, '/worker', 'remote-worker')).toEqual({ remotes: ['worker'], login: false });
  });

  test('/login loads the login form and no remote', async ({ browser }) => {
    expect(await scriptsFor(browser, undefined, '/login', 'login-form')).toEqual({ remotes: [], login: true });
  });
});
