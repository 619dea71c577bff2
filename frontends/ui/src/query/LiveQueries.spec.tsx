/** @jest-environment jsdom */
import { afterEach, describe, expect, it } from '@jest/globals';
import { useQuery } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { AuthProvider, useAuth } from '../auth/AuthContext';
import { fakeApi, signedInHint } from '../testing/fake-api';
import { ToastProvider } from '../toast/ToastContext';
import { LiveQueries } from './live-queries';
import { createQueryClient } from './query-client';

let restore: () => void = () => {};
afterEach(() => {
  cleanup();
  restore();
});

/** What a screen would show of the signed-in worker: their own shift. */
function OwnShift() {
  const { user, logout } = useAuth();
  const shift = useQuery({ queryKey: ['worker-shift', user?.id], queryFn: async () => `shift of ${user?.name}`, enabled: !!user });
  return (
    <>
      <p>{user ? (shift.data ?? 'loading') : 'signed out'}</p>
      <button type="button" onClick={() => void logout()}>
        Log out
      </button>
    </>
  );
}

describe('LiveQueries', () => {
  it("empties the cache when the session ends, so the next person on the device never sees the last one's data", async () => {
    signedInHint();
    restore = fakeApi({
      'GET /api/auth/me': { body: { id: 7, username: 'ann', name: 'Ann Lone', role: 'worker' } },
      'POST /api/auth/logout': { body: {} },
    }).restore;
    const client = createQueryClient();
    render(
      <MemoryRouter>
        <ToastProvider>
          <AuthProvider>
            <LiveQueries client={client}>
              <OwnShift />
            </LiveQueries>
          </AuthProvider>
        </ToastProvider>
      </MemoryRouter>,
    );
    expect(await screen.findByText('shift of Ann Lone')).toBeTruthy();
    expect(client.getQueryData(['worker-shift', 7])).toBe('shift of Ann Lone');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Log out' }));
    expect(await screen.findByText('signed out')).toBeTruthy();
    await waitFor(() => expect(client.getQueryData(['worker-shift', 7])).toBeUndefined());
    expect(
      client
        .getQueryCache()
        .getAll()
        .filter((q) => q.state.data !== undefined),
    ).toEqual([]);
  });
});
