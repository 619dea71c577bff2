import { randomInt } from 'node:crypto';
import { expect, test, type APIRequestContext, type Page, type Request } from '@playwright/test';
import { apiSession } from './support/session';

// The Locations tab of the admin and superadmin dashboards against the real stack. The default
// location is left as it is: the shift flows of other files start their shifts there.

const run = Date.now().toString(36).slice(-5);
const DEFAULT = 'The Prospect Building';

type StorageState = Awaited<ReturnType<APIRequestContext['storageState']>>;

let superadminApi: APIRequestContext;
let superadminState: StorageState;
let adminState: StorageState;

/** PINs are unique across users; issue-4 browser tests take theirs from 8xxx (see accounts.e2e.ts). */
async function createAdmin(): Promise<{ username: string; password: string }> {
  const username = `locadm${run}`;
  const password = 'Admin123';
  for (let attempt = 0; attempt < 5; attempt++) {
    const res = await superadminApi.post('/api/users', {
      data: { username, password, name: 'Lola Locations', phone: '+447911123456', role: 'admin', pinCode: String(randomInt(8000, 9000)) },
    });
    if (res.status() === 409) continue;
    expect(res.status(), await res.text()).toBe(201);
    return { username, password };
  }
  throw new Error('Could not find a free PIN');
}

function toast(page: Page, title: string) {
  return page.getByTestId('toast').filter({ has: page.locator('.lws-toast__title', { hasText: new RegExp(`^${title}$`) }) });
}

/** Every state-changing call to the locations API, to check what each action sends. */
function recordWrites(page: Page): Request[] {
  const writes: Request[] = [];
  page.on('request', (r) => {
    if (r.method() !== 'GET' && new URL(r.url()).pathname.startsWith('/api/location-options')) writes.push(r);
  });
  return writes;
}

async function openLocations(page: Page, dashboard: '/admin' | '/superadmin') {
  await page.goto(dashboard);
  await page.getByRole('tab', { name: 'Locations' }).click();
  const card = page.getByTestId('locations-card');
  await expect(card.getByRole('heading', { name: 'Location Management' })).toBeVisible();
  return card;
}

const rowOf = (page: Page, name: string) => page.locator(`[data-testid="location-row"][data-location-name="${name}"]`);

test.beforeAll(async ({ playwright }) => {
  superadminApi = await apiSession(playwright, 'superadmin', process.env.LWS_E2E_SUPERADMIN_PASSWORD!);
  superadminState = await superadminApi.storageState();
  const admin = await createAdmin();
  const adminApi = await apiSession(playwright, admin.username, admin.password);
  adminState = await adminApi.storageState();
  await adminApi.dispose();
});

test.afterAll(async () => {
  await superadminApi?.dispose();
});

test('an admin adds, toggles, renames and deletes a location, with the spec texts and toasts', async ({ browser }) => {
  test.setTimeout(120_000);
  const name = `Harbour Office ${run}`;
  const renamed = `Harbour Office North ${run}`;
  const context = await browser.newContext({ storageState: adminState });
  const page = await context.newPage();
  const writes = recordWrites(page);
  const card = await openLocations(page, '/admin');

  await expect(card.getByRole('columnheader')).toHaveText(['Name', 'Status', 'Actions']);
  await expect(rowOf(page, DEFAULT).getByRole('switch')).toBeChecked();
  await expect(rowOf(page, DEFAULT)).toContainText('Active');
  await expect(card.getByTestId('locations-note')).toContainText('location dropdown workers choose from');

  await test.step('Add is disabled until the trimmed name has a character', async () => {
    const add = card.getByRole('button', { name: 'Add', exact: true });
    await expect(add).toBeDisabled();
    await card.getByTestId('location-new-name').fill('    ');
    await expect(add).toBeDisabled();
    await card.getByTestId('location-new-name').press('Enter');
    expect(writes).toHaveLength(0);

    await card.getByTestId('location-new-name').fill(`  ${name}  `);
    await expect(add).toBeEnabled();
    await add.click();
    await expect(toast(page, 'Success')).toContainText('Location created successfully');
    await expect(rowOf(page, name)).toBeVisible();
    await expect(rowOf(page, name).getByRole('switch')).toBeChecked();
    await expect(card.getByTestId('location-new-name')).toHaveValue('');
    expect(writes.map((r) => [r.method(), r.postDataJSON()])).toEqual([['POST', { name, isActive: true }]]);
  });

  await test.step('a name already taken in another letter case is refused with the reason', async () => {
    await card.getByTestId('location-new-name').fill(name.toUpperCase());
    await card.getByRole('button', { name: 'Add', exact: true }).click();
    await expect(toast(page, 'Error')).toContainText('A location with this name already exists');
    await expect(card.getByTestId('location-row').filter({ hasText: new RegExp(name, 'i') })).toHaveCount(1);
    await card.getByTestId('location-new-name').fill('');
  });

  await test.step('the toggle sends isActive only and shows Inactive', async () => {
    writes.length = 0;
    await rowOf(page, name).getByText('Active', { exact: true }).click();
    await expect(rowOf(page, name).getByRole('switch')).not.toBeChecked();
    await expect(rowOf(page, name)).toContainText('Inactive');
    await expect(toast(page, 'Success').filter({ hasText: 'Location updated successfully' })).toBeVisible();
    expect(writes.map((r) => [r.method(), r.postDataJSON()])).toEqual([['PATCH', { isActive: false }]]);
    const listed = (await (await page.request.get('/api/location-options')).json()) as { name: string; isActive: boolean }[];
    expect(listed.find((l) => l.name === name)?.isActive).toBe(false);
  });

  await test.step('inline edit: cancel keeps the name, a blank name cannot be saved, confirm renames', async () => {
    writes.length = 0;
    await rowOf(page, name)
      .getByRole('button', { name: `Edit ${name}` })
      .click();
    const input = rowOf(page, name).getByTestId('location-edit-name');
    await expect(input).toHaveValue(name);
    await input.fill('Somewhere Else');
    await rowOf(page, name).getByRole('button', { name: 'Cancel editing' }).click();
    await expect(rowOf(page, name).getByTestId('location-name')).toHaveText(name);

    await rowOf(page, name)
      .getByRole('button', { name: `Edit ${name}` })
      .click();
    await input.fill('   ');
    await expect(rowOf(page, name).getByRole('button', { name: 'Save name' })).toBeDisabled();
    await input.press('Enter');
    expect(writes).toHaveLength(0);

    await input.fill(` ${renamed} `);
    await rowOf(page, name).getByRole('button', { name: 'Save name' }).click();
    await expect(rowOf(page, renamed).getByTestId('location-name')).toHaveText(renamed);
    await expect(rowOf(page, name)).toHaveCount(0);
    await expect(toast(page, 'Success').filter({ hasText: 'Location updated successfully' }).first()).toBeVisible();
    expect(writes.map((r) => [r.method(), r.postDataJSON()])).toEqual([['PATCH', { name: renamed }]]);
  });

  await test.step('delete asks first; cancel keeps the location, confirm removes it', async () => {
    await rowOf(page, renamed)
      .getByRole('button', { name: `Delete ${renamed}` })
      .click();
    const dialog = page.getByTestId('location-delete-dialog');
    await expect(dialog).toContainText('Are you sure you want to delete this location?');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    await expect(rowOf(page, renamed)).toBeVisible();

    await rowOf(page, renamed)
      .getByRole('button', { name: `Delete ${renamed}` })
      .click();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expect(toast(page, 'Success').filter({ hasText: 'Location deleted successfully' })).toBeVisible();
    await expect(rowOf(page, renamed)).toHaveCount(0);
    await expect(rowOf(page, DEFAULT)).toBeVisible();
  });
  await context.close();
});

test('a superadmin manages locations too; the loading, empty and error states read as the spec says', async ({ browser }) => {
  const context = await browser.newContext({ storageState: superadminState });
  const page = await context.newPage();
  const name = `Depot ${run}`;
  const card = await openLocations(page, '/superadmin');
  await card.getByTestId('location-new-name').fill(name);
  await card.getByTestId('location-new-name').press('Enter');
  await expect(toast(page, 'Success')).toContainText('Location created successfully');
  await expect(rowOf(page, name)).toBeVisible();
  const created = ((await (await page.request.get('/api/location-options')).json()) as { id: number; name: string }[]).find(
    (l) => l.name === name,
  )!;
  await superadminApi.delete(`/api/location-options/${created.id}`);

  // The shared stack keeps its locations; the states are shown by answering the list call here.
  let answer: () => Promise<{ status: number; body: string }> = async () => ({ status: 200, body: '[]' });
  await page.route('**/api/location-options', async (route) => {
    if (route.request().method() !== 'GET') return route.continue();
    const { status, body } = await answer();
    await route.fulfill({ status, contentType: 'application/json', body });
  });

  await openLocations(page, '/superadmin');
  await expect(card.getByTestId('locations-empty')).toHaveText('No locations available. Add your first location above.');

  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  answer = async () => {
    await held;
    return { status: 500, body: JSON.stringify({ message: 'Internal server error' }) };
  };
  await page.reload();
  await page.getByRole('tab', { name: 'Locations' }).click();
  await expect(card.getByTestId('locations-loading')).toContainText('Loading locations...');
  release();
  await expect(card.getByTestId('locations-error')).toHaveText('Error loading locations');

  await test.step('a failed create shows the spec error toast', async () => {
    await page.route('**/api/location-options', (route) =>
      route.request().method() === 'POST'
        ? route.fulfill({ status: 503, contentType: 'application/json', body: '{"message":"Service temporarily unavailable"}' })
        : route.fallback(),
    );
    await card.getByTestId('location-new-name').fill(`Unreachable ${run}`);
    await card.getByRole('button', { name: 'Add', exact: true }).click();
    await expect(toast(page, 'Error')).toContainText('Failed to create location. Please try again.');
  });
  await context.close();
});
