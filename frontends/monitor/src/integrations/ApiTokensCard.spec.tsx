/** @jest-environment jsdom */
import { afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { screen, waitFor, within } from '@testing-library/react';
import { renderScreen, resetScreen, supportDialogs, writes, type FakeRoutes } from '@lws/fe-ui/testing';
import { ApiTokensCard } from './ApiTokensCard';
import type { ApiToken } from './api-tokens-api';

const ADMIN = { id: 7, username: 'ada', name: 'Ada Admin', role: 'admin' };
const ROOT = { id: 1, username: 'root', name: 'Super Admin', role: 'superadmin' };
const ARC: ApiToken = {
  id: 5,
  name: 'Northern ARC',
  prefix: 'lws_api_AbCdEf',
  last4: 'wxYZ',
  scopes: ['alarms:read', 'alarms:write'],
  createdBy: 7,
  createdByName: 'Ada Admin',
  createdAt: '2026-01-15T09:30:00Z',
  expiresAt: '2099-04-15T09:30:00Z',
  lastUsedAt: null,
  useCount: 0,
  revokedAt: null,
};
const ROTA: ApiToken = {
  ...ARC,
  id: 3,
  name: 'Rota sync',
  prefix: 'lws_api_Rr12Ss',
  last4: 'ab34',
  scopes: ['shifts:read'],
  createdBy: 9,
  createdByName: 'Bob Boss',
  createdAt: '2025-01-10T12:00:00Z',
  expiresAt: '2025-04-10T12:00:00Z',
  lastUsedAt: '2025-03-01T08:15:00Z',
  useCount: 42,
};
const OLD: ApiToken = {
  ...ARC,
  id: 2,
  name: 'Old HR',
  prefix: 'lws_api_Hh56Ii',
  last4: 'cd78',
  scopes: ['users:read'],
  createdAt: '2025-06-01T12:00:00Z',
  expiresAt: '2099-06-01T12:00:00Z',
  lastUsedAt: '2025-07-01T08:15:00Z',
  useCount: 3,
  revokedAt: '2025-08-01T10:00:00Z',
};
const SECRET = 'lws_api_Nn90Oo_the-whole-secret-Qq12';

beforeAll(supportDialogs);
afterEach(resetScreen);

function renderCard(routes: FakeRoutes = {}, signedInAs: object = ADMIN) {
  return renderScreen(<ApiTokensCard />, {
    signedInAs,
    routes: { 'GET /api/api-tokens': { body: { tokens: [ARC, ROTA, OLD] } }, ...routes },
  });
}

const rows = async () => (await screen.findAllByTestId('api-token')).map((row) => row.textContent);
const create = () => screen.getByRole('button', { name: 'Create token' });

describe('ApiTokensCard', () => {
  it('lists the tokens by their first and last characters, with their scopes, expiry, use and status', async () => {
    renderCard();
    expect(await rows()).toEqual([
      'Northern ARClws_api_AbCdEf…wxYZalarms:read alarms:write15 Jan 2026, 09:3015 Apr 2099, 10:30Never0ActiveRevoke',
      'Rota synclws_api_Rr12Ss…ab34shifts:read10 Jan 2025, 12:0010 Apr 2025, 13:00 Expired01 Mar 2025, 08:1542Expired',
      'Old HRlws_api_Hh56Ii…cd78users:read01 Jun 2025, 13:0001 Jun 2099, 13:0001 Jul 2025, 09:153Revoked',
    ]);
    expect(screen.getAllByTestId('api-token').map((row) => row.dataset.status)).toEqual(['active', 'expired', 'revoked']);
    expect(screen.getAllByTestId('api-token-expired')).toHaveLength(1);
    // Only a token that still works can be revoked.
    expect(screen.getAllByRole('button', { name: /^Revoke / }).map((b) => b.getAttribute('aria-label'))).toEqual(['Revoke Northern ARC']);
    // An admin sees only their own tokens, so who made each goes without saying.
    expect(screen.queryByRole('columnheader', { name: 'Created by' })).toBeNull();
    expect(screen.getByRole('link', { name: 'API reference' }).getAttribute('href')).toBe('/api/docs');
    expect(screen.getByRole('link', { name: 'OpenAPI document' }).getAttribute('href')).toBe('/api/openapi.json');
  });

  it('shows the superadmin who created each token', async () => {
    renderCard({}, ROOT);
    await rows();
    expect(screen.getByRole('columnheader', { name: 'Created by' })).toBeTruthy();
    expect(screen.getAllByTestId('api-token').map((row) => within(row).getAllByRole('cell')[4].textContent)).toEqual([
      'Ada Admin',
      'Bob Boss',
      'Ada Admin',
    ]);
  });

  it('creates a token and shows its secret once, never in the list', async () => {
    let listed = [ARC];
    const { user, sent } = renderCard({
      'GET /api/api-tokens': () => ({ body: { tokens: listed } }),
      'POST /api/api-tokens': ({ body }) => {
        const request = body as { name: string; scopes: string[] };
        const token = { ...ARC, id: 6, name: request.name, scopes: request.scopes, prefix: SECRET.slice(0, 14), last4: SECRET.slice(-4) };
        listed = [...listed, token];
        return { status: 201, body: { token, secret: SECRET } };
      },
    });
    await rows();
    expect((screen.getByLabelText('Expires after') as HTMLSelectElement).value).toBe('90');
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['30 days', '90 days', '180 days', '365 days']);

    await user.type(screen.getByLabelText('Token name'), ' Southern ARC ');
    await user.click(screen.getByRole('checkbox', { name: 'Read alarms and the alarm report alarms:read' }));
    await user.click(screen.getByRole('checkbox', { name: 'Acknowledge and resolve alarms alarms:write' }));
    await user.selectOptions(screen.getByLabelText('Expires after'), '30 days');
    await user.click(create());

    const shown = await screen.findByTestId('api-new-token');
    expect(within(shown).getByText('Copy this token now: it will not be shown again.')).toBeTruthy();
    expect(within(shown).getByRole('status', { name: 'New token Southern ARC' }).textContent).toBe(SECRET);
    expect(writes(sent)).toEqual([
      {
        method: 'POST',
        path: '/api/api-tokens',
        body: { name: 'Southern ARC', scopes: ['alarms:read', 'alarms:write'], expiresInDays: 30 },
      },
    ]);
    // The form is ready for the next token.
    expect((screen.getByLabelText('Token name') as HTMLInputElement).value).toBe('');
    expect(screen.getAllByRole('checkbox').filter((c) => (c as HTMLInputElement).checked)).toEqual([]);
    expect((screen.getByLabelText('Expires after') as HTMLSelectElement).value).toBe('90');

    await waitFor(async () => expect(await rows()).toHaveLength(2));
    const secretPart = SECRET.slice(14, -4);
    expect(await rows()).toEqual([expect.any(String), expect.stringContaining('Southern ARClws_api_Nn90Oo…Qq12alarms:read alarms:write')]);
    expect(screen.getAllByTestId('api-token').some((row) => row.textContent?.includes(secretPart))).toBe(false);

    await user.click(within(shown).getByRole('button', { name: 'Done' }));
    expect(screen.queryByTestId('api-new-token')).toBeNull();
    expect(document.body.textContent).not.toContain(secretPart);
  });

  it('checks the form with the gateway schema before sending: a name and at least one scope', async () => {
    const { user, sent } = renderCard();
    await rows();
    await user.click(create());
    expect(screen.getByTestId('api-token-name-error').textContent).toBe('Name the token after the system that will use it');
    expect(screen.getByTestId('api-token-scopes-error').textContent).toBe('Choose at least one scope');

    await user.type(screen.getByLabelText('Token name'), '   ');
    await user.click(create());
    expect(screen.getByTestId('api-token-name-error')).toBeTruthy();

    await user.clear(screen.getByLabelText('Token name'));
    await user.type(screen.getByLabelText('Token name'), 'ARC');
    expect(screen.queryByTestId('api-token-name-error')).toBeNull();
    await user.click(create());
    expect(screen.getByTestId('api-token-scopes-error').textContent).toBe('Choose at least one scope');
    expect(screen.getByTestId('api-token-scopes').getAttribute('aria-describedby')).toContain(
      screen.getByTestId('api-token-scopes-error').id,
    );
    expect(writes(sent)).toEqual([]);

    await user.click(screen.getByRole('checkbox', { name: /users:read$/ }));
    expect(screen.queryByTestId('api-token-scopes-error')).toBeNull();
  });

  it("shows the server's refusal of the name on the name field", async () => {
    const { user, sent } = renderCard({
      'POST /api/api-tokens': { status: 400, body: { message: 'A token of that name already exists', field: 'name' } },
    });
    await rows();
    await user.type(screen.getByLabelText('Token name'), 'Northern ARC');
    await user.click(screen.getByRole('checkbox', { name: /alarms:read$/ }));
    await user.click(create());
    expect((await screen.findByTestId('api-token-name-error')).textContent).toBe('A token of that name already exists');
    expect(screen.getByLabelText('Token name').getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(screen.getByLabelText('Token name'));
    expect(screen.queryByTestId('api-new-token')).toBeNull();
    expect(writes(sent)).toHaveLength(1);
  });

  it('revokes a token only once confirmed', async () => {
    let revoked = false;
    const { user, sent } = renderCard({
      'GET /api/api-tokens': () => ({ body: { tokens: [revoked ? { ...ARC, revokedAt: '2026-02-01T10:00:00Z' } : ARC] } }),
      'DELETE /api/api-tokens/5': () => {
        revoked = true;
        return { body: { ok: true } };
      },
    });
    await rows();
    await user.click(screen.getByRole('button', { name: 'Revoke Northern ARC' }));
    const dialog = screen.getByTestId('api-revoke-dialog');
    expect(within(dialog).getByText('Revoke Northern ARC?')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(writes(sent)).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Revoke Northern ARC' }));
    await user.click(screen.getByTestId('api-revoke-dialog-confirm'));
    expect(await screen.findByText('Northern ARC can no longer be used.')).toBeTruthy();
    expect(writes(sent)).toEqual([{ method: 'DELETE', path: '/api/api-tokens/5', body: undefined }]);
    await waitFor(() => expect(screen.getByTestId('api-token-status').textContent).toBe('Revoked'));
    expect(screen.queryByRole('button', { name: 'Revoke Northern ARC' })).toBeNull();
  });
});
