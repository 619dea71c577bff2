import { randomInt } from 'node:crypto';
import { expect, test, type APIRequest, type APIRequestContext } from '@playwright/test';
import { apiSession, uniqueMobile } from './support/session';

// The worker app installs and keeps working without a network, on the embedded stack (`npm start`'s
// defaults) as well as the real servers: the manifest and icons, the service worker, the worker
// screen opened without a network, and a check-in made offline that reaches LWS when the network
// returns, counted from when it was made.

const run = Date.now().toString(36).slice(-5);
let seq = 0;

let superadminApi: APIRequestContext;
const sessions: APIRequestContext[] = [];

/** Signed in, and signed out with the others after the file's tests. */
async function trackedSession(playwright: { request: APIRequest }, username: string, password: string) {
  const ctx = await apiSession(playwright, username, password);
  sessions.push(ctx);
  return ctx;
}

/** PINs are unique across users: this file draws from 7000-7099 (see accounts.e2e.ts) and retries a taken one. */
async function createWorker(playwright: { request: APIRequest }, name: string) {
  const password = 'Offline123';
  for (let attempt = 0; attempt < 10; attempt++) {
    const pin = String(randomInt(7000, 7100));
    const res = await superadminApi.post('/api/users', {
      data: { username: `off${run}${++seq}`, password, name, phone: uniqueMobile(), role: 'worker', pinCode: pin },
    });
    if (res.status() === 409) continue;
    expect(res.status(), await res.text()).toBe(201);
    const { user } = (await res.json()) as { user: { id: number; username: string } };
    const api = await trackedSession(playwright, user.username, password);
    return { id: user.id, pin, api, state: await api.storageState() };
  }
  throw new Error('Could not find a free PIN');
}

/** A PNG's width and height, from its header. */
function pngSize(bytes: Buffer): [number, number] {
  expect(bytes.subarray(1, 4).toString('ascii')).toBe('PNG');
  return [bytes.readUInt32BE(16), bytes.readUInt32BE(20)];
}

test.use({ serviceWorkers: 'allow' });

test.beforeAll(async ({ playwright }) => {
  superadminApi = await trackedSession(playwright, 'superadmin', process.env.LWS_E2E_SUPERADMIN_PASSWORD!);
});

test.afterAll(async () => {
  await Promise.all(sessions.map((s) => s.dispose()));
});

test('the worker app installs: a linked manifest with its icons, and a service worker Chromium accepts @embedded', async ({ page }) => {
  await page.goto('/login');
  const href = await page.locator('link[rel="manifest"]').getAttribute('href');
  expect(href).toBe('/manifest.webmanifest');
  const res = await page.request.get(href!);
  expect(res.headers()['content-type']).toMatch(/^application\/manifest\+json/);
  const manifest = (await res.json()) as {
    name: string;
    short_name: string;
    start_url: string;
    display: string;
    icons: { src: string; sizes: string; type: string }[];
  };
  expect(manifest).toMatchObject({ name: 'LWS Lone Worker Safety', short_name: 'LWS', start_url: '/worker', display: 'standalone' });
  for (const size of [192, 512]) {
    const icon = manifest.icons.find((i) => i.sizes === `${size}x${size}`);
    expect(icon?.type).toBe('image/png');
    const bytes = await (await page.request.get(icon!.src)).body();
    expect(pngSize(bytes)).toEqual([size, size]);
  }

  await page.waitForFunction(async () => Boolean(await navigator.serviceWorker.getRegistration('/')));
  await page.evaluate(() => navigator.serviceWorker.ready);
  const cdp = await page.context().newCDPSession(page);
  const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as { installabilityErrors: { errorId: string }[] };
  // Every test browser is incognito, which Chromium will not install from: any other reason is the app's.
  expect(installabilityErrors.map((e) => e.errorId).filter((id) => id !== 'in-incognito')).toEqual([]);
});

test('the worker screen opens without a network, and a check-in made offline is sent when the network returns, as made then @embedded', async ({
  browser,
  playwright,
}) => {
  test.setTimeout(90_000);
  const worker = await createWorker(playwright, 'Nia Nosignal');
  const started = await worker.api.post(`/api/users/${worker.id}/start-shift`, { data: { location: 'The Prospect Building' } });
  expect(started.ok(), await started.text()).toBe(true);
  // The check-in window opens 10 minutes before the deadline.
  const due = await superadminApi.post(`/api/simulate-specific-time/${worker.id}`, { data: { minutesUntilDue: 5 } });
  expect(due.ok(), await due.text()).toBe(true);

  // On the phone the worker carries.
  const context = await browser.newContext({ storageState: worker.state, serviceWorkers: 'allow', viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await page.goto('/worker');
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 30_000 });
  // Once the service worker controls the page, the screen it reads is kept for offline use.
  await page.reload();
  await expect(page.getByTestId('check-in-button')).toBeEnabled();

  await context.setOffline(true);
  await page.reload();
  await expect(page.getByTestId('offline-banner')).toContainText("You're offline.");
  await expect(page.getByTestId('check-in-button')).toBeEnabled();
  await expect(page.getByTestId('emergency-button')).toBeVisible();

  await page.getByTestId('check-in-button').click();
  await page.getByTestId('pin-dialog').getByLabel('Security PIN').fill(worker.pin);
  const kept = page.getByTestId('kept-check-in');
  await expect(kept).toContainText(
    /Your check-in at \d{2}:\d{2} is not sent yet — we keep trying; reply to the SMS reminder if this doesn't clear\./,
  );
  const madeBy = Date.now();
  // LWS has heard nothing yet.
  expect(await (await worker.api.get(`/api/users/${worker.id}/latest-check-in`)).json()).toBeNull();

  await page.waitForTimeout(3000);
  const reconnected = Date.now();
  await context.setOffline(false);
  await expect(page.getByTestId('toast').filter({ hasText: 'Check-in sent' })).toBeVisible({ timeout: 20_000 });
  await expect(kept).toBeHidden();
  await expect(page.getByTestId('offline-banner')).toBeHidden();
  await expect(page.getByTestId('status-pill')).toHaveText("You're checked in");

  const latest = (await (await worker.api.get(`/api/users/${worker.id}/latest-check-in`)).json()) as {
    timestamp: string;
    nextCheckInTime: string;
  } | null;
  expect(latest).not.toBeNull();
  // Counted from when it was made, not from when the network returned.
  expect(Date.parse(latest!.timestamp)).toBeLessThanOrEqual(madeBy);
  expect(Date.parse(latest!.timestamp)).toBeLessThan(reconnected - 2000);
  await context.close();
  await superadminApi.post(`/api/users/${worker.id}/force-clock-out`);
});
