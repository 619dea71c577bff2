/** @jest-environment jsdom */
import { afterEach, describe, expect, it } from '@jest/globals';
import { screen, within } from '@testing-library/react';
import { renderScreen, resetScreen, writes, type FakeRoutes } from '@lws/fe-ui/testing';
import { InboundSmsForm } from './InboundSmsForm';

const ROOT = { id: 1, username: 'root', name: 'Super Admin', role: 'superadmin' };

afterEach(resetScreen);

function renderForm(routes: FakeRoutes = {}) {
  const rendered = renderScreen(<InboundSmsForm />, { signedInAs: ROOT, routes });
  return { ...rendered, form: within(screen.getByTestId('inbound-sms-form')) };
}

describe('InboundSmsForm (react-hook-form with the gateway schema)', () => {
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
    expect(writes(sent)).toEqual([
      { method: 'POST', path: '/api/test-provider/inbound-sms', body: { from: '+447700900123', body: 'PIN 1234' } },
    ]);
  });
});
