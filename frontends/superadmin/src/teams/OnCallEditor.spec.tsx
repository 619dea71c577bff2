/** @jest-environment jsdom */
import { afterEach, describe, expect, it } from '@jest/globals';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderScreen, resetScreen, writes, type FakeRoutes, type SentRequest } from '@lws/fe-ui/testing';
import { OnCallEditor } from './OnCallEditor';
import type { OnCallSchedule, Team } from './teams-api';
import { localInputValue } from '@lws/fe-ui';

const ROOT = { id: 1, username: 'root', name: 'Super Admin', role: 'superadmin' };
const ADMINS = [
  { id: 2, name: 'Nina North', username: 'nina' },
  { id: 3, name: 'Owen Oak', username: 'owen' },
  { id: 4, name: 'Dee Deputy', username: 'dee' },
  { id: 5, name: 'Olga Other', username: 'olga' },
];
const NORTH: Team = {
  id: 3,
  name: 'North',
  locationIds: [],
  monitors: [{ userId: 2, deputyUserId: 4 }, { userId: 3 }],
  checkInPolicy: { defaultInterval: 60, allowedIntervals: [30, 60] },
  escalationPolicy: null,
  emergencyNumbers: [],
  voiceReminder: false,
  memberCount: 0,
  version: 1,
  onCallSchedule: null,
  coverRequired: 'off',
};
const OVERRIDE_ID = '0b7c2f4e-1d2a-4c3b-9e8f-7a6b5c4d3e2f';
const ROTA: OnCallSchedule = {
  timeZone: 'Europe/London',
  layers: [
    { name: 'Days', start: '2026-12-07T08:00', rotation: 'weekly', userIds: [2, 3] },
    { name: 'Nights', start: '2026-12-07T20:00', rotation: 'daily', userIds: [4] },
  ],
  overrides: [{ id: OVERRIDE_ID, layer: 0, userId: 3, start: '2026-12-10T08:00:00.000Z', end: '2026-12-11T08:00:00.000Z' }],
};
const TIMELINE_PATH = '/api/teams/3/on-call/timeline';
const HOUR = 3_600_000;

afterEach(resetScreen);

/** Two weeks from the `from` the editor asks for: Nina then Owen on Days, Dee on Nights, and 12 hours with nobody. */
function timelineFrom(request: SentRequest) {
  const query = new URLSearchParams(request.query);
  const from = Date.parse(query.get('from') ?? '');
  const at = (hours: number) => new Date(from + hours * HOUR).toISOString();
  const slot = (userId: number, name: string, layer: number, start: number, end: number) => ({
    userId,
    name,
    layer,
    layerName: layer === 0 ? 'Days' : 'Nights',
    start: at(start),
    end: at(end),
  });
  return {
    body: {
      hasRota: true,
      timeZone: 'Europe/London',
      layers: [
        { name: 'Days', slots: [slot(2, 'Nina North', 0, 0, 12), slot(3, 'Owen Oak', 0, 12, 24)] },
        { name: 'Nights', slots: [slot(4, 'Dee Deputy', 1, 24, 36)] },
      ],
      final: [slot(2, 'Nina North', 0, 0, 12), slot(3, 'Owen Oak', 0, 12, 24), slot(4, 'Dee Deputy', 1, 24, 36)],
      gaps: [{ start: at(36), end: at(48) }],
    },
  };
}

function renderEditor(team: Team, routes: FakeRoutes = {}) {
  const rendered = renderScreen(<OnCallEditor team={team} admins={ADMINS} />, {
    signedInAs: ROOT,
    routes: { [`GET ${TIMELINE_PATH}`]: timelineFrom, ...routes },
  });
  return { ...rendered, editor: within(screen.getByTestId('on-call-editor')) };
}

const timelineReads = (sent: SentRequest[]) => sent.filter((r) => r.method === 'GET' && r.path === TIMELINE_PATH).length;

describe('the on-call rota editor', () => {
  it('turns a rota on and saves two layers, people in turn order, with restricted hours', async () => {
    const { editor, user, sent } = renderEditor(NORTH, {
      'PUT /api/teams/3/on-call-schedule': (request) => {
        const body = request.body as { schedule: Omit<OnCallSchedule, 'overrides'>; coverRequired: string };
        return { body: { ...NORTH, onCallSchedule: { ...body.schedule, overrides: [] }, coverRequired: body.coverRequired, version: 2 } };
      },
    });
    expect(editor.queryByTestId('on-call-layer')).toBeNull();
    await user.click(editor.getByTestId('on-call-enabled'));
    expect(editor.getAllByTestId('on-call-layer')).toHaveLength(1);
    expect((editor.getByTestId('on-call-zone') as HTMLInputElement).value).toBe('Europe/London');
    await user.selectOptions(editor.getByTestId('on-call-cover'), 'warn');

    const days = within(editor.getAllByTestId('on-call-layer')[0]);
    await user.clear(days.getByTestId('on-call-layer-name'));
    await user.type(days.getByTestId('on-call-layer-name'), 'Days');
    fireEvent.change(days.getByTestId('on-call-layer-start'), { target: { value: '2026-12-07T08:00' } });
    // Only the team's monitors and deputies can be chosen.
    expect(
      within(days.getByTestId('on-call-layer-person'))
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Add a person…', 'Nina North', 'Dee Deputy', 'Owen Oak']);
    await user.selectOptions(days.getByTestId('on-call-layer-person'), 'Nina North');
    await user.selectOptions(days.getByTestId('on-call-layer-person'), 'Owen Oak');
    await user.click(days.getByRole('button', { name: 'Move Owen Oak earlier' }));
    expect(days.getAllByTestId('on-call-layer-member').map((li) => li.dataset.userId)).toEqual(['3', '2']);

    await user.click(editor.getByTestId('on-call-layer-add'));
    const nights = within(editor.getAllByTestId('on-call-layer')[1]);
    await user.clear(nights.getByTestId('on-call-layer-name'));
    await user.type(nights.getByTestId('on-call-layer-name'), 'Nights');
    fireEvent.change(nights.getByTestId('on-call-layer-start'), { target: { value: '2026-12-07T20:00' } });
    await user.selectOptions(nights.getByTestId('on-call-layer-rotation'), 'custom');
    await user.type(nights.getByTestId('on-call-layer-turn-days'), '2');
    await user.selectOptions(nights.getByTestId('on-call-layer-person'), 'Dee Deputy');
    await user.click(nights.getByTestId('on-call-window-add'));
    await user.click(nights.getByRole('checkbox', { name: 'Sat' }));
    await user.click(nights.getByRole('checkbox', { name: 'Sun' }));

    await user.click(editor.getByTestId('on-call-save'));
    expect(await screen.findByText('Rota saved')).toBeTruthy();
    expect(writes(sent)).toEqual([
      {
        method: 'PUT',
        path: '/api/teams/3/on-call-schedule',
        body: {
          schedule: {
            timeZone: 'Europe/London',
            layers: [
              { name: 'Days', start: '2026-12-07T08:00', rotation: 'weekly', userIds: [3, 2] },
              {
                name: 'Nights',
                start: '2026-12-07T20:00',
                rotation: 'custom',
                turnDays: 2,
                userIds: [4],
                windows: [{ days: [1, 2, 3, 4, 5], from: '20:00', to: '08:00' }],
              },
            ],
          },
          coverRequired: 'warn',
        },
      },
    ]);
    // The saved rota is drawn as the server resolves it.
    expect(await editor.findByTestId('on-call-timeline')).toBeTruthy();
    expect(timelineReads(sent)).toBe(1);
  });

  it('turns a rota off as schedule null', async () => {
    const { editor, user, sent } = renderEditor(
      { ...NORTH, onCallSchedule: ROTA, coverRequired: 'refuse' },
      { 'PUT /api/teams/3/on-call-schedule': { body: { ...NORTH, onCallSchedule: null, coverRequired: 'refuse', version: 2 } } },
    );
    await user.click(editor.getByTestId('on-call-enabled'));
    await user.click(editor.getByTestId('on-call-save'));
    expect(await screen.findByText('North has no on-call rota now')).toBeTruthy();
    expect(writes(sent)).toEqual([
      { method: 'PUT', path: '/api/teams/3/on-call-schedule', body: { schedule: null, coverRequired: 'refuse' } },
    ]);
    expect(editor.queryByTestId('on-call-timeline')).toBeNull();
  });

  it('names a layer without people, and sends nothing', async () => {
    const { editor, user, sent } = renderEditor(NORTH);
    await user.click(editor.getByTestId('on-call-enabled'));
    await user.selectOptions(editor.getByTestId('on-call-layer-person'), 'Nina North');
    await user.click(editor.getByTestId('on-call-layer-add'));
    await user.click(editor.getByTestId('on-call-save'));
    expect(editor.getByTestId('on-call-error').textContent).toBe('Layer 2 people: A layer needs at least one person');
    // Said by the layer too, and by no other.
    expect(within(editor.getAllByTestId('on-call-layer')[1]).getByText('A layer needs at least one person')).toBeTruthy();
    expect(within(editor.getAllByTestId('on-call-layer')[0]).queryByText('A layer needs at least one person')).toBeNull();

    await user.clear(editor.getByTestId('on-call-zone'));
    await user.type(editor.getByTestId('on-call-zone'), 'Mars/Olympus');
    await user.click(editor.getByTestId('on-call-save'));
    expect(editor.getByTestId('on-call-error').textContent).toBe('Time zone: Unknown time zone, e.g. Europe/London');
    expect(writes(sent)).toEqual([]);
  });

  it("shows the server's refusal with the field it names", async () => {
    const { editor, user } = renderEditor(
      { ...NORTH, onCallSchedule: ROTA },
      {
        'PUT /api/teams/3/on-call-schedule': {
          status: 400,
          body: { message: "Everyone on the rota must be one of the team's monitors or deputies", field: 'schedule.layers.1.userIds.0' },
        },
      },
    );
    await user.click(editor.getByTestId('on-call-save'));
    expect((await editor.findByTestId('on-call-error')).textContent).toBe(
      "Layer 2 people: Everyone on the rota must be one of the team's monitors or deputies",
    );
  });

  it('draws the next two weeks: a bar per stretch, coloured per person, and the gap in the final row', async () => {
    const { editor, sent } = renderEditor({ ...NORTH, onCallSchedule: ROTA });
    const svg = await editor.findByTestId('on-call-timeline');
    expect(svg.tagName.toLowerCase()).toBe('svg');
    expect(svg.getAttribute('role')).toBe('img');
    expect(svg.getAttribute('aria-label')).toBe('On-call timeline for the next 14 days: 1 stretches with nobody on call');
    expect(svg.getAttribute('viewBox')).toMatch(/^0 0 1000 \d+$/);
    expect(svg.getAttribute('width')).toBe('100%');

    const query = new URLSearchParams(sent.find((r) => r.path === TIMELINE_PATH)?.query);
    expect(Date.parse(query.get('to') ?? '') - Date.parse(query.get('from') ?? '')).toBe(14 * 24 * HOUR);

    const slots = within(svg).getAllByTestId('on-call-slot');
    expect(slots.map((s) => [s.dataset.layer, s.dataset.userId])).toEqual([
      ['0', '2'],
      ['0', '3'],
      ['1', '4'],
      ['final', '2'],
      ['final', '3'],
      ['final', '4'],
    ]);
    // Twelve hours of two weeks, less the names' column.
    const width = Number(slots[0].getAttribute('width'));
    expect(width).toBeCloseTo((872 * 12) / (14 * 24), 3);
    expect(slots[0].getAttribute('fill')).toBe(slots[3].getAttribute('fill'));
    expect(slots[0].getAttribute('fill')).not.toBe(slots[1].getAttribute('fill'));
    expect(slots[0].querySelector('title')?.textContent).toMatch(
      /^Nina North, (Mon|Tue|Wed|Thu|Fri|Sat|Sun) \d{1,2} [A-Z][a-z]{2} \d\d:\d\d – (Mon|Tue|Wed|Thu|Fri|Sat|Sun) \d{1,2} [A-Z][a-z]{2} \d\d:\d\d$/,
    );

    const [gap] = within(svg).getAllByTestId('on-call-gap');
    expect(Number(gap.getAttribute('x'))).toBeCloseTo(120 + (872 * 36) / (14 * 24), 3);
    expect(gap.querySelector('title')?.textContent).toMatch(/^Nobody on call, /);
    // Labelled in the picture, briefly when it is narrow (twelve hours of two weeks).
    expect(within(svg).getByText('Gap')).toBeTruthy();
    // A tick for each midnight in the rota's zone after the start: 14 across 14 days (13 when they start at midnight).
    const ticks = within(svg).getAllByTestId('on-call-day').length;
    expect(ticks === 13 || ticks === 14).toBe(true);
    expect(
      within(editor.getByTestId('on-call-legend'))
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Nina North', 'Owen Oak', 'Dee Deputy']);
    expect(editor.getByTestId('on-call-gaps').textContent).toMatch(/^Nobody is on call:/);
  });

  it("fills the override form from a drag across a layer's row", async () => {
    const { editor, sent } = renderEditor({ ...NORTH, onCallSchedule: ROTA });
    const svg = await editor.findByTestId('on-call-timeline');
    const [, , height] = (svg.getAttribute('viewBox') ?? '').split(' ').slice(1).map(Number);
    // Laid out 1000 pixels wide, one pixel a unit of its viewBox.
    svg.getBoundingClientRect = () => ({
      left: 0,
      top: 0,
      width: 1000,
      height,
      right: 1000,
      bottom: height,
      x: 0,
      y: 0,
      toJSON: () => ({}),
    });
    const from = Date.parse(new URLSearchParams(sent.find((r) => r.path === TIMELINE_PATH)?.query).get('from') ?? '');
    const xAt = (hours: number) => 120 + (872 * hours) / (14 * 24);
    // The second row, Nights: 26 down, then a row of 30 and a gap of 8.
    // jsdom has no PointerEvent: a mouse event of the pointer's type carries the coordinates.
    const pointer = (type: string, hours: number) =>
      fireEvent(svg, new MouseEvent(type, { bubbles: true, clientX: xAt(hours), clientY: 26 + 38 + 15 }));
    pointer('pointerdown', 24);
    pointer('pointermove', 36);
    expect(within(svg).getByTestId('on-call-pick')).toBeTruthy();
    pointer('pointerup', 36);
    const form = within(editor.getByTestId('on-call-override-form'));
    expect((form.getByTestId('on-call-override-layer') as HTMLSelectElement).value).toBe('1');
    expect((form.getByTestId('on-call-override-from') as HTMLInputElement).value).toBe(localInputValue(from + 24 * HOUR));
    expect((form.getByTestId('on-call-override-to') as HTMLInputElement).value).toBe(localInputValue(from + 36 * HOUR));
    expect(within(svg).queryByTestId('on-call-pick')).toBeNull();
  });

  it('adds an override from the form and removes one, reading the timeline again after each', async () => {
    const added = { id: '9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a', layer: 1, userId: 2 };
    const { editor, user, sent } = renderEditor(
      { ...NORTH, onCallSchedule: ROTA },
      {
        'POST /api/teams/3/on-call/overrides': (request) => ({
          status: 201,
          body: { ...added, ...(request.body as object) },
        }),
        [`DELETE /api/teams/3/on-call/overrides/${OVERRIDE_ID}`]: { body: { ok: true } },
      },
    );
    await editor.findByTestId('on-call-timeline');
    expect(editor.getAllByTestId('on-call-override').map((li) => li.textContent)).toEqual([
      'Owen Oak covers Days, Thu 10 Dec 08:00 – Fri 11 Dec 08:00Remove',
    ]);
    const form = within(editor.getByTestId('on-call-override-form'));
    await user.selectOptions(form.getByTestId('on-call-override-layer'), '2. Nights');
    await user.selectOptions(form.getByTestId('on-call-override-person'), 'Nina North');
    fireEvent.change(form.getByTestId('on-call-override-from'), { target: { value: '2026-12-12T20:00' } });
    fireEvent.change(form.getByTestId('on-call-override-to'), { target: { value: '2026-12-12T08:00' } });
    await user.click(form.getByTestId('on-call-override-add'));
    expect(form.getByTestId('on-call-override-error').textContent).toBe('To: The end must be after the start');
    expect(writes(sent)).toEqual([]);

    fireEvent.change(form.getByTestId('on-call-override-to'), { target: { value: '2026-12-13T08:00' } });
    await user.click(form.getByTestId('on-call-override-add'));
    expect(await screen.findByText('Override added')).toBeTruthy();
    expect(writes(sent)).toEqual([
      {
        method: 'POST',
        path: '/api/teams/3/on-call/overrides',
        body: {
          layer: 1,
          userId: 2,
          start: new Date('2026-12-12T20:00').toISOString(),
          end: new Date('2026-12-13T08:00').toISOString(),
        },
      },
    ]);
    expect(editor.getAllByTestId('on-call-override')).toHaveLength(2);
    expect((form.getByTestId('on-call-override-from') as HTMLInputElement).value).toBe('');
    await waitFor(() => expect(timelineReads(sent)).toBe(2));

    const first = editor.getAllByTestId('on-call-override').find((li) => li.dataset.overrideId === OVERRIDE_ID)!;
    await user.click(within(first).getByTestId('on-call-override-remove'));
    expect(await screen.findByText('Override removed')).toBeTruthy();
    expect(writes(sent).at(-1)).toEqual({ method: 'DELETE', path: `/api/teams/3/on-call/overrides/${OVERRIDE_ID}`, body: undefined });
    expect(editor.getAllByTestId('on-call-override').map((li) => li.dataset.overrideId)).toEqual([added.id]);
    expect(timelineReads(sent)).toBeGreaterThanOrEqual(3);
  });
});
