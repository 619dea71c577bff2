/** @jest-environment jsdom */
import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { act, screen, waitFor, within } from '@testing-library/react';
import { renderScreen, resetScreen, type FakeRoutes, type SentRequest } from '@lws/fe-ui/testing';
import { OnCallNowCard } from './OnCallNowCard';
import { parseOnCallNow, parseRotaTeams } from './on-call-api';

const ADMIN = { id: 7, username: 'ada', name: 'Ada Admin', role: 'admin' };
const ROOT = { id: 1, username: 'root', name: 'Super Admin', role: 'superadmin' };

const ROTA = { timeZone: 'Europe/London', layers: [{ name: 'Days', start: '2026-11-02T08:00', rotation: 'weekly', userIds: [7, 9] }] };
const team = (id: number, name: string, onCallSchedule: object | null) => ({
  id,
  name,
  locationIds: [],
  monitors: [{ userId: 7 }],
  onCallSchedule,
  coverRequired: 'off',
});
const NORTH = team(1, 'North', ROTA);
const SOUTH = team(2, 'South', null);

// A winter Saturday: London keeps UTC.
const AT = '2026-11-28T10:00:00.000Z';
const slot = (userId: number, name: string, start: string, end: string, over: object = {}) => ({
  userId,
  name,
  layer: 0,
  layerName: 'Days',
  start,
  end,
  ...over,
});
const ADA = slot(7, 'Ada Admin', '2026-11-28T08:00:00.000Z', '2026-11-28T20:00:00.000Z');
const BOB = slot(9, 'Bob Boss', '2026-11-28T20:00:00.000Z', '2026-11-29T08:00:00.000Z');
const timeline = (final: object[], gaps: object[] = []) => ({
  hasRota: true,
  timeZone: 'Europe/London',
  layers: [{ name: 'Days', slots: final }],
  final,
  gaps,
});

afterEach(resetScreen);

function renderCard(routes: FakeRoutes, signedInAs: object = ADMIN) {
  return renderScreen(<OnCallNowCard />, {
    signedInAs,
    routes: {
      'GET /api/teams': { body: [NORTH, SOUTH] },
      'GET /api/teams/1/on-call/timeline': { body: timeline([ADA, BOB]) },
      ...routes,
    },
  });
}

/** Lets the answers given reach the screen. */
const settle = () => act(() => new Promise((resolve) => setTimeout(resolve, 50)));

const onCallReads = (sent: SentRequest[]) => sent.filter((r) => r.path.includes('/on-call')).map((r) => r.path);

describe('OnCallNowCard', () => {
  it('says who is on call until when, and who takes over, for each team with a rota only', async () => {
    const { sent } = renderCard({ 'GET /api/teams/1/on-call': { body: { hasRota: true, at: AT, now: ADA, after: BOB } } });

    expect((await screen.findByTestId('on-call-now')).textContent).toBe('On call now: Ada Admin until 20:00, then Bob Boss');
    const teams = screen.getAllByTestId('on-call-team');
    expect(teams.map((t) => t.dataset.teamId)).toEqual(['1']);
    expect(within(teams[0]).getByRole('heading').textContent).toBe('North');
    expect(screen.queryByTestId('on-call-gap-now')).toBeNull();
    expect(screen.queryByTestId('on-call-via')).toBeNull();
    // South has no rota: nothing is asked of it.
    await waitFor(() =>
      expect(onCallReads(sent)).toEqual(expect.arrayContaining(['/api/teams/1/on-call', '/api/teams/1/on-call/timeline'])),
    );
    expect(onCallReads(sent).some((path) => path.startsWith('/api/teams/2/'))).toBe(false);
    // The timeline asked for is the next 48 hours.
    const asked = new URLSearchParams(sent.find((r) => r.path === '/api/teams/1/on-call/timeline')?.query);
    expect(Date.parse(asked.get('to') ?? '') - Date.parse(asked.get('from') ?? '')).toBe(48 * 3_600_000);
  });

  it('leaves out who takes over when nobody does, and writes the date of a time on another day', async () => {
    const covering = slot(9, 'Bob Boss', '2026-11-28T08:00:00.000Z', '2026-11-30T08:00:00.000Z', { via: 'deputy', forUserId: 7 });
    renderCard({
      'GET /api/teams/1/on-call': { body: { hasRota: true, at: AT, now: covering } },
      'GET /api/teams/1/on-call/timeline': { body: timeline([covering]) },
    });

    expect((await screen.findByTestId('on-call-now')).textContent).toBe('On call now: Bob Boss until 30 Nov 2026, 08:00');
    expect(screen.getByTestId('on-call-via').textContent).toBe('Deputy');
  });

  it('lists the gaps of the next 48 hours', async () => {
    renderCard({
      'GET /api/teams/1/on-call': { body: { hasRota: true, at: AT, now: ADA, after: BOB } },
      'GET /api/teams/1/on-call/timeline': {
        body: timeline(
          [ADA, slot(9, 'Bob Boss', '2026-11-28T20:00:00.000Z', '2026-11-28T23:00:00.000Z')],
          [
            { start: '2026-11-28T23:00:00.000Z', end: '2026-11-29T07:30:00.000Z' },
            { start: '2026-11-28T18:00:00.000Z', end: '2026-11-28T19:00:00.000Z' },
          ],
        ),
      },
    });

    const gaps = await screen.findByTestId('on-call-gaps');
    expect(
      within(gaps)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['No cover 18:00 – 19:00', 'No cover 23:00 – 29 Nov 2026, 07:30']);
  });

  it('warns when the team has a rota but nobody is on call now, and says who is next', async () => {
    renderCard({
      'GET /api/teams/1/on-call': { body: { hasRota: true, at: AT } },
      'GET /api/teams/1/on-call/timeline': {
        body: timeline([BOB], [{ start: AT, end: '2026-11-28T20:00:00.000Z' }]),
      },
    });

    const warning = await screen.findByTestId('on-call-gap-now');
    expect(warning.getAttribute('role')).toBe('alert');
    expect(within(warning).getByText('Nobody is on call now for North')).toBeTruthy();
    expect((await within(warning).findByTestId('on-call-next')).textContent).toBe('Next on call: Bob Boss from 20:00');
    expect(within(screen.getByTestId('on-call-gaps')).getByRole('listitem').textContent).toBe('No cover 10:00 – 20:00');
    expect(screen.queryByTestId('on-call-now')).toBeNull();
  });

  it('says when nobody is on call for the next 48 hours', async () => {
    renderCard({
      'GET /api/teams/1/on-call': { body: { hasRota: true, at: AT } },
      'GET /api/teams/1/on-call/timeline': { body: timeline([], [{ start: AT, end: '2026-11-30T10:00:00.000Z' }]) },
    });

    expect((await screen.findByTestId('on-call-next')).textContent).toBe('Nobody is on call in the next 48 hours.');
    expect(screen.getByTestId('on-call-gap-now').textContent).toContain('Nobody is on call now for North');
  });

  it('shows nothing at all when no team in view has a rota', async () => {
    const { sent } = renderCard({ 'GET /api/teams': { body: [SOUTH, team(3, 'East', null)] } }, ROOT);

    await waitFor(() => expect(sent.some((r) => r.path === '/api/teams')).toBe(true));
    await settle();
    expect(screen.queryByTestId('on-call-card')).toBeNull();
    expect(onCallReads(sent)).toEqual([]);
  });

  it('shows only the team the dashboard is narrowed to', async () => {
    renderScreen(<OnCallNowCard teamId={2} />, {
      signedInAs: ROOT,
      routes: { 'GET /api/teams': { body: [NORTH, SOUTH] } },
    });
    await settle();
    expect(screen.queryByTestId('on-call-card')).toBeNull();
  });

  it("shows an error, not a crash, when who is on call cannot be read, and keeps the other teams'", async () => {
    const logged = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    renderCard(
      {
        'GET /api/teams': { body: [NORTH, team(4, 'West', ROTA)] },
        'GET /api/teams/1/on-call': { status: 404, body: { message: 'Team not found' } },
        'GET /api/teams/4/on-call': { body: { hasRota: true, at: AT, now: ADA } },
        'GET /api/teams/4/on-call/timeline': { body: timeline([ADA]) },
      },
      ROOT,
    );

    expect((await screen.findByTestId('on-call-error')).textContent).toBe('Who is on call for North could not be loaded.');
    expect((await screen.findByTestId('on-call-now')).textContent).toBe('On call now: Ada Admin until 20:00');
    logged.mockRestore();
  });

  it('shows an error when the teams cannot be read', async () => {
    const logged = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    renderCard({ 'GET /api/teams': { status: 500, body: { message: 'Internal server error' } } });

    // A server failure is tried again twice (1 s, then 2 s) before the screen says so.
    const error = await screen.findByTestId('on-call-teams-error', {}, { timeout: 8000 });
    expect(error.textContent).toBe('The on-call rotas could not be loaded.');
    expect(screen.getByTestId('on-call-card')).toBeTruthy();
    logged.mockRestore();
  });
});

describe('on-call answers', () => {
  it('keeps only the teams whose rota is an object', () => {
    expect(parseRotaTeams([NORTH, SOUTH, { id: 5, name: 'Old' }, { id: 'x', name: 'Bad', onCallSchedule: ROTA }, null])).toEqual([
      { id: 1, name: 'North' },
    ]);
    expect(() => parseRotaTeams({ teams: [] })).toThrow();
  });

  it('drops a slot that does not say who or when, and refuses an answer without hasRota', () => {
    expect(
      parseOnCallNow({
        hasRota: true,
        at: AT,
        now: { ...ADA, end: 'soon' },
        next: { ...BOB, userId: '9' },
        after: { ...BOB, via: 'magic' },
      }),
    ).toEqual({ hasRota: true, at: AT, after: BOB });
    expect(() => parseOnCallNow({ at: AT })).toThrow();
  });
});
