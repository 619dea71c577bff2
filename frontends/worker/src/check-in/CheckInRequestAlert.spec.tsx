/** @jest-environment jsdom */
import { afterEach, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { act, screen, waitFor, within } from '@testing-library/react';
import { formatTime } from '@lws/fe-ui';
import { renderScreen, resetScreen, supportDialogs, writes, type FakeAnswer, type FakeRoutes } from '@lws/fe-ui/testing';
import { WorkerHome } from '../WorkerHome';

const ANN = { id: 7, username: 'ann', name: 'Ann Lone', role: 'worker' };
const PLACE = 'The Prospect Building';

beforeAll(supportDialogs);
afterEach(() => {
  resetScreen();
  window.localStorage.clear();
});

const inMinutes = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();

/** The request a monitor asked a minute ago, due in four. */
const asked = (requestedByName: string | null = 'Ada Min') => ({
  id: 'r1',
  requestedAt: inMinutes(-1),
  dueAt: inMinutes(4),
  requestedByName,
});

/**
 * Ann on shift, her next check-in an hour away (CHECK IN closed by the window), with `request`
 * answering GET /api/profile/check-in-request until she checks in.
 */
function routes(request: FakeAnswer, { onShift = true } = {}): FakeRoutes {
  let checkIn: { id: string; timestamp: string; location: string; nextCheckInTime: string } | null = null;
  return {
    'GET /api/users/7/with-relations': () => ({
      body: onShift
        ? {
            ...ANN,
            onShift: true,
            location: PLACE,
            shiftStartTime: inMinutes(-120),
            latestCheckIn: checkIn,
            nextCheckInTime: checkIn?.nextCheckInTime ?? inMinutes(60),
            checkInInterval: 60,
          }
        : { ...ANN, onShift: false, checkInInterval: 60 },
    }),
    'GET /api/users/7/emergency': { body: { emergency: null } },
    'GET /api/location-options': { body: [{ id: 1, name: PLACE, isActive: true }] },
    'GET /api/time': () => ({ body: { now: new Date().toISOString() } }),
    'GET /api/profile/check-in-request': () => (checkIn ? { body: { request: null } } : request),
    'POST /api/check-ins': () => {
      checkIn = { id: 'c1', timestamp: new Date().toISOString(), location: PLACE, nextCheckInTime: inMinutes(60) };
      return { status: 201, body: checkIn };
    },
  };
}

const renderHome = (answer: FakeAnswer, options?: { onShift?: boolean }) =>
  renderScreen(<WorkerHome user={ANN} />, { signedInAs: ANN, routes: routes(answer, options) });

/** Lets the answers given reach the screen. */
const settle = () => act(() => new Promise((resolve) => setTimeout(resolve, 100)));

describe('a monitor asking the worker to check in now', () => {
  it('says who asks and by when, opens CHECK IN at once, and goes once the worker has checked in', async () => {
    const request = asked();
    const { user, sent } = renderHome({ body: { request } });

    const alert = await screen.findByTestId('checkin-request-alert');
    expect(alert.getAttribute('role')).toBe('alert');
    expect(within(alert).getByText('Ada Min asks you to check in now')).toBeTruthy();
    expect(within(alert).getByTestId('checkin-request-alert-due').textContent).toBe(`Check in by ${formatTime(request.dueAt)}`);
    // Above the check-in card, which a request opens however far the deadline is.
    const card = screen.getByTestId('check-in-card');
    expect(alert.compareDocumentPosition(card) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    const button = screen.getByTestId('check-in-button') as HTMLButtonElement;
    expect(button.disabled).toBe(false);

    await user.click(button);
    await user.type(await screen.findByTestId('pin-dialog-input'), '1234');

    expect(await screen.findByText('Check-in successful')).toBeTruthy();
    expect(writes(sent)).toEqual([{ method: 'POST', path: '/api/check-ins', body: { userId: 7, location: PLACE, pin: '1234' } }]);
    expect(screen.queryByTestId('checkin-request-alert')).toBeNull();
    // Read again, it stays gone; and CHECK IN waits for its window again.
    await waitFor(() => expect(sent.filter((r) => r.path === '/api/profile/check-in-request').length).toBeGreaterThan(1));
    await settle();
    expect(screen.queryByTestId('checkin-request-alert')).toBeNull();
    expect((screen.getByTestId('check-in-button') as HTMLButtonElement).disabled).toBe(true);
  });

  it('speaks of the monitor when the request names nobody', async () => {
    renderHome({ body: { request: asked(null) } });

    const alert = await screen.findByTestId('checkin-request-alert');
    expect(within(alert).getByText('Your monitor asks you to check in now')).toBeTruthy();
  });

  it('shows nothing while no request waits', async () => {
    const { sent } = renderHome({ body: { request: null } });

    await waitFor(() => expect(sent.some((r) => r.path === '/api/profile/check-in-request')).toBe(true));
    await settle();
    expect(screen.queryByTestId('checkin-request-alert')).toBeNull();
    expect((screen.getByTestId('check-in-button') as HTMLButtonElement).disabled).toBe(true);
  });

  it.each([
    ['cannot be read', { status: 404, body: { message: 'Not found' } }],
    ['is malformed', { body: { request: { id: 'r1', dueAt: 'soon' } } }],
  ])('shows nothing, and the check-in screen as ever, when the request %s', async (_why, answer) => {
    const logged = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const { sent } = renderHome(answer);

    expect(await screen.findByTestId('check-in-card')).toBeTruthy();
    await waitFor(() => expect(sent.some((r) => r.path === '/api/profile/check-in-request')).toBe(true));
    // A malformed answer is tried again twice (1 s, then 2 s) before it counts as failed.
    await act(() => new Promise((resolve) => setTimeout(resolve, 3500)));
    expect(screen.queryByTestId('checkin-request-alert')).toBeNull();
    expect(screen.getByTestId('check-in-button')).toBeTruthy();
    logged.mockRestore();
  });

  it('does not ask off shift', async () => {
    const { sent } = renderHome({ body: { request: asked() } }, { onShift: false });

    expect(await screen.findByTestId('start-shift')).toBeTruthy();
    await settle();
    expect(sent.some((r) => r.path === '/api/profile/check-in-request')).toBe(false);
    expect(screen.queryByTestId('checkin-request-alert')).toBeNull();
  });
});
