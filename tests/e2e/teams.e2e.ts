import { expect, test, type APIRequest, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { apiSession, uniqueMobile } from './support/session';

// Teams against the real stack: two admins of two teams each see only their own
// worker's alarm; the superadmin edits a team's escalation policy in the Teams tab, with its
// timeline preview, and the team's next alarm follows it. Everything made here is removed at the
// end, so the files after this one find the single-team deployment they expect.

const run = Date.now().toString(36).slice(-5);
const SITE = 'The Prospect Building';

type StorageState = Awaited<ReturnType<APIRequestContext['storageState']>>;
interface Account {
  id: number;
  username: string;
  name: string;
  api: APIRequestContext;
  state: StorageState;
}

let superadminApi: APIRequestContext;
let superadminState: StorageState;
const sessions: APIRequestContext[] = [];
const made: { users: number[]; teams: number[] } = { users: [], teams: [] };

/** Signed in, and signed out with the others after the file's tests. */
async function trackedSession(playwright: { request: APIRequest }, username: string, password: string) {
  const ctx = await apiSession(playwright, username, password);
  sessions.push(ctx);
  return ctx;
}

async function createUser(playwright: { request: APIRequest }, name: string, role: 'worker' | 'admin', teamId?: number): Promise<Account> {
  const password = 'Teams123';
  const res = await superadminApi.post('/api/users', {
    data: { username: `t${role[0]}${run}${made.users.length}`, password, name, phone: uniqueMobile(), role, ...(teamId ? { teamId } : {}) },
  });
  expect(res.status(), await res.text()).toBe(201);
  const { user } = (await res.json()) as { user: { id: number; username: string; name: string } };
  made.users.push(user.id);
  const api = await trackedSession(playwright, user.username, password);
  return { ...user, api, state: await api.storageState() };
}

async function createTeam(name: string, monitorId: number): Promise<number> {
  const res = await superadminApi.post('/api/teams', { data: { name, monitors: [{ userId: monitorId }] } });
  expect(res.status(), await res.text()).toBe(201);
  const { id } = (await res.json()) as { id: number };
  made.teams.push(id);
  return id;
}

/** On shift, then due now: a missed check-in alarm opens. */
async function missCheckIn(worker: Account) {
  await expect
    .poll(async () => (await worker.api.post(`/api/users/${worker.id}/start-shift`, { data: { location: SITE } })).status(), {
      timeout: 10_000,
    })
    .toBe(200);
  expect((await superadminApi.post(`/api/simulate-check-in-due/${worker.id}`)).status()).toBe(200);
}

async function alarmOf(userId: number): Promise<{ id: string; history: string[] } | undefined> {
  const alarms = (await (await superadminApi.get('/api/alarms?limit=500')).json()) as { id: string; userId: number; history: string[] }[];
  return alarms.find((a) => a.userId === userId);
}

async function pageAs(browser: Browser, state: StorageState, path: string): Promise<Page> {
  const page = await (await browser.newContext({ storageState: state })).newPage();
  await page.goto(path);
  return page;
}

test.beforeAll(async ({ playwright }) => {
  superadminApi = await trackedSession(playwright, 'superadmin', process.env.LWS_E2E_SUPERADMIN_PASSWORD!);
  superadminState = await superadminApi.storageState();
});

test.afterAll(async () => {
  for (const id of made.users) {
    await superadminApi.post(`/api/users/${id}/force-clock-out`);
    const open = await alarmOf(id);
    if (open)
      await superadminApi.post(`/api/alarms/${open.id}/resolve`, {
        data: { verdict: 'false_alarm', reason: 'no_signal', note: 'Teams browser test' },
      });
  }
  for (const id of [...made.users].reverse()) await superadminApi.delete(`/api/users/${id}`);
  for (const id of made.teams) await superadminApi.delete(`/api/teams/${id}`);
  for (const s of sessions) await s.dispose();
});

test("two admins of two teams each see only their own worker's alarm; the superadmin edits a team's policy and the next alarm follows it", async ({
  browser,
  playwright,
}) => {
  // Seven steps across four sessions and two alarms: late in the suite, on a database every earlier file filled, it outlasts the default minute.
  test.setTimeout(150_000);
  const nina = await createUser(playwright, 'Nina North', 'admin');
  const sam = await createUser(playwright, 'Sam South', 'admin');
  const north = await createTeam(`North ${run}`, nina.id);
  const south = await createTeam(`South ${run}`, sam.id);
  // Created while "Default" was the only team, both admins monitor it too: the superadmin takes them off.
  const teams = (await (await superadminApi.get('/api/teams')).json()) as { id: number; name: string; monitors: { userId: number }[] }[];
  const fallback = teams.find((t) => t.name === 'Default')!;
  const res = await superadminApi.patch(`/api/teams/${fallback.id}`, {
    data: { monitors: fallback.monitors.filter((m) => m.userId !== nina.id && m.userId !== sam.id) },
  });
  expect(res.status(), await res.text()).toBe(200);
  const walker = await createUser(playwright, 'Walt Northfield', 'worker', north);
  const sally = await createUser(playwright, 'Sally Southgate', 'worker', south);
  await missCheckIn(walker);
  await missCheckIn(sally);
  await expect.poll(async () => !!(await alarmOf(walker.id)) && !!(await alarmOf(sally.id)), { timeout: 15_000 }).toBe(true);

  await test.step("each admin's alarms panel holds their own team's alarm only", async () => {
    for (const [admin, mine, theirs] of [
      [nina, walker, sally],
      [sam, sally, walker],
    ] as const) {
      const page = await pageAs(browser, admin.state, '/admin');
      const panel = page.getByTestId('alarms-panel');
      await expect(panel.locator(`[data-testid="alarm-row"][data-user-id="${mine.id}"]`)).toBeVisible();
      await expect(panel.locator(`[data-testid="alarm-row"][data-user-id="${theirs.id}"]`)).toHaveCount(0);
      await expect(panel).not.toContainText(theirs.name);
      await page.context().close();
    }
  });

  await test.step("a worker's profile names their team and its monitor", async () => {
    const page = await pageAs(browser, walker.state, '/profile');
    await expect(page.getByTestId('profile-team')).toHaveText(`North ${run}`);
    await expect(page.getByTestId('profile-monitors')).toHaveText('Nina North');
    await page.context().close();
  });

  await test.step('an admin marks themselves away on their profile, and back', async () => {
    const page = await pageAs(browser, sam.state, '/profile');
    const card = page.getByTestId('away-card');
    await card.getByTestId('away-set').click();
    await expect(card.getByTestId('away-status')).toContainText('Away until');
    const away = (await (await sam.api.get(`/api/users/${sam.id}/with-relations`)).json()) as { awayUntil: string | null };
    expect(Date.parse(away.awayUntil ?? '')).toBeGreaterThan(Date.now());
    await card.getByTestId('away-back').click();
    await expect(card.getByTestId('away-set')).toBeVisible();
    expect(
      ((await (await sam.api.get(`/api/users/${sam.id}/with-relations`)).json()) as { awayUntil: string | null }).awayUntil,
    ).toBeNull();
    await page.context().close();
  });

  await test.step('the superadmin gives North its own policy in the Teams tab, previewed as a timeline', async () => {
    const page = await pageAs(browser, superadminState, '/superadmin');
    await page.getByRole('tab', { name: 'Teams' }).click();
    const row = page.locator(`[data-testid="team-row"][data-name="North ${run}"]`);
    await expect(row).toContainText('Nina North');
    await expect(row).toContainText("Organisation's");
    await row.getByTestId('team-edit').click();
    const editor = page.getByTestId('team-editor');
    await editor.getByText("This team has its own policy (off: the organisation's)").click();
    await expect(editor.getByTestId('team-own-policy')).toBeChecked();
    const missed = editor.getByTestId('policy-missed_check_in');
    // The starter steps are the defaults; North's monitor is told on their own first, then everyone a minute later.
    await missed.getByRole('button', { name: 'Remove step 4' }).click();
    await missed.getByRole('button', { name: 'Remove step 3' }).click();
    await missed.getByTestId('policy-step-action').nth(1).selectOption('notify_monitor');
    await missed.getByTestId(`policy-missed_check_in-add`).click();
    await missed.getByTestId('policy-step-action').nth(2).selectOption('notify_organisation');
    await missed.getByTestId('policy-step-minutes').nth(2).fill('1');
    await expect(missed.getByTestId('policy-missed_check_in-timeline').locator('li')).toHaveText([
      '0:00 notify the worker',
      '0:00 notify monitor 1',
      "1:00 notify all the organisation's monitors",
    ]);
    await missed.getByTestId('policy-step-minutes').nth(2).fill('-1');
    await expect(missed.getByTestId('policy-missed_check_in-problem')).toHaveText('Step 3: the time must be between 0 and 24 hours');
    await missed.getByTestId('policy-step-minutes').nth(2).fill('1');
    await editor.getByTestId('team-save').click();
    await expect(page.getByTestId('toast').filter({ hasText: 'Team saved' })).toBeVisible();
    await expect(row).toContainText('Own');
    await page.context().close();
  });

  await test.step("North's next alarm follows the new policy: its monitor alone is told first", async () => {
    await superadminApi.post(`/api/users/${walker.id}/force-clock-out`);
    const first = await alarmOf(walker.id);
    if (first)
      await superadminApi.post(`/api/alarms/${first.id}/resolve`, {
        data: { verdict: 'false_alarm', reason: 'no_signal', note: 'Policy change' },
      });
    await missCheckIn(walker);
    await expect
      .poll(async () => (await alarmOf(walker.id))?.history.join('\n') ?? '', { timeout: 15_000 })
      .toContain('Monitor 1, Nina North, notified by push');
    const page = await pageAs(browser, nina.state, '/admin');
    const alarmRow = page.getByTestId('alarms-panel').locator(`[data-testid="alarm-row"][data-user-id="${walker.id}"]`);
    await expect(alarmRow.getByTestId('alarm-history')).toContainText('Monitor 1, Nina North, notified by push');
    await page.context().close();
  });
});
