/** @jest-environment jsdom */
import { afterEach, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { screen, within } from '@testing-library/react';
import type { User } from '@lws/fe-ui';
import { renderScreen, resetScreen, supportDialogs, writes, type FakeRoutes } from '@lws/fe-ui/testing';
import { OnCallProfileCard } from './OnCallProfileCard';
import { ProfilePage } from './ProfilePage';
import { parseFeedPath, parseMyOnCall } from './on-call-profile-api';

// The profile's "On call" card, with no server: an admin's own shifts of the next 14 days, and the
// calendar feed whose address is shown once.

const ADA: User = { id: 3, username: 'ada', name: 'Ada Min', role: 'admin', phone: '+447911000003' };
const ANN: User = { id: 7, username: 'ann', name: 'Ann Lone', role: 'worker', phone: '+447911123456' };
const FEED_PATH = '/api/on-call/feed/lws_ical_0123456789abcdef';

const SLOTS = [
  // Out of order: the card shows them in time order.
  { teamId: 2, teamName: 'South', layerName: 'Days', start: '2026-12-09T08:00:00Z', end: '2026-12-09T20:00:00Z', via: 'override' },
  { teamId: 1, teamName: 'North', layerName: 'Nights', start: '2026-12-07T20:00:00Z', end: '2026-12-08T08:00:00Z' },
  // British Summer Time: 23:30 UTC is 00:30 the next day in London.
  { teamId: 1, teamName: 'North', layerName: '', start: '2026-07-03T23:30:00Z', end: '2026-07-04T06:00:00Z', via: 'deputy', forUserId: 9 },
  { teamId: 1, teamName: 'North', layerName: 'Nights', start: 'not a time', end: '2026-12-08T08:00:00Z' },
];

beforeAll(supportDialogs);
afterEach(resetScreen);

/** The card as an admin sees it; the feed routes answer as the gateway, and GET follows them. */
function renderCard(initial: { hasFeed: boolean; slots?: unknown[] }, routes: FakeRoutes = {}) {
  let hasFeed = initial.hasFeed;
  let made = 0;
  const rendered = renderScreen(<OnCallProfileCard />, {
    signedInAs: ADA,
    routes: {
      'GET /api/profile/on-call': () => ({ body: { hasFeed, slots: initial.slots ?? [] } }),
      'POST /api/profile/on-call/feed': () => {
        hasFeed = true;
        made += 1;
        return { status: 201, body: { path: `${FEED_PATH}${made}` } };
      },
      'DELETE /api/profile/on-call/feed': () => {
        const revoked = hasFeed;
        hasFeed = false;
        return { body: { revoked } };
      },
      ...routes,
    },
  });
  return rendered;
}

const card = () => within(screen.getByTestId('on-call-profile-card'));

describe('OnCallProfileCard', () => {
  it('lists the shifts in time order in London time, marking cover and standing in as deputy', async () => {
    renderCard({ hasFeed: false, slots: SLOTS });
    const lines = await screen.findAllByTestId('on-call-profile-slot');
    expect(lines.map((line) => line.textContent)).toEqual([
      'North: Sat 4 Jul 00:30 – Sat 4 Jul 07:00 (as deputy)',
      'North (Nights): Mon 7 Dec 20:00 – Tue 8 Dec 08:00',
      'South (Days): Wed 9 Dec 08:00 – Wed 9 Dec 20:00 (covering)',
    ]);
    expect(screen.queryByTestId('on-call-profile-empty')).toBeNull();
  });

  it('says so when there are no shifts in the next 14 days', async () => {
    renderCard({ hasFeed: false });
    expect((await screen.findByTestId('on-call-profile-empty')).textContent).toBe('You are not on call in the next 14 days.');
    expect(screen.queryAllByTestId('on-call-profile-slot')).toEqual([]);
  });

  it('shows an error, not a crash, when the shifts cannot be read', async () => {
    const logged = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    renderCard({ hasFeed: false }, { 'GET /api/profile/on-call': { status: 403, body: { message: 'Forbidden' } } });
    expect((await screen.findByTestId('on-call-profile-error')).textContent).toBe('Your on-call shifts could not be loaded.');
    expect(screen.queryByTestId('on-call-feed-create')).toBeNull();
    logged.mockRestore();
  });

  it('makes a feed and shows its absolute address once, to copy', async () => {
    const { user, sent } = renderCard({ hasFeed: false });
    await user.click(await screen.findByTestId('on-call-feed-create'));
    const address = `${window.location.origin}${FEED_PATH}1`;
    const input = (await screen.findByTestId('on-call-feed-address-input')) as HTMLInputElement;
    expect(input.value).toBe(address);
    expect(input.readOnly).toBe(true);
    expect(screen.getByTestId('on-call-feed-address').textContent).toContain(
      'Add this address to your calendar app as a subscription. Anyone with it can see your on-call shifts; it is shown only now.',
    );
    expect(writes(sent)).toEqual([{ method: 'POST', path: '/api/profile/on-call/feed', body: undefined }]);

    await user.click(screen.getByTestId('on-call-feed-address-copy'));
    expect(await navigator.clipboard.readText()).toBe(address);
    expect(screen.getByTestId('on-call-feed-address-copy').textContent).toBe('Copied');

    await user.click(screen.getByTestId('on-call-feed-address-done'));
    expect((await screen.findByTestId('on-call-feed-status')).textContent).toBe('You have a calendar feed.');
    expect(screen.queryByTestId('on-call-feed-address')).toBeNull();
    expect(screen.getByTestId('on-call-profile-card').innerHTML).not.toContain('lws_ical_');
  });

  it('says why a feed could not be made', async () => {
    const { user } = renderCard(
      { hasFeed: false },
      { 'POST /api/profile/on-call/feed': { status: 500, body: { message: 'Internal server error' } } },
    );
    await user.click(await screen.findByTestId('on-call-feed-create'));
    expect((await screen.findByTestId('on-call-feed-error')).textContent).toBe('Internal server error');
    expect(screen.queryByTestId('on-call-feed-address')).toBeNull();
  });

  it('makes a new address only once confirmed, and shows it', async () => {
    const { user, sent } = renderCard({ hasFeed: true });
    await user.click(await screen.findByTestId('on-call-feed-renew'));
    const dialog = within(screen.getByTestId('on-call-feed-renew-dialog'));
    expect(writes(sent)).toEqual([]);
    await user.click(dialog.getByTestId('on-call-feed-renew-dialog-confirm'));
    expect(((await screen.findByTestId('on-call-feed-address-input')) as HTMLInputElement).value).toBe(
      `${window.location.origin}${FEED_PATH}1`,
    );
    expect(await screen.findByText('New address made')).toBeTruthy();
    expect(writes(sent)).toEqual([{ method: 'POST', path: '/api/profile/on-call/feed', body: undefined }]);
  });

  it('asks before stopping the feed, sends nothing when cancelled, and then DELETE', async () => {
    const { user, sent } = renderCard({ hasFeed: true });
    await user.click(await card().findByTestId('on-call-feed-revoke'));
    await user.click(within(screen.getByTestId('on-call-feed-revoke-dialog')).getByTestId('on-call-feed-revoke-dialog-cancel'));
    expect(writes(sent)).toEqual([]);

    await user.click(card().getByTestId('on-call-feed-revoke'));
    const dialog = within(screen.getByTestId('on-call-feed-revoke-dialog'));
    expect(dialog.getByText('Stop the calendar feed?')).toBeTruthy();
    expect(writes(sent)).toEqual([]);
    await user.click(dialog.getByTestId('on-call-feed-revoke-dialog-confirm'));
    expect(await screen.findByText('Calendar feed stopped')).toBeTruthy();
    expect(writes(sent)).toEqual([{ method: 'DELETE', path: '/api/profile/on-call/feed', body: undefined }]);
    expect(await card().findByTestId('on-call-feed-create')).toBeTruthy();
    expect(card().queryByTestId('on-call-feed-status')).toBeNull();
  });
});

describe('the profile page', () => {
  const profileRoutes = (user: User): FakeRoutes => ({
    [`GET /api/users/${user.id}/with-relations`]: { body: { ...user, emergencyContacts: [] } },
    'GET /api/profile/on-call': { body: { hasFeed: false, slots: [] } },
  });

  it("shows an admin's on-call shifts", async () => {
    renderScreen(<ProfilePage />, { signedInAs: ADA, routes: profileRoutes(ADA) });
    expect(await screen.findByTestId('on-call-profile-card')).toBeTruthy();
  });

  it('shows the superadmin theirs', async () => {
    const boss: User = { ...ADA, id: 1, username: 'boss', role: 'superadmin' };
    renderScreen(<ProfilePage />, { signedInAs: boss, routes: profileRoutes(boss) });
    expect(await screen.findByTestId('on-call-profile-card')).toBeTruthy();
  });

  it("shows a worker no on-call card, and never asks for one's shifts", async () => {
    const { sent } = renderScreen(<ProfilePage />, { signedInAs: ANN, routes: profileRoutes(ANN) });
    expect(await screen.findByTestId('profile-medical')).toBeTruthy();
    expect(screen.queryByTestId('on-call-profile-card')).toBeNull();
    expect(sent.some((r) => r.path === '/api/profile/on-call')).toBe(false);
  });
});

describe('on-call-profile-api', () => {
  it('refuses an answer without hasFeed, and leaves out slots it cannot show', () => {
    expect(() => parseMyOnCall({ slots: [] })).toThrow();
    expect(() => parseMyOnCall(null)).toThrow();
    expect(parseMyOnCall({ hasFeed: true, slots: [{ teamId: 1 }, 'x', SLOTS[1]] })).toEqual({
      hasFeed: true,
      slots: [{ teamId: 1, teamName: 'North', layerName: 'Nights', start: '2026-12-07T20:00:00Z', end: '2026-12-08T08:00:00Z' }],
    });
    expect(parseMyOnCall({ hasFeed: false, slots: 'none' })).toEqual({ hasFeed: false, slots: [] });
  });

  it("takes only a path on this site as the feed's", () => {
    expect(parseFeedPath({ path: FEED_PATH })).toBe(FEED_PATH);
    expect(() => parseFeedPath({ path: '//evil.example/feed' })).toThrow();
    expect(() => parseFeedPath({ path: 'https://evil.example/feed' })).toThrow();
    expect(() => parseFeedPath({})).toThrow();
  });
});
