/** @jest-environment jsdom */
import { afterEach, describe, expect, it } from '@jest/globals';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { AuthProvider, ToastProvider } from '@lws/fe-ui';
import { fakeApi, writes, type FakeRoutes } from '@lws/fe-ui/testing';
import { LoginPage } from './LoginPage';

const SIGNED_OUT: FakeRoutes = { 'GET /api/auth/me': { status: 401, body: { message: 'Not authenticated' } } };
let restore: () => void = () => {};

function renderLogin(routes: FakeRoutes) {
  const fake = fakeApi({ ...SIGNED_OUT, ...routes });
  restore = fake.restore;
  render(
    <MemoryRouter initialEntries={['/login']}>
      <ToastProvider>
        <AuthProvider>
          <Routes>
            <Route path="/login" element={<LoginPage />} />
            <Route path="/worker" element={<p>Worker home</p>} />
          </Routes>
        </AuthProvider>
      </ToastProvider>
    </MemoryRouter>,
  );
  return fake;
}

afterEach(() => {
  cleanup();
  restore();
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
