/** @jest-environment jsdom */
import { afterEach, describe, expect, it } from '@jest/globals';
import { act, screen, within } from '@testing-library/react';
import { i18n, setLanguage } from '@lws/fe-ui';
import { renderScreen, resetScreen, writes, type FakeRoutes } from '@lws/fe-ui/testing';
import { policyTimeline, stepOrderProblem } from '@lws/rules';
import { cleanStep, stepsProblem, timelineLines } from './PolicyEditor';
import { TeamEditor } from './TeamEditor';
import type { PolicyStep, Team } from './teams-api';

const ARC_ID = '5f0c3e0f-6b7a-4d1e-9a8b-2c3d4e5f6a7b';

const STEPS: PolicyStep[] = [
  { action: 'notify_worker', after: 0 },
  { action: 'notify_monitor', after: 0, position: 1 },
  { action: 'notify_deputy', after: 90, position: 2 },
  { action: 'call_emergency_numbers', after: 120, unlessAcknowledged: true },
  { action: 'message_contacts', after: 'calls_done', callPrimaryContact: true },
  { action: 'notify_monitors', after: 60 },
  { action: 'notify_organisation', after: 3700 },
  { action: 'hand_off', after: 300, endpointId: ARC_ID, unlessAcknowledged: true },
];

afterEach(async () => {
  resetScreen();
  await act(() => setLanguage('en'));
});

describe("the policy editor's timeline, in the user's language", () => {
  it('says in English exactly what @lws/rules says', () => {
    expect(timelineLines(STEPS, i18n.t)).toEqual(policyTimeline(STEPS));
    const waiting: PolicyStep[] = [
      { action: 'notify_monitors', after: 0 },
      { action: 'message_contacts', after: 'calls_done' },
    ];
    expect(stepsProblem(waiting, i18n.t)).toBe(stepOrderProblem(waiting)?.message);
  });

  it('says it in Welsh once Welsh is chosen', async () => {
    await act(() => setLanguage('cy'));
    expect(timelineLines(STEPS.slice(2, 5), i18n.t)).toEqual([
      '1:30 hysbysu dirprwy monitor 2',
      "2:00 ffonio'r rhifau brys oni bai ei fod wedi'i gydnabod",
      "ar ôl y galwadau: anfon neges at y cysylltiadau mewn argyfwng a ffonio'r prif gyswllt",
    ]);
    expect(stepsProblem([], i18n.t)).toBe('Ychwanegwch o leiaf un cam');
  });
});

describe('a hand-off to a receiving centre', () => {
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
  const ENDPOINTS = [
    { id: ARC_ID, name: 'Northern ARC', enabled: true },
    { id: '6a1d4f10-7c8b-4e2f-8b9c-3d4e5f6a7b8c', name: 'Backup ARC', enabled: false },
  ];

  function renderEditor(routes: FakeRoutes) {
    const rendered = renderScreen(
      <TeamEditor
        team={NORTH}
        admins={[{ id: 2, name: 'Ada Min', username: 'ada' }]}
        workers={[]}
        locations={[]}
        onSaved={() => undefined}
      />,
      { signedInAs: ROOT, routes: { 'GET /api/teams/3/members': { body: [] }, 'PATCH /api/teams/3': { body: NORTH }, ...routes } },
    );
    return rendered;
  }

  /** Turns on the team's own policy and adds a fifth missed check-in step that hands the alarm off. */
  async function addHandOff(user: ReturnType<typeof renderEditor>['user']) {
    await user.click(screen.getByTestId('team-own-policy'));
    const policy = within(screen.getByTestId('policy-missed_check_in'));
    await user.click(policy.getByRole('button', { name: 'Add step' }));
    const action = policy.getByLabelText('Step 5 action');
    expect(within(action).getByRole('option', { name: 'hand the alarm to a receiving centre' })).toBeTruthy();
    await user.selectOptions(action, 'hand the alarm to a receiving centre');
    return policy;
  }

  it("is said with its endpoint's name, or the plain label when the endpoint is not known", () => {
    const step: PolicyStep = { action: 'hand_off', after: 300, endpointId: ARC_ID, unlessAcknowledged: true };
    expect(timelineLines([step], i18n.t, new Map([[ARC_ID, 'Northern ARC']]))).toEqual([
      '5:00 hand the alarm to Northern ARC unless acknowledged',
    ]);
    expect(timelineLines([step], i18n.t)).toEqual(policyTimeline([step]));
    expect(timelineLines([{ ...step, unlessAcknowledged: false }], i18n.t, new Map([[ARC_ID, 'Northern ARC']]))).toEqual([
      '5:00 hand the alarm to Northern ARC',
    ]);
    expect(stepsProblem([{ action: 'hand_off', after: 0 }], i18n.t)).toBe('Step 1: choose the webhook endpoint to hand the alarm to');
    // A step that was another action keeps none of its fields.
    expect(cleanStep({ action: 'hand_off', after: 60, endpointId: ARC_ID, position: 2, callPrimaryContact: true })).toEqual({
      action: 'hand_off',
      after: 60,
      endpointId: ARC_ID,
      unlessAcknowledged: true,
    });
  });

  it('is offered with the endpoints to choose from, previewed by name, and saved with its endpoint', async () => {
    const { user, sent } = renderEditor({ 'GET /api/webhooks/endpoints': { body: ENDPOINTS } });
    const policy = await addHandOff(user);

    const endpoint = await policy.findByLabelText('Step 5 webhook endpoint');
    expect(
      within(endpoint)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Choose an endpoint…', 'Northern ARC', 'Backup ARC (disabled)']);
    expect(policy.getByTestId('policy-missed_check_in-problem').textContent).toBe(
      'Step 5: choose the webhook endpoint to hand the alarm to',
    );
    await user.click(screen.getByRole('button', { name: 'Save team' }));
    expect(writes(sent)).toEqual([]);

    await user.selectOptions(endpoint, 'Northern ARC');
    expect((policy.getByRole('checkbox', { name: 'unless acknowledged' }) as HTMLInputElement).checked).toBe(true);
    const minutes = policy.getByLabelText('Step 5 minutes after the alarm opens');
    await user.clear(minutes);
    await user.type(minutes, '5');
    expect(
      within(policy.getByTestId('policy-missed_check_in-timeline'))
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([
      '0:00 notify the worker',
      "0:00 notify the team's monitors",
      '2:00 call the emergency numbers unless acknowledged',
      'after the calls: message the emergency contacts',
      '5:00 hand the alarm to Northern ARC unless acknowledged',
    ]);

    await user.click(screen.getByRole('button', { name: 'Save team' }));
    expect(await screen.findByText('North is saved; its next alarms follow it')).toBeTruthy();
    const [patch] = writes(sent);
    const policySent = (patch.body as { escalationPolicy: { missed_check_in: PolicyStep[] } }).escalationPolicy;
    expect(policySent.missed_check_in[4]).toEqual({ action: 'hand_off', after: 300, endpointId: ARC_ID, unlessAcknowledged: true });
  });

  it('cannot be saved while there is no endpoint to hand the alarm to', async () => {
    const { user, sent } = renderEditor({ 'GET /api/webhooks/endpoints': { body: [] } });
    const policy = await addHandOff(user);
    expect((await policy.findByTestId('policy-step-no-endpoints')).textContent).toBe(
      'Add a webhook endpoint on the Integrations tab first',
    );
    expect(policy.queryByLabelText('Step 5 webhook endpoint')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Save team' }));
    expect(screen.getByTestId('team-error').textContent).toBe('Step 5: choose the webhook endpoint to hand the alarm to');
    expect(writes(sent)).toEqual([]);
  });
});
