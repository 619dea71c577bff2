/** @jest-environment jsdom */
import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { AuthProvider, ToastProvider, createQueryClient } from '@lws/fe-ui';
import { fakeApi, writes, type FakeRoutes } from '@lws/fe-ui/testing';
import { LoginPage } from './LoginPage';

const SIGNED_OUT: FakeRoutes = {
  'GET /api/auth/me': { status: 401, body: { message: 'Not authenticated' } },
  'GET /api/auth/sso': { body: { enabled: false, displayName: '', passwordLogin: 'everyone' } },
};
let restore: () => void = () => {};
let onCleanup: () => void = () => {};

function renderLogin(routes: FakeRoutes, path = '/login') {
  const fake = fakeApi({ ...SIGNED_OUT, ...routes });
  restore = fake.restore;
  render(
    <MemoryRouter initialEntries={[path]}>
      <ToastProvider>
        <AuthProvider>
          <QueryClientProvider client={createQueryClient()}>
            <Routes>
              <Route path="/login" element={<LoginPage />} />
              {/* As the shell's guard does: a signed-out visitor finds the login form in the page's place. */}
              <Route path="/superadmin" element={<LoginPage />} />
              <Route path="/worker" element={<p>Worker home</p>} />
            </Routes>
          </QueryClientProvider>
        </AuthProvider>
      </ToastProvider>
    </MemoryRouter>,
  );
  return fake;
}

const sso = (passwordLogin: 'everyone' | 'break_glass'): FakeRoutes => ({
  'GET /api/auth/sso': { body: { enabled: true, displayName: 'Contoso', passwordLogin } },
});

afterEach(() => {
  cleanup();
  restore();
  onCleanup();
  onCleanup = () => {};
  localStorage.clear();
});

describe('LoginPage (spec section 1: react-hook-form with the gateway schema)', () => {
  it("says which field is missing, in the gateway's words, sends nothing and puts the cursor in the first", async () => {
    const { sent } = renderLogin({});
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Log In' }));
    expect(await screen.findByText('Username is required')).toBeTruthy();
    expect(screen.getByText('Password is required')).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByLabelText('Username'));
    expect(screen.getByLabelText('Username').getAttribute('aria-invalid')).toBe('true');
    expect(writes(sent)).toEqual([]);
  });

  it('sends the username lower-cased and trimmed; a refusal is shown, the password emptied and focused', async () => {
    const { sent } = renderLogin({ 'POST /api/auth/login': { status: 401, body: { message: 'Invalid username or password' } } });
    const user = userEvent.setup();
    const username = await screen.findByLabelText('Username');
    await user.type(username, ' Ann.Lone ');
    expect((username as HTMLInputElement).value).toBe(' ann.lone ');
    await user.type(screen.getByLabelText('Password'), 'Secret1');
    await user.click(screen.getByRole('button', { name: 'Log In' }));
    expect((await screen.findByTestId('login-error')).textContent).toBe('Invalid username or password');
    expect(writes(sent)).toEqual([
      { method: 'POST', path: '/api/auth/login', body: { username: 'ann.lone', password: 'Secret1', rememberMe: false } },
    ]);
    const password = screen.getByLabelText('Password') as HTMLInputElement;
    expect(password.value).toBe('');
    expect(document.activeElement).toBe(password);
  });

  it('signs in and goes to the role\'s home; "Remember me" keeps only the username', async () => {
    const ann = { id: 7, username: 'ann', name: 'Ann Lone', role: 'worker' };
    renderLogin({ 'POST /api/auth/login': { body: ann } });
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Username'), 'ann');
    await user.type(screen.getByLabelText('Password'), 'Secret1');
    await user.click(screen.getByLabelText('Remember me'));
    await user.click(screen.getByRole('button', { name: 'Log In' }));
    expect(await screen.findByText('Worker home')).toBeTruthy();
    await waitFor(() => expect(JSON.stringify(localStorage)).toContain('ann'));
    expect(JSON.stringify(localStorage)).not.toContain('Secret1');
  });
});

describe('LoginPage: single sign-on', () => {
  it("offers the organisation's sign-in by its name above the password form, as a link to the gateway", async () => {
    renderLogin(sso('everyone'));
    const link = await screen.findByRole('link', { name: 'Sign in with Contoso' });
    expect(link.getAttribute('href')).toBe('/api/auth/sso/start');
    expect(screen.getByText('or')).toBeTruthy();
    expect(screen.getByLabelText('Username')).toBeTruthy();
    expect(link.compareDocumentPosition(screen.getByTestId('login-form')) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('where the login form stands in for a page, comes back to that page', async () => {
    renderLogin(sso('everyone'), '/superadmin?tab=teams');
    const link = await screen.findByRole('link', { name: 'Sign in with Contoso' });
    expect(link.getAttribute('href')).toBe(`/api/auth/sso/start?next=${encodeURIComponent('/superadmin?tab=teams')}`);
  });

  it('keeps the password form folded away when only the superadmin may use one, until asked for', async () => {
    const { sent } = renderLogin({
      ...sso('break_glass'),
      'POST /api/auth/login': { status: 401, body: { message: 'Invalid username or password' } },
    });
    const user = userEvent.setup();
    expect(await screen.findByRole('link', { name: 'Sign in with Contoso' })).toBeTruthy();
    await waitFor(() => expect(screen.queryByTestId('login-form')).toBeNull());
    expect(screen.queryByLabelText('Username')).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Sign in with a password (superadmin)' }));
    expect(document.activeElement).toBe(screen.getByLabelText('Username'));
    expect(screen.queryByRole('button', { name: 'Sign in with a password (superadmin)' })).toBeNull();
    await user.type(screen.getByLabelText('Username'), 'root');
    await user.type(screen.getByLabelText('Password'), 'Secret1');
    await user.click(screen.getByRole('button', { name: 'Log In' }));
    expect((await screen.findByTestId('login-error')).textContent).toBe('Invalid username or password');
    expect(sent.filter((r) => r.method === 'POST')).toHaveLength(1);
  });

  it.each([
    ['refused', "Your organisation's sign-in worked, but you have no LWS account, or it is disabled. Ask your administrator."],
    ['expired', 'That sign-in took too long or was already used. Please try again.'],
    ['failed', 'Sign-in with your organisation failed. Please try again, or ask your administrator.'],
    ['something_new', 'Sign-in with your organisation failed. Please try again, or ask your administrator.'],
  ])('says why a single sign-on came back as %s', async (code, text) => {
    renderLogin(sso('break_glass'), `/login?sso_error=${code}`);
    expect((await screen.findByTestId('login-error')).textContent).toBe(text);
    // Still there once the password form has folded away.
    await screen.findByRole('link', { name: 'Sign in with Contoso' });
    expect(screen.getByTestId('login-error').textContent).toBe(text);
  });

  it("is today's page when the offer cannot be read", async () => {
    const logged = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    onCleanup = () => logged.mockRestore();
    const { sent } = renderLogin({ 'GET /api/auth/sso': { status: 500, body: { message: 'Internal server error' } } });
    expect(await screen.findByLabelText('Username')).toBeTruthy();
    await waitFor(() => expect(sent.some((r) => r.path === '/api/auth/sso')).toBe(true));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(screen.queryByRole('link')).toBeNull();
    expect(screen.queryByTestId('login-error')).toBeNull();
    expect(screen.getByRole('button', { name: 'Log In' })).toBeTruthy();
  });
});
