/** @jest-environment jsdom */
import { afterEach, describe, expect, it } from '@jest/globals';
import { screen, within } from '@testing-library/react';
import type { User } from '@lws/fe-ui';
import { renderScreen, resetScreen, writes, type FakeRoutes } from '@lws/fe-ui/testing';
import { UserInfoCard } from './UserInfoCard';

const ANN: User = { id: 7, username: 'ann', name: 'Ann Lone', role: 'worker', phone: '+447911123456' };

async function renderCard(routes: FakeRoutes = {}) {
  const screenState = renderScreen(<UserInfoCard user={ANN} team={{ name: 'North', monitors: ['Ada Min'] }} />, {
    signedInAs: ANN,
    routes,
  });
  await screenState.user.click(await screen.findByRole('button', { name: 'Edit Details' }));
  return { ...screenState, form: within(screen.getByTestId('profile-edit-form')) };
}

afterEach(resetScreen);

describe('UserInfoCard (spec section 5: react-hook-form with the gateway schema)', () => {
  it("checks name and phone by the spec before sending, in the gateway's words", async () => {
    const { form, user, sent } = await renderCard();
    const name = form.getByLabelText('Full Name');
    const phone = form.getByLabelText('Phone Number');
    expect((name as HTMLInputElement).value).toBe('Ann Lone');
    await user.clear(name);
    await user.type(name, 'A');
    await user.clear(phone);
    await user.type(phone, '+4479');
    await user.click(form.getByRole('button', { name: 'Save' }));
    expect((await form.findByTestId('profile-name-input-error')).textContent).toBe('Name is too short');
    expect(form.getByTestId('profile-phone-input-error').textContent).toBe('Phone number must include country code');
    await user.clear(phone);
    await user.type(phone, '+33612345678');
    expect(form.getByTestId('profile-phone-input-hint').textContent).toBe('Phone number MUST start with +44 (UK format)');
    expect(form.getByTestId('profile-phone-input-error').textContent).toBe('Phone number must start with +44 (UK format)');
    await user.clear(phone);
    await user.type(phone, '+4479111234567');
    expect(form.getByTestId('profile-phone-input-error').textContent).toBe('Phone number must be in format +44 followed by 10 digits');
    expect(writes(sent)).toEqual([]);
  });

  it('turns a typed 0 into +44 and saves the details, then shows them', async () => {
    const { form, user, sent } = await renderCard({
      'PATCH /api/users/7': { body: { ...ANN, name: 'Ann Field', phone: '+447911654321' } },
    });
    const name = form.getByLabelText('Full Name');
    const phone = form.getByLabelText('Phone Number') as HTMLInputElement;
    await user.clear(name);
    await user.type(name, '  Ann Field ');
    await user.clear(phone);
    await user.type(phone, '07911 654321');
    expect(phone.value).toBe('+447911654321');
    await user.click(form.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Your name and phone number have been saved.')).toBeTruthy();
    expect(writes(sent)).toEqual([{ method: 'PATCH', path: '/api/users/7', body: { name: 'Ann Field', phone: '+447911654321' } }]);
    expect(screen.queryByTestId('profile-edit-form')).toBeNull();
  });

  it("puts the server's refusal under the field it names and keeps the form open", async () => {
    const { form, user } = await renderCard({
      'PATCH /api/users/7': {
        status: 400,
        body: { statusCode: 400, message: 'Phone number must be in format +44 followed by 10 digits', field: 'phone' },
      },
    });
    await user.click(form.getByRole('button', { name: 'Save' }));
    expect((await form.findByTestId('profile-phone-input-error')).textContent).toBe(
      'Phone number must be in format +44 followed by 10 digits',
    );
    expect(screen.getByText('Update failed')).toBeTruthy();
    expect(screen.getByTestId('profile-edit-form')).toBeTruthy();
  });
});
