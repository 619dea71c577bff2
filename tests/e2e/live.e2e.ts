import { randomInt } from 'node:crypto';
import { expect, test, type APIRequest, type APIRequestContext, type Browser, type Page, type Request } from '@playwright/test';
import { apiSession, uniqueMobile } from './support/session';

// Live screens against the real stack: changes reach every open screen over the event stream
// (GET /api/events) within a second or two, without a reload, and without the polling that is
// only the fallback while the stream is down. The server's clock is moved instead of waited for
// (POST /api/test-clock); it is shared by the whole stack, so every test puts it back and ends the
// shifts it started.

const run = Date.now().toString(36).slice(-5);
let seq = 0;
const uniqueUsername = (prefix: string) => `${prefix}${run}${++seq}`;
/** A live change must be on screen well before any fallback poll (30 s for worker lists) could bring it. */
const LIVE_MS = 3000;

type StorageState = Awaited<ReturnType<APIRequestContext['storageState']>>;
interface Account {
  id: number;
  username: string;
  name: string;
  pin: string;
  api: APIRequestContext;
  state: StorageState;
}

let superadminApi: APIRequestContext;
let admin: Account;
const started: Account[] = [];
const sessions: APIRequestContext[] = [];

/** PINs are unique across users: this file draws from 9300-9399 (see accounts.e2e.ts) and retries a taken one. */
async function createUser(playwright: { request: APIRequest }, fields: { name: string; role?: 'worker' | 'admin' }): Promise<Account> {
  const password = 'Live1234';
  for (let attempt = 0; attempt < 10; attempt++) {
    const pin = String(randomInt(9300, 9400));
    const res = await superadminApi.post('/api/users', {
      data: {
        username: uniqueUsername(fields.role === 'admin' ? 'ladm' : 'lwrk'),
        password,
        name: fields.name,
        phone: uniqueMobile(),
        role: fields.role ?? 'worker',
        pinCode: pin,
      },
    });
    if (res.status() === 409) continue;
    expect(res.status(), await res.text()).toBe(201);
    const { user } = (await res.json()) as { user: { id: number; username: string; name: string } };
    const api = await apiSession(playwright, user.username, password);
    sessions.push(api);
    return { ...user, pin, api, state: await api.storageState() };
  }
  throw new Error('Could not find a free PIN');
}

async function testClock(data: { advanceMinutes: number } | { offsetMs: number }) {
  const res = await superadminApi.post('/api/test-clock', { data });
  expect(res.ok(), await res.text()).toBe(true);
}

async function startShift(worker: Account) {
  const res = await worker.api.post(`/api/users/${worker.id}/start-shift`, { data: { location: 'The Prospect Building' } });
  expect(res.ok(), await res.text()).toBe(true);
  started.push(worker);
}

async function pageAs(browser: Browser, state: StorageState, path: string): Promise<Page> {
  const context = await browser.newContext({ storageState: state });
  const page = await context.newPage();
  await page.goto(path);
  return page;
}

/** Every request a page sends from now on, with when it was sent. */
function recordRequests(page: Page) {
  const sent: { at: number; method: string; path: string }[] = [];
  page.on('request', (r: Request) => sent.push({ at: Date.now(), method: r.method(), path: new URL(r.url()).pathname }));
  return {
    since: (at: number, path: string) => sent.filter((r) => r.at >= at && r.method === 'GET' && r.path === path),
  };
}

/** Seconds left on an HH:MM:SS countdown. */
async function countdownSeconds(page: Page): Promise<number> {
  const text = (await page.getByTestId('countdown').textContent()) ?? '';
  const m = /^(\d{2}):(\d{2}):(\d{2})$/.exec(text.trim());
  expect(m, `countdown "${text}"`).not.toBeNull();
  return Number(m![1]) * 3600 + Number(m![2]) * 60 + Number(m![3]);
}

test.beforeAll(async ({ playwright }) => {
  superadminApi = await apiSession(playwright, 'superadmin', process.env.LWS_E2E_SUPERADMIN_PASSWORD!);
  admin = await createUser(playwright, { name: 'Lena Lookout', role: 'admin' });
});

test.afterEach(async () => {
  await testClock({ offsetMs: 0 });
  for (const worker of started.splice(0)) {
    const res = await superadminApi.post(`/api/users/${worker.id}/force-clock-out`);
    expect(res.ok(), await res.text()).toBe(true);
  }
});

test.afterAll(async () => {
  await Promise.all(sessions.map((s) => s.dispose()));
  await superadminApi?.dispose();
});

test("a worker's check-in appears on an admin's Worker Dashboard and Activity Logs at once, from the stream, not a poll", async ({
  browser,
  playwright,
}) => {
  test.setTimeout(120_000);
  const worker = await createUser(playwright, { name: 'Cora Checkin' });
  await startShift(worker);
  // Eight minutes to go: the CHECK IN window is open.
  await testClock({ advanceMinutes: 52 });

  const dashboard = await pageAs(browser, admin.state, '/admin');
  const dashboardRequests = recordRequests(dashboard);
  await expect(dashboard.getByTestId('live-status')).toHaveText('Live');
  const active = dashboard.locator(`[data-testid="active-worker-row"][data-username="${worker.username}"]`);
  const account = dashboard.locator(`[data-testid="account-row"][data-username="${worker.username}"]`);
  await expect(active.getByTestId('worker-last-check-in')).toHaveText('Never');
  await expect(account.getByTestId('worker-last-check-in')).toHaveText('Never');

  const logs = await pageAs(browser, admin.state, '/admin');
  const logRequests = recordRequests(logs);
  await logs.getByRole('tab', { name: 'Activity Logs' }).click();
  const list = logs.getByTestId('activity-list');
  await expect(logs.getByTestId('activity-logs').getByTestId('live-status')).toHaveText('Live');
  // Other files move the shared clock further ahead, so their entries can sort above this one; show this worker's only.
  await logs.getByLabel('Worker').selectOption(String(worker.id));
  await expect(list.locator(`[data-testid="activity-entry"][data-user-id="${worker.id}"][data-type="start_shift"]`)).toHaveCount(1);
  const checkIns = list.locator(`[data-testid="activity-entry"][data-user-id="${worker.id}"][data-type="check_in"]`);
  await expect(checkIns).toHaveCount(0);

  const workerPage = await pageAs(browser, worker.state, '/worker');
  await expect(workerPage.getByTestId('check-in-button')).toBeEnabled();
  await workerPage.getByTestId('check-in-button').click();
  const checkInSent = workerPage.waitForRequest((r) => r.method() === 'POST' && new URL(r.url()).pathname === '/api/check-ins');
  await workerPage.getByTestId('pin-dialog').getByLabel('Security PIN').fill(worker.pin);
  await checkInSent;
  const checkedInAt = Date.now();

  await test.step('the Worker Dashboard shows the check-in in both tables', async () => {
    await expect(active.getByTestId('worker-last-check-in')).not.toHaveText('Never', { timeout: LIVE_MS });
    await expect(account.getByTestId('worker-last-check-in')).not.toHaveText('Never', { timeout: LIVE_MS });
    await expect(active.getByTestId('worker-status')).toHaveText('Checked In');
    // The change came with the event itself: the list was not read again, by a poll or otherwise.
    expect(dashboardRequests.since(checkedInAt, '/api/workers/active')).toEqual([]);
  });

  await test.step("the Activity Logs list has the Check In entry at the top of the worker's entries", async () => {
    await expect(checkIns).toHaveCount(1, { timeout: LIVE_MS });
    const newest = list.getByTestId('activity-entry').first();
    await expect(newest).toHaveAttribute('data-type', 'check_in');
    await expect(newest).toHaveAttribute('data-user-id', String(worker.id));
    await expect(newest.getByTestId('activity-label')).toHaveText('Check In');
    await expect(newest.getByTestId('activity-location')).toHaveText('The Prospect Building');
    expect(logRequests.since(checkedInAt, '/api/activity-logs')).toEqual([]);
  });

  await expect(workerPage.getByTestId('status-pill')).toHaveText("You're checked in");
  await Promise.all([dashboard.context().close(), logs.context().close(), workerPage.context().close()]);
});

test("a deadline a superadmin moves, and a forced clock-out, reach the worker's own screen without a reload", async ({
  browser,
  playwright,
}) => {
  test.setTimeout(90_000);
  const worker = await createUser(playwright, { name: 'Dev Deadline' });
  await startShift(worker);

  const context = await browser.newContext({ storageState: worker.state });
  const page = await context.newPage();
  const streamOpen = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/events' && r.ok());
  await page.goto('/worker');
  await expect(page.getByTestId('status-pill')).toHaveText("You're checked in");
  expect(await countdownSeconds(page)).toBeGreaterThan(55 * 60);
  await streamOpen;

  await test.step('five minutes to go: the countdown and the pill follow at once', async () => {
    const moved = await superadminApi.post(`/api/simulate-specific-time/${worker.id}`, { data: { minutesUntilDue: 5 } });
    expect(moved.ok(), await moved.text()).toBe(true);
    await expect(page.getByTestId('countdown')).toHaveText(/^00:0[45]:\d\d$/, { timeout: LIVE_MS });
    await expect(page.getByTestId('status-pill')).toHaveText('Check-in due soon');
  });

  await test.step('a forced clock-out takes the worker off duty', async () => {
    const res = await superadminApi.post(`/api/users/${worker.id}/force-clock-out`);
    expect(res.ok(), await res.text()).toBe(true);
    started.splice(started.indexOf(worker), 1);
    await expect(page.getByTestId('shift-badge')).toHaveText('Off Duty', { timeout: LIVE_MS });
    await expect(page.getByTestId('status-card')).toHaveCount(0);
  });
  await context.close();
});

test('the Activity Logs tab: a 400px list with Refresh, the empty text, and entries with their labels as they happen', async ({
  browser,
  playwright,
}) => {
  test.setTimeout(60_000);
  const worker = await createUser(playwright, { name: 'Ella Entries' });
  const page = await pageAs(browser, admin.state, '/admin');
  await page.getByRole('tab', { name: 'Activity Logs' }).click();
  const card = page.getByTestId('activity-logs');
  const list = card.getByTestId('activity-list');
  await expect(card.getByTestId('live-status')).toHaveText('Live');
  expect(await list.evaluate((el) => getComputedStyle(el).height)).toBe('400px');

  await card.getByLabel('Worker').selectOption(String(worker.id));
  await expect(list.getByTestId('activity-empty')).toHaveText('No activity logs available');

  await startShift(worker);
  const entry = list.getByTestId('activity-entry');
  await expect(entry).toHaveCount(1, { timeout: LIVE_MS });
  await expect(entry.getByTestId('activity-label')).toHaveText('Start Shift');
  await expect(entry.getByTestId('activity-username')).toHaveText(worker.username);
  await expect(entry.getByTestId('activity-details')).toHaveText('Started shift at The Prospect Building');
  await expect(entry.getByTestId('activity-time')).toHaveText(/^\d{2} \w{3} \d{4}, \d{2}:\d{2}$/);

  // Refresh reads the list again and finds the same entry the stream brought.
  await card.getByRole('button', { name: 'Refresh' }).click();
  await expect(entry).toHaveCount(1);
  await expect(entry.getByTestId('activity-label')).toHaveText('Start Shift');

  await card.getByLabel('Worker').selectOption('');
  await expect(list.locator(`[data-testid="activity-entry"][data-user-id="${worker.id}"]`)).toHaveCount(1);
  await page.context().close();
});

test('while the stream is down the screens say so and fall back to the spec polling', async ({ browser, playwright }) => {
  test.setTimeout(60_000);
  const worker = await createUser(playwright, { name: 'Otto Offline' });
  const context = await browser.newContext({ storageState: admin.state });
  await context.route('**/api/events', (route) => route.abort('connectionrefused'));
  const page = await context.newPage();
  await page.goto('/admin');
  await page.getByRole('tab', { name: 'Activity Logs' }).click();
  const card = page.getByTestId('activity-logs');
  await expect(card.getByTestId('live-status')).toHaveText('Reconnecting...');
  await card.getByLabel('Worker').selectOption(String(worker.id));
  await expect(card.getByTestId('activity-empty')).toBeVisible();

  await startShift(worker);
  // The activity log is read every 2 s meanwhile.
  await expect(card.locator('[data-testid="activity-entry"][data-type="start_shift"]')).toHaveCount(1, { timeout: 5000 });
  await context.close();
});
