/** @jest-environment jsdom */
import { afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { screen, waitFor, within } from '@testing-library/react';
import { renderScreen, resetScreen, supportDialogs, writes, type FakeRoutes } from '@lws/fe-ui/testing';
import { ScimTokensCard } from './ScimTokensCard';
import type { ScimToken } from './sign-in-api';

const ROOT = { id: 1, username: 'root', name: 'Super Admin', role: 'superadmin' };
const ENTRA: ScimToken = {
  id: 5,
  name: 'Entra ID',
  prefix: 'lws_scim_ab12',
  createdAt: '2026-01-15T09:30:00Z',
  lastUsedAt: null,
  revokedAt: null,
};
const OLD: ScimToken = {
  id: 2,
  name: 'Old Okta',
  prefix: 'lws_scim_zz99',
  createdAt: '2025-06-01T12:00:00Z',
  lastUsedAt: '2025-07-01T08:15:00Z',
  revokedAt: '2025-08-01T10:00:00Z',
};

beforeAll(supportDialogs);
afterEach(resetScreen);

function renderCard(routes: FakeRoutes = {}) {
  return renderScreen(<ScimTokensCard />, {
    signedInAs: ROOT,
    routes: { 'GET /api/system/scim-tokens': { body: { tokens: [ENTRA, OLD] } }, ...routes },
  });
}

const rows = async () => (await screen.findAllByTestId('scim-token')).map((row) => row.textContent);

describe('ScimTokensCard', () => {
  it('lists the tokens by their first characters, with when each was created and last used', async () => {
    renderCard();
    expect(screen.getByTestId('scim-base-url').textContent).toBe(`SCIM base URL: ${window.location.origin}/scim/v2`);
    expect(await rows()).toEqual([
      'Entra IDlws_scim_ab12…15 Jan 2026, 09:30NeverActiveRevoke',
      'Old Oktalws_scim_zz99…01 Jun 2025, 13:0001 Jul 2025, 09:15Revoked',
    ]);
    expect(screen.getAllByRole('button', { name: /^Revoke / }).map((b) => b.getAttribute('aria-label'))).toEqual(['Revoke Entra ID']);
  });

  it('creates a token and shows its secret once', async () => {
    let listed = [ENTRA];
    const { user, sent } = renderCard({
      'GET /api/system/scim-tokens': () => ({ body: { tokens: listed } }),
      'POST /api/system/scim-tokens': ({ body }) => {
        const token = { ...ENTRA, id: 6, name: (body as { name: string }).name, prefix: 'lws_scim_cd34' };
        listed = [...listed, token];
        return { body: { token, secret: 'lws_scim_cd34_the-whole-secret' } };
      },
    });
    await rows();
    await user.click(screen.getByRole('button', { name: 'Create token' }));
    expect(screen.getByTestId('scim-token-name-error').textContent).toBe('Name the token, e.g. after the provider that uses it');
    expect(writes(sent)).toEqual([]);

    await user.type(screen.getByLabelText('Token name'), ' Okta ');
    await user.click(screen.getByRole('button', { name: 'Create token' }));
    const shown = await screen.findByTestId('scim-new-token');
    expect(within(shown).getByText('Copy this token now: it will not be shown again.')).toBeTruthy();
    expect(screen.getByTestId('scim-new-token-secret').textContent).toBe('lws_scim_cd34_the-whole-secret');
    expect(writes(sent)).toEqual([{ method: 'POST', path: '/api/system/scim-tokens', body: { name: 'Okta' } }]);
    expect((screen.getByLabelText('Token name') as HTMLInputElement).value).toBe('');
    await waitFor(async () => expect(await rows()).toHaveLength(2));

    await user.click(screen.getByRole('button', { name: 'Done' }));
    expect(screen.queryByTestId('scim-new-token')).toBeNull();
    expect(document.body.textContent).not.toContain('the-whole-secret');
  });

  it('revokes a token only once confirmed', async () => {
    const { user, sent } = renderCard({ 'DELETE /api/system/scim-tokens/5': { body: { ok: true } } });
    await rows();
    await user.click(screen.getByRole('button', { name: 'Revoke Entra ID' }));
    const dialog = screen.getByTestId('scim-revoke-dialog');
    expect(within(dialog).getByText('Revoke Entra ID?')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(writes(sent)).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Revoke Entra ID' }));
    await user.click(screen.getByTestId('scim-revoke-dialog-confirm'));
    expect(await screen.findByText('Entra ID can no longer be used.')).toBeTruthy();
    expect(writes(sent)).toEqual([{ method: 'DELETE', path: '/api/system/scim-tokens/5', body: undefined }]);
  });
});
