import { randomInt } from 'node:crypto';
import { expect, test, type APIRequestContext, type Browser, type Page, type Request } from '@playwright/test';
import { apiSession, uniqueMobile, XHR } from './support/session';

// Accounts, profile and kiosk screens against the real stack. Logins are few on purpose:
// the gateway allows 30 login attempts per IP in 5 minutes, shared with the other e2e files.

const run = Date.now().toString(36).slice(-5);
let seq = 0;
const uniqueUsername = (prefix: string) => `${prefix}${run}${++seq}`;

type StorageState = Awaited<ReturnType<APIRequestContext['storageState']>>;
type Created = { user: { id: number; username: string; name: string; role: string }; generatedPin?: string };

let superadminApi: APIRequestContext;
let superadminState: StorageState;
let adminState: StorageState;
let adminApi: APIRequestContext;

/**
 * PINs are unique across users, so a test that expects a PIN to be free or wrong must not meet
 * one it set itself: users created here draw from 0000-8999, and the 9xxx range is kept for the
 * PINs the flows type on purpose (the new PIN, the wrong PIN at the kiosk, the other test files).
 */
const randomPin = () => String(randomInt(0, 9_000)).padStart(4, '0');

/** Creates a user through the API as the superadmin; a chosen PIN that clashes with another user's is replaced. */
async function createUser(fields: {
  name: string;
  role?: 'worker' | 'admin';
  password?: string;
  phone?: string;
  withPin?: boolean;
}): Promise<Created & { password: string; pin: string }> {
  const password = fields.password ?? 'Start123';
  for (let attempt = 0; attempt < 5; attempt++) {
    const pinCode = fields.withPin ? randomPin() : undefined;
    const res = await superadminApi.post('/api/users', {
      data: {
        username: uniqueUsername(fields.role === 'admin' ? 'adm' : 'wrk'),
        password,
        name: fields.name,
        phone: fields.phone ?? uniqueMobile(),
        role: fields.role ?? 'worker',
        ...(pinCode ? { pinCode } : {}),
      },
    });
    if (res.status() === 409 && pinCode) continue;
    expect(res.status(), await res.text()).toBe(201);
    const body = (await res.json()) as Created;
    return { ...body, password, pin: pinCode ?? body.generatedPin! };
  }
  throw new Error('Could not find a free PIN');
}

async function logIn(page: Page, username: string, password: string) {
  await page.goto('/login');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log In' }).click();
}

async function contextAs(browser: Browser, state: StorageState) {
  return browser.newContext({ storageState: state });
}

function toast(page: Page, title: string) {
  const exact = new RegExp(`^${title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
  return page.getByTestId('toast').filter({ has: page.locator('.lws-toast__title', { hasText: exact }) });
}

/** Records every state-changing API call the page makes, to prove a refused form wrote nothing. */
function recordWrites(page: Page): Request[] {
  const writes: Request[] = [];
  page.on('request', (r) => {
    if (r.method() !== 'GET' && new URL(r.url()).pathname.startsWith('/api/')) writes.push(r);
  });
  return writes;
}

test.beforeAll(async ({ playwright }) => {
  superadminApi = await apiSession(playwright, 'superadmin', process.env.LWS_E2E_SUPERADMIN_PASSWORD!);
  superadminState = await superadminApi.storageState();
  const admin = await createUser({ name: 'Ada Admin', role: 'admin', password: 'Admin123' });
  adminApi = await apiSession(playwright, admin.user.username, 'Admin123');
  adminState = await adminApi.storageState();
});

test.afterAll(async () => {
  await superadminApi?.dispose();
  await adminApi?.dispose();
});

test('an admin creates a worker and sees the generated PIN once; the worker edits the profile, adds a contact and changes the PIN', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const username = uniqueUsername('wanda');

  const adminContext = await contextAs(browser, adminState);
  const admin = await adminContext.newPage();
  await admin.goto('/admin');
  await expect(admin.getByRole('tab', { name: 'Worker Dashboard' })).toHaveAttribute('aria-selected', 'true');
  await expect(admin.getByRole('tab')).toHaveText([
    'Worker Dashboard',
    'Create User',
    'Locations',
    'Activity Logs',
    'Kiosks',
    'Reports',
    'Integrations',
  ]);
  await admin.getByRole('tab', { name: 'Create User' }).click();
  await expect(admin.getByText('Create New User')).toBeVisible();
  const form = admin.getByTestId('create-user-form');
  // Spec: Worker or Administrator. An administrator an admin creates monitors the admin's own teams.
  await expect(form.getByLabel('User Role').locator('option')).toHaveText(['Worker', 'Administrator']);
  await form.getByLabel('User Role').selectOption({ label: 'Administrator' });
  await expect(form.getByTestId('new-admin-teams-hint')).toHaveText('They will monitor the same teams as you.');
  await form.getByLabel('User Role').selectOption({ label: 'Worker' });
  await expect(form.getByTestId('new-admin-teams-hint')).toHaveCount(0);
  await expect(form.getByLabel('Phone Number')).toHaveValue('+44');
  await expect(form.getByText('UK format with country code (+44)')).toBeVisible();

  await form.getByLabel('Username').fill(username);
  await form.getByLabel('Password', { exact: true }).fill('Start123');
  await form.getByLabel('Full Name').fill('Wanda Walker');
  await form.getByLabel('Phone Number').fill('+44 7911 123456');
  await form.getByLabel('Medical Information').fill('Asthma; inhaler in left pocket');
  await form.getByRole('button', { name: 'Create User' }).click();

  await expect(toast(admin, 'User Created')).toContainText(`Wanda Walker (${username}) has been created successfully.`);
  const secretDialog = admin.getByTestId('one-time-secret-dialog');
  await expect(secretDialog).toBeVisible();
  await expect(secretDialog).toContainText('Shown once');
  const pin = (await secretDialog.getByTestId('one-time-secret-value').textContent())!.trim();
  expect(pin).toMatch(/^\d{4}$/);
  await secretDialog.getByRole('button', { name: 'Done' }).click();
  await expect(secretDialog).toBeHidden();
  await expect(admin.getByTestId('one-time-secret-value')).toHaveCount(0);
  await expect(form.getByLabel('Username')).toHaveValue('');
  await expect(form.getByLabel('Phone Number')).toHaveValue('+44');

  await admin.getByRole('tab', { name: 'Worker Dashboard' }).click();
  await expect(admin.getByRole('heading', { name: 'Worker Status Dashboard' })).toBeVisible();
  const row = admin.locator(`[data-testid="account-row"][data-username="${username}"]`);
  await expect(row).toContainText('Wanda Walker');
  await expect(row).toContainText('Clocked Out');
  await expect(admin.getByRole('columnheader', { name: 'PIN' })).toHaveCount(0);
  await expect(admin.getByRole('columnheader', { name: 'Password' })).toHaveCount(0);
  // The PIN is never sent again: no field of the account list carries one.
  const accounts = (await (await adminApi.get('/api/worker-accounts')).json()) as Record<string, unknown>[];
  const listed = accounts.find((a) => a.username === username)!;
  expect(Object.keys(listed).filter((k) => /pin|password|hash/i.test(k))).toEqual([]);

  const workerContext = await browser.newContext();
  const worker = await workerContext.newPage();
  await logIn(worker, username, 'Start123');
  await expect(worker).toHaveURL(/\/worker$/);
  await worker.getByTestId('nav-profile').click();
  await expect(worker).toHaveURL(/\/profile$/);
  await expect(worker.getByTestId('profile-name')).toHaveText('Wanda Walker');

  await test.step('edit name and phone, with live normalisation', async () => {
    await worker.getByRole('button', { name: 'Edit Details' }).click();
    const details = worker.getByTestId('profile-edit-form');
    await details.getByLabel('Full Name').fill('Wanda W. Walker');
    await details.getByLabel('Phone Number').fill('07911 123457');
    await expect(details.getByLabel('Phone Number')).toHaveValue('+447911123457');
    await expect(details.getByTestId('profile-phone-input-hint')).toHaveText('✓ Valid UK format with +44 country code');
    await details.getByRole('button', { name: 'Save' }).click();
    await expect(toast(worker, 'Profile updated')).toBeVisible();
    await expect(worker.getByTestId('profile-name')).toHaveText('Wanda W. Walker');
    await expect(worker.getByTestId('profile-phone')).toHaveText('+447911123457');
    await expect(worker.getByTestId('header-user-name')).toHaveText('Wanda W. Walker');
    const me = await (await worker.request.get('/api/auth/me')).json();
    expect(me).toMatchObject({ name: 'Wanda W. Walker', phone: '+447911123457' });
  });

  await test.step('add an emergency contact', async () => {
    await worker.getByRole('button', { name: 'Add Contact' }).click();
    const dialog = worker.getByRole('dialog', { name: 'Add Emergency Contact' });
    await dialog.getByLabel('Name').fill('Sam Walker');
    await dialog.getByLabel('Phone Number').fill('07911123458');
    await dialog.getByLabel('Relation').fill('Partner');
    await dialog.getByRole('button', { name: 'Save Contact' }).click();
    await expect(toast(worker, 'Emergency contact created')).toBeVisible();
    await expect(dialog).toBeHidden();
    const item = worker.getByTestId('contact-item');
    await expect(item).toHaveCount(1);
    await expect(item).toContainText('Sam Walker');
    await expect(item).toContainText('(Partner)');
    await expect(item).toContainText('+447911123458');
    const contacts = await (await worker.request.get(`/api/users/${listed.id}/emergency-contacts`)).json();
    expect(contacts).toEqual([expect.objectContaining({ name: 'Sam Walker', phone: '+447911123458', relation: 'Partner' })]);
  });

  await test.step('save medical information and contact settings', async () => {
    const medical = worker.getByTestId('profile-medical');
    await expect(medical.getByLabel('Medical Information', { exact: true })).toHaveValue('Asthma; inhaler in left pocket');
    await medical.getByLabel('Medical Information', { exact: true }).fill('Asthma; inhaler in right pocket');
    await medical.getByRole('button', { name: 'Save Medical Information' }).click();
    await expect(toast(worker, 'Medical information updated')).toBeVisible();

    const settings = worker.getByTestId('profile-settings');
    await expect(settings.getByLabel('Check-in Interval')).toHaveValue('60');
    await settings.getByLabel('Primary Contact').fill('+447911123458');
    await settings.getByLabel('Check-in Interval').selectOption({ label: '2 hours' });
    await settings.getByRole('button', { name: 'Save Settings' }).click();
    await expect(toast(worker, 'Settings saved')).toBeVisible();

    const profile = await (await worker.request.get(`/api/users/${listed.id}/with-relations`)).json();
    expect(profile).toMatchObject({
      medicalInfo: 'Asthma; inhaler in right pocket',
      settings: { primaryContact: '+447911123458', secondaryContact: null, checkInInterval: 120 },
    });
  });

  const newPin = pin === '9580' ? '9581' : '9580';
  await test.step('change the PIN: verify, new, confirm, save', async () => {
    const card = worker.getByTestId('profile-pin');
    await card.getByRole('button', { name: 'Change PIN' }).click();
    await card.getByLabel('Current PIN').fill(pin === '0000' ? '1111' : '0000');
    await card.getByRole('button', { name: 'Verify' }).click();
    await expect(card.getByTestId('pin-change-error')).toHaveText('Incorrect PIN. Please try again.');
    await expect(toast(worker, 'Incorrect PIN')).toContainText('The current PIN you entered is incorrect');

    await card.getByLabel('Current PIN').fill(pin);
    await card.getByRole('button', { name: 'Verify' }).click();
    await card.getByLabel('New PIN', { exact: true }).fill(newPin);
    await card.getByRole('button', { name: 'Next' }).click();
    await card.getByLabel('Confirm New PIN').fill(newPin === '9580' ? '9582' : '9583');
    await card.getByRole('button', { name: 'Save PIN' }).click();
    await expect(toast(worker, 'PINs Do Not Match')).toBeVisible();

    await card.getByLabel('New PIN', { exact: true }).fill(newPin);
    // While choosing a PIN the worker may show it; the boxes hold dots until then.
    const boxes = card.getByTestId('pin-change-input-boxes').locator('input');
    const shown = () => boxes.evaluateAll((all) => all.map((b) => (b as HTMLInputElement).value).join(''));
    await expect.poll(shown).toBe('••••');
    await card.getByTestId('pin-reveal').click();
    await expect.poll(shown).toBe(newPin);
    await expect(card.getByTestId('pin-reveal')).toHaveText('Hide PIN');
    await card.getByRole('button', { name: 'Next' }).click();
    await card.getByLabel('Confirm New PIN').fill(newPin);
    await card.getByRole('button', { name: 'Save PIN' }).click();
    await expect(toast(worker, 'PIN Updated')).toBeVisible();
    await expect(card.getByRole('button', { name: 'Change PIN' })).toBeVisible();

    const verified = await worker.request.post(`/api/users/${listed.id}/verify-pin`, { headers: XHR, data: { pin: newPin } });
    expect(verified.status()).toBe(200);
    const old = await worker.request.post(`/api/users/${listed.id}/verify-pin`, { headers: XHR, data: { pin } });
    expect(old.status()).toBe(400);
  });

  // Off until the worker turns it on (escalation.e2e.ts follows it further).
  await expect(worker.getByTestId('notifications-switch')).not.toBeChecked();
  await worker.getByRole('button', { name: 'Back to Check-In' }).click();
  await expect(worker).toHaveURL(/\/worker$/);
  await adminContext.close();
  await workerContext.close();
});

test('an admin enrols this browser as a kiosk; a worker picks their name and logs in with a PIN; idle kiosk sessions end; a revoked kiosk refuses @embedded', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const kioskWorker = await createUser({ name: 'Kim Kiosk', withPin: true });
  const kioskName = `Reception ${run}`;
  // The kiosk's own location, an active one other than the spec's default: a shift started there defaults to it.
  const kioskPlace = `Kiosk Hall ${run}`;
  expect((await superadminApi.post('/api/location-options', { headers: XHR, data: { name: kioskPlace } })).status()).toBe(201);

  await test.step('a browser that was never enrolled cannot use the PIN pad', async () => {
    const stranger = await browser.newContext();
    const page = await stranger.newPage();
    await page.goto('/kiosk');
    await expect(page.getByTestId('kiosk-not-enrolled')).toContainText('This device is not an enrolled kiosk');
    await expect(page.getByTestId('kiosk-not-enrolled')).toContainText('An administrator must');
    await expect(page.getByTestId('pin-pad')).toHaveCount(0);
    const res = await page.request.post('/api/auth/pin-login', {
      headers: XHR,
      data: { userId: kioskWorker.user.id, pin: kioskWorker.pin },
    });
    expect(res.status()).toBe(403);
    await stranger.close();
  });

  const terminal = await browser.newContext();
  const kiosk = await terminal.newPage();
  const adminLogin = await createUser({ name: 'Enrolling Admin', role: 'admin', password: 'Admin123' });
  const login = await kiosk.request.post('/api/auth/login', {
    headers: XHR,
    data: { username: adminLogin.user.username, password: 'Admin123' },
  });
  expect(login.status()).toBe(200);

  await test.step('enrol from the terminal itself', async () => {
    await kiosk.goto('/admin');
    await kiosk.getByRole('tab', { name: 'Kiosks' }).click();
    await expect(kiosk.getByTestId('kiosk-enrol-card')).toContainText('makes this browser, on this device, a kiosk');
    await kiosk.getByLabel('Kiosk Name').fill(kioskName);
    await kiosk.getByLabel('Location').fill(kioskPlace);
    await kiosk.getByRole('button', { name: 'Enrol This Device' }).click();
    await expect(toast(kiosk, 'Kiosk enrolled')).toBeVisible();
    const row = kiosk.locator(`[data-testid="kiosk-row"][data-kiosk-name="${kioskName}"]`);
    await expect(row.getByTestId('kiosk-last-used')).toHaveText('Never');
    await expect(row.getByTestId('kiosk-status')).toHaveText('Active');
    const cookie = (await terminal.cookies()).find((c) => c.name === 'lws_kiosk');
    expect(cookie?.httpOnly).toBe(true);
    expect(await kiosk.evaluate(() => JSON.stringify({ ...localStorage }))).not.toMatch(/lws_kiosk|pin/i);
  });

  await test.step('log out to the kiosk: the worker finds their name, a wrong PIN is refused inline, the right one logs them in', async () => {
    await kiosk.getByRole('button', { name: 'Log Out and Open the PIN Pad' }).click();
    await expect(kiosk).toHaveURL(/\/kiosk$/);
    await expect(kiosk.getByTestId('kiosk-label')).toHaveText(`${kioskName}, ${kioskPlace}`);
    // No PIN pad until the worker has said who they are: a PIN alone names nobody.
    await expect(kiosk.getByTestId('pin-pad')).toHaveCount(0);
    await kiosk.getByTestId('kiosk-search').fill('kim k');
    await expect(kiosk.getByTestId('kiosk-name')).toHaveText(['Kim K.']);
    // A list of buttons, with no bullet before each name.
    await expect(kiosk.getByTestId('kiosk-roster').locator('li').first()).toHaveCSS('list-style-type', 'none');
    await kiosk.getByTestId('kiosk-name').click();
    await expect(kiosk.getByTestId('kiosk-who-picked')).toContainText('Hello, Kim K.');
    const wrong = kioskWorker.pin === '9999' ? '9998' : '9999';
    for (const d of wrong) await kiosk.getByTestId(`pin-digit-${d}`).click();
    await expect(kiosk.getByTestId('pin-error')).toHaveText('Invalid name or PIN');
    await expect(kiosk.getByTestId('pin-box-0')).toHaveAttribute('data-filled', 'false');
    for (const d of kioskWorker.pin) await kiosk.getByTestId(`pin-digit-${d}`).click();
    await expect(kiosk.getByTestId('pin-welcome')).toHaveText('Welcome, Kim Kiosk');
    await expect(kiosk).toHaveURL(/\/worker$/);
    await expect(kiosk.getByTestId('header-user-name')).toHaveText('Kim Kiosk');
    await expect(kiosk.getByTestId('location-select')).toHaveValue(kioskPlace);
    await kiosk.getByTestId('user-menu-button').click();
    await kiosk.getByTestId('menu-logout').click();
    await expect(kiosk).toHaveURL(/\/kiosk$/);
    await expect(kiosk.getByTestId('kiosk-who')).toBeVisible();
  });

  await test.step('a worker who types a username signs in too, and is signed out after 2 minutes without input', async () => {
    await kiosk.clock.install();
    await kiosk.reload();
    await kiosk.getByTestId('kiosk-username').fill(kioskWorker.user.username.toUpperCase());
    await kiosk.getByTestId('kiosk-username-next').click();
    for (const d of kioskWorker.pin) await kiosk.getByTestId(`pin-digit-${d}`).click();
    await expect(kiosk).toHaveURL(/\/worker$/);
    await expect(kiosk.getByTestId('header-user-name')).toHaveText('Kim Kiosk');
    await kiosk.clock.fastForward(60_000);
    await expect(kiosk).toHaveURL(/\/worker$/);
    await kiosk.clock.fastForward(61_000);
    await expect(kiosk).toHaveURL(/\/kiosk$/);
    await expect(kiosk.getByTestId('kiosk-who')).toBeVisible();
    expect((await kiosk.request.get('/api/auth/me')).status()).toBe(401);
  });

  await test.step('the kiosk list shows its last use; revoking it stops PIN login there', async () => {
    const adminContext = await contextAs(browser, adminState);
    const admin = await adminContext.newPage();
    await admin.goto('/admin');
    await admin.getByRole('tab', { name: 'Kiosks' }).click();
    const row = admin.locator(`[data-testid="kiosk-row"][data-kiosk-name="${kioskName}"]`);
    await expect(row.getByTestId('kiosk-last-used')).not.toHaveText('Never');
    await row.getByRole('button', { name: `Revoke ${kioskName}` }).click();
    const dialog = admin.getByTestId('kiosk-revoke-dialog');
    await expect(dialog).toContainText('cannot be undone');
    await dialog.getByRole('button', { name: 'Revoke' }).click();
    await expect(toast(admin, 'Kiosk revoked')).toBeVisible();
    await expect(row.getByTestId('kiosk-status')).toHaveText('Revoked');
    await adminContext.close();

    await kiosk.reload();
    await expect(kiosk.getByTestId('kiosk-not-enrolled')).toBeVisible();
    const res = await kiosk.request.post('/api/auth/pin-login', {
      headers: XHR,
      data: { userId: kioskWorker.user.id, pin: kioskWorker.pin },
    });
    expect(res.status()).toBe(403);
  });
  await terminal.close();
});

test('a superadmin sees credential columns without values, resets a PIN and a password shown once, creates an admin and deletes a worker', async ({
  browser,
  playwright,
}) => {
  test.setTimeout(120_000);
  const target = await createUser({ name: 'Rita Reset' });
  const context = await contextAs(browser, superadminState);
  const page = await context.newPage();
  await page.goto('/superadmin');
  await expect(page.getByRole('tab')).toHaveText([
    'Worker Dashboard',
    'Create User',
    'Locations',
    'Activity Logs',
    'Kiosks',
    'Reports',
    'Integrations',
    'Teams',
    'Import',
    'Sign-in',
    'Force Clock Out',
    'System Config',
    'System Testing',
    'Test Account',
    'SMS Test Panel',
    'Dead Letters',
  ]);
  await expect(page.getByRole('columnheader', { name: 'Password' })).toBeVisible();
  await expect(page.getByRole('columnheader', { name: 'PIN', exact: true })).toBeVisible();
  const row = page.locator(`[data-testid="account-row"][data-username="${target.user.username}"]`);
  // Only whether a credential exists is shown, never the credential.
  await expect(row.getByTestId('account-password')).toHaveText(/^\s*set\s*Reset\s*$/);
  await expect(row.getByTestId('account-pin')).toHaveText(/^\s*set\s*Reset\s*$/);

  let workerApi = await apiSession(playwright, target.user.username, target.password);

  await test.step('reset the PIN', async () => {
    await row.getByRole('button', { name: 'Reset PIN for Rita Reset' }).click();
    await page.getByTestId('reset-dialog').getByRole('button', { name: 'Reset PIN' }).click();
    const secret = page.getByTestId('one-time-secret-dialog');
    await expect(secret).toContainText('New PIN for Rita Reset');
    await expect(secret).toContainText('Shown once');
    const newPin = (await secret.getByTestId('one-time-secret-value').textContent())!.trim();
    expect(newPin).toMatch(/^\d{4}$/);
    await secret.getByRole('button', { name: 'Done' }).click();
    await expect(page.getByTestId('one-time-secret-value')).toHaveCount(0);
    expect((await workerApi.post(`/api/users/${target.user.id}/verify-pin`, { data: { pin: newPin } })).status()).toBe(200);
  });

  await test.step('reset the password: the old session ends, the temporary password works once given', async () => {
    await row.getByRole('button', { name: 'Reset password for Rita Reset' }).click();
    await expect(page.getByTestId('reset-dialog')).toContainText('logged out everywhere');
    await page.getByTestId('reset-dialog').getByRole('button', { name: 'Reset Password' }).click();
    const secret = page.getByTestId('one-time-secret-dialog');
    await expect(secret).toContainText('Temporary password for Rita Reset');
    const temporary = (await secret.getByTestId('one-time-secret-value').textContent())!.trim();
    await secret.getByRole('button', { name: 'Done' }).click();
    expect((await workerApi.get('/api/auth/me')).status()).toBe(401);
    await workerApi.dispose();
    workerApi = await apiSession(playwright, target.user.username, temporary);
    expect(await (await workerApi.get('/api/auth/me')).json()).toMatchObject({ passwordIsTemporary: true });
    // Every page says the password is temporary until the worker chooses their own.
    const workerPage = await (await browser.newContext({ storageState: await workerApi.storageState() })).newPage();
    await workerPage.goto('/worker');
    await workerPage.getByTestId('temporary-password-banner').getByRole('link', { name: 'Choose your own now' }).click();
    await expect(workerPage).toHaveURL(/\/profile$/);
    await workerPage.getByTestId('password-current').fill(temporary);
    await workerPage.getByTestId('password-new').fill('Chosen123');
    await workerPage.getByTestId('password-confirm').fill('Chosen123');
    await workerPage.getByTestId('password-submit').click();
    await expect(toast(workerPage, 'Password Changed')).toBeVisible();
    await expect(workerPage).toHaveURL(/\/profile$/);
    await expect(workerPage.getByTestId('temporary-password-banner')).toHaveCount(0);
    await workerPage.context().close();
    await workerApi.dispose();
  });

  await test.step('create an administrator with a chosen PIN: no PIN is shown back', async () => {
    await page.getByRole('tab', { name: 'Create User' }).click();
    const form = page.getByTestId('create-user-form');
    await expect(form.getByLabel('User Role').locator('option')).toHaveText(['Worker', 'Administrator']);
    const username = uniqueUsername('boss');
    await form.getByLabel('Username').fill(username);
    await form.getByLabel('Password', { exact: true }).fill('Admin123');
    await form.getByLabel('Full Name').fill('Bea Boss');
    await form.getByLabel('Phone Number').fill('447911123459');
    await form.getByLabel('User Role').selectOption({ label: 'Administrator' });
    await form.getByLabel('PIN (optional)').fill(randomPin());
    await form.getByRole('button', { name: 'Create User' }).click();
    await expect(toast(page, 'User Created')).toContainText(`Bea Boss (${username}) has been created successfully.`);
    await expect(page.getByTestId('one-time-secret-dialog')).toBeHidden();
    await page.getByRole('tab', { name: 'Worker Dashboard' }).click();
    const created = page.locator(`[data-testid="account-row"][data-username="${username}"]`);
    await expect(created).toContainText('Admin');
    await expect(created).toContainText('+447911123459');
  });

  await test.step('delete the worker after the confirmation', async () => {
    await row.getByRole('button', { name: 'Delete Rita Reset' }).click();
    const dialog = page.getByTestId('delete-user-dialog');
    await expect(dialog).toContainText('cannot be undone');
    await expect(dialog).toContainText('emergency contacts, settings and check-in history');
    await dialog.getByRole('button', { name: 'Delete User' }).click();
    await expect(toast(page, 'User deleted')).toBeVisible();
    await expect(row).toHaveCount(0);
    const accounts = (await (await superadminApi.get('/api/worker-accounts')).json()) as { username: string }[];
    expect(accounts.map((a) => a.username)).not.toContain(target.user.username);
  });
  await context.close();
});

test('every validation message of spec section 5 on these screens appears for its bad input, and nothing is written', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const target = await createUser({ name: 'Vera Valid' });

  await test.step('user creation', async () => {
    const context = await contextAs(browser, adminState);
    const page = await context.newPage();
    const writes = recordWrites(page);
    const before = ((await (await adminApi.get('/api/worker-accounts')).json()) as unknown[]).length;
    await page.goto('/admin');
    await page.getByRole('tab', { name: 'Create User' }).click();
    const form = page.getByTestId('create-user-form');
    await form.getByLabel('Username').fill('ab');
    await form.getByLabel('Password', { exact: true }).fill('12345');
    await form.getByLabel('Full Name').fill('A');
    await form.getByLabel('Phone Number').fill('+44');
    const pin = form.getByLabel('PIN (optional)');
    // Four real boxes: shown, the digits kept fill the first two.
    const pinBoxes = form.getByTestId('create-pinCode-boxes').locator('input');
    await form.getByTestId('create-pin-reveal').click();
    await pin.fill('1a2b');
    await expect(pinBoxes).toHaveCount(4);
    const shown = () => pinBoxes.evaluateAll((boxes) => boxes.map((b) => (b as HTMLInputElement).value).join(''));
    await expect.poll(shown).toBe('12');
    await form.getByRole('button', { name: 'Create User' }).click();
    await expect(form.getByTestId('create-username-error')).toHaveText('Username must be at least 3 characters');
    await expect(form.getByTestId('create-password-error')).toHaveText('Password must be at least 6 characters');
    await expect(form.getByTestId('create-name-error')).toHaveText('Name must be at least 2 characters');
    await expect(form.getByTestId('create-phone-error')).toHaveText('Phone number must include country code');
    await expect(form.getByTestId('create-pinCode-error')).toHaveText('PIN must be exactly 4 digits');
    await form.getByLabel('Phone Number').fill('+3312345678');
    await expect(form.getByTestId('create-phone-error')).toHaveText('Phone should start with +44 for UK format');
    // A paste keeps only the digits and fills up to four.
    await pin.evaluate((el) => {
      const data = new DataTransfer();
      data.setData('text', '9-8-7-6-5');
      el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    });
    await expect.poll(shown).toBe('9876');
    await expect(form.getByTestId('create-pinCode-error')).toHaveCount(0);
    await form.getByRole('button', { name: 'Create User' }).click();
    await expect(form.getByTestId('create-phone-error')).toBeVisible();
    expect(writes.map((r) => `${r.method()} ${r.url()}`)).toEqual([]);
    expect(((await (await adminApi.get('/api/worker-accounts')).json()) as unknown[]).length).toBe(before);
    await context.close();
  });

  await test.step('profile, emergency contact, settings and change password', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const login = await page.request.post('/api/auth/login', {
      headers: XHR,
      data: { username: target.user.username, password: target.password },
    });
    expect(login.status()).toBe(200);
    const before = await (await page.request.get(`/api/users/${target.user.id}/with-relations`)).json();
    const writes = recordWrites(page);
    await page.goto('/profile');

    await page.getByRole('button', { name: 'Edit Details' }).click();
    const details = page.getByTestId('profile-edit-form');
    const phone = details.getByLabel('Phone Number');
    const hint = details.getByTestId('profile-phone-input-hint');
    const phoneError = details.getByTestId('profile-phone-input-error');
    await details.getByLabel('Full Name').fill('A');
    await phone.fill('+4479');
    await details.getByRole('button', { name: 'Save' }).click();
    await expect(details.getByTestId('profile-name-input-error')).toHaveText('Name is too short');
    await expect(phoneError).toHaveText('Phone number must include country code');
    await phone.fill('+33612345678');
    await expect(hint).toHaveText('Phone number MUST start with +44 (UK format)');
    await details.getByRole('button', { name: 'Save' }).click();
    await expect(phoneError).toHaveText('Phone number must start with +44 (UK format)');
    await phone.fill('+4479111234567');
    await details.getByRole('button', { name: 'Save' }).click();
    await expect(phoneError).toHaveText('Phone number must be in format +44 followed by 10 digits');
    // Normalisation as typed: 0 becomes +44, 44 gets its +, anything else gets +44 in front.
    await phone.fill('07911 123456');
    await expect(phone).toHaveValue('+447911123456');
    await expect(hint).toHaveText('✓ Valid UK format with +44 country code');
    await phone.fill('447911123456');
    await expect(phone).toHaveValue('+447911123456');
    await phone.fill('7911123456');
    await expect(phone).toHaveValue('+447911123456');
    await details.getByRole('button', { name: 'Cancel' }).click();

    await page.getByRole('button', { name: 'Add Contact' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Emergency Contact' });
    await dialog.getByLabel('Name').fill('B');
    await dialog.getByRole('button', { name: 'Save Contact' }).click();
    await expect(dialog.getByTestId('contact-name-error')).toHaveText('Name is too short');
    await expect(dialog.getByTestId('contact-phone-error')).toHaveText('Phone number must include country code');
    await expect(dialog.getByTestId('contact-relation-error')).toHaveText('Relation is required');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();

    const settings = page.getByTestId('profile-settings');
    await settings.getByLabel('Primary Contact').fill('12345');
    await settings.getByRole('button', { name: 'Save Settings' }).click();
    await expect(settings.getByTestId('settings-primary-error')).toHaveText('Phone number is too short');

    // Change password rules are checked as the user types.
    const password = page.getByTestId('password-form');
    const newError = password.getByTestId('password-new-error');
    const confirmError = password.getByTestId('password-confirm-error');
    await password.getByLabel('New Password', { exact: true }).fill('abc');
    await expect(newError).toHaveText('New password must be at least 6 characters');
    await password.getByLabel('New Password', { exact: true }).fill('abcdef');
    await expect(newError).toHaveText('Password must contain at least one uppercase letter');
    await password.getByLabel('New Password', { exact: true }).fill('Abcdef');
    await expect(newError).toHaveText('Password must contain at least one number');
    await password.getByLabel('New Password', { exact: true }).fill('Abcdef1');
    await expect(newError).toHaveCount(0);
    await password.getByLabel('Confirm New Password').fill('Abcdef2');
    await expect(confirmError).toHaveText("Passwords don't match");
    await password.getByLabel('Confirm New Password').fill('');
    await expect(confirmError).toHaveText('Please confirm your password');
    await password.getByRole('button', { name: 'Change Password' }).click();
    await expect(password.getByTestId('password-current-error')).toHaveText('Current password is required');

    expect(writes.map((r) => `${r.method()} ${r.url()}`)).toEqual([]);
    const after = await (await page.request.get(`/api/users/${target.user.id}/with-relations`)).json();
    expect(after).toEqual(before);
    await context.close();
  });
});
