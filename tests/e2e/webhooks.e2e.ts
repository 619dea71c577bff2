import { expect, test, type APIRequestContext } from '@playwright/test';
import { Webhook } from 'standardwebhooks';
import { startReceivers } from '@lws/testing';
import { apiSession, uniqueMobile } from './support/session';

// An admin adds a control room's webhook endpoint on the Integrations tab, keeps the signing secret
// shown once, sends a test, and reads in the delivery log what the endpoint answered; the receiver
// (on 127.0.0.1) verified the signature with the standardwebhooks library.

const PASSWORD = 'Webhooks123';

let superadmin: APIRequestContext;
let admin: { id: number; username: string; api: APIRequestContext };
let receivers: Awaited<ReturnType<typeof startReceivers>>;
let teamId: number | undefined;

test.beforeAll(async ({ playwright }) => {
  receivers = await startReceivers();
  superadmin = await apiSession(playwright, 'superadmin', process.env.LWS_E2E_SUPERADMIN_PASSWORD!);
  const username = `hooks${Date.now().toString(36).slice(-5)}`;
  const res = await superadmin.post('/api/users', {
    data: { username, password: PASSWORD, name: 'Wendy Webhooks', phone: uniqueMobile(), role: 'admin' },
  });
  expect(res.status(), await res.text()).toBe(201);
  const id = ((await res.json()) as { user: { id: number } }).user.id;
  // An endpoint covers the admin's teams: give them one (earlier tests may have left them none).
  const team = await superadmin.post('/api/teams', { data: { name: `Hooks ${username}`, monitors: [{ userId: id }] } });
  expect(team.status(), await team.text()).toBe(201);
  teamId = ((await team.json()) as { id: number }).id;
  admin = { id, username, api: await apiSession(playwright, username, PASSWORD) };
});

test.afterAll(async () => {
  await admin?.api.dispose();
  if (admin) await superadmin.delete(`/api/users/${admin.id}`);
  if (teamId) await superadmin.delete(`/api/teams/${teamId}`);
  await superadmin?.dispose();
  await receivers?.close();
});

test('an admin adds a webhook endpoint, sends a test, and reads the signed delivery in its log', async ({ browser }) => {
  const context = await browser.newContext({ storageState: await admin.api.storageState() });
  const page = await context.newPage();
  await page.goto('/admin');
  await page.getByRole('tab', { name: 'Integrations', exact: true }).click();
  const card = page.getByTestId('webhooks');
  await expect(card).toBeVisible();

  await card.getByTestId('webhook-name').fill('Control room');
  await card.getByTestId('webhook-url').fill(`${receivers.base}/control`);
  await card.getByTestId('webhook-event-alarm.opened.v1').check();
  await card.getByTestId('webhook-create').click();

  const secret = (await card.getByTestId('webhook-secret-secret').textContent())?.trim() ?? '';
  expect(secret).toMatch(/^whsec_/);
  receivers.secrets.set('control', [secret]);
  await card.getByTestId('webhook-secret-done').click();
  await expect(card.getByTestId('webhook-secret')).toHaveCount(0);
  await expect(page.getByText(secret)).toHaveCount(0);

  const row = card.getByTestId('webhook-endpoint').filter({ hasText: 'Control room' });
  await row.getByTestId('webhook-endpoint-test').click();
  await expect.poll(() => receivers.accepted('control').length, { timeout: 20_000 }).toBe(1);
  const got = receivers.accepted('control')[0];
  expect(got.type).toBe('webhook.test.v1');
  expect(() => new Webhook(secret).verify(got.body, got.headers)).not.toThrow();

  // Sending a test opens the endpoint's delivery log.
  await expect(row.getByTestId('webhook-endpoint-log')).toHaveAttribute('aria-expanded', 'true');
  const log = card.getByTestId('webhook-delivery-log');
  const delivery = log.getByTestId('webhook-delivery').filter({ hasText: 'webhook.test.v1' });
  await expect(delivery.getByTestId('webhook-delivery-status')).toHaveText('Succeeded', { timeout: 20_000 });
  await delivery.getByTestId('webhook-delivery-toggle').click();
  await expect(log.getByTestId('webhook-attempt').first()).toContainText('204');
  await context.close();
});
