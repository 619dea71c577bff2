/** @jest-environment jsdom */
import { afterEach, describe, expect, it } from '@jest/globals';
import { screen, within } from '@testing-library/react';
import { renderScreen, resetScreen, writes, type FakeRoutes } from '@lws/fe-ui/testing';
import { TeamEditor } from './TeamEditor';
import type { Team } from './teams-api';

const ROOT = { id: 1, username: 'root', name: 'Super Admin', role: 'superadmin' };
const NORTH: Team = {
  id: 3,
  name: 'North',
  locationIds: [],
  monitors: [{ userId: 2 }],
  checkInPolicy: { defaultInterval: 60, allowedIntervals: [30, 60] },
  escalationPolicy: null,
  emergencyNumbers: [],
  voiceReminder: false,
  memberCount: 0,
  version: 1,
};
let saved = 0;

afterEach(() => {
  resetScreen();
  saved = 0;
});

function renderEditor(routes: FakeRoutes = {}) {
  const rendered = renderScreen(
    <TeamEditor
      team={NORTH}
      admins={[{ id: 2, name: 'Ada Min', username: 'ada' }]}
      workers={[]}
      locations={[]}
      onSaved={() => (saved += 1)}
    />,
    { signedInAs: ROOT, routes: { 'GET /api/teams/3/members': { body: [] }, ...routes } },
  );
  return { ...rendered, editor: within(screen.getByTestId('team-editor')) };
}

describe('TeamEditor (checked with the gateway schema before it sends)', () => {
  it('names a missing team name and a number that is not a phone number, and sends nothing', async () => {
    const { editor, user, sent } = renderEditor();
    await user.clear(editor.getByLabelText('Team name'));
    await user.click(editor.getByRole('button', { name: 'Save team' }));
    expect(editor.getByTestId('team-error').textContent).toBe('Team name is required');
    expect(editor.getAllByText('Team name is required')).toHaveLength(2);

    await user.type(editor.getByLabelText('Team name'), 'North');
    await user.type(editor.getByTestId('team-numbers'), 'call the office');
    await user.click(editor.getByRole('button', { name: 'Save team' }));
    expect(editor.getByTestId('team-error').textContent).toBe('Emergency numbers must be phone numbers, e.g. +447700900123');
    expect(writes(sent)).toEqual([]);
  });

  it('saves the trimmed name and one number per line', async () => {
    const { editor, user, sent } = renderEditor({ 'PATCH /api/teams/3': { body: NORTH } });
    await user.type(editor.getByLabelText('Team name'), ' East ');
    await user.type(editor.getByTestId('team-numbers'), '+44 7700 900123{enter}0161 496 0000');
    await user.click(editor.getByRole('button', { name: 'Save team' }));
    expect(await screen.findByText('North East is saved; its next alarms follow it')).toBeTruthy();
    expect(writes(sent)).toEqual([
      {
        method: 'PATCH',
        path: '/api/teams/3',
        body: {
          name: 'North East',
          locationIds: [],
          monitors: [{ userId: 2 }],
          checkInPolicy: { defaultInterval: 60, allowedIntervals: [30, 60] },
          emergencyNumbers: ['+44 7700 900123', '0161 496 0000'],
          voiceReminder: false,
          escalationPolicy: null,
        },
      },
    ]);
    expect(saved).toBe(1);
  });
});
