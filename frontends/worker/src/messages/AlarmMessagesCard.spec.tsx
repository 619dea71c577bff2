/** @jest-environment jsdom */
import { afterEach, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import { alarmMessageSchema } from '@lws/schemas';
import { ToastProvider, createQueryClient, formatTime, invalidateFor } from '@lws/fe-ui';
import { fakeApi, renderScreen, resetScreen, supportDialogs, writes, type FakeAnswer, type FakeRoutes } from '@lws/fe-ui/testing';
import { WorkerHome } from '../WorkerHome';
import { AlarmMessagesCard, messageProblem } from './AlarmMessagesCard';

const ANN = { id: 7, username: 'ann', name: 'Ann Lone', role: 'worker' };
const PLACE = 'The Prospect Building';

beforeAll(() => {
  supportDialogs();
  // jsdom lays nothing out; the emergency screen scrolls itself into view.
  Element.prototype.scrollIntoView ??= () => undefined;
});
afterEach(() => {
  resetScreen();
  window.localStorage.clear();
});

const inMinutes = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();

interface Message {
  id: string;
  from: 'monitor' | 'worker';
  byName: string | null;
  text: string;
  at: string;
  seenAt: string | null;
}

const fromMonitor = (id: string, text: string, over: Partial<Message> = {}): Message => ({
  id,
  from: 'monitor',
  byName: 'Ada Min',
  text,
  at: inMinutes(-3),
  seenAt: null,
  ...over,
});

/**
 * The thread of Ann's open alarm, as the server keeps it: her answers join it, and the seen call
 * marks the monitors' messages seen. `reply` overrides the answer to her message.
 */
function threadRoutes(kind: 'missed_check_in' | 'emergency' | null, messages: Message[], reply?: FakeAnswer): FakeRoutes {
  const thread = () => ({ thread: kind ? { alarmId: 'a1', kind, messages } : null });
  return {
    'GET /api/profile/alarm-messages': () => ({ body: thread() }),
    'POST /api/profile/alarm-messages': (request) => {
      if (reply) return reply;
      const { text } = request.body as { text: string };
      messages.push({ id: `w${messages.length}`, from: 'worker', byName: 'Ann Lone', text, at: new Date().toISOString(), seenAt: null });
      return { status: 201, body: thread() };
    },
    'POST /api/profile/alarm-messages/seen': () => {
      const now = new Date().toISOString();
      for (const m of messages) if (m.from === 'monitor') m.seenAt ??= now;
      return { body: thread() };
    },
  };
}

/**
 * Ann on shift and overdue (a missed check-in alarm open; `overdue: false`, she has checked in late
 * since and it waits for a monitor to resolve it), or off shift; her emergency, if any.
 */
function homeRoutes({ onShift = true, overdue = true, emergency = null as object | null } = {}): FakeRoutes {
  return {
    'GET /api/users/7/with-relations': {
      body: onShift
        ? {
            ...ANN,
            onShift: true,
            location: PLACE,
            shiftStartTime: inMinutes(-120),
            latestCheckIn: null,
            nextCheckInTime: inMinutes(overdue ? -5 : 50),
            checkInInterval: 60,
          }
        : { ...ANN, onShift: false, checkInInterval: 60 },
    },
    'GET /api/users/7/emergency': { body: { emergency } },
    'GET /api/profile/check-in-request': { body: { request: null } },
    'GET /api/location-options': { body: [{ id: 1, name: PLACE, isActive: true }] },
    'GET /api/time': () => ({ body: { now: new Date().toISOString() } }),
  };
}

const renderHome = (routes: FakeRoutes) => renderScreen(<WorkerHome user={ANN} />, { signedInAs: ANN, routes });

/** Lets the answers given reach the screen. */
const settle = (ms = 100) => act(() => new Promise((resolve) => setTimeout(resolve, ms)));

const seenCalls = (sent: { method: string; path: string }[]) => sent.filter((r) => r.path === '/api/profile/alarm-messages/seen').length;

describe('the messages of a missed check-in alarm, on the check-in screen', () => {
  it('lists who wrote what and when in the check-in alert while overdue, and tells LWS once that the screen showed them', async () => {
    const first = fromMonitor('m1', 'Are you OK? Please check in.', { at: inMinutes(-4) });
    const mine = { id: 'w1', from: 'worker' as const, byName: 'Ann Lone', text: 'Signal is bad here', at: inMinutes(-3), seenAt: null };
    const second = fromMonitor('m2', 'Thanks, stay where you are.', { byName: null, at: inMinutes(-2) });
    const { sent } = renderHome({ ...homeRoutes(), ...threadRoutes('missed_check_in', [first, mine, second]) });

    const card = await screen.findByTestId('worker-messages');
    const lines = within(card).getAllByTestId('worker-message');
    expect(lines.map((l) => [l.dataset.from, l.textContent])).toEqual([
      ['monitor', `From Ada Min ${formatTime(first.at)}Are you OK? Please check in.`],
      ['worker', `You ${formatTime(mine.at)}Signal is bad here`],
      ['monitor', `From your monitor ${formatTime(second.at)}Thanks, stay where you are.`],
    ]);
    // Overdue, the alert covers the screen and cannot be dismissed: the thread is in it, once.
    expect(screen.getByTestId('check-in-alert').contains(card)).toBe(true);
    expect(screen.getAllByTestId('worker-messages')).toHaveLength(1);

    await waitFor(() => expect(seenCalls(sent)).toBe(1));
    // The seen answer marks them seen: reading the thread again tells nothing new.
    await settle(300);
    expect(seenCalls(sent)).toBe(1);
    expect(writes(sent)).toEqual([{ method: 'POST', path: '/api/profile/alarm-messages/seen', body: undefined }]);
  });

  it('checked in late, the alarm still open: the thread is on the screen, above CHECK IN', async () => {
    renderHome({ ...homeRoutes({ overdue: false }), ...threadRoutes('missed_check_in', [fromMonitor('m1', 'Glad you are OK')]) });
    const card = await screen.findByTestId('worker-messages');
    expect(screen.queryByTestId('check-in-alert')?.contains(card) ?? false).toBe(false);
    expect(card.compareDocumentPosition(screen.getByTestId('check-in-card')) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('sends the worker’s answer, clears the field and shows it in the thread', async () => {
    const { user, sent } = renderHome({
      ...homeRoutes(),
      ...threadRoutes('missed_check_in', [fromMonitor('m1', 'Are you OK?', { seenAt: inMinutes(-1) })]),
    });

    const card = await screen.findByTestId('worker-messages');
    await user.type(within(card).getByTestId('worker-message-text'), '  On my way back to the van  ');
    await user.click(within(card).getByRole('button', { name: 'Send message to the monitors' }));

    await waitFor(() => expect(within(card).getAllByTestId('worker-message')).toHaveLength(2));
    expect(writes(sent)).toEqual([{ method: 'POST', path: '/api/profile/alarm-messages', body: { text: 'On my way back to the van' } }]);
    const last = within(card).getAllByTestId('worker-message')[1];
    expect(last.dataset.from).toBe('worker');
    expect(within(last).getByTestId('worker-message-body').textContent).toBe('On my way back to the van');
    expect((within(card).getByTestId('worker-message-text') as HTMLInputElement).value).toBe('');
    // Nothing of the monitors' was unseen: the seen call is never made.
    expect(seenCalls(sent)).toBe(0);
  });

  it('asks for a message rather than send an empty one', async () => {
    const { user, sent } = renderHome({ ...homeRoutes(), ...threadRoutes('missed_check_in', []) });

    const card = await screen.findByTestId('worker-messages');
    expect(within(card).getByTestId('worker-messages-empty').textContent).toBe('No messages yet');
    await user.type(within(card).getByTestId('worker-message-text'), '   ');
    await user.click(within(card).getByTestId('worker-message-send'));

    expect(within(card).getByTestId('worker-message-error').textContent).toBe('Write the message');
    expect(writes(sent)).toEqual([]);
  });

  it('says so, and keeps the words, when the alarm closed before the answer went', async () => {
    const logged = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const { user } = renderHome({
      ...homeRoutes(),
      ...threadRoutes('missed_check_in', [], { status: 409, body: { message: 'There is no open alarm to answer' } }),
    });

    const card = await screen.findByTestId('worker-messages');
    await user.type(within(card).getByTestId('worker-message-text'), 'Sorry, all fine');
    await user.click(within(card).getByTestId('worker-message-send'));

    expect(within(await screen.findByTestId('toast')).getByText('There is no open alarm to answer')).toBeTruthy();
    expect((within(card).getByTestId('worker-message-text') as HTMLInputElement).value).toBe('Sorry, all fine');
    logged.mockRestore();
  });

  it('does not tell LWS the messages were shown while the page is hidden, and does once it is shown', async () => {
    const hidden = jest.spyOn(document, 'hidden', 'get').mockReturnValue(true);
    const { sent } = renderHome({ ...homeRoutes(), ...threadRoutes('missed_check_in', [fromMonitor('m1', 'Are you OK?')]) });

    expect(await screen.findByTestId('worker-messages')).toBeTruthy();
    await settle(200);
    expect(seenCalls(sent)).toBe(0);

    hidden.mockReturnValue(false);
    act(() => {
      document.dispatchEvent(new Event('visibilitychange'));
    });
    await waitFor(() => expect(seenCalls(sent)).toBe(1));
    hidden.mockRestore();
  });

  it.each([
    ['there is no thread', { body: { thread: null } }],
    ['the thread cannot be read', { status: 500, body: { message: 'Oops' } }],
    ['the answer is malformed', { body: { thread: { alarmId: 'a1', kind: 'flood', messages: [] } } }],
    ['the thread is of an emergency', { body: { thread: { alarmId: 'a1', kind: 'emergency', messages: [] } } }],
  ])('shows nothing, and the check-in screen as ever, when %s', async (_why, answer) => {
    const logged = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const { sent } = renderHome({ ...homeRoutes(), 'GET /api/profile/alarm-messages': answer });

    expect(await screen.findByTestId('check-in-card')).toBeTruthy();
    await waitFor(() => expect(sent.some((r) => r.path === '/api/profile/alarm-messages')).toBe(true));
    await settle();
    expect(screen.queryByTestId('worker-messages')).toBeNull();
    expect((screen.getByTestId('check-in-button') as HTMLButtonElement).disabled).toBe(false);
    logged.mockRestore();
  });

  it('does not ask off shift without an emergency', async () => {
    const { sent } = renderHome({ ...homeRoutes({ onShift: false }), ...threadRoutes('missed_check_in', [fromMonitor('m1', 'Hi')]) });

    expect(await screen.findByTestId('start-shift')).toBeTruthy();
    await settle();
    expect(sent.some((r) => r.path === '/api/profile/alarm-messages')).toBe(false);
    expect(screen.queryByTestId('worker-messages')).toBeNull();
  });
});

describe('the messages of an emergency, on the emergency screen', () => {
  const emergency = (over: object = {}) => ({
    id: 'a1',
    state: 'acknowledged',
    openedAt: inMinutes(-5),
    acknowledgedByName: 'Ada Min',
    acknowledgedAt: inMinutes(-4),
    safeAt: null,
    updates: [],
    ...over,
  });

  it('shows the thread below the emergency, off shift too, and not above CHECK IN', async () => {
    const { sent } = renderHome({
      ...homeRoutes({ onShift: false, emergency: emergency() }),
      ...threadRoutes('emergency', [fromMonitor('m1', 'Help is on the way')]),
    });

    const card = await screen.findByTestId('worker-messages');
    expect(card.dataset.kind).toBe('emergency');
    expect(screen.getByTestId('emergency-screen').compareDocumentPosition(card) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(within(card).getByTestId('worker-message').textContent).toContain('Help is on the way');
    expect(screen.getAllByTestId('worker-messages')).toHaveLength(1);
    await waitFor(() => expect(seenCalls(sent)).toBe(1));
  });

  it('is gone once the worker has said they are safe', async () => {
    const { sent } = renderHome({
      ...homeRoutes({ emergency: emergency({ safeAt: inMinutes(-1) }) }),
      ...threadRoutes('emergency', [fromMonitor('m1', 'Help is on the way')]),
    });

    expect(await screen.findByTestId('emergency-screen')).toBeTruthy();
    await settle(200);
    expect(screen.queryByTestId('worker-messages')).toBeNull();
    expect(seenCalls(sent)).toBe(0);
  });
});

describe('the thread kept current by the event stream', () => {
  it('is read again when either side writes about this worker’s alarm, or their shift moves; not for anyone else', async () => {
    const fake = fakeApi(threadRoutes('missed_check_in', [fromMonitor('m1', 'Hi', { seenAt: inMinutes(-1) })]));
    const client = createQueryClient();
    const reads = () => fake.sent.filter((r) => r.method === 'GET' && r.path === '/api/profile/alarm-messages').length;
    const at = new Date().toISOString();
    try {
      render(
        <ToastProvider>
          <QueryClientProvider client={client}>
            <AlarmMessagesCard userId={7} kind="missed_check_in" />
          </QueryClientProvider>
        </ToastProvider>,
      );
      expect(await screen.findByTestId('worker-messages')).toBeTruthy();
      expect(reads()).toBe(1);

      await act(() => invalidateFor(client, { type: 'alarm', data: { alarmId: 'a9', userId: 8, change: 'message', at } }));
      expect(reads()).toBe(1);
      await act(() => invalidateFor(client, { type: 'alarm', data: { alarmId: 'a1', userId: 7, change: 'message', at } }));
      expect(reads()).toBe(2);
      await act(() => invalidateFor(client, { type: 'worker', data: { userId: 7, change: 'checked_in', at } }));
      expect(reads()).toBe(3);
    } finally {
      fake.restore();
    }
  });
});

describe('messageProblem', () => {
  it.each(['', '   ', 'Are you OK?', '  padded  ', 'x'.repeat(500), ` ${'x'.repeat(500)} `, 'x'.repeat(501)])(
    'gives the server schema’s answer for %j',
    (text) => {
      const parsed = alarmMessageSchema.safeParse({ text });
      expect(messageProblem(text)).toBe(parsed.success ? null : parsed.error.issues[0].message);
    },
  );
});
