/** @jest-environment jsdom */
import { afterEach, describe, expect, it } from '@jest/globals';
import { screen } from '@testing-library/react';
import { renderScreen, resetScreen, type FakeRoutes } from '@lws/fe-ui/testing';
import { WorkerDashboard } from './WorkerDashboard';

const ADMIN = { id: 2, username: 'ada', name: 'Ada Min', role: 'admin' };
const SUPERADMIN = { id: 1, username: 'superadmin', name: 'Super Admin', role: 'superadmin' };

afterEach(resetScreen);

/** An organisation whose lists, as this user may see them, are all empty. */
const EMPTY: FakeRoutes = {
  'GET /api/teams': { body: [] },
  'GET /api/worker-accounts': { body: [] },
  'GET /api/workers/active': { body: [] },
  'GET /api/alarms': { body: [] },
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
