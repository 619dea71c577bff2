/** @jest-environment jsdom */
import { afterEach, describe, expect, it } from '@jest/globals';
import { screen, within } from '@testing-library/react';
import { renderScreen, resetScreen, writes, type FakeRoutes } from '@lws/fe-ui/testing';
import { TeamEditor } from './TeamEditor';
import { parseTeams, type PolicyStep, type Team, type VisitType } from './teams-api';

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

function renderEditor(routes: FakeRoutes = {}, team: Team = NORTH) {
  const rendered = renderScreen(
    <TeamEditor
      team={team}
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
          visitTypes: [],
        },
      },
    ]);
    expect(saved).toBe(1);
  });
});

const OWN_POLICY: { missed_check_in: PolicyStep[]; emergency: PolicyStep[] } = {
  missed_check_in: [
    { action: 'notify_monitors', after: 0 },
    { action: 'call_emergency_numbers', after: 60, unlessAcknowledged: true },
  ],
  emergency: [{ action: 'call_emergency_numbers', after: 0, unlessAcknowledged: false }],
};
const HIGH: VisitType = {
  id: 'vt-high',
  name: 'Home visit, high risk',
  minutes: 45,
  checkInInterval: 15,
  smsToo: true,
  escalationPolicy: OWN_POLICY,
};
const LOW: VisitType = { id: 'vt-low', name: 'Office visit', minutes: 25, checkInInterval: null, smsToo: false, escalationPolicy: null };
const WITH_TYPES: Team = { ...NORTH, visitTypes: [HIGH, LOW] };

/** The visit types the one PATCH sent. */
function sentTypes(sent: Parameters<typeof writes>[0]) {
  const patches = writes(sent);
  expect(patches).toHaveLength(1);
  expect(patches[0]).toMatchObject({ method: 'PATCH', path: '/api/teams/3' });
  return (patches[0].body as { visitTypes: unknown }).visitTypes;
}

describe('the visit types of a team (risk levels)', () => {
  it('reads them from the server, none when an older server sends none', () => {
    const [withTypes, without] = parseTeams([
      { ...NORTH, visitTypes: [HIGH, { ...LOW, checkInInterval: null, escalationPolicy: null }, { name: 'No length' }] },
      { ...NORTH, id: 4 },
    ]);
    expect(withTypes.visitTypes).toEqual([HIGH, LOW]);
    expect(without.visitTypes).toEqual([]);
  });

  it('adds a type with its length, check-ins and SMS reminders, sent in the save', async () => {
    const { editor, user, sent } = renderEditor({ 'PATCH /api/teams/3': { body: NORTH } });
    const section = within(editor.getByTestId('visit-types'));
    expect(section.getByTestId('visit-types-empty').textContent).toBe('No visit types: workers start a visit without one.');
    await user.click(section.getByRole('button', { name: 'Add a visit type' }));

    const type = within(section.getByTestId('visit-type'));
    await user.type(type.getByLabelText('Name'), ' Home visit, high risk ');
    expect((type.getByLabelText('Default length') as HTMLSelectElement).value).toBe('30');
    await user.selectOptions(type.getByLabelText('Default length'), '45 minutes');
    expect((type.getByLabelText('Check in every') as HTMLSelectElement).value).toBe('');
    await user.selectOptions(type.getByLabelText('Check in every'), '15 minutes');
    await user.click(type.getByRole('checkbox', { name: 'Remind by SMS too' }));
    expect((type.getByRole('radio', { name: "The team's escalation policy" }) as HTMLInputElement).checked).toBe(true);
    await user.click(editor.getByRole('button', { name: 'Save team' }));

    expect(await screen.findByText('North is saved; its next alarms follow it')).toBeTruthy();
    expect(sentTypes(sent)).toEqual([
      { name: 'Home visit, high risk', minutes: 45, checkInInterval: 15, smsToo: true, escalationPolicy: null },
    ]);
  });

  it('gives a type its own policy, edited as the team’s is', async () => {
    const { editor, user, sent } = renderEditor({ 'PATCH /api/teams/3': { body: NORTH } });
    await user.click(editor.getByTestId('add-visit-type'));
    const type = within(editor.getByTestId('visit-type'));
    await user.type(type.getByLabelText('Name'), 'Lone night visit');
    expect(type.queryByTestId('visit-type-0-policy-missed_check_in')).toBeNull();
    await user.click(type.getByRole('radio', { name: 'Its own policy' }));
    const missed = within(type.getByTestId('visit-type-0-policy-missed_check_in'));
    await user.click(missed.getByRole('button', { name: 'Remove step 1' }));
    await user.click(editor.getByRole('button', { name: 'Save team' }));

    expect(await screen.findByText('North is saved; its next alarms follow it')).toBeTruthy();
    expect(sentTypes(sent)).toEqual([
      {
        name: 'Lone night visit',
        minutes: 30,
        checkInInterval: null,
        smsToo: false,
        escalationPolicy: {
          missed_check_in: [
            { action: 'notify_monitors', after: 0 },
            { action: 'call_emergency_numbers', after: 120, unlessAcknowledged: true },
            { action: 'message_contacts', after: 'calls_done', callPrimaryContact: false, unlessAcknowledged: false },
          ],
          emergency: [
            { action: 'notify_monitors', after: 0 },
            { action: 'message_contacts', after: 0, callPrimaryContact: true, unlessAcknowledged: false },
            { action: 'call_emergency_numbers', after: 120, unlessAcknowledged: true },
          ],
        },
      },
    ]);
  });

  it("shows an existing team's types as they are saved, and sends them back unchanged", async () => {
    const { editor, user, sent } = renderEditor({ 'PATCH /api/teams/3': { body: WITH_TYPES } }, WITH_TYPES);
    const types = within(editor.getByTestId('visit-types')).getAllByTestId('visit-type');
    expect(types).toHaveLength(2);
    const [high, low] = types.map((type) => within(type));
    expect((high.getByLabelText('Name') as HTMLInputElement).value).toBe('Home visit, high risk');
    expect((high.getByLabelText('Default length') as HTMLSelectElement).value).toBe('45');
    expect((high.getByLabelText('Check in every') as HTMLSelectElement).value).toBe('15');
    expect((high.getByRole('checkbox', { name: 'Remind by SMS too' }) as HTMLInputElement).checked).toBe(true);
    expect((high.getByRole('radio', { name: 'Its own policy' }) as HTMLInputElement).checked).toBe(true);
    expect(high.getAllByTestId('policy-step')).toHaveLength(3);
    // A length set outside the editor's choices is shown, and kept.
    expect((low.getByLabelText('Default length') as HTMLSelectElement).value).toBe('25');
    expect(low.getByRole('option', { name: '25 minutes' })).toBeTruthy();
    expect((low.getByLabelText('Check in every') as HTMLSelectElement).value).toBe('');
    expect((low.getByRole('radio', { name: "The team's escalation policy" }) as HTMLInputElement).checked).toBe(true);
    expect(low.queryByTestId('policy-step')).toBeNull();

    await user.click(editor.getByRole('button', { name: 'Save team' }));
    expect(await screen.findByText('North is saved; its next alarms follow it')).toBeTruthy();
    expect(sentTypes(sent)).toEqual([HIGH, LOW]);
  });

  it('removes a type: the list is sent without it, the others keep their ids', async () => {
    const { editor, user, sent } = renderEditor({ 'PATCH /api/teams/3': { body: WITH_TYPES } }, WITH_TYPES);
    await user.click(editor.getByRole('button', { name: 'Remove visit type Home visit, high risk' }));
    expect(within(editor.getByTestId('visit-types')).getAllByTestId('visit-type')).toHaveLength(1);
    await user.click(editor.getByRole('button', { name: 'Save team' }));

    expect(await screen.findByText('North is saved; its next alarms follow it')).toBeTruthy();
    expect(sentTypes(sent)).toEqual([LOW]);
  });

  it('names a missing or repeated name under its field, and sends nothing', async () => {
    const { editor, user, sent } = renderEditor({}, WITH_TYPES);
    await user.click(editor.getByTestId('add-visit-type'));
    await user.click(editor.getByRole('button', { name: 'Save team' }));
    const third = within(within(editor.getByTestId('visit-types')).getAllByTestId('visit-type')[2]);
    expect(third.getByTestId('visit-type-name-error').textContent).toBe('Visit type name is required');
    expect(editor.getByTestId('team-error').textContent).toBe('Visit type name is required');

    await user.type(third.getByLabelText('Name'), 'office VISIT');
    await user.click(editor.getByRole('button', { name: 'Save team' }));
    expect(third.getByTestId('visit-type-name-error').textContent).toBe('Each visit type needs its own name');
    expect(editor.getAllByTestId('visit-type-name-error')).toHaveLength(1);
    expect(writes(sent)).toEqual([]);
  });

  it("shows the server's refusal under the field it names", async () => {
    const refusal = { message: 'Each visit type needs its own name', field: 'visitTypes.1.name' };
    const { editor, user } = renderEditor({ 'PATCH /api/teams/3': { status: 400, body: refusal } }, WITH_TYPES);
    await user.click(editor.getByRole('button', { name: 'Save team' }));

    const [high, low] = within(editor.getByTestId('visit-types'))
      .getAllByTestId('visit-type')
      .map((type) => within(type));
    expect((await low.findByTestId('visit-type-name-error')).textContent).toBe('Each visit type needs its own name');
    expect(high.queryByTestId('visit-type-name-error')).toBeNull();
    expect((low.getByLabelText('Name') as HTMLInputElement).getAttribute('aria-invalid')).toBe('true');
  });
});
