/** @jest-environment jsdom */
import { afterEach, describe, expect, it } from '@jest/globals';
import { screen, within } from '@testing-library/react';
import type { User } from '@lws/fe-ui';
import { renderScreen, resetScreen, writes, type FakeRoutes } from '@lws/fe-ui/testing';
import { ChangePasswordCard } from './ChangePasswordCard';

const ANN: User = { id: 7, username: 'ann', name: 'Ann Lone', role: 'worker', phone: '+447911123456' };

afterEach(resetScreen);

function renderCard(routes: FakeRoutes = {}) {
  const rendered = renderScreen(<ChangePasswordCard temporary={false} />, { signedInAs: ANN, routes });
  const form = within(screen.getByTestId('password-form'));
  return { ...rendered, form, error: (testId: string) => form.queryByTestId(testId)?.textContent ?? null };
}

describe('ChangePasswordCard (spec section 5: react-hook-form with the gateway schema)', () => {
  it('says which rule a new password breaks as it is typed, and checks the confirmation only once it is touched', async () => {
    const { form, user, sent, error } = renderCard();
    const next = form.getByLabelText('New Password');
    await user.type(next, 'abc');
    expect(error('password-new-error')).toBe('New password must be at least 6 characters');
    expect(error('password-confirm-error')).toBeNull();
    await user.type(next, 'def');
    expect(error('password-new-error')).toBe('Password must contain at least one uppercase letter');
    await user.clear(next);
    await user.type(next, 'Abcdef');
    expect(error('password-new-error')).toBe('Password must contain at least one number');
    await user.type(next, '1');
    expect(error('password-new-error')).toBeNull();

    await user.type(form.getByLabelText('Confirm New Password'), 'Abcdef2');
    expect(error('password-confirm-error')).toBe("Passwords don't match");
    // Changing the new password to match clears the confirmation's error.
    await user.clear(next);
    await user.type(next, 'Abcdef2');
    expect(error('password-confirm-error')).toBeNull();

    await user.click(form.getByRole('button', { name: 'Change Password' }));
    expect(await form.findByText('Current password is required')).toBeTruthy();
    expect(writes(sent)).toEqual([]);
  });

  it('sends the trimmed current and new password, never the confirmation, and empties the form', async () => {
    const { form, user, sent } = renderCard({ 'POST /api/auth/change-password': { body: { message: 'Password changed' } } });
    await user.type(form.getByLabelText('Current Password'), ' old-Secret1 ');
    await user.type(form.getByLabelText('New Password'), ' Chosen123 ');
    await user.type(form.getByLabelText('Confirm New Password'), 'Chosen123');
    await user.click(form.getByRole('button', { name: 'Change Password' }));
    expect(await screen.findByText('Password Changed')).toBeTruthy();
    expect(writes(sent)).toEqual([
      { method: 'POST', path: '/api/auth/change-password', body: { currentPassword: 'old-Secret1', newPassword: 'Chosen123' } },
    ]);
    expect((form.getByLabelText('New Password') as HTMLInputElement).value).toBe('');
  });

  it("puts the gateway's answer under the field it names", async () => {
    const { form, user } = renderCard({
      'POST /api/auth/change-password': { status: 400, body: { message: 'Current password is incorrect', field: 'currentPassword' } },
    });
    await user.type(form.getByLabelText('Current Password'), 'wrong');
    await user.type(form.getByLabelText('New Password'), 'Chosen123');
    await user.type(form.getByLabelText('Confirm New Password'), 'Chosen123');
    await user.click(form.getByRole('button', { name: 'Change Password' }));
    expect(await form.findByText('Current password is incorrect')).toBeTruthy();
    expect(await screen.findByText('Password Change Failed')).toBeTruthy();
  });
});
