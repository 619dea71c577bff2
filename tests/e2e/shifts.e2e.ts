import { randomInt } from 'node:crypto';
import { expect, test, type APIRequest, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { apiSession, uniqueMobile } from './support/session';

// Shifts, check-ins and the dashboards against the real stack. Deadlines are the server's:
// instead of waiting an hour, the tests move the server's clock (POST /api/test-clock, which
// exists because global-setup starts the stack with LWS_TEST_CLOCK=1). That clock is shared by
// the whole stack, so every test puts it back and ends the shifts it started.

const run = Date.now().toString(36).slice(-5);
let seq = 0;
const uniqueUsername = (prefix: string) => `${prefix}${run}${++seq}`;

type StorageState = Awaited<ReturnType<APIRequestContext['storageState']>>;
interface Worker {
  id: number;
  username: string;
  name: string;
  phone: string;
  password: string;
  pin: string;
  api: APIRequestContext;
  state: StorageState;
}

let superadminApi: APIRequestContext;
let superadminState: StorageState;
let adminState: StorageState;
const started: Worker[] = [];
const sessions: APIRequestContext[] = [];

/** PINs are unique across users: this file draws from 8000-8999 (see accounts.e2e.ts) and retries a taken one. */
async function createUser(playwright: { request: APIRequest }, fields: { name: string; role?: 'worker' | 'admin' }): Promise<Worker> {
  const password = 'Shift123';
  for (let attempt = 0; attempt < 10; attempt++) {
    const pin = String(randomInt(8000, 9000));
    const res = await superadminApi.post('/api/users', {
      data: {
        username: uniqueUsername(fields.role === 'admin' ? 'sadm' : 'swrk'),
        password,
        name: fields.name,
        phone: uniqueMobile(),
        role: fields.role ?? 'worker',
        pinCode: pin,
      },
    });
    if (res.status() === 409) continue;
    expect(res.status(), await res.text()).toBe(201);
    const { user } = (await res.json()) as { user: { id: number; username: string; name: string; phone: string } };
    const api = await apiSession(playwright, user.username, password);
    sessions.push(api);
    return { ...user, password, pin, api, state: await api.storageState() };
  }
  throw new Error('Could not find a free PIN');
}

/** A PIN that is certainly not this worker's (it may be another user's: only this worker's PIN is checked). */
const wrongPinFor = (worker: Worker) => (worker.pin === '8000' ? '8001' : '8000');

async function testClock(data: { advanceMinutes: number } | { offsetMs: number }) {
  const res = await superadminApi.post('/api/test-clock', { data });
  expect(res.ok(), await res.text()).toBe(true);
  return (await res.json()) as { now: string; offsetMs: number };
}

async function startShift(worker: Worker, location = 'The Prospect Building') {
  const res = await worker.api.post(`/api/users/${worker.id}/start-shift`, { data: { location } });
  expect(res.ok(), await res.text()).toBe(true);
  started.push(worker);
  return (await res.json()) as { nextCheckInTime: string; shiftStartTime: string };
}

async function pageAs(browser: Browser, state: StorageState, path: string): Promise<Page> {
  const context = await browser.newContext({ storageState: state });
  const page = await context.newPage();
  await page.goto(path);
  return page;
}

function toast(page: Page, title: string) {
  const exact = new RegExp(`^${title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
  return page.getByTestId('toast').filter({ has: page.locator('.lws-toast__title', { hasText: exact }) });
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
  superadminState = await superadminApi.storageState();
  const admin = await createUser(playwright, { name: 'Sam Supervisor', role: 'admin' });
  adminState = admin.state;
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

test('a worker starts a shift, checks in with the PIN inside the window, sees the countdown reset, and ends the shift with the PIN', async ({
  browser,
  playwright,
}) => {
  test.setTimeout(120_000);
  const worker = await createUser(playwright, { name: 'Wes Walker' });
  const page = await pageAs(browser, worker.state, '/worker');
  const shiftCard = page.getByTestId('shift-status-card');
  const pinDialog = page.getByTestId('pin-dialog');
  const checkIn = page.getByTestId('check-in-button');

  await test.step('off duty: choose a location and start the shift', async () => {
    await expect(shiftCard.getByRole('heading', { name: 'Shift Status' })).toBeVisible();
    await expect(page.getByTestId('shift-badge')).toHaveText('Off Duty');
    await expect(shiftCard.getByText('You are required to check-in every hour for safety monitoring.')).toBeVisible();
    const location = shiftCard.getByLabel('Your current location');
    await expect(location).toHaveValue('The Prospect Building');
    await expect(location.locator('option').first()).toHaveText('Select a location');
    await expect(page.getByTestId('status-card')).toHaveCount(0);
    await expect(checkIn).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'REQUEST EMERGENCY ASSISTANCE' })).toBeVisible();

    await shiftCard.getByRole('button', { name: 'Start Shift' }).click();
    started.push(worker);
    await expect(toast(page, 'Shift Started')).toContainText('Your shift has been started successfully. Remember to check in regularly.');
    await expect(page.getByTestId('shift-badge')).toHaveText('On Shift');
    await expect(page.getByTestId('shift-location')).toHaveText('The Prospect Building');
    await expect(page.getByTestId('shift-last-check-in')).toHaveText('Never');
    await expect(shiftCard.getByRole('button', { name: 'End Shift' })).toBeEnabled();
  });

  await test.step('an hour to go: checked in, the countdown ticks, CHECK IN is closed', async () => {
    await expect(page.getByTestId('status-pill')).toHaveText("You're checked in");
    await expect(page.getByTestId('countdown')).toHaveText(/^00:59:\d\d$|^01:00:00$/);
    const first = await countdownSeconds(page);
    await expect.poll(() => countdownSeconds(page), { timeout: 5000 }).toBeLessThan(first);
    await expect(page.getByText('Next check-in required:')).toBeVisible();
    await expect(page.getByTestId('check-in-deadline')).toHaveText(/^Check-in deadline: \d{2}:\d{2}$/);
    await expect(checkIn).toBeDisabled();
    await expect(page.getByTestId('check-in-hint')).toHaveText('Check-in is required during the last 10 minutes of each hour');
  });

  await test.step('52 minutes later the window is open and the check-in is due soon', async () => {
    await testClock({ advanceMinutes: 52 });
    await page.reload();
    await expect(page.getByTestId('status-pill')).toHaveText('Check-in due soon');
    await expect(page.getByTestId('countdown')).toHaveText(/^00:0[78]:\d\d$/);
    await expect(checkIn).toBeEnabled();
    await expect(page.getByTestId('check-in-hint')).toHaveText("Press to confirm you're safe");
  });

  await test.step('a wrong PIN is refused inline and by a toast; Cancel clears the error', async () => {
    await checkIn.click();
    await expect(pinDialog.getByRole('heading', { name: 'PIN Verification' })).toBeVisible();
    await pinDialog.getByLabel('Security PIN').fill(wrongPinFor(worker));
    await expect(pinDialog.getByTestId('pin-dialog-error')).toHaveText('Incorrect PIN. Please try again.');
    await expect(toast(page, 'Incorrect PIN')).toContainText('The PIN you entered is incorrect. Please try again.');
    await expect(pinDialog.getByLabel('Security PIN')).toHaveValue('');
    await expect(page.getByTestId('pin-dialog-input-boxes').locator('.lws-pin-box--error')).toHaveCount(4);
    await pinDialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(pinDialog).toBeHidden();
    await expect(page.getByTestId('status-pill')).toHaveText('Check-in due soon');

    await checkIn.click();
    await expect(pinDialog.getByRole('heading', { name: 'PIN Verification' })).toBeVisible();
    await expect(pinDialog.getByTestId('pin-dialog-error')).toHaveCount(0);
  });

  await test.step('the right PIN checks in and the countdown starts a new hour', async () => {
    // The dialog opens with focus in the PIN field: digits typed at once are not lost.
    await expect(pinDialog.getByLabel('Security PIN')).toBeFocused();
    await page.keyboard.type(worker.pin);
    await expect(toast(page, 'Check-in successful')).toContainText('Your status has been updated. Stay safe!');
    await expect(pinDialog).toBeHidden();
    await expect(page.getByTestId('status-pill')).toHaveText("You're checked in");
    await expect(page.getByTestId('countdown')).toHaveText(/^00:59:\d\d$|^01:00:00$/);
    await expect(page.getByTestId('shift-last-check-in')).not.toHaveText('Never');
    await expect(checkIn).toBeDisabled();
    const latest = await worker.api.get(`/api/users/${worker.id}/latest-check-in`);
    expect(latest.status()).toBe(200);
    expect(((await latest.json()) as { location: string }).location).toBe('The Prospect Building');
  });

  await test.step('ending the shift asks for the PIN; a wrong one keeps the shift going', async () => {
    await shiftCard.getByRole('button', { name: 'End Shift' }).click();
    await expect(pinDialog).toContainText('Enter your 4-digit security PIN to end your shift');
    await pinDialog.getByLabel('Security PIN').fill(wrongPinFor(worker));
    await expect(pinDialog.getByTestId('pin-dialog-error')).toHaveText('Incorrect PIN. Please try again.');
    await expect(toast(page, 'Incorrect PIN').first()).toBeVisible();
    await expect(page.getByTestId('shift-badge')).toHaveText('On Shift');

    await pinDialog.getByLabel('Security PIN').fill(worker.pin);
    await expect(toast(page, 'Shift Ended')).toContainText('Your shift has been ended successfully. Stay safe!');
    await expect(pinDialog).toBeHidden();
    await expect(page.getByTestId('shift-badge')).toHaveText('Off Duty');
    await expect(page.getByTestId('status-card')).toHaveCount(0);
    await expect(shiftCard.getByRole('button', { name: 'Start Shift' })).toBeEnabled();
    started.splice(started.indexOf(worker), 1);
  });

  await test.step('the worker can raise an emergency at any time', async () => {
    await page.getByRole('button', { name: 'REQUEST EMERGENCY ASSISTANCE' }).click();
    await expect(toast(page, 'Emergency assistance requested')).toContainText('Your emergency contacts are being notified.');
  });
  await page.context().close();
});

test('on a phone, on shift, the status, CHECK IN and the emergency button fit the screen without scrolling; End Shift is secondary', async ({
  browser,
  playwright,
}) => {
  const worker = await createUser(playwright, { name: 'Pam Phone' });
  await startShift(worker);
  const context = await browser.newContext({
    storageState: worker.state,
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
  });
  const page = await context.newPage();
  await page.goto('/worker');
  await expect(page.getByTestId('status-pill')).toBeInViewport({ ratio: 1 });
  await expect(page.getByTestId('check-in-button')).toBeInViewport({ ratio: 1 });
  await expect(page.getByTestId('emergency-button')).toBeInViewport({ ratio: 1 });
  expect(await page.evaluate(() => window.scrollY)).toBe(0);
  await expect(page.getByTestId('end-shift')).toHaveClass(/lws-btn--outline/);
  await context.close();
  const ended = await worker.api.post(`/api/users/${worker.id}/end-shift`, { data: { pin: worker.pin } });
  expect(ended.ok(), await ended.text()).toBe(true);
  started.splice(started.indexOf(worker), 1);
});

test("the worker's screen follows their own check-in interval, not the hour", async ({ browser, playwright }) => {
  const worker = await createUser(playwright, { name: 'Tia Thirty' });
  const saved = await worker.api.patch(`/api/users/${worker.id}/settings`, {
    data: { primaryContact: '+447911123456', checkInInterval: 30 },
  });
  expect(saved.status(), await saved.text()).toBe(200);
  const page = await pageAs(browser, worker.state, '/worker');
  await expect(page.getByTestId('check-in-note')).toHaveText('You are required to check-in every 30 minutes for safety monitoring.');
  await page.context().close();
});

test('an admin watches an on-shift worker move from Checked In to Due Soon to Overdue as time passes', async ({ browser, playwright }) => {
  test.setTimeout(90_000);
  const worker = await createUser(playwright, { name: 'Olive Onshift' });
  const admin = await pageAs(browser, adminState, '/admin');
  await expect(admin.getByRole('heading', { name: 'Worker Status Dashboard' })).toBeVisible();
  const active = admin.locator(`[data-testid="active-worker-row"][data-username="${worker.username}"]`);
  const account = admin.locator(`[data-testid="account-row"][data-username="${worker.username}"]`);
  await expect(account.getByTestId('worker-shift-status')).toHaveText('Clocked Out');
  await expect(account.getByTestId('worker-location')).toHaveText('N/A');
  await expect(account.getByTestId('worker-last-check-in')).toHaveText('N/A');
  await expect(active).toHaveCount(0);

  await startShift(worker);
  await admin.getByRole('button', { name: 'Refresh Data' }).click();
  await expect(active.getByTestId('worker-shift-status')).toHaveText('Clocked In');
  await expect(active.getByTestId('worker-location')).toHaveText('The Prospect Building');
  await expect(active.getByTestId('worker-last-check-in')).toHaveText('Never');
  await expect(active.getByTestId('worker-status')).toHaveText('Checked In');
  await expect(account.getByTestId('worker-shift-status')).toHaveText('Clocked In');
  await expect(account.getByTestId('worker-status')).toHaveText('Checked In');
  // Admins see usernames and contacts, never credential columns.
  await expect(admin.getByTestId('active-workers-table').getByRole('columnheader', { name: 'Username' })).toBeVisible();
  await expect(admin.getByTestId('active-workers-table').getByRole('columnheader', { name: 'PIN' })).toHaveCount(0);

  // Fewer than 15 minutes to go: due soon.
  await testClock({ advanceMinutes: 50 });
  await admin.getByRole('button', { name: 'Refresh Data' }).click();
  await expect(active.getByTestId('worker-status')).toHaveText('Due Soon');

  // Past the deadline: overdue, also after a reload.
  await testClock({ advanceMinutes: 11 });
  await admin.reload();
  await expect(active.getByTestId('worker-status')).toHaveText('Overdue');
  await expect(account.getByTestId('worker-status')).toHaveText('Overdue');

  // A late check-in is still accepted; while the missed check-in's alarm waits for a monitor the
  // worker's status says so in red (an emergency outranks Checked In), then Checked In once resolved.
  await expect
    .poll(
      async () => ((await (await superadminApi.get('/api/alarms')).json()) as { userId: number }[]).some((a) => a.userId === worker.id),
      { timeout: 20_000 },
    )
    .toBe(true);
  const res = await worker.api.post('/api/check-ins', { data: { userId: worker.id, location: 'The Prospect Building', pin: worker.pin } });
  expect(res.status(), await res.text()).toBe(201);
  await admin.getByRole('button', { name: 'Refresh Data' }).click();
  await expect(active.getByTestId('worker-status')).toHaveText('Missed Check-In');
  await expect(active.getByTestId('worker-status')).toHaveAttribute('data-status', 'missed_check_in');
  await expect(active.getByTestId('worker-last-check-in')).not.toHaveText('Never');
  const alarm = ((await (await superadminApi.get('/api/alarms')).json()) as { id: string; userId: number }[]).find(
    (a) => a.userId === worker.id,
  )!;
  expect(
    (
      await superadminApi.post(`/api/alarms/${alarm.id}/resolve`, {
        data: { verdict: 'false_alarm', reason: 'no_signal', note: 'Checked in late' },
      })
    ).status(),
  ).toBe(200);
  await expect(active.getByTestId('worker-status')).toHaveText('Checked In');

  const ended = await worker.api.post(`/api/users/${worker.id}/end-shift`, { data: { pin: worker.pin } });
  expect(ended.ok(), await ended.text()).toBe(true);
  started.splice(started.indexOf(worker), 1);
  await admin.getByRole('button', { name: 'Refresh Data' }).click();
  await expect(active).toHaveCount(0);
  await expect(account.getByTestId('worker-shift-status')).toHaveText('Clocked Out');
  await admin.context().close();
});

test('a superadmin force-clocks-out a worker, which ends the shift on the worker screen', async ({ browser, playwright }) => {
  test.setTimeout(90_000);
  const worker = await createUser(playwright, { name: 'Fred Forgetful' });
  await startShift(worker);
  const workerPage = await pageAs(browser, worker.state, '/worker');
  await expect(workerPage.getByTestId('shift-badge')).toHaveText('On Shift');

  await testClock({ advanceMinutes: 95 });
  const superadmin = await pageAs(browser, superadminState, '/superadmin');
  await superadmin.getByRole('tab', { name: 'Force Clock Out' }).click();
  const card = superadmin.getByTestId('force-clock-out');
  const row = card.locator(`[data-testid="force-clock-out-row"][data-username="${worker.username}"]`);
  await expect(row).toContainText('Fred Forgetful');
  await expect(row).toContainText(worker.phone);
  await expect(row.getByTestId('worker-location')).toHaveText('The Prospect Building');
  await expect(row.getByTestId('worker-duration')).toHaveText(/^1h 3[45]m$/);
  await expect(row.getByTestId('worker-next-check-in')).not.toHaveText('No check-in scheduled');
  // Every test here ends the shifts it starts, and no other file starts one: Fred is the only worker on shift.
  await expect(card.getByTestId('force-clock-out-count')).toHaveText('1 active');

  await row.getByRole('button', { name: 'Force Clock Out' }).click();
  const dialog = superadmin.getByTestId('force-clock-out-dialog');
  await expect(dialog).toContainText('end their shift immediately, mark them as off-shift and stop check-in monitoring');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(row).toBeVisible();

  await row.getByRole('button', { name: 'Force Clock Out' }).click();
  await dialog.getByRole('button', { name: 'Force Clock Out' }).click();
  await expect(toast(superadmin, 'Worker clocked out')).toContainText('Fred Forgetful has been clocked out.');
  started.splice(started.indexOf(worker), 1);
  await expect(row).toHaveCount(0);
  await expect(card.getByTestId('force-clock-out-count')).toHaveText('0 active');
  await expect(card.getByText('No active workers found')).toBeVisible();

  const state = await worker.api.get(`/api/users/${worker.id}/with-relations`);
  expect(await state.json()).toMatchObject({ onShift: false, location: 'Off Shift' });
  await workerPage.reload();
  await expect(workerPage.getByTestId('shift-badge')).toHaveText('Off Duty');
  await superadmin.context().close();
  await workerPage.context().close();
});

test("the Test Account dashboard starts the test worker's shift at a location and ends it", async ({ browser, playwright }) => {
  test.setTimeout(90_000);
  const worker = await createUser(playwright, { name: 'Tess Account' });
  const superadmin = await pageAs(browser, superadminState, '/superadmin');
  await superadmin.getByRole('tab', { name: 'Test Account' }).click();
  await superadmin.getByTestId('test-account-user').selectOption(String(worker.id));
  await expect(superadmin.getByTestId('test-shift-badge')).toHaveText('Off Duty');
  await superadmin.getByTestId('test-account-location').selectOption('The Prospect Building');
  await superadmin.getByTestId('test-account-start-shift').click();
  await expect(superadmin.getByTestId('test-shift-badge')).toHaveText('On Shift');
  // The worker's own screen shows it too.
  const workerPage = await pageAs(browser, worker.state, '/worker');
  await expect(workerPage.getByTestId('shift-badge')).toHaveText('On Shift');
  // Every test here ends the shifts it starts.
  await superadmin.getByTestId('test-account-end-shift').click();
  await superadmin.getByRole('dialog').getByRole('button', { name: 'End Shift' }).click();
  await expect(superadmin.getByTestId('test-shift-badge')).toHaveText('Off Duty');
});
