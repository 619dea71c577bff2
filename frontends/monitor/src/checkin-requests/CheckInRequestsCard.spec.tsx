/** @jest-environment jsdom */
import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import { createQueryClient, invalidateFor } from '@lws/fe-ui';
import { parseCheckInBatch } from '@lws/fe-ui/shifts';
import { fakeApi, renderScreen, resetScreen, writes, type FakeRoutes } from '@lws/fe-ui/testing';
import { WorkerDashboard } from '../accounts/WorkerDashboard';
import { CheckInRequestsCard } from './CheckInRequestsCard';
import { checkInRequestsLive, waitingWorkers } from './checkin-requests';

const ADMIN = { id: 2, username: 'ada', name: 'Ada Min', role: 'admin' };

afterEach(resetScreen);

// A winter Saturday: London keeps UTC.
const NOW = '2026-11-28T10:03:00.000Z';

const worker = (userId: number, name: string, state: string, answeredAt: string | null = null) => ({
  requestId: `r${userId}`,
  userId,
  name,
  state,
  answeredAt,
  alarmId: state === 'alarm' ? 'a1' : null,
});

const batch = (over: object = {}) => ({
  id: 'b1',
  requestedBy: 2,
  requestedByName: 'Ada Min',
  requestedAt: '2026-11-28T10:00:00.000Z',
  dueAt: '2026-11-28T10:05:00.000Z',
  teamId: 1,
  answered: 2,
  total: 3,
  workers: [
    worker(7, 'Ann Lone', 'answered', '2026-11-28T10:02:00.000Z'),
    worker(8, 'Bo Field', 'waiting'),
    worker(9, 'Cy Hill', 'answered', '2026-11-27T23:59:00.000Z'),
  ],
  ...over,
});

function renderCard(routes: FakeRoutes) {
  return renderScreen(<CheckInRequestsCard teamName={(id) => (id === 1 ? 'North' : undefined)} />, {
    signedInAs: ADMIN,
    routes: { 'GET /api/time': { body: { now: NOW } }, ...routes },
  });
}

const stateOf = (name: string) => {
  const row = screen.getAllByTestId('checkin-request-worker').find((r) => within(r).queryByText(name));
  return within(row!).getByTestId('checkin-request-state');
};

describe('CheckInRequestsCard', () => {
  it('says how many of the workers asked are safe, and where each stands', async () => {
    renderCard({
      'GET /api/check-in-requests': {
        body: [
          batch(),
          batch({
            id: 'b0',
            teamId: null,
            requestedByName: null,
            requestedAt: '2026-11-28T09:00:00.000Z',
            dueAt: '2026-11-28T09:05:00.000Z',
            answered: 0,
            total: 2,
            workers: [worker(10, 'Di Moor', 'alarm'), worker(11, 'Ed Vale', 'ended')],
          }),
        ],
      },
    });

    const [latest, older] = await screen.findAllByTestId('checkin-request');
    expect(within(latest).getByTestId('checkin-request-progress').textContent).toBe('2 of 3 safe');
    expect(within(latest).getByRole('heading').textContent).toBe('Everyone on shift in North');
    await waitFor(() => expect(within(latest).getByTestId('checkin-request-asked').textContent).toBe('Asked by Ada Min at 10:00'));
    expect(within(latest).getByTestId('checkin-request-due').textContent).toBe('Answer by 10:05');
    expect(stateOf('Ann Lone').textContent).toBe('Checked in at 10:02');
    expect(stateOf('Bo Field').textContent).toBe('Waiting');
    // Yesterday's time carries its date.
    expect(stateOf('Cy Hill').textContent).toBe('Checked in at 27 Nov 2026, 23:59');

    expect(within(older).getByTestId('checkin-request-progress').textContent).toBe('0 of 2 safe');
    expect(within(older).getByRole('heading').textContent).toBe('Di Moor');
    expect(within(older).getByTestId('checkin-request-asked').textContent).toBe('Asked by a monitor at 09:00');
    expect(stateOf('Di Moor').textContent).toBe('Alarm opened');
    expect(stateOf('Di Moor').dataset.state).toBe('alarm');
    expect(stateOf('Ed Vale').textContent).toBe('Shift ended');
  });

  it('says when nobody has been asked', async () => {
    renderCard({ 'GET /api/check-in-requests': { body: [] } });

    expect((await screen.findByTestId('checkin-requests-empty')).textContent).toBe(
      'Nobody has been asked to check in in the last 24 hours.',
    );
  });

  it('shows an error, not a crash, when the answer is not a list', async () => {
    const logged = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    renderCard({ 'GET /api/check-in-requests': { body: { batches: [] } } });

    // A malformed answer is tried again twice (1 s, then 2 s) before the screen says so.
    const error = await screen.findByTestId('checkin-requests-error', {}, { timeout: 8000 });
    expect(error.textContent).toBe('The check-in requests could not be loaded.');
    logged.mockRestore();
  });
});

describe('what refreshes the card', () => {
  const at = '2026-11-28T10:02:00.000Z';

  it('a request opening or closing, and the check-in or end of shift of a worker it waits for; nothing else', () => {
    const waiting = waitingWorkers([parseCheckInBatch(batch())!]);
    expect([...waiting]).toEqual([8]);
    const when = checkInRequestsLive(waiting).when!;
    expect(when({ type: 'checkin_request', data: { requestId: 'r9', batchId: 'b2', userId: 9, change: 'requested', at } })).toBe(true);
    expect(when({ type: 'worker', data: { userId: 8, change: 'checked_in', at } })).toBe(true);
    expect(when({ type: 'worker', data: { userId: 8, change: 'shift_ended', at } })).toBe(true);
    expect(when({ type: 'worker', data: { userId: 8, change: 'deadline_changed', at } })).toBe(false);
    // Someone already answered, or never asked.
    expect(when({ type: 'worker', data: { userId: 7, change: 'checked_in', at } })).toBe(false);
    expect(when({ type: 'worker', data: { userId: 5, change: 'checked_in', at } })).toBe(false);
  });
});

describe('the card kept current by the event stream', () => {
  it('reads the batches again for a check-in of a worker still waiting, and only then', async () => {
    const fake = fakeApi({ 'GET /api/time': { body: { now: NOW } }, 'GET /api/check-in-requests': { body: [batch()] } });
    const client = createQueryClient();
    const reads = () => fake.sent.filter((r) => r.path === '/api/check-in-requests').length;
    try {
      render(
        <QueryClientProvider client={client}>
          <CheckInRequestsCard />
        </QueryClientProvider>,
      );
      expect(await screen.findByTestId('checkin-request-progress')).toBeTruthy();
      expect(reads()).toBe(1);

      await act(() => invalidateFor(client, { type: 'worker', data: { userId: 7, change: 'checked_in', at: NOW } }));
      expect(reads()).toBe(1);
      await act(() => invalidateFor(client, { type: 'worker', data: { userId: 8, change: 'checked_in', at: NOW } }));
      expect(reads()).toBe(2);
      await act(() =>
        invalidateFor(client, { type: 'checkin_request', data: { requestId: 'r8', batchId: 'b1', userId: 8, change: 'closed', at: NOW } }),
      );
      expect(reads()).toBe(3);
    } finally {
      fake.restore();
    }
  });
});

describe('asking from the Worker Dashboard', () => {
  const onShift = (id: number, name: string, username: string) => ({
    id,
    name,
    username,
    onShift: true,
    location: 'The Prospect Building',
    shiftStartTime: '2026-11-28T08:00:00.000Z',
    latestCheckIn: null,
    nextCheckInTime: '2026-11-28T11:00:00.000Z',
  });
  const account = (id: number, name: string, username: string, teamId: number) => ({
    id,
    name,
    username,
    role: 'worker',
    teamId,
    emergencyContacts: [],
    onShift: false,
  });

  const routes = (more: FakeRoutes = {}): FakeRoutes => {
    const asked: object[] = [];
    return {
      'GET /api/teams': { body: [{ id: 1, name: 'North' }] },
      'GET /api/worker-accounts': { body: [account(7, 'Ann Lone', 'ann', 1), account(8, 'Bo Field', 'bo', 1)] },
      'GET /api/workers/active': { body: [onShift(8, 'Bo Field', 'bo')] },
      'GET /api/alarms': { body: [] },
      'GET /api/time': { body: { now: NOW } },
      'GET /api/check-in-requests': () => ({ body: asked }),
      'POST /api/check-in-requests': ({ body }) => {
        const team = (body as { teamId?: number }).teamId !== undefined;
        const made = batch({
          id: `b${asked.length + 1}`,
          teamId: team ? 1 : null,
          answered: 0,
          total: 1,
          workers: [worker(8, 'Bo Field', 'waiting')],
        });
        asked.unshift(made);
        return { status: 201, body: made };
      },
      ...more,
    };
  };

  it('asks a worker on shift, says so, and shows the request in the card', async () => {
    const { user, sent } = renderScreen(<WorkerDashboard />, { signedInAs: ADMIN, routes: routes() });

    const active = await screen.findByTestId('active-workers-table');
    expect(await screen.findByTestId('checkin-requests-empty')).toBeTruthy();
    await user.click(within(active).getByRole('button', { name: 'Ask to check in: Bo Field' }));

    expect(await screen.findByText('Bo Field has been asked to check in by 10:05.')).toBeTruthy();
    expect(writes(sent)).toEqual([{ method: 'POST', path: '/api/check-in-requests', body: { userId: 8 } }]);
    expect((await screen.findByTestId('checkin-request-progress')).textContent).toBe('0 of 1 safe');
    // Ann is off shift: nothing to ask of her, and the accounts table offers no second button.
    expect(screen.getAllByRole('button', { name: /^Ask to check in: / })).toHaveLength(1);
  });

  it('asks everyone on shift in the team the dashboard shows', async () => {
    const { user, sent } = renderScreen(<WorkerDashboard />, { signedInAs: ADMIN, routes: routes() });

    await user.click(await screen.findByRole('button', { name: 'Ask everyone on shift to check in' }));

    expect(await screen.findByText('Everyone on shift in North has been asked to check in by 10:05.')).toBeTruthy();
    expect(writes(sent)).toEqual([{ method: 'POST', path: '/api/check-in-requests', body: { teamId: 1 } }]);
    expect((await screen.findByTestId('checkin-request')).querySelector('h3')?.textContent).toBe('Everyone on shift in North');
  });

  it("shows the server's reason when it refuses", async () => {
    const logged = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const { user } = renderScreen(<WorkerDashboard />, {
      signedInAs: ADMIN,
      routes: routes({
        'POST /api/check-in-requests': { status: 409, body: { message: 'Nobody in this team is on shift', field: 'teamId' } },
      }),
    });

    await user.click(await screen.findByRole('button', { name: 'Ask everyone on shift to check in' }));

    const toast = await screen.findByTestId('toast');
    expect(within(toast).getByText('Check-in not requested')).toBeTruthy();
    expect(within(toast).getByText('Nobody in this team is on shift')).toBeTruthy();
    expect(screen.getByTestId('checkin-requests-empty')).toBeTruthy();
    logged.mockRestore();
  });
});
