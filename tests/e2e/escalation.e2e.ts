import { randomInt } from 'node:crypto';
import { expect, test, type APIRequest, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { apiSession, uniqueMobile } from './support/session';

// Escalation against the real stack: reminders, the missed check-in, the alarm call through the
// embedded fake provider, and the monitors who own the alarm. Deadlines are the server's: the
// tests move the server's clock (POST /api/test-clock) instead of waiting. That clock is shared by
// the whole stack, so every test puts it back and ends the shifts it started. The flows tagged
// @embedded (the monitor's banner, and the worker's emergency flows) run on the embedded stack too.

/** global-setup.ts configures it as EMERGENCY_NUMBER_1. */
const EMERGENCY_NUMBER = '+447911000001';
const run = Date.now().toString(36).slice(-5);
let seq = 0;
const uniqueUsername = (prefix: string) => `${prefix}${run}${++seq}`;

type StorageState = Awaited<ReturnType<APIRequestContext['storageState']>>;
interface Account {
  id: number;
  username: string;
  name: string;
  phone: string;
  pin: string;
  api: APIRequestContext;
  state: StorageState;
}

interface AlarmBody {
  id: string;
  userId: number;
  kind: string;
  state: string;
  verdict: string | null;
  note: string | null;
  history: string[];
}

let superadminApi: APIRequestContext;
let superadminState: StorageState;
let admin: Account;
const started: Account[] = [];
const workerIds = new Set<number>();
const sessions: APIRequestContext[] = [];

/** PINs are unique across users: this file draws from 9500-9599 (see accounts.e2e.ts) and retries a taken one. */
async function createUser(
  playwright: { request: APIRequest },
  fields: { name: string; role?: 'worker' | 'admin'; teamId?: number },
): Promise<Account> {
  const password = 'Escalate123';
  // Each worker gets a phone of their own, so the messages sent to them can be told apart.
  const phone = uniqueMobile();
  for (let attempt = 0; attempt < 10; attempt++) {
    const pin = String(randomInt(9500, 9600));
    const res = await superadminApi.post('/api/users', {
      data: {
        username: uniqueUsername(fields.role === 'admin' ? 'eadm' : 'ewrk'),
        password,
        name: fields.name,
        phone,
        role: fields.role ?? 'worker',
        pinCode: pin,
        ...(fields.teamId ? { teamId: fields.teamId } : {}),
      },
    });
    if (res.status() === 409) continue;
    expect(res.status(), await res.text()).toBe(201);
    const { user } = (await res.json()) as { user: { id: number; username: string; name: string } };
    const api = await apiSession(playwright, user.username, password);
    sessions.push(api);
    workerIds.add(user.id);
    return { ...user, phone, pin, api, state: await api.storageState() };
  }
  throw new Error('Could not find a free PIN');
}

const wrongPinFor = (account: Account) => (account.pin === '9599' ? '9598' : '9599');

async function testClock(data: { advanceMinutes: number } | { offsetMs: number }) {
  const res = await superadminApi.post('/api/test-clock', { data });
  expect(res.ok(), await res.text()).toBe(true);
}

/**
 * Starts the worker's shift and waits until the escalation service holds its deadline: it learns
 * of the shift from an event, and a clock moved before that would skip the reminders whose time
 * had already passed (as it should, for a shift it only heard of late).
 */
async function startShift(worker: Account) {
  const res = await worker.api.post(`/api/users/${worker.id}/start-shift`, { data: { location: 'The Prospect Building' } });
  expect(res.ok(), await res.text()).toBe(true);
  started.push(worker);
  const { nextCheckInTime } = (await res.json()) as { nextCheckInTime: string };
  await expect
    .poll(async () => {
      const status = await superadminApi.get('/api/test-reminders/status');
      const { workers } = (await status.json()) as { workers: { id: number; nextCheckIn: string | null }[] };
      return workers.find((w) => w.id === worker.id)?.nextCheckIn ?? null;
    })
    .toBe(nextCheckInTime);
}

/**
 * Opens the worker's check-in window by moving their deadline 5 minutes ahead, without moving the
 * clock: entries dated in the test clock's future would crowd other tests' activity lists.
 */
async function dueSoon(worker: Account) {
  const res = await superadminApi.post(`/api/simulate-specific-time/${worker.id}`, { data: { minutesUntilDue: 5 } });
  expect(res.ok(), await res.text()).toBe(true);
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

async function openAlarms(userId?: number): Promise<AlarmBody[]> {
  const res = await superadminApi.get('/api/alarms?open=true&limit=50');
  expect(res.status(), await res.text()).toBe(200);
  const alarms = (await res.json()) as AlarmBody[];
  return userId === undefined ? alarms : alarms.filter((a) => a.userId === userId);
}

/** The purposes of the messages the fake provider recorded for a worker. */
async function deliveredPurposes(userId: number): Promise<string[]> {
  const res = await superadminApi.get('/api/notifications/deliveries?limit=50');
  expect(res.status(), await res.text()).toBe(200);
  const body = (await res.json()) as unknown;
  const list = (Array.isArray(body) ? body : (body as { deliveries: unknown[] }).deliveries) as { userId?: number; purpose: string }[];
  return list.filter((d) => d.userId === userId).map((d) => d.purpose);
}

test.beforeAll(async ({ playwright }) => {
  superadminApi = await apiSession(playwright, 'superadmin', process.env.LWS_E2E_SUPERADMIN_PASSWORD!);
  superadminState = await superadminApi.storageState();
  admin = await createUser(playwright, { name: 'Ada Alarmwatch', role: 'admin' });
});

test.afterEach(async () => {
  await testClock({ offsetMs: 0 });
  for (const worker of started.splice(0)) {
    const res = await superadminApi.post(`/api/users/${worker.id}/force-clock-out`);
    expect(res.ok(), await res.text()).toBe(true);
  }
  // Alarms these tests opened are closed here, so no other test meets them.
  for (const alarm of await openAlarms()) {
    if (!workerIds.has(alarm.userId)) continue;
    const res = await superadminApi.post(`/api/alarms/${alarm.id}/resolve`, {
      data: { verdict: 'false_alarm', reason: 'no_signal', note: 'Closed by the end-to-end tests' },
    });
    expect(res.ok(), await res.text()).toBe(true);
  }
});

test.afterAll(async () => {
  await Promise.all(sessions.map((s) => s.dispose()));
  await superadminApi?.dispose();
});

test('a worker misses a check-in: reminders and the alarm call go out, the call is accepted, and an admin acknowledges and resolves the alarm @embedded', async ({
  browser,
  playwright,
}) => {
  test.setTimeout(180_000);
  const worker = await createUser(playwright, { name: 'Milo Missed' });
  await startShift(worker);

  await test.step('5 and 2 minutes before the deadline the worker is reminded', async () => {
    await testClock({ advanceMinutes: 56 });
    await expect.poll(() => deliveredPurposes(worker.id), { timeout: 20_000 }).toContain('reminder_5min');
    await testClock({ advanceMinutes: 3 });
    await expect.poll(() => deliveredPurposes(worker.id), { timeout: 20_000 }).toContain('reminder_2min');
    expect(await openAlarms(worker.id)).toHaveLength(0);
  });

  await test.step('the deadline passes: a missed check-in alarm opens', async () => {
    await testClock({ advanceMinutes: 2 });
    await expect
      .poll(async () => (await openAlarms(worker.id)).map((a) => `${a.kind}:${a.state}`), { timeout: 20_000 })
      .toEqual(['missed_check_in:open']);
  });

  await test.step('on any page a monitor sees the alarm waiting in a banner, counted in the tab title, and can mute its sound', async () => {
    const page = await pageAs(browser, admin.state, '/profile');
    const banner = page.getByTestId('alarm-banner');
    await expect(banner.getByTestId('alarm-banner-worker')).toHaveText('Milo Missed');
    await expect(banner.getByTestId('alarm-banner-kind')).toHaveText('Missed Check-In');
    await expect(banner.getByTestId('alarm-banner-age')).toHaveText(/just now|\d+ min/);
    await expect(page).toHaveTitle(/^\(\d+\) /);
    await banner.getByTestId('alarm-banner-mute').click();
    await expect(banner.getByTestId('alarm-banner-muted')).toHaveText('Muted until the next alarm');
    await page.context().close();
  });

  await test.step('nobody acknowledges within the window: the emergency number is called', async () => {
    await testClock({ advanceMinutes: 3 });
    await expect
      .poll(async () => (await openAlarms(worker.id))[0]?.history.join('\n') ?? '', { timeout: 20_000 })
      .toContain(`Calling ${EMERGENCY_NUMBER}`);
  });

  await test.step('the superadmin sees the reminders and the call in the test provider and answers it', async () => {
    const page = await pageAs(browser, superadminState, '/superadmin');
    await page.getByRole('tab', { name: 'SMS Test Panel' }).click();
    await expect(page.getByRole('heading', { name: 'SMS Reminder Test Panel' })).toBeVisible();
    const provider = page.getByTestId('test-provider');
    await expect(provider.getByRole('heading', { name: 'Test provider' })).toBeVisible();
    const deliveries = provider.locator(`[data-testid="delivery-row"][data-user-id="${worker.id}"]`);
    await expect(deliveries.and(page.locator('[data-purpose="reminder_5min"]')).first()).toBeVisible();
    await expect(deliveries.and(page.locator('[data-purpose="reminder_2min"]')).first()).toBeVisible();

    const call = provider
      .locator(`[data-testid="test-call-row"][data-to="${EMERGENCY_NUMBER}"]`)
      .filter({ has: page.getByTestId('test-call-accept') })
      .first();
    await expect(call).toBeVisible();
    await call.getByRole('button', { name: 'Accept' }).click();
    await expect(toast(page, 'Call accepted')).toContainText(EMERGENCY_NUMBER);
    await page.context().close();
  });

  await test.step('the accepted call is on the alarm, which stays open until a monitor owns it', async () => {
    await expect
      .poll(async () => (await openAlarms(worker.id))[0]?.history.join('\n') ?? '', { timeout: 20_000 })
      .toContain(`Called ${EMERGENCY_NUMBER}: accepted`);
    expect((await openAlarms(worker.id))[0]?.state).toBe('open');
  });

  await test.step('an admin acknowledges the alarm and resolves it with a verdict and a note', async () => {
    const page = await pageAs(browser, admin.state, '/admin');
    const panel = page.getByTestId('alarms-panel');
    await expect(panel.getByRole('heading', { name: /Open Alarms/ })).toBeVisible();
    const row = panel.locator(`[data-testid="alarm-row"][data-user-id="${worker.id}"]`);
    await expect(row.getByTestId('alarm-worker')).toHaveText('Milo Missed');
    await expect(row.getByTestId('alarm-kind')).toHaveText('Missed Check-In');
    await expect(row.getByTestId('alarm-state')).toHaveText('Open');
    await expect(row.getByTestId('alarm-opened')).toHaveText(/\d{2} \w{3} \d{4}, \d{2}:\d{2}/);
    await expect(row.getByTestId('alarm-acknowledged-by')).toHaveText('Nobody yet');
    await expect(row.getByTestId('alarm-history')).toContainText(`Called ${EMERGENCY_NUMBER}: accepted`);
    // Past the deadline with the alarm waiting, Active Workers says Overdue, in red.
    const activeRow = page
      .getByTestId('active-workers-table')
      .locator(`[data-testid="active-worker-row"][data-username="${worker.username}"]`);
    await expect(activeRow.getByTestId('worker-status')).toHaveText('Overdue');

    await row.getByRole('button', { name: 'Acknowledge the alarm for Milo Missed' }).click();
    await expect(toast(page, 'Alarm acknowledged')).toBeVisible();
    await expect(row.getByTestId('alarm-state')).toHaveText('Acknowledged');
    await expect(row.getByTestId('alarm-acknowledged-by')).toContainText('Ada Alarmwatch (you)');
    await expect(row.getByRole('button', { name: /^Acknowledge/ })).toHaveCount(0);
    // The history names who acknowledged it, never a number.
    await expect(row.getByTestId('alarm-history')).toContainText('Acknowledged by Ada Alarmwatch');
    // Owned now: the banner no longer calls for it.
    await expect(page.getByTestId('alarm-banner-worker').filter({ hasText: 'Milo Missed' })).toHaveCount(0);

    await row.getByRole('button', { name: 'Resolve the alarm for Milo Missed' }).click();
    const dialog = page.getByTestId('resolve-alarm-dialog');
    await expect(dialog.getByRole('heading', { name: 'Resolve Alarm' })).toBeVisible();
    await dialog.getByRole('button', { name: 'Resolve Alarm' }).click();
    await expect(dialog.getByTestId('resolve-verdict-error')).toBeVisible();
    await expect(dialog.getByTestId('resolve-note-error')).toHaveText('Please write a note on how the alarm was resolved');
    await dialog.getByLabel('False alarm').check();
    await dialog.getByLabel('Note').fill('Phone battery died; the worker was safe.');
    // A false alarm is recorded with why it was false, for the report.
    await dialog.getByRole('button', { name: 'Resolve Alarm' }).click();
    await expect(dialog.getByTestId('resolve-reason-error')).toHaveText('Choose why the alarm was false');
    await dialog.getByLabel('No signal').check();
    await dialog.getByRole('button', { name: 'Resolve Alarm' }).click();
    await expect(toast(page, 'Alarm resolved')).toContainText('Milo Missed');
    await expect(dialog).toBeHidden();
    await expect(row).toHaveCount(0);
    await page.context().close();

    const res = await superadminApi.get('/api/alarms?open=false&limit=50');
    const mine = ((await res.json()) as AlarmBody[]).find((a) => a.userId === worker.id);
    expect(mine).toMatchObject({
      state: 'resolved',
      verdict: 'false_alarm',
      reason: 'no_signal',
      note: 'Phone battery died; the worker was safe.',
    });
  });
});

test("an overdue worker gets the check-in alert and answers it with I'm Safe and the PIN", async ({ browser, playwright }) => {
  test.setTimeout(90_000);
  const worker = await createUser(playwright, { name: 'Olga Overdue' });
  await startShift(worker);
  await testClock({ advanceMinutes: 61 });
  const page = await pageAs(browser, worker.state, '/worker');
  const alert = page.getByTestId('check-in-alert');

  await expect(alert.getByRole('heading', { name: 'Check-In Required' })).toBeVisible();
  await expect(alert).toContainText('Your hourly check-in is due.');
  await expect(page.getByTestId('status-pill')).toHaveText('Check-in overdue');
  // The alert is answered, not waved away.
  await page.keyboard.press('Escape');
  await expect(alert.getByRole('heading', { name: 'Check-In Required' })).toBeVisible();

  await alert.getByRole('button', { name: "I'm Safe" }).click();
  await expect(alert).toContainText("Enter your 4-digit security PIN to confirm you're safe");
  await alert.getByRole('button', { name: 'Back' }).click();
  await expect(alert.getByRole('button', { name: 'Emergency Assistance' })).toBeVisible();

  await alert.getByRole('button', { name: "I'm Safe" }).click();
  await alert.getByLabel('Security PIN').fill(wrongPinFor(worker));
  await expect(alert.getByTestId('alert-pin-error')).toHaveText('Incorrect PIN. Please try again.');
  await expect(toast(page, 'Incorrect PIN')).toContainText('The PIN you entered is incorrect. Please try again.');
  await expect(alert.getByLabel('Security PIN')).toHaveValue('');
  await expect(alert.getByRole('button', { name: 'Back' })).toBeVisible();

  await alert.getByLabel('Security PIN').fill(worker.pin);
  await expect(toast(page, 'Check-in successful')).toContainText('Your status has been updated. Stay safe!');
  await expect(alert).toBeHidden();
  await expect(page.getByTestId('status-pill')).toHaveText("You're checked in");
  await expect(page.getByTestId('countdown')).toHaveText(/^00:59:\d\d$|^01:00:00$/);

  // The late check-in stops the escalation; the alarm it opened stays for a monitor to close.
  await expect.poll(async () => (await openAlarms(worker.id)).map((a) => a.kind), { timeout: 20_000 }).toEqual(['missed_check_in']);
  await page.context().close();
});

test('an overdue worker asks for emergency assistance from the alert: the timer is reset and the screen says so', async ({
  browser,
  playwright,
}) => {
  test.setTimeout(90_000);
  const worker = await createUser(playwright, { name: 'Erin Emergency' });
  await startShift(worker);
  await testClock({ advanceMinutes: 61 });
  const page = await pageAs(browser, worker.state, '/worker');
  const alert = page.getByTestId('check-in-alert');

  await alert.getByRole('button', { name: 'Emergency Assistance' }).click();
  await expect(alert).toContainText('Enter your 4-digit security PIN to request emergency assistance');
  await alert.getByLabel('Security PIN').fill(wrongPinFor(worker));
  await expect(alert.getByTestId('alert-pin-error')).toHaveText('Incorrect PIN. Please try again.');
  await expect(await openAlarms(worker.id).then((alarms) => alarms.filter((a) => a.kind === 'emergency'))).toHaveLength(0);

  await alert.getByLabel('Security PIN').fill(worker.pin);
  await expect(toast(page, 'Emergency assistance requested')).toContainText(
    'Your emergency contacts are being notified. Stay where you are if possible and wait for help to arrive.',
  );
  await expect(alert).toBeHidden();
  await expect(page.getByTestId('status-pill')).toHaveText('Help requested');
  await expect(page.getByTestId('status-pill')).toHaveAttribute('data-status', 'emergency-reset');
  await expect.poll(async () => (await openAlarms(worker.id)).map((a) => a.kind), { timeout: 20_000 }).toContain('emergency');

  // The emergency records a check-in, but monitors see the worker in red, not as Checked In.
  const monitor = await pageAs(browser, admin.state, '/admin');
  const activeRow = monitor
    .getByTestId('active-workers-table')
    .locator(`[data-testid="active-worker-row"][data-username="${worker.username}"]`);
  await expect(activeRow.getByTestId('worker-status')).toHaveText('Emergency');
  await expect(activeRow.getByTestId('worker-status')).toHaveAttribute('data-status', 'emergency');
  await monitor.context().close();

  // The flag survives a reload, and ends with the shift.
  await page.reload();
  await expect(page.getByTestId('status-pill')).toHaveText('Help requested');
  await expect(alert).toBeHidden();
  await page.context().close();
});

test('a worker whose screen cannot be loaded still has the emergency button, and it raises the alarm', async ({ browser, playwright }) => {
  const worker = await createUser(playwright, { name: 'Fern Fallback' });
  const context = await browser.newContext({ storageState: worker.state });
  await context.route('**/remotes/worker/**', (route) => route.abort('connectionrefused'));
  const page = await context.newPage();
  await page.goto('/worker');
  await expect(page.getByTestId('remote-unavailable')).toBeVisible();
  await page.getByTestId('shell-emergency-button').click();
  await expect(page.getByTestId('shell-emergency-sent')).toContainText(/Help requested at \d{2}:\d{2}/);
  await expect.poll(async () => (await openAlarms(worker.id)).map((a) => a.kind), { timeout: 20_000 }).toContain('emergency');
  await context.close();
  const open = (await openAlarms(worker.id)).find((a) => a.kind === 'emergency');
  if (open)
    await superadminApi.post(`/api/alarms/${open.id}/resolve`, {
      data: { verdict: 'false_alarm', reason: 'no_signal', note: 'Fallback button test' },
    });
});

test('the superadmin reads the emergency call settings, which cannot be changed from the browser', async ({ browser }) => {
  const page = await pageAs(browser, superadminState, '/superadmin');
  await page.getByRole('tab', { name: 'System Config' }).click();
  const card = page.getByTestId('system-config');
  await expect(card.getByRole('heading', { name: 'Emergency Call Settings' })).toBeVisible();
  await expect(card.getByTestId('config-EMERGENCY_NUMBER_1')).toHaveText(EMERGENCY_NUMBER);
  await expect(card.getByTestId('config-EMERGENCY_NUMBER_2')).toHaveText('Not set');
  await expect(card.getByTestId('config-EMERGENCY_CALL_TIMEOUT')).toHaveText('60 seconds');
  await expect(card).toContainText('a system administrator must be contacted to change the emergency number', { ignoreCase: true });
  await expect(card.getByRole('textbox')).toHaveCount(0);
  await page.context().close();
});

test('the check-in notifications switch asks for permission, and says so when it is refused', async ({ browser, playwright }) => {
  const worker = await createUser(playwright, { name: 'Nina Notify' });
  const page = await pageAs(browser, worker.state, '/profile');
  const toggle = page.getByTestId('notifications-switch');
  await expect(toggle).not.toBeChecked();
  await expect(toggle).toBeEnabled();

  // The service worker the switch registers is served at the site root.
  const sw = await page.request.get('/sw.js');
  expect(sw.status()).toBe(200);
  expect(sw.headers()['content-type']).toContain('javascript');
  expect(await sw.text()).toMatch(/addEventListener\(["']push["']/);

  await page.context().clearPermissions();
  await page.evaluate(() => Notification.permission).then((p) => expect(p).not.toBe('granted'));
  await toggle.click({ force: true });
  await expect(toast(page, 'Permission Denied')).toBeVisible();
  await expect(toggle).not.toBeChecked();
  await page.context().close();
});

test('the alert sound is looked up with HEAD and, when the file is missing, the built-in sound plays at 5 minutes remaining', async ({
  browser,
  playwright,
}) => {
  const worker = await createUser(playwright, { name: 'Sid Sound' });
  await startShift(worker);
  await testClock({ advanceMinutes: 56 });
  const context = await browser.newContext({ storageState: worker.state });
  // Counts the beeps the page starts, without a sound card.
  await context.addInitScript(() => {
    const started = { count: 0 };
    (window as unknown as { __beeps: typeof started }).__beeps = started;
    const start = OscillatorNode.prototype.start;
    OscillatorNode.prototype.start = function (this: OscillatorNode, ...args: Parameters<OscillatorNode['start']>) {
      started.count += 1;
      return start.apply(this, args);
    };
  });
  const page = await context.newPage();
  const lookup = page.waitForRequest((req) => req.url().endsWith('/sounds/alert.mp3') && req.method() === 'HEAD');
  await page.goto('/worker');
  await expect(page.getByTestId('status-pill')).toHaveText('Check-in due soon');
  const head = await lookup;
  expect((await head.response())?.status()).toBe(404);
  await expect.poll(() => page.evaluate(() => (window as unknown as { __beeps: { count: number } }).__beeps.count)).toBe(3);
  await context.close();
});

test("a worker's emergency screen follows what the monitor does, side by side, until they say they are safe @embedded", async ({
  browser,
  playwright,
}) => {
  test.setTimeout(120_000);
  const worker = await createUser(playwright, { name: 'Sky Sideby' });
  await startShift(worker);
  const context = await browser.newContext({ storageState: worker.state, viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await page.goto('/worker');
  const monitor = await pageAs(browser, admin.state, '/admin');

  await page.getByTestId('emergency-button').click();
  const screen = page.getByTestId('emergency-screen');
  await expect(screen).toContainText(/Help requested at \d{2}:\d{2}/);
  // The press's toast covers nothing the screen says at its top (checked while the toast is up: it
  // leaves after a few seconds, maybe before the first escalation step reaches the screen).
  await expect(toast(page, 'Emergency assistance requested')).toBeVisible();
  const top = [
    (await screen.getByText(/Help requested at/).boundingBox())!,
    (await page.getByTestId('emergency-screen-summary').boundingBox())!,
  ];
  for (const t of await page.getByTestId('toast').all()) {
    const b = (await t.boundingBox())!;
    for (const s of top) expect(b.y + b.height <= s.y || b.y >= s.y + s.height || b.x + b.width <= s.x || b.x >= s.x + s.width).toBe(true);
  }
  await expect(page.getByTestId('emergency-updates')).toContainText('Your monitors have been alerted');
  // It leads the phone's screen, with the way to say "I'm safe" in view.
  await expect(page.getByTestId('emergency-safe-button')).toBeInViewport();
  await expect(page.getByTestId('status-pill')).toHaveText('Help requested');

  // The monitor takes it: the worker's screen names them, without a reload.
  await expect(monitor.getByTestId('alarm-banner-worker')).toHaveText('Sky Sideby');
  const row = monitor.locator(`[data-testid="alarm-row"][data-user-id="${worker.id}"]`);
  await row.getByTestId('alarm-acknowledge').click();
  await expect(page.getByTestId('emergency-screen-summary')).toHaveText(
    'Ada Alarmwatch is dealing with it. Stay where you are if you can.',
  );
  await expect(page.getByTestId('emergency-updates')).toContainText('Ada Alarmwatch is dealing with it');

  // "I'm safe now" asks for the PIN; the monitor then sees it to confirm.
  await page.getByTestId('emergency-safe-button').click();
  const dialog = page.getByTestId('pin-dialog');
  await expect(dialog).toContainText("Enter your 4-digit security PIN to tell your monitors you're safe");
  await dialog.getByLabel('Security PIN').fill(worker.pin);
  await expect(screen).toHaveAttribute('data-state', 'safe');
  await expect(page.getByTestId('emergency-screen-summary')).toHaveText("You said you're safe. A monitor will confirm and close this.");
  await expect(page.getByTestId('emergency-safe-button')).toBeHidden();
  await expect(row.getByTestId('alarm-worker-safe')).toContainText('Said they are safe at');

  // The monitor closes it: the worker's screen goes back to normal and says so.
  const [alarm] = (await openAlarms(worker.id)).filter((a) => a.kind === 'emergency');
  const res = await superadminApi.post(`/api/alarms/${alarm.id}/resolve`, {
    data: { verdict: 'false_alarm', reason: 'no_signal', note: 'Confirmed safe by phone' },
  });
  expect(res.ok(), await res.text()).toBe(true);
  await expect(screen).toBeHidden();
  await expect(toast(page, 'Emergency closed')).toBeVisible();
  await context.close();
  await monitor.context().close();
});

test('a worker sets a duress PIN and checks in with it: their screen shows an ordinary check-in, the monitor sees DURESS @embedded', async ({
  browser,
  playwright,
}) => {
  test.setTimeout(120_000);
  const worker = await createUser(playwright, { name: 'Dana Duress' });
  const duressPin = worker.pin === '1470' ? '1471' : '1470';
  await startShift(worker);
  const page = await pageAs(browser, worker.state, '/profile');
  const card = page.getByTestId('profile-duress-pin');
  await card.getByTestId('duress-pin-start').click();
  await card.getByTestId('duress-current-input').fill(worker.pin);
  await card.getByTestId('duress-new-input').fill(worker.pin);
  await card.getByTestId('duress-pin-submit').click();
  await expect(card.getByTestId('duress-pin-error')).toHaveText('Your duress PIN must be different from your PIN');
  await card.getByTestId('duress-new-input').fill(duressPin);
  await card.getByTestId('duress-pin-submit').click();
  await expect(card.getByTestId('duress-pin-status')).toHaveText('A duress PIN is set.');

  await dueSoon(worker);
  await page.goto('/worker');
  await page.getByTestId('check-in-button').click();
  await page.getByTestId('pin-dialog').getByLabel('Security PIN').fill(duressPin);
  await expect(toast(page, 'Check-in successful')).toBeVisible();
  await expect(page.getByTestId('status-pill')).toHaveText("You're checked in");
  await expect(page.getByTestId('emergency-screen')).toBeHidden();

  const monitor = await pageAs(browser, admin.state, '/admin');
  await expect(monitor.getByTestId('alarm-banner-kind')).toHaveText('DURESS');
  const row = monitor.locator(`[data-testid="alarm-row"][data-user-id="${worker.id}"]`);
  await expect(row.getByTestId('alarm-kind')).toHaveText('DURESS');
  const active = monitor
    .getByTestId('active-workers-table')
    .locator(`[data-testid="active-worker-row"][data-username="${worker.username}"]`);
  await expect(active.getByTestId('worker-status')).toHaveText('DURESS');
  // Nothing reached the worker's screen meanwhile.
  await expect(page.getByTestId('emergency-screen')).toBeHidden();
  await page.context().close();
  await monitor.context().close();
});

test('a worker asks for 15 more minutes twice; the countdown moves and the button goes once none are left @embedded', async ({
  browser,
  playwright,
}) => {
  const worker = await createUser(playwright, { name: 'Ezra Extend' });
  await startShift(worker);
  const page = await pageAs(browser, worker.state, '/worker');
  const deadline = page.getByTestId('check-in-deadline');
  const before = await deadline.textContent();
  await page.getByTestId('extend-button').click();
  await expect(toast(page, 'Check-in extended')).toContainText(/Your next check-in is now due at \d{2}:\d{2}\./);
  await expect(deadline).not.toHaveText(before ?? '');
  await expect(page.getByTestId('extend-button')).toHaveAccessibleName('+15 min: add 15 minutes before your check-in (1 left this shift)');
  await page.getByTestId('extend-button').click();
  await expect(page.getByTestId('extend-button')).toBeHidden();
  await page.context().close();
});

test('the PIN boxes behave as boxes: clicking the first one and typing again enters that PIN, not the old digits and the new @embedded', async ({
  browser,
  playwright,
}) => {
  const worker = await createUser(playwright, { name: 'Pia Pinbox' });
  await startShift(worker);
  await dueSoon(worker);
  const page = await pageAs(browser, worker.state, '/worker');
  await page.getByTestId('check-in-button').click();
  const dialog = page.getByTestId('pin-dialog');
  const first = dialog.getByLabel('Security PIN');
  await expect(first).toBeFocused();
  await page.keyboard.type(worker.pin.slice(0, 2) === '12' ? '34' : '12');
  await expect(dialog.getByTestId('pin-dialog-input-3')).toBeFocused();
  await first.click();
  await page.keyboard.type(worker.pin);
  await expect(toast(page, 'Check-in successful')).toBeVisible();
  await page.context().close();
});

test("where I'll be: the worker starts a shift with a note and checks in with the phone's position; the monitor sees both on the alarm @embedded", async ({
  browser,
  playwright,
}) => {
  test.setTimeout(90_000);
  const worker = await createUser(playwright, { name: 'Wren Whereabouts' });
  const context = await browser.newContext({
    storageState: worker.state,
    geolocation: { latitude: 51.50135, longitude: -0.14189, accuracy: 25 },
    permissions: ['geolocation'],
  });
  const page = await context.newPage();
  await page.goto('/worker');
  await page.getByTestId('shift-note-input').fill('12 Oak Street, back by 15:00');
  await page.getByTestId('start-shift').click();
  started.push(worker);
  await expect(page.getByTestId('shift-note')).toHaveText('12 Oak Street, back by 15:00');

  await dueSoon(worker);
  await expect(page.getByTestId('check-in-button')).toBeEnabled();
  await page.getByTestId('check-in-button').click();
  await page.getByTestId('pin-dialog').getByLabel('Security PIN').fill(worker.pin);
  await expect(toast(page, 'Check-in successful')).toBeVisible();

  const due = await superadminApi.post(`/api/simulate-check-in-due/${worker.id}`);
  expect(due.ok(), await due.text()).toBe(true);
  const monitor = await pageAs(browser, admin.state, '/admin');
  const row = monitor.locator(`[data-testid="alarm-row"][data-user-id="${worker.id}"]`);
  await expect(row.getByTestId('alarm-shift-note')).toHaveText("Where they said they'd be: 12 Oak Street, back by 15:00");
  await expect(row.getByTestId('alarm-position')).toContainText('Last known position: 51.50135, -0.14189 (±25 m)');
  await expect(row.getByTestId('alarm-position').getByRole('link')).toHaveAttribute(
    'href',
    /openstreetmap\.org\/\?mlat=51\.50135&mlon=-0\.14189/,
  );
  await context.close();
  await monitor.context().close();
});

test('a worker without data checks in by replying to the reminder with their PIN (the test provider plays the phone) @embedded', async ({
  browser,
  playwright,
}) => {
  const worker = await createUser(playwright, { name: 'Sol Signal' });
  await startShift(worker);
  const page = await pageAs(browser, superadminState, '/superadmin');
  await page.getByRole('tab', { name: 'SMS Test Panel' }).click();
  const form = page.getByTestId('inbound-sms-form');
  await form.getByTestId('inbound-sms-from').fill(worker.phone);
  await form.getByTestId('inbound-sms-body').fill(`PIN ${worker.pin}`);
  await form.getByTestId('inbound-sms-send').click();
  await expect(form.getByTestId('inbound-sms-reply')).toHaveText(
    /^LWS replied: LWS: checked in at \d{2}:\d{2}\. Your next check-in is due by \d{2}:\d{2}\.$/,
  );
  const latest = await worker.api.get(`/api/users/${worker.id}/latest-check-in`);
  expect(((await latest.json()) as { location: string } | null)?.location).toBe('The Prospect Building');

  // A stranger's number gets no answer at all.
  await form.getByTestId('inbound-sms-from').fill('+447700900999');
  await form.getByTestId('inbound-sms-send').click();
  await expect(form.getByTestId('inbound-sms-reply')).toHaveText('LWS sent no reply.');
  await page.context().close();
});

test("a team's keypad reminder call: the worker keys their PIN and is checked in (the test provider plays the phone) @embedded", async ({
  browser,
  playwright,
}) => {
  test.setTimeout(90_000);
  const created = await superadminApi.post('/api/teams', { data: { name: `Keypad ${run}`, voiceReminder: true } });
  expect(created.status(), await created.text()).toBe(201);
  const { id: teamId } = (await created.json()) as { id: number };
  const worker = await createUser(playwright, { name: 'Kim Keypad', teamId });
  await startShift(worker);
  // The 2-minute reminder falls due 6 s from now.
  const moved = await superadminApi.post(`/api/simulate-specific-time/${worker.id}`, { data: { minutesUntilDue: 2.1 } });
  expect(moved.ok(), await moved.text()).toBe(true);

  const page = await pageAs(browser, superadminState, '/superadmin');
  await page.getByRole('tab', { name: 'SMS Test Panel' }).click();
  const call = page.locator(`[data-testid="test-call-row"][data-to="${worker.phone}"]`);
  await expect(call).toBeVisible({ timeout: 30_000 });
  await call.getByTestId('test-call-keys').fill(worker.pin);
  await call.getByTestId('test-call-accept').click();
  await expect(call.getByTestId('test-call-confirmation')).toHaveText(
    /^Then: Thank you\. You are checked in\. Your next check-in is due by \d{2}:\d{2}\. Goodbye\.$/,
  );
  const latest = await worker.api.get(`/api/users/${worker.id}/latest-check-in`);
  expect(await latest.json()).not.toBeNull();
  await page.context().close();

  // A second team changes who monitors whom: it goes, with its worker, so no other test meets it.
  started.splice(started.indexOf(worker), 1);
  expect((await superadminApi.delete(`/api/users/${worker.id}`)).ok()).toBe(true);
  const removed = await superadminApi.delete(`/api/teams/${teamId}`);
  expect(removed.ok(), await removed.text()).toBe(true);
});
