/** @jest-environment jsdom */
import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { AuthProvider, api, useAuth } from '@lws/fe-ui';
import { EARLY_READ_FRESH_MS, takeEarlyRead, WORKER_READS, workerFirstReads } from '@lws/fe-ui/early-reads';
import { fakeApi, signedInHint } from '@lws/fe-ui/testing';
import { startEarlyRequests, takeEarlySessionCheck } from './early-requests';
import { loginPage } from './login/login-module';
import { SSO_OFFER_PATH } from './login/sso';

const WORKER = { id: 7, username: 'ann', name: 'Ann Lone', role: 'worker' };
const ROUTES = {
  'GET /api/auth/me': { body: WORKER },
  'GET /config.json': { body: { remotes: { worker: '/remotes/worker/mf-manifest.json' } } },
  'GET /api/users/7/with-relations': { body: { ...WORKER, onShift: true } },
  'GET /api/users/7/emergency': { body: { emergency: null } },
  'GET /api/location-options': { body: [] },
  'GET /api/auth/sso': { body: { enabled: true, displayName: 'Contoso', passwordLogin: 'everyone' } },
};
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
/** The API requests sent (/config.json is asked for once per page, and cached). */
const apiPaths = (sent: readonly { path: string }[]) => sent.map((r) => r.path).filter((path) => path.startsWith('/api/'));
let restore: () => void = () => {};
afterEach(() => {
  cleanup();
  restore();
  // Reads sent early and never read are not left for the next test.
  for (const path of [...workerFirstReads(WORKER.id), SSO_OFFER_PATH]) takeEarlyRead(path);
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
  it("for a signed-out visitor on /login, fetches the login page's code and asks only whether single sign-on is offered, which the page then reads", async () => {
    window.history.pushState({}, '', '/login');
    const fake = fakeApi(ROUTES);
    restore = fake.restore;
    expect(loginPage.loaded()).toBeUndefined();
    startEarlyRequests();
    expect(fake.sent.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /api/auth/sso']);
    expect(takeEarlySessionCheck()).toBeUndefined();
    // The load startEarlyRequests began (the same one, not a second).
    await loginPage.load();
    expect(loginPage.loaded()?.name).toBe('LoginPage');
    expect(await api.get(SSO_OFFER_PATH)).toMatchObject({ enabled: true });
    expect(fake.sent).toHaveLength(1);
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

  it("on /worker, sends the worker's first reads as soon as the session check names a worker, and the screen reads those answers instead of asking again", async () => {
    signedInHint();
    window.history.pushState({}, '', '/worker');
    const fake = fakeApi(ROUTES);
    restore = fake.restore;
    startEarlyRequests();
    await settle();
    const reads = workerFirstReads(WORKER.id);
    expect(reads).toEqual(['/api/users/7/with-relations', '/api/users/7/emergency', '/api/location-options']);
    expect(apiPaths(fake.sent)).toEqual(['/api/auth/me', ...reads]);

    // The screen's own reads (its hooks ask through WORKER_READS) take the answers already on the way.
    expect(await api.get(WORKER_READS.shift(WORKER.id))).toMatchObject({ onShift: true });
    expect(await api.get(WORKER_READS.emergency(WORKER.id))).toEqual({ emergency: null });
    expect(apiPaths(fake.sent)).toHaveLength(4);
    // Each is given out once: a later read asks the server afresh.
    await api.get(WORKER_READS.shift(WORKER.id));
    expect(fake.sent.filter((r) => r.path === '/api/users/7/with-relations')).toHaveLength(2);
    // The app's session check still reads the answer whole (its body was read from a copy).
    render(
      <MemoryRouter>
        <AuthProvider firstCheck={takeEarlySessionCheck()}>
          <Who />
        </AuthProvider>
      </MemoryRouter>,
    );
    expect(await screen.findByText('Ann Lone')).toBeTruthy();
  });

  it('sends no early reads for a session that is not a worker, nor off /worker', async () => {
    signedInHint();
    window.history.pushState({}, '', '/worker');
    const fake = fakeApi({ ...ROUTES, 'GET /api/auth/me': { body: { ...WORKER, role: 'admin' } } });
    restore = fake.restore;
    startEarlyRequests();
    await settle();
    expect(apiPaths(fake.sent)).toEqual(['/api/auth/me']);
    takeEarlySessionCheck();

    window.history.pushState({}, '', '/profile');
    startEarlyRequests();
    await settle();
    expect(apiPaths(fake.sent)).toEqual(['/api/auth/me', '/api/auth/me']);
    takeEarlySessionCheck();
  });

  it('an early answer older than a few seconds is not used: the screen asks afresh', async () => {
    signedInHint();
    window.history.pushState({}, '', '/worker');
    const fake = fakeApi(ROUTES);
    restore = fake.restore;
    const now = Date.now();
    const clock = jest.spyOn(Date, 'now').mockReturnValue(now);
    try {
      startEarlyRequests();
      await settle();
      expect(apiPaths(fake.sent)).toHaveLength(4);
      clock.mockReturnValue(now + EARLY_READ_FRESH_MS + 1);
      await api.get(WORKER_READS.locations());
      expect(fake.sent.filter((r) => r.path === '/api/location-options')).toHaveLength(2);
    } finally {
      clock.mockRestore();
      takeEarlySessionCheck();
    }
  });
});
