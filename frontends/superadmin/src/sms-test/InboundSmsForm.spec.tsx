/** @jest-environment jsdom */
import { afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeApi, ScreenProviders, signedInHint, writes, type FakeRoutes } from '@lws/fe-ui/testing';
import { InboundSmsForm } from './InboundSmsForm';

const ROOT = { id: 1, username: 'root', name: 'Super Admin', role: 'superadmin' };
let restore = () => undefined as void;

beforeAll(signedInHint);
afterEach(() => {
  cleanup();
  restore();
});

function renderForm(routes: FakeRoutes = {}) {
  const fake = fakeApi({ 'GET /api/auth/me': { body: ROOT }, ...routes });
  restore = fake.restore;
  render(
    <ScreenProviders>
      <InboundSmsForm />
    </ScreenProviders>,
  );
  return { ...fake, user: userEvent.setup(), form: within(screen.getByTestId('inbound-sms-form')) };
}

describe('InboundSmsForm (issue 14: react-hook-form with the gateway schema)', () => {
  it("refuses a number that is not international, in the gateway's words, and sends nothing", async () => {
    const { form, user, sent } = renderForm();
    await user.type(form.getByLabelText('From (phone number)'), '07700 900123');
    await user.type(form.getByLabelText('Message'), '1234');
    await user.click(form.getByRole('button', { name: 'Send text' }));
    expect((await form.findByTestId('inbound-sms-from-error')).textContent).toBe('Please enter a valid phone number');
    expect(writes(sent)).toEqual([]);
  });

  it('texts LWS with the number without its spaces, and shows the reply', async () => {
    const { form, user, sent } = renderForm({ 'POST /api/test-provider/inbound-sms': { body: { reply: 'LWS: checked in at 10:00.' } } });
    await user.type(form.getByLabelText('From (phone number)'), '+44 7700 900123');
    await user.type(form.getByLabelText('Message'), ' PIN 1234 ');
    await user.click(form.getByRole('button', { name: 'Send text' }));
    expect((await form.findByTestId('inbound-sms-reply')).textContent).toBe('LWS replied: LWS: checked in at 10:00.');
    expect(writes(sent)).toEqual([{ method: 'POST', path: '/api/test-provider/inbound-sms', body: { from: '+447700900123', body: 'PIN 1234' } }]);
  });
});
