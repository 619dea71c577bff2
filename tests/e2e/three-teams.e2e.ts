import { readFile } from 'node:fs/promises';
import { expect, test, type APIRequest, type APIRequestContext, type Browser, type Page } from '@playwright/test';

// A large organisation's teams end to end, on npm start's embedded stack (PGlite, the in-process bus, in-memory
// sessions): three teams; the superadmin imports 1,000 workers and the teams' admins from a CSV in
// the Import tab, after its dry run; each admin sees only their team; each alarm follows its team's
// policy; the superadmin sees every team and narrows the lists with the team switcher. Tagged
// @embedded-only: `npm test` runs it on the embedded stack alone (it leaves 1,000 workers behind).

const XHR = { 'X-Requested-With': 'XMLHttpRequest' };
const baseURL = () => process.env.LWS_E2E_URL!;
const run = Date.now().toString(36).slice(-5);
const WORKERS = 1000;
const TEAMS = [`North ${run}`, `South ${run}`, `East ${run}`];
const SITE = 'The Prospect Building';

type StorageState = Awaited<ReturnType<APIRequestContext['storageState']>>;
interface Signed {
  id: number;
  name: string;
  api: APIRequestContext;
  state: StorageState;
}

const sessions: APIRequestContext[] = [];
async function signIn(playwright: { request: APIRequest }, username: string, password: string): Promise<Signed> {
  const api = await playwright.request.newContext({ baseURL: baseURL(), extraHTTPHeaders: XHR });
  const res = await api.post('/api/auth/login', { data: { username, password } });
  expect(res.status(), await res.text()).toBe(200);
  sessions.push(api);
  const me = (await (await api.get('/api/auth/me')).json()) as { id: number; name: string };
  return { id: me.id, name: me.name, api, state: await api.storageState() };
}

async function pageAs(browser: Browser, state: StorageState, path: string): Promise<Page> {
  const page = await (await browser.newContext({ storageState: state, acceptDownloads: true })).newPage();
  await page.goto(path);
  return page;
}

test.afterAll(async () => {
  for (const s of sessions) await s.dispose();
});

test('three teams on the embedded stack: 1,000 workers imported after a dry run, each admin sees only their team, each alarm follows its team policy @embedded-only', async ({
  browser,
  playwright,
}) => {
  test.setTimeout(300_000);
  const superadmin = await signIn(playwright, 'superadmin', process.env.LWS_E2E_SUPERADMIN_PASSWORD!);
  const teamIds: number[] = [];
  for (const name of TEAMS) {
    const res = await superadmin.api.post('/api/teams', { data: { name } });
    expect(res.status(), await res.text()).toBe(201);
    teamIds.push(((await res.json()) as { id: number }).id);
  }
  // South tells its first monitor alone, then the whole organisation a minute later; North and East keep the organisation's policy.
  const southPolicy = {
    missed_check_in: [
      { action: 'notify_worker', after: 0 },
      { action: 'notify_monitor', position: 1, after: 0 },
      { action: 'notify_organisation', after: 60 },
    ],
  };
  expect((await superadmin.api.patch(`/api/teams/${teamIds[1]}`, { data: { escalationPolicy: southPolicy } })).status()).toBe(200);

  // One admin per team (the team column makes them its monitor), then 1,000 workers across the teams.
  const admins = ['Nora North', 'Sid South', 'Eve East'];
  const lines = ['username,name,phone,role,team,pin'];
  for (const [i, name] of admins.entries()) lines.push(`adm${run}${i},${name},+4479111${String(40000 + i)},admin,${TEAMS[i]},`);
  for (let i = 0; i < WORKERS; i++)
    lines.push(
      `w${run}${i},"Worker ${i}, ${TEAMS[i % 3].split(' ')[0]}",+4479111${String(20000 + i)},worker,${TEAMS[i % 3]},${String(1000 + i).slice(-4)}`,
    );
  const csv = Buffer.from(`${lines.join('\n')}\n`);
  const rows = WORKERS + admins.length;

  const credentials = new Map<string, string>();
  await test.step('the superadmin checks the file (a dry run changes nothing), confirms, and downloads the new credentials once', async () => {
    const page = await pageAs(browser, superadmin.state, '/superadmin');
    await page.getByRole('tab', { name: 'Import' }).click();
    await page.getByTestId('import-file').setInputFiles({ name: 'teams.csv', mimeType: 'text/csv', buffer: csv });
    await expect(page.getByTestId('import-summary')).toHaveText(
      `Checked teams.csv: ${rows} rows, ${rows} new, 0 updated, 0 unchanged, 0 with errors.`,
      { timeout: 60_000 },
    );
    await expect(page.getByTestId('import-table')).toContainText(`The first 200 of ${rows} rows shown`);
    // Nothing exists yet: the dry run only planned.
    const before = (await (await superadmin.api.get(`/api/teams/${teamIds[0]}/members`)).json()) as unknown[];
    expect(before).toHaveLength(0);
    await page.getByTestId('import-confirm').click();
    await page.getByTestId('import-dialog').getByRole('button', { name: 'Import' }).click();
    await expect(page.getByTestId('import-summary')).toHaveText(
      `Imported teams.csv: ${rows} rows, ${rows} new, 0 updated, 0 unchanged, 0 with errors.`,
      { timeout: 120_000 },
    );
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('import-credentials-download').click()]);
    const text = await readFile((await download.path())!, 'utf8');
    for (const line of text.trim().split('\r\n').slice(1)) {
      const [username, , password] = line.match(/("[^"]*"|[^,]+|(?<=,)(?=,|$))/g)!;
      credentials.set(username, password);
    }
    expect(credentials.size).toBe(rows);
    await page.getByTestId('import-credentials-done').click();
    await expect(page.getByTestId('import-credentials')).toHaveCount(0);

    // The same file again: every row unchanged, nothing to import.
    await page.getByTestId('import-file').setInputFiles({ name: 'teams.csv', mimeType: 'text/csv', buffer: csv });
    await expect(page.getByTestId('import-summary')).toHaveText(
      `Checked teams.csv: ${rows} rows, 0 new, 0 updated, ${rows} unchanged, 0 with errors.`,
      { timeout: 60_000 },
    );
    await expect(page.getByTestId('import-confirm')).toHaveCount(0);
    await page.context().close();
  });

  const adminOf = await Promise.all(admins.map((_, i) => signIn(playwright, `adm${run}${i}`, credentials.get(`adm${run}${i}`)!)));
  // The first worker of each team misses a check-in.
  const missing = await Promise.all([0, 1, 2].map((i) => signIn(playwright, `w${run}${i}`, credentials.get(`w${run}${i}`)!)));
  for (const worker of missing) {
    await expect
      .poll(async () => (await worker.api.post(`/api/users/${worker.id}/start-shift`, { data: { location: SITE } })).status(), {
        timeout: 30_000,
      })
      .toBe(200);
    expect((await superadmin.api.post(`/api/simulate-check-in-due/${worker.id}`)).status()).toBe(200);
  }
  const alarms = async (api: APIRequestContext) => (await (await api.get('/api/alarms')).json()) as { userId: number; history: string[] }[];
  await expect
    .poll(async () => (await alarms(superadmin.api)).filter((a) => missing.some((m) => m.id === a.userId)).length, { timeout: 30_000 })
    .toBe(3);

  await test.step("each admin sees only their own team's workers and alarm", async () => {
    for (const [i, admin] of adminOf.entries()) {
      const page = await pageAs(browser, admin.state, '/admin');
      const accountRows = page.getByTestId('account-row');
      await expect(accountRows).toHaveCount(Math.ceil((WORKERS - i) / 3), { timeout: 30_000 });
      await expect(page.getByTestId('accounts-table')).toContainText(`Worker ${i}, ${TEAMS[i].split(' ')[0]}`);
      await expect(page.getByTestId('accounts-table')).not.toContainText(`Worker ${(i + 1) % 3}, `);
      const panel = page.getByTestId('alarms-panel');
      await expect(panel.locator('[data-testid="alarm-row"]')).toHaveCount(1);
      await expect(panel.locator(`[data-testid="alarm-row"][data-user-id="${missing[i].id}"]`)).toBeVisible();
      // One team in view: no team switcher, no team column.
      await expect(page.getByTestId('team-switcher')).toHaveCount(0);
      await page.context().close();
    }
  });

  await test.step("each alarm follows its team's policy: South's tells its first monitor alone", async () => {
    const history = async (i: number) => (await alarms(superadmin.api)).find((a) => a.userId === missing[i].id)?.history.join('\n') ?? '';
    await expect.poll(() => history(1), { timeout: 30_000 }).toContain(`Monitor 1, ${admins[1]}, notified by push`);
    await expect.poll(() => history(0), { timeout: 30_000 }).toContain(`Team monitors ${admins[0]} notified by push`);
    expect(await history(1)).not.toContain('Team monitors');
  });

  await test.step('the superadmin sees every team, named on each row, and narrows the lists to one team', async () => {
    const page = await pageAs(browser, superadmin.state, '/superadmin');
    const active = page.getByTestId('active-workers-table');
    for (const [i, worker] of missing.entries()) {
      await expect(active.locator(`[data-testid="active-worker-row"][data-username="w${run}${i}"]`).getByTestId('worker-team')).toHaveText(
        TEAMS[i],
      );
      await expect(
        page.getByTestId('alarms-panel').locator(`[data-testid="alarm-row"][data-user-id="${worker.id}"]`).getByTestId('alarm-team'),
      ).toHaveText(TEAMS[i]);
    }
    await page.getByTestId('team-switcher').selectOption({ label: TEAMS[2] });
    await expect(active.getByTestId('active-worker-row')).toHaveCount(1);
    await expect(active.getByTestId('worker-team')).toHaveText(TEAMS[2]);
    // The switcher narrows the worker lists; every alarm stays in view.
    for (const worker of missing)
      await expect(page.getByTestId('alarms-panel').locator(`[data-testid="alarm-row"][data-user-id="${worker.id}"]`)).toBeVisible();
    // The activity log names each worker's team too.
    await page.getByRole('tab', { name: 'Activity Logs' }).click();
    await expect(
      page.locator(`[data-testid="activity-entry"][data-user-id="${missing[1].id}"]`).first().getByTestId('activity-team'),
    ).toHaveText(TEAMS[1]);
    await page.context().close();
  });
});
