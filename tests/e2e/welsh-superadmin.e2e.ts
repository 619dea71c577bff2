import { expect, test, type APIRequestContext, type Browser } from '@playwright/test';
import { seriousViolations } from './support/axe';
import { apiSession } from './support/session';

// The superadmin chooses Welsh on their profile, and the superadmin's own tabs (teams, import, the
// test tools, dead letters) speak Welsh and pass axe in it, on a phone and on a desk. The stack is
// shared by the run's files: the superadmin is English again at the end, whatever happened.

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1366, height: 900 };

/** Each of the superadmin's own tabs, in Welsh, and the heading its panel opens with. */
const TABS: { tab: string; heading: RegExp }[] = [
  { tab: 'Timau', heading: /^Timau$/ },
  { tab: 'Mewnforio', heading: /^Mewnforio cyfrifon$/ },
  { tab: 'Mewngofnodi', heading: /^Mewngofnodi sengl$/ },
  { tab: 'Gorfodi clocio allan', heading: /^Gorfodi clocio allan/ },
  { tab: 'Ffurfweddiad y system', heading: /^Gosodiadau galwadau brys$/ },
  { tab: "Profi'r system", heading: /^Offer profi'r system$/ },
  { tab: 'Cyfrif prawf', heading: /^Dangosfwrdd y cyfrif prawf$/ },
  { tab: 'Panel profi SMS', heading: /^Panel profi nodiadau atgoffa SMS$/ },
  { tab: 'Llythyrau marw', heading: /^Llythyrau marw$/ },
];
/** The same tabs' English names, none of which may be left on screen. */
const ENGLISH = [
  'Teams',
  'Import',
  'Sign-in',
  'Force Clock Out',
  'System Config',
  'System Testing',
  'Test Account',
  'SMS Test Panel',
  'Dead Letters',
];

let superadmin: APIRequestContext;
let superadminId: number;

async function signedIn(browser: Browser, viewport: { width: number; height: number }, path: string) {
  const context = await browser.newContext({ viewport, storageState: await superadmin.storageState() });
  const page = await context.newPage();
  await page.goto(path);
  return page;
}

test.beforeAll(async ({ playwright }) => {
  superadmin = await apiSession(playwright, 'superadmin', process.env.LWS_E2E_SUPERADMIN_PASSWORD!);
  const me = await superadmin.get('/api/auth/me');
  expect(me.status(), await me.text()).toBe(200);
  superadminId = ((await me.json()) as { id: number }).id;
});

test.afterAll(async () => {
  // The other files of the run expect the superadmin's screens in English.
  const reset = await superadmin.patch(`/api/users/${superadminId}`, { data: { language: 'en' } });
  expect(reset.ok(), await reset.text()).toBe(true);
  await superadmin.dispose();
});

test('the superadmin chooses Welsh on the profile and their dashboard speaks Welsh, clean under axe at both sizes', async ({ browser }) => {
  test.setTimeout(180_000);
  const profile = await signedIn(browser, DESKTOP, '/profile');
  await profile.getByTestId('language-select').selectOption('cy');
  await expect(profile.getByRole('heading', { name: 'Iaith' })).toBeVisible();
  await expect(profile.locator('html')).toHaveAttribute('lang', 'cy');
  await profile.context().close();
  const me = await superadmin.get('/api/auth/me');
  expect(((await me.json()) as { language: string }).language).toBe('cy');

  for (const viewport of [PHONE, DESKTOP]) {
    const page = await signedIn(browser, viewport, '/superadmin');
    await expect(page.getByTestId('remote-superadmin')).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'cy');
    await expect(page.getByRole('heading', { level: 1, name: 'Dangosfwrdd yr Uwch-weinyddwr' })).toBeVisible();
    const tabNames = (await page.getByRole('tab').allInnerTexts()).map((name) => name.trim());
    expect(tabNames).toEqual(expect.arrayContaining(TABS.map((t) => t.tab)));
    for (const english of ENGLISH) expect(tabNames).not.toContain(english);

    for (const { tab, heading } of TABS) {
      const trigger = page.getByRole('tab', { name: tab, exact: true });
      await trigger.click();
      await expect(trigger).toHaveAttribute('aria-selected', 'true');
      const panel = page.getByRole('tabpanel', { name: tab, exact: true });
      await expect(panel.getByRole('heading', { name: heading }).first()).toBeVisible();
      // Nothing still loading, in either language.
      await expect(panel.getByRole('status', { name: /^(Wrthi'n llwytho|Loading)/ })).toHaveCount(0);
      const where = `${tab} ${viewport.width}`;
      expect({ where, violations: await seriousViolations(page) }).toEqual({ where, violations: [] });
    }
    await page.context().close();
  }
});
