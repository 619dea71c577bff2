import { expect, test, type APIRequest, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { apiSession, uniqueMobile } from './support/session';

// The on-call rota in the browser: the superadmin builds a two-layer rota (nights over days) and an
// override in the Teams tab, the two-week timeline draws them, and a monitor's dashboard says who is
// on call now. Everything made here is removed at the end.

const run = Date.now().toString(36).slice(-5);

type StorageState = Awaited<ReturnType<APIRequestContext['storageState']>>;

let superadminApi: APIRequestContext;
let superadminState: StorageState;
const sessions: APIRequestContext[] = [];
const made: { users: number[]; teams: number[] } = { users: [], teams: [] };

async function createAdmin(playwright: { request: APIRequest }, name: string) {
  const password = 'Rota1234';
  const res = await superadminApi.post('/api/users', {
    data: { username: `oc${run}${made.users.length}`, password, name, phone: uniqueMobile(), role: 'admin' },
  });
  expect(res.status(), await res.text()).toBe(201);
  const { user } = (await res.json()) as { user: { id: number; name: string } };
  made.users.push(user.id);
  const api = await apiSession(playwright, `oc${run}${made.users.length - 1}`, password);
  sessions.push(api);
  return { ...user, state: await api.storageState() };
}

async function pageAs(browser: Browser, state: StorageState, path: string): Promise<Page> {
  const page = await (await browser.newContext({ storageState: state })).newPage();
  await page.goto(path);
  return page;
}

/** 'YYYY-MM-DDTHH:mm' for a datetime-local input, `days` from today at `time` (the browser runs in UTC here). */
const localInput = (days: number, time: string) => `${new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10)}T${time}`;

test.beforeAll(async ({ playwright }) => {
  superadminApi = await apiSession(playwright, 'superadmin', process.env.LWS_E2E_SUPERADMIN_PASSWORD!);
  sessions.push(superadminApi);
  superadminState = await superadminApi.storageState();
});

test.afterAll(async () => {
  for (const id of made.teams) await superadminApi.delete(`/api/teams/${id}`);
  for (const id of [...made.users].reverse()) await superadminApi.delete(`/api/users/${id}`);
  for (const s of sessions) await s.dispose();
});

test('the superadmin builds a two-layer rota and an override, the timeline draws them, and a monitor sees who is on call now', async ({
  browser,
  playwright,
}) => {
  test.setTimeout(120_000);
  const nia = await createAdmin(playwright, 'Nia Nights');
  const dan = await createAdmin(playwright, 'Dan Days');
  const res = await superadminApi.post('/api/teams', {
    data: { name: `Rota ${run}`, monitors: [{ userId: dan.id }, { userId: nia.id }] },
  });
  expect(res.status(), await res.text()).toBe(201);
  const teamId = ((await res.json()) as { id: number }).id;
  made.teams.push(teamId);

  const page = await pageAs(browser, superadminState, '/superadmin');
  await page.getByRole('tab', { name: 'Teams' }).click();
  await page.locator(`[data-testid="team-row"][data-name="Rota ${run}"]`).getByTestId('team-edit').click();
  const editor = page.getByTestId('on-call-editor');

  await test.step('two layers: nights (20:00 to 08:00) over days', async () => {
    await editor.getByText('This team has an on-call rota').click();
    await expect(editor.getByTestId('on-call-enabled')).toBeChecked();
    const nights = editor.getByTestId('on-call-layer').nth(0);
    await nights.getByTestId('on-call-layer-name').fill('Nights');
    await nights.getByTestId('on-call-layer-start').fill(localInput(-7, '20:00'));
    await nights.getByTestId('on-call-layer-person').selectOption({ label: 'Nia Nights' });
    await nights.getByTestId('on-call-window-add').click();
    await expect(nights.getByTestId('on-call-window-from')).toHaveValue('20:00');
    await expect(nights.getByTestId('on-call-window-to')).toHaveValue('08:00');

    await editor.getByTestId('on-call-layer-add').click();
    const days = editor.getByTestId('on-call-layer').nth(1);
    await days.getByTestId('on-call-layer-name').fill('Days');
    await days.getByTestId('on-call-layer-start').fill(localInput(-7, '08:00'));
    await days.getByTestId('on-call-layer-person').selectOption({ label: 'Dan Days' });
    await editor.getByTestId('on-call-save').click();
    await expect(page.getByTestId('toast').filter({ hasText: 'Rota saved' })).toBeVisible();
  });

  const timeline = editor.getByTestId('on-call-timeline');
  await test.step('the two-week timeline draws each layer, nights and days, with no gap', async () => {
    await expect(timeline.locator(`[data-testid="on-call-slot"][data-layer="0"][data-user-id="${nia.id}"]`).first()).toBeAttached();
    await expect(timeline.locator(`[data-testid="on-call-slot"][data-layer="1"][data-user-id="${dan.id}"]`).first()).toBeAttached();
    await expect(timeline.getByTestId('on-call-gap')).toHaveCount(0);
    // Nights cover 14 nights of the 14 days (plus the one under way): one stretch each.
    expect(await timeline.locator(`[data-testid="on-call-slot"][data-layer="0"]`).count()).toBeGreaterThanOrEqual(14);
  });

  await test.step('an override puts Nia on the day layer for two hours tomorrow', async () => {
    const form = editor.getByTestId('on-call-override-form');
    await form.getByTestId('on-call-override-layer').selectOption({ index: 1 });
    await form.getByTestId('on-call-override-person').selectOption({ label: 'Nia Nights' });
    await form.getByTestId('on-call-override-from').fill(localInput(1, '10:00'));
    await form.getByTestId('on-call-override-to').fill(localInput(1, '12:00'));
    await form.getByTestId('on-call-override-add').click();
    await expect(page.getByTestId('toast').filter({ hasText: 'Override added' })).toBeVisible();
    await expect(editor.getByTestId('on-call-override')).toHaveCount(1);
    await expect(timeline.locator(`[data-testid="on-call-slot"][data-layer="1"][data-user-id="${nia.id}"]`)).toHaveCount(1);
    const rota = (await (await superadminApi.get(`/api/teams/${teamId}/on-call?at=${localInput(1, '11:00')}:00Z`)).json()) as {
      now: { userId: number; via?: string };
    };
    expect(rota.now).toMatchObject({ userId: nia.id, via: 'override' });
  });
  await page.context().close();

  await test.step("Dan's dashboard says who is on call now, and who takes over", async () => {
    const dashboard = await pageAs(browser, dan.state, '/admin');
    const card = dashboard.getByTestId('on-call-card');
    const team = card.locator(`[data-testid="on-call-team"][data-team-id="${teamId}"]`);
    const hour = new Date().getUTCHours();
    const who = hour >= 20 || hour < 8 ? 'Nia Nights' : 'Dan Days';
    await expect(team.getByTestId('on-call-now')).toContainText(`On call now: ${who} until`);
    await expect(team.getByTestId('on-call-now')).toContainText(', then ');
    await dashboard.context().close();
  });
});
