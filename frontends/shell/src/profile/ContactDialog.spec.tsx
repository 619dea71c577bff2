/** @jest-environment jsdom */
import { afterEach, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { act, screen, within } from '@testing-library/react';
import { setLanguage } from '@lws/fe-ui';
import { renderScreen, resetScreen, supportDialogs, writes, type FakeRoutes } from '@lws/fe-ui/testing';
import { ContactDialog } from './ContactDialog';

beforeAll(supportDialogs);
afterEach(async () => {
  resetScreen();
  await act(() => setLanguage('en'));
});

function renderDialog(routes: FakeRoutes = {}, contact: Parameters<typeof ContactDialog>[0]['contact'] = null, language = 'en') {
  const onSaved = jest.fn();
  const rendered = renderScreen(<ContactDialog userId={7} contact={contact} onClose={() => undefined} onSaved={onSaved} />, {
    signedInAs: { id: 7, username: 'ann', name: 'Ann Lone', role: 'worker', language },
    routes,
  });
  return { ...rendered, onSaved, dialog: within(screen.getByTestId('contact-dialog')) };
}

describe('ContactDialog (spec section 5: react-hook-form with the gateway schema)', () => {
  it("names each missing or broken field in the gateway's words and sends nothing", async () => {
    const { dialog, user, sent, onSaved } = renderDialog();
    await user.type(dialog.getByLabelText('Name'), 'B');
    await user.click(dialog.getByRole('button', { name: 'Save Contact' }));
    expect((await dialog.findByTestId('contact-name-error')).textContent).toBe('Name is too short');
    expect(dialog.getByTestId('contact-phone-error').textContent).toBe('Phone number must include country code');
    expect(dialog.getByTestId('contact-relation-error').textContent).toBe('Relation is required');
    expect(writes(sent)).toEqual([]);
    expect(onSaved).not.toHaveBeenCalled();
  });

  it('adds a contact with the number in +44 form, for the worker it belongs to', async () => {
    const { dialog, user, sent, onSaved } = renderDialog({ 'POST /api/emergency-contacts': { status: 201, body: { id: 3 } } });
    await user.type(dialog.getByLabelText('Name'), ' Cy Field ');
    const phone = dialog.getByLabelText('Phone Number') as HTMLInputElement;
    await user.clear(phone);
    await user.type(phone, '07911 654321');
    await user.type(dialog.getByLabelText('Relation'), 'Brother');
    await user.click(dialog.getByRole('button', { name: 'Save Contact' }));
    expect(await screen.findByText('Cy Field will be told if you raise an emergency.')).toBeTruthy();
    expect(writes(sent)).toEqual([
      {
        method: 'POST',
        path: '/api/emergency-contacts',
        body: { name: 'Cy Field', phone: '+447911654321', relation: 'Brother', userId: 7 },
      },
    ]);
    expect(onSaved).toHaveBeenCalledTimes(1);
  });

  it("edits a contact in place and shows the server's refusal under its field", async () => {
    const contact = { id: 3, userId: 7, name: 'Cy Field', phone: '+447911654321', relation: 'Brother' };
    const { dialog, user, sent, onSaved } = renderDialog(
      {
        'PATCH /api/emergency-contacts/3': {
          status: 400,
          body: { statusCode: 400, message: 'Please enter a valid phone number, e.g. +447700900123', field: 'phone' },
        },
      },
      contact,
    );
    expect((dialog.getByLabelText('Relation') as HTMLInputElement).value).toBe('Brother');
    await user.click(dialog.getByRole('button', { name: 'Save Contact' }));
    expect((await dialog.findByTestId('contact-phone-error')).textContent).toBe('Please enter a valid phone number, e.g. +447700900123');
    expect(writes(sent)).toEqual([
      {
        method: 'PATCH',
        path: '/api/emergency-contacts/3',
        body: { name: 'Cy Field', phone: '+447911654321', relation: 'Brother', userId: 7 },
      },
    ]);
    expect(onSaved).not.toHaveBeenCalled();
  });

  describe("in the user's language (the gateway's schema speaks English: the dialog translates its words)", () => {
    it('says why each field is refused, and what the phone field still lacks, in Welsh', async () => {
      await act(() => setLanguage('cy'));
      const { dialog, user, sent } = renderDialog({}, null, 'cy');
      await user.type(dialog.getByTestId('contact-name'), 'B');
      await user.type(dialog.getByTestId('contact-phone'), '07911');
      expect(dialog.getByTestId('contact-phone-hint').textContent).toBe('+44 ac yna 10 digid');
      await user.click(dialog.getByTestId('contact-save'));
      expect((await dialog.findByTestId('contact-name-error')).textContent).toBe("Mae'r enw'n rhy fyr");
      expect(dialog.getByTestId('contact-phone-error').textContent).toBe("Rhaid i'r rhif ffôn gynnwys cod gwlad");
      expect(dialog.getByTestId('contact-relation-error').textContent).toBe('Mae angen perthynas');
      expect(writes(sent)).toEqual([]);
    });

    it("shows the server's refusal, one of the schema's messages, in Welsh", async () => {
      await act(() => setLanguage('cy'));
      const contact = { id: 3, userId: 7, name: 'Cy Field', phone: '+447911654321', relation: 'Brother' };
      const { dialog, user } = renderDialog(
        {
          'PATCH /api/emergency-contacts/3': {
            status: 400,
            body: { statusCode: 400, message: 'Please enter a valid phone number, e.g. +447700900123', field: 'phone' },
          },
        },
        contact,
        'cy',
      );
      await user.click(dialog.getByTestId('contact-save'));
      expect((await dialog.findByTestId('contact-phone-error')).textContent).toBe('Rhowch rif ffôn dilys, e.e. +447700900123');
    });
  });
});
