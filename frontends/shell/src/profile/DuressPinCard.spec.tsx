/** @jest-environment jsdom */
import { afterEach, describe, expect, it } from '@jest/globals';
import { screen, within } from '@testing-library/react';
import type userEvent from '@testing-library/user-event';
import type { User } from '@lws/fe-ui';
import { renderScreen, resetScreen, writes, type FakeRoutes } from '@lws/fe-ui/testing';
import { DuressPinCard } from './DuressPinCard';

const ANN: User = { id: 7, username: 'ann', name: 'Ann Lone', role: 'worker', phone: '+447911123456' };

afterEach(resetScreen);

function renderCard(duressPinSet: boolean, routes: FakeRoutes = {}) {
  const rendered = renderScreen(<DuressPinCard userId={7} duressPinSet={duressPinSet} />, {
    signedInAs: ANN,
    routes: { 'PUT /api/users/7/duress-pin': { body: { ok: true } }, ...routes },
  });
  return { ...rendered, card: within(screen.getByTestId('profile-duress-pin')) };
}

/** Types a PIN into a PinInput, from its first box. */
async function typePin(user: ReturnType<typeof userEvent.setup>, box: HTMLElement, pin: string) {
  await user.click(box);
  await user.keyboard(pin);
}

describe('DuressPinCard (react-hook-form with the gateway schema)', () => {
  it("refuses a duress PIN equal to the PIN typed beside it before sending, in the gateway's words", async () => {
    const { card, user, sent } = renderCard(false);
    await user.click(card.getByRole('button', { name: 'Set duress PIN' }));
    await typePin(user, card.getByTestId('duress-current-input'), '4821');
    await typePin(user, card.getByTestId('duress-new-input'), '4821');
    await user.click(card.getByRole('button', { name: 'Save duress PIN' }));
    expect((await card.findByTestId('duress-pin-error')).textContent).toBe('Your duress PIN must be different from your PIN');
    expect(writes(sent)).toEqual([]);
  });

  it('saves a new duress PIN with the current PIN', async () => {
    const { card, user, sent } = renderCard(false);
    await user.click(card.getByRole('button', { name: 'Set duress PIN' }));
    await typePin(user, card.getByTestId('duress-current-input'), '4821');
    await typePin(user, card.getByTestId('duress-new-input'), '1470');
    await user.click(card.getByRole('button', { name: 'Save duress PIN' }));
    expect(await screen.findByText('Duress PIN saved')).toBeTruthy();
    expect(writes(sent)).toEqual([{ method: 'PUT', path: '/api/users/7/duress-pin', body: { currentPin: '4821', duressPin: '1470' } }]);
  });

  it('removes it with the current PIN alone, and says so when that PIN is wrong', async () => {
    const { card, user, sent } = renderCard(true, {
      'PUT /api/users/7/duress-pin': { status: 400, body: { message: 'Incorrect PIN', field: 'currentPin' } },
    });
    await user.click(card.getByRole('button', { name: 'Remove' }));
    expect(card.queryByTestId('duress-new-input')).toBeNull();
    await typePin(user, card.getByTestId('duress-current-input'), '0000');
    await user.click(card.getByRole('button', { name: 'Remove duress PIN' }));
    expect((await card.findByTestId('duress-pin-error')).textContent).toBe('Incorrect PIN. Please try again.');
    expect(writes(sent)).toEqual([{ method: 'PUT', path: '/api/users/7/duress-pin', body: { currentPin: '0000', duressPin: null } }]);
  });
});
