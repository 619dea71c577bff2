/** @jest-environment jsdom */
import { afterEach, describe, expect, it } from '@jest/globals';
import { screen, waitFor, within } from '@testing-library/react';
import { renderScreen, resetScreen, writes, type FakeRoutes } from '@lws/fe-ui/testing';
import { SsoSettingsCard } from './SsoSettingsCard';
import type { SsoSettings } from './sign-in-api';

const ROOT = { id: 1, username: 'root', name: 'Super Admin', role: 'superadmin' };
const SETTINGS: SsoSettings = {
  enabled: true,
  displayName: 'Contoso',
  issuer: 'https://login.example.com/tenant/v2.0',
  clientId: 'lws-app',
  clientSecretSet: true,
  subjectClaim: 'oid',
  emailDomains: ['contoso.com', 'contoso.co.uk'],
  passwordLogin: 'break_glass',
  jitEnabled: true,
  groupsClaim: 'groups',
  groupTeams: [{ group: 'night-shift', teamId: 3 }],
  linkByEmail: false,
  fromEnvironment: false,
  redirectUri: 'https://lws.example.com/api/auth/sso/callback',
  postLogoutRedirectUri: 'https://lws.example.com/login',
};
const TEAMS = [
  { id: 3, name: 'North', locationIds: [], monitors: [], checkInPolicy: { defaultInterval: 60, allowedIntervals: [60] }, memberCount: 0 },
  { id: 4, name: 'South', locationIds: [], monitors: [], checkInPolicy: { defaultInterval: 60, allowedIntervals: [60] }, memberCount: 0 },
];
/** What the form sends for SETTINGS untouched: the secret left out, so the stored one is kept. */
const UNCHANGED = {
  enabled: true,
  displayName: 'Contoso',
  issuer: 'https://login.example.com/tenant/v2.0',
  clientId: 'lws-app',
  subjectClaim: 'oid',
  emailDomains: ['contoso.com', 'contoso.co.uk'],
  passwordLogin: 'break_glass',
  jitEnabled: true,
  groupsClaim: 'groups',
  groupTeams: [{ group: 'night-shift', teamId: 3 }],
  linkByEmail: false,
};

afterEach(resetScreen);

function renderCard(settings: SsoSettings = SETTINGS, routes: FakeRoutes = {}) {
  const rendered = renderScreen(<SsoSettingsCard />, {
    signedInAs: ROOT,
    routes: { 'GET /api/system/sso': { body: settings }, 'GET /api/teams': { body: TEAMS }, ...routes },
  });
  return { ...rendered, form: async () => within(await screen.findByTestId('sso-form')) };
}

const input = (el: HTMLElement) => el as HTMLInputElement;

describe('SsoSettingsCard', () => {
  it('shows the saved settings and the addresses to register, never the stored secret', async () => {
    const { form } = renderCard();
    const f = await form();
    expect(input(f.getByLabelText('Name shown on the login page')).value).toBe('Contoso');
    expect(input(f.getByLabelText('Issuer URL')).value).toBe('https://login.example.com/tenant/v2.0');
    expect(input(f.getByLabelText('Client ID')).value).toBe('lws-app');
    const secret = input(f.getByLabelText('Client secret'));
    expect(secret.value).toBe('');
    expect(secret.type).toBe('password');
    expect(secret.placeholder).toBe('Stored — leave empty to keep');
    expect(input(f.getByLabelText('Subject claim')).value).toBe('oid');
    expect(input(f.getByLabelText('Allowed e-mail domains')).value).toBe('contoso.com\ncontoso.co.uk');
    expect(input(f.getByLabelText('Only the superadmin, as a break-glass account')).checked).toBe(true);
    expect(input(f.getByLabelText('Create workers on first sign-in')).checked).toBe(true);
    expect(input(f.getByLabelText('Link an existing account by e-mail on first sign-in')).checked).toBe(false);
    expect(input(f.getByLabelText('Group 1')).value).toBe('night-shift');
    await waitFor(() => expect((f.getByLabelText('Team for group 1') as HTMLSelectElement).selectedOptions[0].textContent).toBe('North'));
    expect(f.getByTestId('sso-redirect-uri').textContent).toBe('https://lws.example.com/api/auth/sso/callback');
    expect(f.getByTestId('sso-post-logout-uri').textContent).toBe('https://lws.example.com/login');
    expect(f.queryByTestId('sso-from-environment')).toBeNull();
  });

  it('saves exactly what the form shows, leaving the secret out when left empty', async () => {
    const { form, user, sent } = renderCard(SETTINGS, {
      'PUT /api/system/sso': ({ body }) => ({ body: { ...SETTINGS, ...(body as object) } }),
    });
    const f = await form();
    await user.click(f.getByRole('button', { name: 'Save sign-in settings' }));
    expect(await screen.findByText('Sign-in settings saved')).toBeTruthy();
    expect(writes(sent)).toEqual([{ method: 'PUT', path: '/api/system/sso', body: UNCHANGED }]);
  });

  it('sends a new secret, the domains as a list, and the mappings as typed', async () => {
    const { form, user, sent } = renderCard(SETTINGS, { 'PUT /api/system/sso': { body: SETTINGS } });
    const f = await form();
    await waitFor(() => expect(f.getAllByRole('option', { name: 'South' })).toHaveLength(1));
    await user.type(f.getByLabelText('Client secret'), ' s3cret ');
    await user.clear(f.getByLabelText('Allowed e-mail domains'));
    await user.type(f.getByLabelText('Allowed e-mail domains'), 'contoso.com, example.org{enter}{enter}fabrikam.com');
    await user.click(f.getByLabelText('Everyone may also use a password'));
    await user.click(f.getByLabelText('Link an existing account by e-mail on first sign-in'));
    await user.click(f.getByRole('button', { name: 'Add a mapping' }));
    await user.type(f.getByLabelText('Group 2'), ' day-shift ');
    await user.selectOptions(f.getByLabelText('Team for group 2'), 'South');
    await user.click(f.getByRole('button', { name: 'Save sign-in settings' }));
    await screen.findByText('Sign-in settings saved');
    expect(writes(sent)).toEqual([
      {
        method: 'PUT',
        path: '/api/system/sso',
        body: {
          ...UNCHANGED,
          clientSecret: 's3cret',
          emailDomains: ['contoso.com', 'example.org', 'fabrikam.com'],
          passwordLogin: 'everyone',
          linkByEmail: true,
          groupTeams: [
            { group: 'night-shift', teamId: 3 },
            { group: 'day-shift', teamId: 4 },
          ],
        },
      },
    ]);
    // Saved: the field is empty again, and says a secret is stored.
    expect(input(f.getByLabelText('Client secret')).value).toBe('');
  });

  it("shows the server's refusal on the field it names", async () => {
    const { form, user } = renderCard(SETTINGS, {
      'PUT /api/system/sso': { status: 400, body: { message: 'No such team', field: 'groupTeams.0.teamId' } },
    });
    const f = await form();
    await user.click(f.getByRole('button', { name: 'Save sign-in settings' }));
    expect((await f.findByTestId('sso-groupTeams-0-teamId-error')).textContent).toBe('No such team');
    expect(f.getByLabelText('Team for group 1').getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(f.getByLabelText('Team for group 1'));
    expect(f.queryByTestId('sso-error')).toBeNull();
  });

  it("names the issuer when the provider's discovery document cannot be read", async () => {
    const message = 'The provider could not be reached at https://login.example.com/tenant/v2.0';
    const { form, user } = renderCard(SETTINGS, { 'PUT /api/system/sso': { status: 502, body: { message, field: 'issuer' } } });
    const f = await form();
    await user.click(f.getByRole('button', { name: 'Save sign-in settings' }));
    expect((await f.findByTestId('sso-issuer-error')).textContent).toBe(message);
    expect(f.getByLabelText('Issuer URL').getAttribute('aria-invalid')).toBe('true');
  });

  it('asks for the issuer and client ID before turning single sign-on on, and sends nothing', async () => {
    const off = { ...SETTINGS, enabled: false, issuer: '', clientId: '' };
    const { form, user, sent } = renderCard(off);
    const f = await form();
    await user.click(f.getByLabelText('Single sign-on enabled'));
    await user.click(f.getByRole('button', { name: 'Save sign-in settings' }));
    expect((await f.findByTestId('sso-issuer-error')).textContent).toBe('The issuer is required to turn single sign-on on');
    expect(f.getByTestId('sso-clientId-error').textContent).toBe('The client ID is required to turn single sign-on on');
    expect(writes(sent)).toEqual([]);
  });

  it('turns read-only when saving finds the settings have moved to the environment', async () => {
    let settings = SETTINGS;
    const message = "Single sign-on is set by the server's environment (SSO_*) and can only be changed there";
    const { form, user } = renderCard(SETTINGS, {
      'GET /api/system/sso': () => ({ body: settings }),
      'PUT /api/system/sso': () => {
        settings = { ...SETTINGS, fromEnvironment: true, issuer: 'https://env.example.com' };
        return { status: 409, body: { message } };
      },
    });
    const f = await form();
    await user.click(f.getByRole('button', { name: 'Save sign-in settings' }));
    // Drawn afresh with what is in force: the notice says why nothing can be changed.
    expect(await screen.findByTestId('sso-from-environment')).toBeTruthy();
    const shown = within(screen.getByTestId('sso-form'));
    expect(input(shown.getByLabelText('Issuer URL')).value).toBe('https://env.example.com');
    expect(shown.getByLabelText('Issuer URL').matches(':disabled')).toBe(true);
  });

  it("is read-only when the settings come from the server's environment", async () => {
    const { form, user, sent } = renderCard({ ...SETTINGS, fromEnvironment: true });
    const f = await form();
    expect(f.getByTestId('sso-from-environment').textContent).toBe(
      "These settings come from the server's environment (SSO_*) and can only be changed there.",
    );
    for (const label of [
      'Single sign-on enabled',
      'Issuer URL',
      'Client ID',
      'Client secret',
      'Group 1',
      'Only the superadmin, as a break-glass account',
    ]) {
      expect(f.getByLabelText(label).matches(':disabled')).toBe(true);
    }
    const save = f.getByRole('button', { name: 'Save sign-in settings' });
    expect(save.matches(':disabled')).toBe(true);
    await user.click(save);
    expect(writes(sent)).toEqual([]);
    // The addresses to register stay readable.
    expect(f.getByTestId('sso-redirect-uri').textContent).toBe('https://lws.example.com/api/auth/sso/callback');
  });
});
