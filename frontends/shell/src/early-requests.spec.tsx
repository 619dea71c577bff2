/** @jest-environment jsdom */
import { afterEach, describe, expect, it } from '@jest/globals';
import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { AuthProvider, useAuth } from '@lws/fe-ui';
import { fakeApi, signedInHint } from '@lws/fe-ui/testing';
import { startEarlyRequests, takeEarlySessionCheck } from './early-requests';
import { loginPage } from './login/login-module';

const WORKER = { id: 7, username: 'ann', name: 'Ann Lone', role: 'worker' };
const ROUTES = {
  'GET /api/auth/me': { body: WORKER },
  'GET /config.json': { body: { remotes: { worker: '/remotes/worker/mf-manifest.json' } } },
};
let restore: () => void = () => {};
afterEach(() => {
  cleanup();
  restore();
  // biome-ignore lint/suspicious/noDocumentCookie: jsdom has no Cookie Store API.
  document.cookie = 'lws_signed_in=; Max-Age=0; Path=/';
});

function Who() {
  const { user, loading } = useAuth();
  return <p>{loading ? 'checking' : (user?.name ?? 'signed out')}</p>;
}

// The first screen's requests go out while the app's code is still downloading (on a
// phone's slow network the session check and the remotes' addresses each waited for the code).
describe('early requests', () => {
  it("asks the server nothing for a signed-out visitor on /login, but fetches the login page's code at once", async () => {
    window.history.pushState({}, '', '/login');
    const fake = fakeApi(ROUTES);
    restore = fake.restore;
    expect(loginPage.loaded()).toBeUndefined();
    startEarlyRequests();
    expect(fake.sent).toEqual([]);
    expect(takeEarlySessionCheck()).toBeUndefined();
    // The load startEarlyRequests began (the same one, not a second).
    await loginPage.load();
    expect(loginPage.loaded()?.name).toBe('LoginPage');
  });

  it("on a signed-in worker's page, asks for the session and the remotes' addresses at once, and the app reads that answer instead of asking again", async () => {
    signedInHint();
    window.history.pushState({}, '', '/worker');
    const fake = fakeApi(ROUTES);
    restore = fake.restore;
    startEarlyRequests();
    expect(fake.sent.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /api/auth/me', 'GET /config.json']);

    render(
      <MemoryRouter>
        <AuthProvider firstCheck={takeEarlySessionCheck()}>
          <Who />
        </AuthProvider>
      </MemoryRouter>,
    );
    expect(await screen.findByText('Ann Lone')).toBeTruthy();
    expect(fake.sent.filter((r) => r.path === '/api/auth/me')).toHaveLength(1);
    // Given out once: a later check asks the server afresh.
    expect(takeEarlySessionCheck()).toBeUndefined();
  });
});
