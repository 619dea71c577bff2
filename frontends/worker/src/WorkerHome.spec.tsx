/** @jest-environment jsdom */
import { afterEach, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { act, screen, waitFor, within } from '@testing-library/react';
import { renderScreen, resetScreen, supportDialogs, writes, type FakeAnswer, type FakeRoutes } from '@lws/fe-ui/testing';
import { WorkerHome } from './WorkerHome';
import { coverTime } from './shift/CoverWarningAlert';

const ANN = { id: 7, username: 'ann', name: 'Ann Lone', role: 'worker' };
const PLACE = 'The Prospect Building';
const REFUSED = 'Nobody is on call for your team from 14:00: your shift cannot start. Call your manager.';

beforeAll(supportDialogs);
afterEach(() => {
  resetScreen();
  window.localStorage.clear();
});

const inHours = (hours: number) => new Date(Date.now() + hours * 3_600_000).toISOString();

/** The worker as the server answers once on shift. */
const onShift = () => ({
  ...ANN,
  onShift: true,
  location: PLACE,
  shiftStartTime: inHours(0),
  latestCheckIn: null,
  nextCheckInTime: inHours(1),
  checkInInterval: 60,
});

/** The worker's record, off shift until the server has started the shift: each start is answered in turn. */
function routes(startAnswers: FakeAnswer[]): FakeRoutes {
  let started = false;
  let starts = 0;
  return {
    'GET /api/users/7/with-relations': () => ({ body: started ? onShift() : { ...ANN, onShift: false, checkInInterval: 60 } }),
    'GET /api/users/7/emergency': { body: { emergency: null } },
    'GET /api/profile/check-in-request': { body: { request: null } },
    'GET /api/profile/alarm-messages': { body: { thread: null } },
    'GET /api/location-options': { body: [{ id: 1, name: PLACE, isActive: true }] },
    'GET /api/time': () => ({ body: { now: new Date().toISOString() } }),
    'POST /api/users/7/start-shift': () => {
      const answer = startAnswers[Math.min(starts++, startAnswers.length - 1)];
      if ((answer.status ?? 200) < 300) started = true;
      return answer;
    },
  };
}

async function startShift(...answers: FakeAnswer[]) {
  const screenUsed = renderScreen(<WorkerHome user={ANN} />, { signedInAs: ANN, routes: routes(answers) });
  await waitFor(() => expect((screen.getByTestId('location-select') as HTMLSelectElement).value).toBe(PLACE));
  await screenUsed.user.click(screen.getByTestId('start-shift'));
  return screenUsed;
}

/** Lets the screen's reading again after the start (SHIFT_SETTLE_MS) run. */
const settle = () => act(() => new Promise((resolve) => setTimeout(resolve, 400)));

describe('starting a shift while nobody is on call for part of it', () => {
  it('warns the worker when the team only warns, until they dismiss it', async () => {
    const gapStart = inHours(2);
    const gapEnd = inHours(4);
    const { user, sent } = await startShift({ body: { ...onShift(), coverWarning: { gapStart, gapEnd } } });

    const warning = await screen.findByTestId('cover-warning');
    const today = new Date();
    expect(within(warning).getByText(/^Nobody is on call for your team/).textContent).toBe(
      `Nobody is on call for your team from ${coverTime(gapStart, today)} to ${coverTime(gapEnd, today)}. If something happens then, press the emergency button: your emergency contacts and the emergency numbers are still called.`,
    );
    expect(warning.getAttribute('role')).toBe('alert');
    expect(screen.getByTestId('shift-badge').textContent).toBe('On Shift');
    expect(writes(sent)).toEqual([{ method: 'POST', path: '/api/users/7/start-shift', body: { location: PLACE } }]);

    // The worker's record read again after the start says nothing of cover: the warning stays.
    await settle();
    expect(sent.filter((r) => r.path === '/api/users/7/with-relations').length).toBeGreaterThan(1);
    expect(screen.getByTestId('cover-warning')).toBeTruthy();

    await user.click(within(warning).getByRole('button', { name: 'OK' }));
    expect(screen.queryByTestId('cover-warning')).toBeNull();
  });

  it('says nothing of cover after a start answered without a warning', async () => {
    await startShift({ body: onShift() });

    expect(await screen.findByText('Shift Started')).toBeTruthy();
    await settle();
    expect(screen.getByTestId('shift-badge').textContent).toBe('On Shift');
    expect(screen.queryByTestId('cover-warning')).toBeNull();
  });

  it('ignores a warning that does not say from when to when', async () => {
    await startShift({ body: { ...onShift(), coverWarning: { gapStart: inHours(2), gapEnd: 'later' } } });

    expect(await screen.findByText('Shift Started')).toBeTruthy();
    expect(screen.queryByTestId('cover-warning')).toBeNull();
  });

  it("shows the server's words when the team refuses a shift without cover", async () => {
    const logged = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const { user } = await startShift({ status: 409, body: { statusCode: 409, message: REFUSED, field: 'cover' } }, { body: onShift() });

    expect((await screen.findByTestId('start-shift-error')).textContent).toBe(`Failed to Start Shift${REFUSED}`);
    expect(within(screen.getByTestId('toast')).getByText(REFUSED)).toBeTruthy();
    // The shift did not start: the form is there to try again once someone is on call.
    expect(screen.getByTestId('shift-badge').textContent).toBe('Off Duty');
    expect(screen.getByTestId('start-shift')).toBeTruthy();
    expect(screen.queryByTestId('cover-warning')).toBeNull();

    // Someone is on call now: the next start goes through, and the refusal is gone.
    await settle();
    await user.click(screen.getByTestId('start-shift'));
    expect(await screen.findByText('Shift Started')).toBeTruthy();
    expect(screen.queryByTestId('start-shift-error')).toBeNull();
    logged.mockRestore();
  });
});

describe('coverTime', () => {
  const morning = new Date('2026-11-28T10:00:00.000Z');

  it('writes a time of the same London day alone, and the date of any other', () => {
    expect(coverTime('2026-11-28T14:00:00.000Z', morning)).toBe('14:00');
    expect(coverTime('2026-11-29T02:00:00.000Z', morning)).toBe('29 Nov 2026, 02:00');
    // Summer time: 23:30 UTC is already the next day in London.
    expect(coverTime('2026-07-01T23:30:00.000Z', new Date('2026-07-01T12:00:00.000Z'))).toBe('02 Jul 2026, 00:30');
  });
});
