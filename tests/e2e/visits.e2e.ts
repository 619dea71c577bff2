import { randomInt } from 'node:crypto';
import { expect, test, type APIRequest, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { apiSession, uniqueMobile } from './support/session';

// A high-risk home visit, end to end: a team defines a visit type; its worker, on a phone, starts
// a visit of that type with a sealed note and lets it run out (the server's clock moves, POST
// /api/test-clock, and is put back after); the worker's screen shows the alarm and they exchange a
// message with the monitor, who reads the sealed note on the alarm (never before) and resolves it
// with an outcome. Users and the team made here are removed.

const run = Date.now().toString(36).slice(-5);
let seq = 0;
const PHONE = { width: 390, height: 844 };
const LOCATION = 'The Prospect Building';
const NOTE = 'Client known to be aggressive; large dog in the flat';

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
let teamId: number;
const sessions: APIRequestContext[] = [];
const made: number[] = [];

/** PINs are unique across users: this file draws from 9900-9999 (see accounts.e2e.ts) and retries a taken one. */
async function createUser(playwright: { request: APIRequest }, name: string, role: 'worker' | 'admin', team?: number): Promise<Account> {
  const password = 'Visit12345';
  for (let attempt = 0; attempt < 10; attempt++) {
    const pin = String(randomInt(9900, 10_000));
    const username = `vi${run}${++seq}`;
    const res = await superadminApi.post('/api/users', {
      data: { username, password, name, phone: uniqueMobile(), role, pinCode: pin, ...(team ? { teamId: team } : {}) },
    });
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

async function testClock(data: { advanceMinutes: number } | { offsetMs: number }) {
  const res = await superadminApi.post('/api/test-clock', { data });
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
  admin = await createUser(playwright, 'Vera Visitwatch', 'admin');
  const locations = (await (await superadminApi.get('/api/location-options')).json()) as { id: number; name: string }[];
  const team = await superadminApi.post('/api/teams', {
    data: {
      name: `Outreach ${run}`,
      locationIds: [locations.find((l) => l.name === LOCATION)!.id],
      monitors: [{ userId: admin.id }],
      visitTypes: [{ name: 'Home visit, high risk', minutes: 20, checkInInterval: null, smsToo: true }],
    },
  });
  expect(team.status(), await team.text()).toBe(201);
  teamId = ((await team.json()) as { id: number }).id;
});

test.afterEach(async () => {
  await testClock({ offsetMs: 0 });
});

test.afterAll(async () => {
  for (const id of made) {
    await superadminApi.post(`/api/users/${id}/force-clock-out`);
    const alarms = (await (await superadminApi.get('/api/alarms?open=true&limit=500')).json()) as { id: string; userId: number }[];
    for (const a of alarms.filter((x) => x.userId === id))
      await superadminApi.post(`/api/alarms/${a.id}/resolve`, { data: { verdict: 'test', note: 'Visits browser test' } });
  }
  for (const id of [...made].reverse()) await superadminApi.delete(`/api/users/${id}`);
  if (teamId) await superadminApi.delete(`/api/teams/${teamId}`);
  for (const s of sessions) await s.dispose();
});

test('a worker on a phone starts a high-risk visit with a sealed note and lets it run out; they talk with the monitor, who reads the note on the alarm and resolves it', async ({
  browser,
  playwright,
}) => {
  test.setTimeout(180_000);
  const worker = await createUser(playwright, `Vic Visit ${run}`, 'worker', teamId);
  const started = await worker.api.post(`/api/users/${worker.id}/start-shift`, { data: { location: LOCATION } });
  expect(started.ok(), await started.text()).toBe(true);
  const phone = await pageAs(browser, worker.state, '/worker', PHONE);

  await test.step("the worker starts a visit of the team's high-risk type, with a sealed note", async () => {
    await phone.getByTestId('start-visit-button').click();
    const form = phone.getByTestId('visit-form');
    await form.getByTestId('visit-type').selectOption({ label: 'Home visit, high risk (20 minutes)' });
    await expect(form.getByTestId('visit-minutes')).toHaveValue('20');
    await form.getByTestId('visit-where').fill('Flat 3, 12 Mill Lane');
    await form.getByTestId('visit-note').fill(NOTE);
    await form.getByTestId('visit-submit').click();
    await expect(toast(phone, 'Visit started')).toBeVisible();
    const card = phone.getByTestId('visit-card');
    await expect(card).toContainText('On a visit: Flat 3, 12 Mill Lane');
    await expect(card.getByTestId('visit-card-type')).toHaveText('Home visit, high risk');
    await expect(card.getByTestId('visit-card-ends')).toHaveText(/^Ends at \d\d:\d\d$/);
    await expect(card.getByTestId('visit-card-note')).toHaveText('Sealed note kept');
    // On a phone the check-in and emergency buttons stay on the first screen with the visit on.
    for (const id of ['check-in-button', 'emergency-button']) await expect(phone.getByTestId(id)).toBeInViewport();
  });

  // The monitor's dashboard opens once the visit is on: this test is about what it shows, and
  // live.e2e.ts about what reaches a dashboard live.
  const monitor = await pageAs(browser, admin.state, '/admin');

  await test.step('the monitor sees the visit and its type on Active Workers, and nothing of the note', async () => {
    const line = monitor.getByTestId('active-workers').getByTestId('worker-visit').filter({ hasText: 'Flat 3, 12 Mill Lane' });
    await expect(line).toContainText(/On a visit: Flat 3, 12 Mill Lane until \d\d:\d\d/);
    await expect(line.getByTestId('worker-visit-type')).toHaveText('Home visit, high risk');
    await expect(monitor.locator('body')).not.toContainText('aggressive');
  });

  await test.step('the visit runs out: the worker sees the alarm screen, the monitor the visit alarm', async () => {
    await testClock({ advanceMinutes: 21 });
    await expect
      .poll(async () => {
        const alarms = (await (await superadminApi.get('/api/alarms?open=true&limit=500')).json()) as { userId: number; visit: unknown }[];
        return alarms.some((a) => a.userId === worker.id && a.visit !== null);
      })
      .toBe(true);
    await phone.reload();
    await expect(phone.getByTestId('check-in-alert')).toBeVisible();
    await expect(phone.getByTestId('check-in-alert')).toContainText("Your visit's time has run out");
  });

  const row = monitor.getByTestId('alarm-row').filter({ hasText: worker.name });

  await test.step('the monitor and the worker exchange a message', async () => {
    await expect(row.getByTestId('alarm-visit-where')).toHaveText('Visit to Flat 3, 12 Mill Lane');
    await row.getByTestId('alarm-message-text').fill('Are you safe? Reply here.');
    await row.getByRole('button', { name: `Send message to ${worker.name}` }).click();
    const thread = phone.getByTestId('check-in-alert').getByTestId('worker-messages');
    await expect(thread.getByTestId('worker-message').filter({ hasText: 'Are you safe? Reply here.' })).toBeVisible();
    await thread.getByTestId('worker-message-text').fill('Client is shouting, please call');
    await thread.getByRole('button', { name: 'Send message to the monitors' }).click();
    await expect(row.getByTestId('alarm-message').filter({ hasText: 'Client is shouting, please call' })).toHaveAttribute(
      'data-from',
      'worker',
    );
  });

  await test.step('the monitor reads the sealed note on the alarm, which logs who read it, and resolves it as genuine', async () => {
    await expect(row.getByTestId('visit-note-text')).toHaveCount(0);
    await row.getByRole('button', { name: `Read sealed note: ${worker.name}` }).click();
    await expect(row.getByTestId('visit-note-text')).toHaveText(NOTE);
    await expect
      .poll(async () => {
        const log = (await (await superadminApi.get(`/api/activity-logs?userId=${worker.id}`)).json()) as { details: string }[];
        return log.some((e) => e.details === `${admin.username} read the sealed note of the visit, on its alarm`);
      })
      .toBe(true);
    await row.getByRole('button', { name: `Resolve the alarm for ${worker.name}` }).click();
    const dialog = monitor.getByTestId('resolve-alarm-dialog');
    await dialog.getByLabel('Genuine', { exact: true }).check();
    await dialog.getByLabel('Serious', { exact: true }).check();
    await dialog.getByLabel('Note').fill('Police attended the visit; worker safe.');
    await dialog.getByRole('button', { name: 'Resolve Alarm' }).click();
    await expect(toast(monitor, 'Alarm resolved')).toContainText(worker.name);
    const resolved = async () =>
      (
        (await (await superadminApi.get('/api/alarms?open=false&limit=100')).json()) as {
          userId: number;
          verdict: string;
          severity: string;
          history: string[];
        }[]
      ).find((a) => a.userId === worker.id)!;
    expect(await resolved()).toMatchObject({ verdict: 'genuine', severity: 'serious' });
    await expect.poll(async () => (await resolved()).history).toContain('Sealed visit note read by Vera Visitwatch');
  });
});
