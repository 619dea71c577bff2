import { randomInt } from 'node:crypto';
import { expect, test, type APIRequest, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { apiSession, uniqueMobile } from './support/session';

// A monitor who can reach the worker: "check in now" from the Worker Dashboard, answered by the
// worker's ordinary check-in on a phone-sized screen, the monitor watching "1 of 1 safe" fill up
// live; and messages exchanged during an alarm. Workers made here end their shifts and are removed.

const run = Date.now().toString(36).slice(-5);
let seq = 0;
const PHONE = { width: 390, height: 844 };

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
const sessions: APIRequestContext[] = [];
const made: number[] = [];

/** PINs are unique across users: this file draws from 9400-9499 (see accounts.e2e.ts) and retries a taken one. */
async function createUser(playwright: { request: APIRequest }, name: string, role: 'worker' | 'admin' = 'worker'): Promise<Account> {
  const password = 'Reach1234';
  for (let attempt = 0; attempt < 10; attempt++) {
    const pin = String(randomInt(9400, 9500));
    const username = `rw${run}${++seq}`;
    const res = await superadminApi.post('/api/users', { data: { username, password, name, phone: uniqueMobile(), role, pinCode: pin } });
    if (res.status() === 409) continue;
    expect(res.status(), await res.text()).toBe(201);
    const { user } = (await res.json()) as { user: { id: number } };
    made.push(user.id);
    const api = await apiSession(playwright, username, password);
    sessions.push(api);
    return { id: user.id, username, name, pin, api, state: await api.storageState() };
  }
  throw new Error('Could not find a free PIN');
}

async function startShift(worker: Account) {
  const res = await worker.api.post(`/api/users/${worker.id}/start-shift`, { data: { location: 'The Prospect Building' } });
  expect(res.ok(), await res.text()).toBe(true);
}

async function pageAs(browser: Browser, state: StorageState, path: string, viewport = { width: 1280, height: 720 }): Promise<Page> {
  const page = await (await browser.newContext({ storageState: state, viewport })).newPage();
  await page.goto(path);
  return page;
}

function toast(page: Page, title: string) {
  return page.getByTestId('toast').filter({ has: page.locator('.lws-toast__title', { hasText: new RegExp(`^${title}$`) }) });
}

test.beforeAll(async ({ playwright }) => {
  superadminApi = await apiSession(playwright, 'superadmin', process.env.LWS_E2E_SUPERADMIN_PASSWORD!);
  sessions.push(superadminApi);
  admin = await createUser(playwright, 'Mo Monitor', 'admin');
});

test.afterAll(async () => {
  for (const id of made) {
    await superadminApi.post(`/api/users/${id}/force-clock-out`);
    const alarms = (await (await superadminApi.get('/api/alarms?open=true&limit=500')).json()) as { id: string; userId: number }[];
    for (const a of alarms.filter((x) => x.userId === id))
      await superadminApi.post(`/api/alarms/${a.id}/resolve`, { data: { verdict: 'test', note: 'Reach-the-worker browser test' } });
  }
  for (const id of [...made].reverse()) await superadminApi.delete(`/api/users/${id}`);
  for (const s of sessions) await s.dispose();
});

test('a monitor asks a worker to check in now; the worker, on a phone, sees the request and answers with the PIN; the monitor sees "1 of 1 safe"', async ({
  browser,
  playwright,
}) => {
  test.setTimeout(120_000);
  const worker = await createUser(playwright, `Cara Checkin ${run}`);
  await startShift(worker);
  // The worker's screen is up and has read that nothing is asked of them before the monitor asks:
  // the request must reach it live.
  const phone = await (await browser.newContext({ storageState: worker.state, viewport: PHONE })).newPage();
  const readNothing = phone.waitForResponse((r) => r.url().endsWith('/api/profile/check-in-request'));
  await phone.goto('/worker');
  expect(await (await readNothing).json()).toEqual({ request: null });
  await expect(phone.getByTestId('check-in-button')).toBeVisible();
  const monitor = await pageAs(browser, admin.state, '/admin');

  await test.step('the monitor asks from the Active Workers table', async () => {
    const row = monitor.getByTestId('active-workers').getByRole('row').filter({ hasText: worker.name });
    await row.getByRole('button', { name: `Ask to check in: ${worker.name}` }).click();
    await expect(toast(monitor, 'Check-in requested')).toContainText(`${worker.name} has been asked to check in by`);
    const asked = monitor.getByTestId('checkin-request').filter({ hasText: worker.name }).first();
    await expect(asked.getByTestId('checkin-request-progress')).toHaveText('0 of 1 safe');
    await expect(asked.getByTestId('checkin-request-state')).toHaveText('Waiting');
  });

  await test.step('the worker sees the request and checks in with the PIN', async () => {
    const alert = phone.getByTestId('checkin-request-alert');
    await expect(alert).toContainText('Mo Monitor asks you to check in now');
    await expect(phone.getByTestId('checkin-request-alert-due')).toHaveText(/^Check in by \d\d:\d\d$/);
    await phone.getByTestId('check-in-button').click();
    await expect(phone.getByTestId('pin-dialog').getByLabel('Security PIN')).toBeFocused();
    await phone.keyboard.type(worker.pin);
    await expect(toast(phone, 'Check-in successful')).toBeVisible();
    await expect(alert).toBeHidden();
  });

  await test.step('the monitor sees the answer live', async () => {
    const asked = monitor.getByTestId('checkin-request').filter({ hasText: worker.name }).first();
    await expect(asked.getByTestId('checkin-request-progress')).toHaveText('1 of 1 safe');
    await expect(asked.getByTestId('checkin-request-state')).toHaveText(/^Checked in at \d\d:\d\d$/);
  });
});

test('during a missed check-in alarm the monitor and the worker, on a phone, exchange messages; the monitor resolves it with an outcome', async ({
  browser,
  playwright,
}) => {
  test.setTimeout(120_000);
  const worker = await createUser(playwright, `Max Message ${run}`);
  await startShift(worker);
  const due = await superadminApi.post(`/api/simulate-check-in-due/${worker.id}`);
  expect(due.ok(), await due.text()).toBe(true);
  const monitor = await pageAs(browser, admin.state, '/admin');
  const row = monitor.getByTestId('alarm-row').filter({ hasText: worker.name });

  await test.step('the monitor writes from the alarm panel', async () => {
    await row.getByTestId('alarm-message-text').fill('Are you OK? Reply here.');
    await row.getByRole('button', { name: `Send message to ${worker.name}` }).click();
    await expect(row.getByTestId('alarm-message').filter({ hasText: 'Are you OK? Reply here.' })).toHaveAttribute('data-from', 'monitor');
  });

  // The worker opens the app (the push brought them), still overdue: the thread is in the check-in alert.
  const phone = await pageAs(browser, worker.state, '/worker', PHONE);

  await test.step('the worker reads it on their phone, in the check-in alert, and answers', async () => {
    await expect(phone.getByTestId('check-in-alert')).toBeVisible();
    const thread = phone.getByTestId('check-in-alert').getByTestId('worker-messages');
    await expect(thread.getByTestId('worker-message').filter({ hasText: 'Are you OK? Reply here.' })).toBeVisible();
    await thread.getByTestId('worker-message-text').fill('All fine, phone was flat');
    await thread.getByRole('button', { name: 'Send message to the monitors' }).click();
    await expect(thread.getByTestId('worker-message').filter({ hasText: 'All fine, phone was flat' })).toHaveAttribute(
      'data-from',
      'worker',
    );
  });

  await test.step("the monitor sees the answer live and resolves the alarm as a false alarm: the phone's battery", async () => {
    await expect(row.getByTestId('alarm-message').filter({ hasText: 'All fine, phone was flat' })).toHaveAttribute('data-from', 'worker');
    await row.getByRole('button', { name: `Resolve the alarm for ${worker.name}` }).click();
    const dialog = monitor.getByTestId('resolve-alarm-dialog');
    await dialog.getByLabel('False alarm').check();
    await dialog.getByLabel('Device problem').check();
    await dialog.getByLabel('Note').fill('Worker answered by message: phone was flat.');
    await dialog.getByRole('button', { name: 'Resolve Alarm' }).click();
    await expect(toast(monitor, 'Alarm resolved')).toContainText(worker.name);
    await expect(row).toHaveCount(0);
    const res = await superadminApi.get('/api/alarms?open=false&limit=100');
    const mine = ((await res.json()) as { userId: number; verdict: string; reason: string; messages: { text: string }[] }[]).find(
      (a) => a.userId === worker.id,
    );
    expect(mine).toMatchObject({ verdict: 'false_alarm', reason: 'device' });
    expect(mine!.messages.map((m) => m.text)).toEqual(['Are you OK? Reply here.', 'All fine, phone was flat']);
    // Resolved, the thread is closed: the worker's app no longer offers it.
    await phone.reload();
    await expect(phone.getByTestId('check-in-alert')).toBeVisible();
    await expect(phone.getByTestId('worker-messages')).toHaveCount(0);
  });
});
