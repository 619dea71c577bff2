import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { Client } from 'pg';

// The superadmin's Dead Letters tab against the real stack. What lands there never comes from an
// outage (that is retried until it heals), so the test parks a row the way the relay does when the
// bus refuses an event for good, then sees it and discards it.

const XHR = { 'X-Requested-With': 'XMLHttpRequest' };

test('the superadmin sees a parked event with its error and discards it; the log records it', async ({ browser, playwright }) => {
  const id = randomUUID();
  const db = new Client({ connectionString: process.env.LWS_E2E_DATABASE_URL });
  await db.connect();
  try {
    const envelope = {
      id,
      subject: 'locations.location.created.v1',
      occurredAt: new Date().toISOString(),
      producer: 'locations',
      data: { locationId: 9_999_001, name: 'Parked', isActive: true },
    };
    await db.query(
      `insert into locations.outbox (id, subject, payload, attempts, last_error, parked_at) values ($1, $2, $3, 3, 'message size exceeds maximum allowed', now())`,
      [id, envelope.subject, JSON.stringify(envelope)],
    );
  } finally {
    await db.end();
  }

  const api = await playwright.request.newContext({ baseURL: process.env.LWS_E2E_URL, extraHTTPHeaders: XHR });
  expect(
    (await api.post('/api/auth/login', { data: { username: 'superadmin', password: process.env.LWS_E2E_SUPERADMIN_PASSWORD } })).status(),
  ).toBe(200);
  const context = await browser.newContext({ storageState: await api.storageState() });
  const page = await context.newPage();
  await page.goto('/superadmin');
  await page.getByRole('tab', { name: 'Dead Letters' }).click();

  const card = page.getByTestId('dead-letters');
  await expect(card.getByTestId('dead-letters-count')).toContainText('1 dead letter');
  const row = card.locator(`[data-testid="dead-letter-row"][data-id="locations:${id}"]`);
  await expect(row).toContainText('locations · outbox (not published)');
  await expect(row).toContainText('locations.location.created.v1');
  await expect(row.getByTestId('dead-letter-error')).toHaveText('message size exceeds maximum allowed');

  await row.getByTestId('dead-letter-discard').click();
  await page.getByTestId('dead-letter-discard-dialog-confirm').click();
  await expect(card.getByTestId('dead-letters-empty')).toHaveText('Nothing is parked.');
  await expect(card.getByTestId('dead-letters-count')).toContainText('0 dead letters');

  const log = await api.get('/api/activity-logs');
  const entries = (await log.json()) as { details: string }[];
  expect(entries.some((e) => e.details === `Dead letter discarded: locations outbox, locations.location.created.v1, event ${id}`)).toBe(
    true,
  );
  await context.close();
  await api.dispose();
});
