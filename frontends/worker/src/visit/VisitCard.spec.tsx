/** @jest-environment jsdom */
import { afterEach, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { act, screen, within } from '@testing-library/react';
import { formatTime } from '@lws/fe-ui';
import { renderScreen, resetScreen, supportDialogs, writes, type FakeAnswer, type FakeRoutes } from '@lws/fe-ui/testing';
import { WorkerHome } from '../WorkerHome';

const ANN = { id: 7, username: 'ann', name: 'Ann Lone', role: 'worker' };
const PLACE = 'The Prospect Building';
const PIN = '1234';
const HIGH_RISK = { id: 'hv-high', name: 'Home visit, high risk', minutes: 20, checkInInterval: null, smsToo: true };

beforeAll(supportDialogs);
afterEach(() => {
  resetScreen();
  window.localStorage.clear();
});

const inMinutes = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();

interface VisitOnServer {
  id: string;
  where: string;
  startedAt: string;
  endsAt: string;
  hasNote: boolean;
  type: { id: string; name: string } | null;
  checkInInterval: number | null;
}

interface Options {
  visit?: VisitOnServer | null;
  visitTypes?: unknown;
  /** The interval the worker's record states (the worker's own unless a test says otherwise). */
  checkInInterval?: number;
  nextCheckInTime?: string;
  /** Overrides the server's answer to end-visit. */
  endAnswer?: FakeAnswer;
}

/**
 * Ann on shift, her next check-in an hour away, as the server keeps her: a visit started joins her
 * record (its end her deadline when sooner), and ending it with her PIN is a check-in.
 */
function routes({ visit = null, visitTypes, checkInInterval = 60, nextCheckInTime = inMinutes(60), endAnswer }: Options = {}): FakeRoutes {
  const state = {
    visit,
    nextCheckInTime,
    latestCheckIn: null as null | { id: string; timestamp: string; location: string; nextCheckInTime: string },
  };
  const worker = () => ({
    ...ANN,
    onShift: true,
    location: PLACE,
    shiftStartTime: inMinutes(-120),
    latestCheckIn: state.latestCheckIn,
    nextCheckInTime: state.nextCheckInTime,
    visit: state.visit,
    extensionsLeft: 2,
  });
  return {
    'GET /api/users/7/with-relations': () => ({
      body: { ...worker(), checkInInterval, team: { id: 1, name: 'Outreach', ...(visitTypes === undefined ? {} : { visitTypes }) } },
    }),
    'GET /api/users/7/emergency': { body: { emergency: null } },
    'GET /api/profile/check-in-request': { body: { request: null } },
    'GET /api/profile/alarm-messages': { body: { thread: null } },
    'GET /api/location-options': { body: [{ id: 1, name: PLACE, isActive: true }] },
    'GET /api/time': () => ({ body: { now: new Date().toISOString() } }),
    'POST /api/users/7/start-visit': (request) => {
      const body = request.body as { where: string; minutes: number; note?: string; visitTypeId?: string };
      const endsAt = inMinutes(body.minutes);
      state.visit ??= {
        id: 'v1',
        where: body.where,
        startedAt: new Date().toISOString(),
        endsAt,
        hasNote: Boolean(body.note),
        type: body.visitTypeId === HIGH_RISK.id ? { id: HIGH_RISK.id, name: HIGH_RISK.name } : null,
        checkInInterval: null,
      };
      if (Date.parse(endsAt) < Date.parse(state.nextCheckInTime)) state.nextCheckInTime = endsAt;
      return { body: worker() };
    },
    'POST /api/users/7/end-visit': (request) => {
      if (endAnswer) return endAnswer;
      if ((request.body as { pin: string }).pin !== PIN)
        return { status: 400, body: { statusCode: 400, message: 'Incorrect PIN', field: 'pin' } };
      if (!state.visit) return { status: 409, body: { statusCode: 409, message: 'You are not on a visit' } };
      state.visit = null;
      state.nextCheckInTime = inMinutes(60);
      state.latestCheckIn = { id: 'c1', timestamp: new Date().toISOString(), location: PLACE, nextCheckInTime: state.nextCheckInTime };
      return { body: worker() };
    },
  };
}

const renderHome = (options?: Options) => renderScreen(<WorkerHome user={ANN} />, { signedInAs: ANN, routes: routes(options) });

/** Lets the answers given reach the screen. */
const settle = () => act(() => new Promise((resolve) => setTimeout(resolve, 100)));

const onVisit = (over: Partial<VisitOnServer> = {}): VisitOnServer => ({
  id: 'v1',
  where: 'Flat 3, 12 Oak Street',
  startedAt: inMinutes(-10),
  endsAt: inMinutes(35),
  hasNote: true,
  type: { id: HIGH_RISK.id, name: HIGH_RISK.name },
  checkInInterval: null,
  ...over,
});

describe('starting a timed visit on shift', () => {
  it('is offered below CHECK IN and the emergency button, and starts the visit the form describes', async () => {
    const { user, sent } = renderHome({ visitTypes: [HIGH_RISK] });

    const button = await screen.findByTestId('start-visit-button');
    expect(button.textContent).toBe('Start a visit');
    // Secondary: below the actions a phone's first screen must show.
    expect(screen.getByTestId('emergency-button').compareDocumentPosition(button) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(button.className).toContain('lws-btn--outline');
    expect(screen.queryByTestId('visit-card')).toBeNull();

    await user.click(button);
    const form = await screen.findByTestId('visit-form');
    await user.selectOptions(within(form).getByLabelText('Visit type'), HIGH_RISK.id);
    expect((within(form).getByLabelText('How long?') as HTMLSelectElement).value).toBe('20');
    await user.type(within(form).getByLabelText('Where is the visit?'), 'Flat 3, 12 Oak Street');
    await user.type(within(form).getByLabelText('Sealed note (optional)'), 'Client known to be aggressive, dog');
    await user.click(within(form).getByTestId('visit-submit'));

    expect(await screen.findByText('Visit started')).toBeTruthy();
    expect(writes(sent)).toEqual([
      {
        method: 'POST',
        path: '/api/users/7/start-visit',
        body: { where: 'Flat 3, 12 Oak Street', minutes: 20, note: 'Client known to be aggressive, dog', visitTypeId: HIGH_RISK.id },
      },
    ]);
    expect(screen.queryByTestId('visit-form')).toBeNull();
    const card = screen.getByTestId('visit-card');
    expect(within(card).getByRole('heading').textContent).toBe('On a visit: Flat 3, 12 Oak Street');
    expect(screen.getByRole('region', { name: 'On a visit: Flat 3, 12 Oak Street' })).toBe(card);
    expect(within(card).getByTestId('visit-card-type').textContent).toBe(HIGH_RISK.name);
    expect(within(card).getByTestId('visit-card-note').textContent).toBe('Sealed note kept');
    expect(screen.queryByTestId('start-visit-button')).toBeNull();
    // The visit's end is the deadline now.
    const endsAt = within(card).getByTestId('visit-card-ends');
    const end = endsAt.querySelector('time')!.getAttribute('dateTime')!;
    expect(endsAt.textContent).toBe(`Ends at ${formatTime(end)}`);
    expect(Date.parse(end) - Date.now()).toBeGreaterThan(19 * 60_000);
    expect(screen.getByTestId('check-in-deadline').textContent).toBe(`Check-in deadline: ${formatTime(end)}`);
  });

  it('offers no type picker when the team has no visit types, and says nothing of a note not left', async () => {
    const { user } = renderHome({ visitTypes: [] });

    await user.click(await screen.findByTestId('start-visit-button'));
    const form = await screen.findByTestId('visit-form');
    expect(within(form).queryByTestId('visit-type')).toBeNull();
    await user.type(within(form).getByTestId('visit-where'), 'Mill Lane car park');
    await user.click(within(form).getByTestId('visit-submit'));

    const card = await screen.findByTestId('visit-card');
    expect(within(card).getByRole('heading').textContent).toBe('On a visit: Mill Lane car park');
    expect(within(card).queryByTestId('visit-card-type')).toBeNull();
    expect(within(card).queryByTestId('visit-card-note')).toBeNull();
  });

  it('refuses an empty place before anything is sent', async () => {
    const { user, sent } = renderHome();

    await user.click(await screen.findByTestId('start-visit-button'));
    await user.click(await screen.findByTestId('visit-submit'));

    expect(screen.getByTestId('visit-where-error').textContent).toBe('Say where the visit is: an address or a location');
    expect(writes(sent)).toEqual([]);
  });

  it("shows the server's refusal of a field on that field", async () => {
    const logged = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const refused = routes();
    refused['POST /api/users/7/start-visit'] = {
      status: 400,
      body: { statusCode: 400, message: 'Where the visit is must be at most 200 characters', field: 'where' },
    };
    const { user } = renderScreen(<WorkerHome user={ANN} />, { signedInAs: ANN, routes: refused });

    await user.click(await screen.findByTestId('start-visit-button'));
    await user.type(await screen.findByTestId('visit-where'), 'Flat 3');
    await user.click(screen.getByTestId('visit-submit'));

    expect((await screen.findByTestId('visit-where-error')).textContent).toBe('Where the visit is must be at most 200 characters');
    expect(screen.getByTestId('visit-form')).toBeTruthy();
    expect(screen.queryByTestId('visit-card')).toBeNull();
    logged.mockRestore();
  });
});

describe('a visit under way', () => {
  it('shows where, its type, its end and the note kept, and is ended with the PIN', async () => {
    const visit = onVisit();
    const { user, sent } = renderHome({ visit, nextCheckInTime: visit.endsAt });

    const card = await screen.findByTestId('visit-card');
    expect(within(card).getByRole('heading').textContent).toBe('On a visit: Flat 3, 12 Oak Street');
    expect(within(card).getByTestId('visit-card-ends').textContent).toBe(`Ends at ${formatTime(visit.endsAt)}`);
    expect(within(card).getByTestId('visit-card-type').textContent).toBe(HIGH_RISK.name);
    expect(within(card).getByTestId('visit-card-note').textContent).toBe('Sealed note kept');
    expect(screen.queryByTestId('start-visit-button')).toBeNull();

    await user.click(within(card).getByTestId('end-visit-button'));
    const dialog = await screen.findByTestId('pin-dialog');
    expect(within(dialog).getByRole('heading').textContent).toBe('End visit');
    expect(within(dialog).getByText('Enter your PIN to end the visit')).toBeTruthy();
    expect(writes(sent)).toEqual([]);
    await user.type(within(dialog).getByTestId('pin-dialog-input'), PIN);

    expect(await screen.findByText('Visit ended')).toBeTruthy();
    expect(writes(sent)).toEqual([{ method: 'POST', path: '/api/users/7/end-visit', body: { pin: PIN } }]);
    expect(screen.queryByTestId('visit-card')).toBeNull();
    expect(screen.getByTestId('start-visit-button')).toBeTruthy();
    expect(screen.queryByTestId('pin-dialog-input')).toBeNull();
    await settle();
    expect(screen.queryByTestId('visit-card')).toBeNull();
  });

  it('keeps the visit, and asks again, after a wrong PIN, as ending a shift does', async () => {
    const logged = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const { user, sent } = renderHome({ visit: onVisit() });

    await user.click(await screen.findByTestId('end-visit-button'));
    await user.type(await screen.findByTestId('pin-dialog-input'), '0000');

    expect((await screen.findByTestId('pin-dialog-error')).textContent).toBe('Incorrect PIN. Please try again.');
    expect(screen.getAllByText('Incorrect PIN').length).toBeGreaterThan(0);
    expect(screen.getByTestId('visit-card')).toBeTruthy();
    expect(screen.queryByText('Visit ended')).toBeNull();

    await user.type(screen.getByTestId('pin-dialog-input'), PIN);
    expect(await screen.findByText('Visit ended')).toBeTruthy();
    expect(writes(sent).map((r) => r.body)).toEqual([{ pin: '0000' }, { pin: PIN }]);
    logged.mockRestore();
  });

  it('tells a PIN locked after too many attempts in the server’s words, and keeps the visit', async () => {
    const logged = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const locked = 'Too many incorrect PINs. Try again in 15 minutes.';
    const { user } = renderHome({ visit: onVisit(), endAnswer: { status: 423, body: { statusCode: 423, message: locked } } });

    await user.click(await screen.findByTestId('end-visit-button'));
    await user.type(await screen.findByTestId('pin-dialog-input'), PIN);

    expect((await screen.findByTestId('pin-dialog-error')).textContent).toBe(locked);
    expect(screen.getByTestId('visit-card')).toBeTruthy();
    logged.mockRestore();
  });

  it("says the visit's time has run out when its end is the deadline passed", async () => {
    const visit = onVisit({ startedAt: inMinutes(-40), endsAt: inMinutes(-1) });
    renderHome({ visit, nextCheckInTime: visit.endsAt });

    const alert = await screen.findByTestId('check-in-alert');
    expect(
      within(alert).getByText("Your visit's time has run out. Please confirm that you are safe, or request emergency assistance."),
    ).toBeTruthy();
  });

  it("does not take a visit's own check-in interval for a change of the worker's", async () => {
    window.localStorage.setItem('lws.checkInInterval.7', '60');
    renderHome({ visit: onVisit({ checkInInterval: 15 }), checkInInterval: 15 });

    expect(await screen.findByTestId('visit-card')).toBeTruthy();
    await settle();
    expect(screen.queryByText('Check-in interval changed')).toBeNull();
  });
});
