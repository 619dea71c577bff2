import { cleanup, render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { fakeApi, signedInHint, type FakeRoutes } from './fake-api';
import { ScreenProviders } from './providers';

let restoreFetch: (() => void) | undefined;

export interface ScreenOptions {
  /** Who the session check says is signed in (GET /api/auth/me). */
  signedInAs: object;
  /** What the fake gateway answers besides. */
  routes?: FakeRoutes;
  path?: string;
}

/**
 * Renders a screen as the shell would for someone signed in, with `fetch` answering as the gateway
 * from `routes`. Gives the requests the screen sends and a user-event session. Each test file pairs
 * it with `afterEach(resetScreen)`.
 */
export function renderScreen(ui: ReactNode, { signedInAs, routes = {}, path }: ScreenOptions) {
  signedInHint();
  restoreFetch?.();
  const fake = fakeApi({ 'GET /api/auth/me': { body: signedInAs }, ...routes });
  restoreFetch = fake.restore;
  render(<ScreenProviders path={path}>{ui}</ScreenProviders>);
  return { sent: fake.sent, user: userEvent.setup() };
}

/** Unmounts what `renderScreen` rendered and puts the real `fetch` back. */
export function resetScreen(): void {
  cleanup();
  restoreFetch?.();
  restoreFetch = undefined;
}
