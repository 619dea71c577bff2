/** @jest-environment jsdom */
import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { screen, waitFor, within } from '@testing-library/react';
import { renderScreen, resetScreen, writes, type FakeAnswer, type FakeRoutes } from '@lws/fe-ui/testing';
import { AlarmsPanel } from './AlarmsPanel';

const ADMIN = { id: 2, username: 'ada', name: 'Ada Min', role: 'admin' };

afterEach(resetScreen);

// A winter Saturday: London keeps UTC.
const NOW = '2026-11-28T10:03:00.000Z';

const visit = (over: object = {}) => ({
  id: 'v1',
  where: '12 Mill Lane, Flat 3',
  startedAt: '2026-11-28T09:20:00.000Z',
  endsAt: '2026-11-28T09:50:00.000Z',
  hasNote: true,
  type: { id: 't1', name: 'Home visit, high risk' },
  checkInInterval: 15,
  ...over,
});

const alarm = (over: object = {}) => ({
  id: 'a1',
  userId: 7,
  workerName: 'Ann Lone',
  location: 'The Prospect Building',
  kind: 'missed_check_in',
  state: 'open',
  openedAt: '2026-11-28T09:50:00.000Z',
  dueAt: '2026-11-28T09:50:00.000Z',
  acknowledgedBy: null,
  acknowledgedByName: null,
  acknowledgedAt: null,
  lateCheckInAt: null,
  duress: false,
  workerSafeAt: null,
  shiftNote: null,
  lastPosition: null,
  history: [],
  messages: [],
  visit: visit(),
  ...over,
});

const NOTE = 'Client has a dog.\nKey safe code 4471.';

function routes(alarms: ReturnType<typeof alarm>[], reveal: FakeAnswer = { body: { note: NOTE } }): FakeRoutes {
  return {
    'GET /api/time': { body: { now: NOW } },
    'GET /api/alarms': () => ({ body: alarms }),
    'POST /api/alarms/a1/visit-note': reveal,
  };
}

const renderPanel = (r: FakeRoutes) => renderScreen(<AlarmsPanel />, { signedInAs: ADMIN, routes: r });
const reveals = (sent: Parameters<typeof writes>[0]) => writes(sent).filter((r) => r.path.endsWith('/visit-note'));

describe('the visit an alarm opened on, on the alarms panel', () => {
  it('shows where the visit was, its type and its times, and nothing of the note', async () => {
    const { sent } = renderPanel(routes([alarm()]));

    const section = await screen.findByTestId('alarm-visit');
    expect(screen.getByRole('region', { name: 'Visit' })).toBe(section);
    expect(within(section).getByTestId('alarm-visit-where').textContent).toBe('Visit to 12 Mill Lane, Flat 3');
    expect(within(section).getByTestId('alarm-visit-type').textContent).toBe('Home visit, high risk');
    // Today by the server's clock, once read: the times alone.
    await waitFor(() => expect(within(section).getByTestId('alarm-visit-times').textContent).toBe('Started 09:20, due to end 09:50'));
    expect(within(section).getByText('Your name is recorded on the activity log when you read it.')).toBeTruthy();
    expect(within(section).queryByTestId('visit-note-text')).toBeNull();
    expect(screen.queryByText(/Key safe code/)).toBeNull();
    expect(reveals(sent)).toEqual([]);
  });

  it('reads the sealed note only when asked, once, and shows it with its line breaks', async () => {
    const { user, sent } = renderPanel(routes([alarm()]));

    const section = await screen.findByTestId('alarm-visit');
    const button = within(section).getByRole('button', { name: 'Read sealed note: Ann Lone' });
    expect(button.textContent).toBe('Read sealed note');
    expect(within(section).queryByTestId('visit-note-text')).toBeNull();
    await user.click(button);

    const text = await within(section).findByTestId('visit-note-text');
    expect(text.textContent).toBe(NOTE);
    expect(within(section).getByRole('region', { name: 'Sealed note' }).contains(text)).toBe(true);
    expect(reveals(sent)).toEqual([{ method: 'POST', path: '/api/alarms/a1/visit-note', body: undefined }]);
    // Read: no button asks for it again.
    expect(within(section).queryByTestId('reveal-visit-note')).toBeNull();
  });

  it('shows the server’s words when the note is gone, and no note', async () => {
    const logged = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const gone = "This visit's note was deleted 30 days after the shift ended";
    const { user, sent } = renderPanel(routes([alarm()], { status: 410, body: { message: gone } }));

    const section = await screen.findByTestId('alarm-visit');
    await user.click(within(section).getByTestId('reveal-visit-note'));

    const error = await within(section).findByRole('alert');
    expect(error.textContent).toBe(gone);
    expect(error.dataset.testid).toBe('visit-note-error');
    expect(within(section).queryByTestId('visit-note-text')).toBeNull();
    expect(reveals(sent)).toHaveLength(1);
    logged.mockRestore();
  });

  it('offers no note to read when the worker left none, and no section without a visit', async () => {
    renderPanel(
      routes([
        alarm({ visit: visit({ hasNote: false, type: null }) }),
        alarm({ id: 'a2', userId: 8, workerName: 'Bo Field', visit: null }),
      ]),
    );

    const rows = await screen.findAllByTestId('alarm-row');
    const section = within(rows[0]).getByTestId('alarm-visit');
    expect(within(section).queryByTestId('reveal-visit-note')).toBeNull();
    expect(within(section).queryByTestId('alarm-visit-type')).toBeNull();
    expect(within(rows[1]).queryByTestId('alarm-visit')).toBeNull();
  });
});
