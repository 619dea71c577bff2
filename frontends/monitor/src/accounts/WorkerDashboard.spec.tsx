/** @jest-environment jsdom */
import { afterEach, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { screen, within } from '@testing-library/react';
import { renderScreen, resetScreen, supportDialogs, writes, type FakeRoutes } from '@lws/fe-ui/testing';
import { WorkerDashboard } from './WorkerDashboard';

const ADMIN = { id: 2, username: 'ada', name: 'Ada Min', role: 'admin' };
const SUPERADMIN = { id: 1, username: 'superadmin', name: 'Super Admin', role: 'superadmin' };

beforeAll(supportDialogs);
afterEach(resetScreen);

/** An organisation whose lists, as this user may see them, are all empty. */
const EMPTY: FakeRoutes = {
  'GET /api/teams': { body: [] },
  'GET /api/worker-accounts': { body: [] },
  'GET /api/workers/active': { body: [] },
  'GET /api/alarms': { body: [] },
  'GET /api/check-in-requests': { body: [] },
  'GET /api/time': { body: { now: '2026-11-28T10:00:00.000Z' } },
};

describe('WorkerDashboard for an admin who monitors no team', () => {
  it('says they monitor no team and whom to ask, not that there are no workers', async () => {
    renderScreen(<WorkerDashboard />, { signedInAs: ADMIN, routes: EMPTY });

    expect((await screen.findByTestId('no-team-notice')).textContent).toContain('Ask your superadmin to add you as a monitor of your team');
    expect((await screen.findByTestId('active-workers-empty')).textContent).toBe(
      'No team to showYou monitor no team, so no worker on shift is shown.',
    );
    expect((await screen.findByTestId('accounts-empty')).textContent).toBe(
      'No team to showYou monitor no team, so no worker account is shown.',
    );
  });

  it('says nothing of teams to an admin of a team with nobody on shift', async () => {
    renderScreen(<WorkerDashboard />, {
      signedInAs: ADMIN,
      routes: { ...EMPTY, 'GET /api/teams': { body: [{ id: 1, name: 'Default' }] } },
    });

    expect((await screen.findByTestId('active-workers-empty')).textContent).toContain('No Active Workers');
    expect(screen.queryByTestId('no-team-notice')).toBeNull();
  });

  it('says nothing of teams to the superadmin, who sees every team', async () => {
    renderScreen(<WorkerDashboard />, { signedInAs: SUPERADMIN, routes: EMPTY });

    expect((await screen.findByTestId('accounts-empty')).textContent).toContain('Create one in the Create User tab.');
    expect(screen.queryByTestId('no-team-notice')).toBeNull();
  });
});

const account = (id: number, name: string, username: string, over: object = {}) => ({
  id,
  name,
  username,
  role: 'worker',
  teamId: 1,
  emergencyContacts: [],
  onShift: false,
  ...over,
});

describe('WorkerDashboard deactivating and reactivating accounts', () => {
  const routes = (accounts: unknown[], more: FakeRoutes = {}): FakeRoutes => ({
    ...EMPTY,
    'GET /api/teams': { body: [{ id: 1, name: 'Default' }] },
    'GET /api/worker-accounts': { body: accounts },
    ...more,
  });

  it('deactivates only once confirmed, then says so and reads the list again', async () => {
    let deactivated = false;
    const { user, sent } = renderScreen(<WorkerDashboard />, {
      signedInAs: ADMIN,
      routes: routes([], {
        'GET /api/worker-accounts': () => ({ body: [account(8, 'Bo Field', 'bo', deactivated ? { disabled: true } : {})] }),
        'POST /api/users/8/deactivate': () => {
          deactivated = true;
          return { body: { ok: true, changed: true } };
        },
      }),
    });
    const accounts = await screen.findByTestId('accounts-table');
    await user.click(within(accounts).getByRole('button', { name: 'Deactivate Bo Field' }));
    const dialog = await screen.findByTestId('deactivate-user-dialog');
    expect(dialog.textContent).toContain(
      "Deactivate Bo Field (bo)? They are signed out at once and cannot sign in until reactivated. A shift in progress ends and their team's monitors are told.",
    );
    expect(writes(sent)).toEqual([]);
    await user.click(within(dialog).getByRole('button', { name: 'Deactivate' }));
    expect(await screen.findByText('Bo Field can no longer sign in.')).toBeTruthy();
    expect(writes(sent)).toEqual([{ method: 'POST', path: '/api/users/8/deactivate', body: undefined }]);
    expect((await within(screen.getByTestId('accounts-table')).findByTestId('account-deactivated')).textContent).toBe('Deactivated');
  });

  it("shows the server's reason when deactivation is refused", async () => {
    // The screen logs the refusal for the developer; the toast is what is tested.
    const logged = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const { user } = renderScreen(<WorkerDashboard />, {
      signedInAs: ADMIN,
      routes: routes([account(8, 'Bo Field', 'bo')], {
        'POST /api/users/8/deactivate': { status: 403, body: { message: 'Access denied' } },
      }),
    });
    await user.click(within(await screen.findByTestId('accounts-table')).getByRole('button', { name: 'Deactivate Bo Field' }));
    await user.click(within(await screen.findByTestId('deactivate-user-dialog')).getByRole('button', { name: 'Deactivate' }));
    expect(await screen.findByText('Deactivation failed')).toBeTruthy();
    expect(screen.getByText('Access denied')).toBeTruthy();
    logged.mockRestore();
  });

  it('reactivates a deactivated account, which shows as such, without its own row offering either', async () => {
    const { user, sent } = renderScreen(<WorkerDashboard />, {
      signedInAs: SUPERADMIN,
      routes: routes([account(8, 'Bo Field', 'bo', { disabled: true }), account(1, 'Super Admin', 'superadmin', { role: 'superadmin' })], {
        'POST /api/users/8/reactivate': { body: { ok: true, changed: true } },
      }),
    });
    const accounts = await screen.findByTestId('accounts-table');
    const own = within(accounts)
      .getAllByTestId('account-row')
      .find((r) => r.dataset.username === 'superadmin')!;
    expect(within(own).queryByRole('button', { name: /^(Deactivate|Reactivate)/ })).toBeNull();
    expect(within(accounts).getByTestId('account-deactivated').textContent).toBe('Deactivated');
    await user.click(within(accounts).getByRole('button', { name: 'Reactivate Bo Field' }));
    expect(await screen.findByText('Bo Field can sign in again.')).toBeTruthy();
    expect(writes(sent)).toEqual([{ method: 'POST', path: '/api/users/8/reactivate', body: undefined }]);
  });
});
