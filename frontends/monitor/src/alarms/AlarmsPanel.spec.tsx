/** @jest-environment jsdom */
import { afterEach, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { screen, waitFor, within } from '@testing-library/react';
import { renderScreen, resetScreen, supportDialogs, writes, type FakeAnswer, type FakeRoutes } from '@lws/fe-ui/testing';
import { AlarmsPanel } from './AlarmsPanel';
import { LATEST_MESSAGES_SHOWN } from './AlarmMessages';

const ADMIN = { id: 2, username: 'ada', name: 'Ada Min', role: 'admin' };

beforeAll(supportDialogs);
afterEach(resetScreen);

// A winter Saturday: London keeps UTC.
const NOW = '2026-11-28T10:03:00.000Z';

interface Message {
  id: string;
  from: 'monitor' | 'worker';
  byName: string | null;
  text: string;
  at: string;
  seenAt: string | null;
}

const alarm = (over: object = {}) => ({
  id: 'a1',
  userId: 7,
  workerName: 'Ann Lone',
  location: 'The Prospect Building',
  kind: 'missed_check_in',
  state: 'acknowledged',
  openedAt: '2026-11-28T09:50:00.000Z',
  dueAt: '2026-11-28T09:45:00.000Z',
  acknowledgedBy: 2,
  acknowledgedByName: 'Ada Min',
  acknowledgedAt: '2026-11-28T09:51:00.000Z',
  lateCheckInAt: null,
  duress: false,
  workerSafeAt: null,
  shiftNote: null,
  lastPosition: null,
  history: [],
  messages: [] as Message[],
  ...over,
});

/** The open alarms as the server keeps them: a monitor's message joins its alarm's thread, unless `send` answers otherwise. */
function routes(alarms: ReturnType<typeof alarm>[], send?: FakeAnswer): FakeRoutes {
  return {
    'GET /api/time': { body: { now: NOW } },
    'GET /api/alarms': () => ({ body: alarms }),
    'POST /api/alarms/a1/messages': (request) => {
      if (send) return send;
      const { text } = request.body as { text: string };
      const a = alarms[0];
      a.messages = [...a.messages, { id: `m${a.messages.length + 1}`, from: 'monitor', byName: 'Ada Min', text, at: NOW, seenAt: null }];
      return { status: 201, body: a };
    },
  };
}

const renderPanel = (r: FakeRoutes) => renderScreen(<AlarmsPanel />, { signedInAs: ADMIN, routes: r });

describe('messages during an alarm, on the alarms panel', () => {
  it('shows who wrote each message and when, the worker’s apart', async () => {
    renderPanel(
      routes([
        alarm({
          messages: [
            {
              id: 'm1',
              from: 'monitor',
              byName: 'Ada Min',
              text: 'Are you OK?',
              at: '2026-11-28T09:52:00.000Z',
              seenAt: '2026-11-28T09:53:00.000Z',
            },
            { id: 'm2', from: 'worker', byName: 'Ann Lone', text: 'Phone died, all fine', at: '2026-11-28T09:55:00.000Z', seenAt: null },
            { id: 'm3', from: 'monitor', byName: null, text: 'Noted', at: '2026-11-27T23:59:00.000Z', seenAt: null },
          ],
        }),
      ]),
    );

    const thread = await screen.findByTestId('alarm-messages');
    const lines = within(thread).getAllByTestId('alarm-message');
    expect(lines.map((l) => l.dataset.from)).toEqual(['monitor', 'worker', 'monitor']);
    // Today by the server's clock, once read: the time alone.
    await waitFor(() => expect(lines[0].textContent).toBe('Ada Min 09:52Are you OK?Seen at 09:53'));
    expect(within(lines[1]).getByTestId('alarm-message-worker').textContent).toBe('Worker');
    expect(lines[1].textContent).toBe('Worker Ann Lone 09:55Phone died, all fine');
    // Another day's time carries its date; a monitor the server cannot name is "a monitor".
    expect(lines[2].textContent).toBe('a monitor 27 Nov 2026, 23:59Noted');
  });

  it('shows the latest messages only, until asked for the earlier ones', async () => {
    const messages = Array.from({ length: LATEST_MESSAGES_SHOWN + 2 }, (_, i) => ({
      id: `m${i}`,
      from: 'worker' as const,
      byName: 'Ann Lone',
      text: `Message ${i}`,
      at: NOW,
      seenAt: null,
    }));
    const { user } = renderPanel(routes([alarm({ messages })]));

    const thread = await screen.findByTestId('alarm-messages');
    expect(within(thread).getAllByTestId('alarm-message')).toHaveLength(LATEST_MESSAGES_SHOWN);
    expect(within(thread).getAllByTestId('alarm-message-body')[0].textContent).toBe('Message 2');
    await user.click(within(thread).getByRole('button', { name: 'Show earlier messages (2)' }));
    expect(within(thread).getAllByTestId('alarm-message')).toHaveLength(LATEST_MESSAGES_SHOWN + 2);
  });

  it('sends the monitor’s message, clears the field and shows it in the thread', async () => {
    const { user, sent } = renderPanel(routes([alarm()]));

    const row = await screen.findByTestId('alarm-row');
    expect(within(row).getByTestId('alarm-messages-empty').textContent).toBe('No messages yet');
    await user.type(within(row).getByTestId('alarm-message-text'), '  Are you OK? Please check in.  ');
    await user.click(within(row).getByRole('button', { name: 'Send message to Ann Lone' }));

    await waitFor(() => expect(within(row).getAllByTestId('alarm-message')).toHaveLength(1));
    expect(writes(sent)).toEqual([{ method: 'POST', path: '/api/alarms/a1/messages', body: { text: 'Are you OK? Please check in.' } }]);
    expect(within(row).getByTestId('alarm-message-body').textContent).toBe('Are you OK? Please check in.');
    expect((within(row).getByTestId('alarm-message-text') as HTMLInputElement).value).toBe('');
  });

  it('asks for a message rather than send an empty one', async () => {
    const { user, sent } = renderPanel(routes([alarm()]));

    const row = await screen.findByTestId('alarm-row');
    await user.click(within(row).getByTestId('alarm-message-send'));

    expect((await within(row).findByTestId('alarm-message-error')).textContent).toBe('Write the message');
    expect(writes(sent)).toEqual([]);
  });

  it('shows the server’s refusal of the text under the field', async () => {
    const logged = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const { user } = renderPanel(
      routes([alarm()], { status: 400, body: { message: 'The message must be at most 500 characters', field: 'text' } }),
    );

    const row = await screen.findByTestId('alarm-row');
    await user.type(within(row).getByTestId('alarm-message-text'), 'Hello');
    await user.click(within(row).getByTestId('alarm-message-send'));

    expect((await within(row).findByTestId('alarm-message-error')).textContent).toBe('The message must be at most 500 characters');
    logged.mockRestore();
  });

  it('shows the server’s refusal in a toast when the alarm can take no message', async () => {
    const logged = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const refusal =
      'No message is sent to the worker during a duress alarm, nor after a cancel with the duress PIN: whoever holds their phone would read it';
    const { user } = renderPanel(routes([alarm()], { status: 409, body: { message: refusal } }));

    const row = await screen.findByTestId('alarm-row');
    await user.type(within(row).getByTestId('alarm-message-text'), 'Hello');
    await user.click(within(row).getByTestId('alarm-message-send'));

    const toast = await screen.findByTestId('toast');
    expect(within(toast).getByText('Message not sent')).toBeTruthy();
    expect(within(toast).getByText(refusal)).toBeTruthy();
    logged.mockRestore();
  });

  it('has no form on a duress alarm, but says why', async () => {
    renderPanel(routes([alarm({ kind: 'emergency', duress: true })]));

    const row = await screen.findByTestId('alarm-row');
    expect(within(row).getByTestId('alarm-messages-duress').textContent).toBe(
      'No messages to the worker during a duress alarm: whoever holds their phone would read them.',
    );
    expect(within(row).queryByTestId('alarm-message-text')).toBeNull();
    expect(within(row).queryByTestId('alarm-message-send')).toBeNull();
  });
});
