/** @jest-environment jsdom */
import { afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { screen, waitFor, within } from '@testing-library/react';
import { renderScreen, resetScreen, supportDialogs, writes, type FakeRoutes } from '@lws/fe-ui/testing';
import { CreateUserCard } from './CreateUserCard';

const ADMIN = { id: 2, username: 'admin', name: 'Ada Min', role: 'admin' };
const SUPERADMIN = { id: 1, username: 'superadmin', name: 'Sue Per', role: 'superadmin' };

beforeAll(supportDialogs);

async function renderCard(routes: FakeRoutes = {}, signedInAs: typeof ADMIN = ADMIN) {
  const rendered = renderScreen(<CreateUserCard />, { signedInAs, routes });
  const form = await screen.findByTestId('create-user-form');
  return { ...rendered, form: within(form) };
}

afterEach(resetScreen);

describe('CreateUserCard (spec section 5; issue 14: react-hook-form with the gateway schema)', () => {
  it("names every broken rule under its field in the spec's words, sends nothing, and follows the input after", async () => {
    const { form, user, sent } = await renderCard();
    await user.type(form.getByLabelText('Username'), 'ab');
    await user.type(form.getByLabelText('Password'), '12345');
    await user.type(form.getByLabelText('Full Name'), 'A');
    await user.click(form.getByRole('button', { name: 'Create User' }));
    expect((await form.findByTestId('create-username-error')).textContent).toBe('Username must be at least 3 characters');
    expect(form.getByTestId('create-password-error').textContent).toBe('Password must be at least 6 characters');
    expect(form.getByTestId('create-name-error').textContent).toBe('Name must be at least 2 characters');
    expect(form.getByTestId('create-phone-error').textContent).toBe('Phone number must include country code');
    expect(writes(sent)).toEqual([]);

    const phone = form.getByLabelText('Phone Number');
    await user.clear(phone);
    await user.type(phone, '+3312345678');
    expect(form.getByTestId('create-phone-error').textContent).toBe('Phone should start with +44 for UK format');
    await user.clear(phone);
    await user.type(phone, '+44791112345');
    expect(form.getByTestId('create-phone-error').textContent).toBe('Phone number must be in format +44 followed by 10 digits');
    await user.type(phone, '6');
    expect(form.queryByTestId('create-phone-error')).toBeNull();
    expect(writes(sent)).toEqual([]);
  });

  it('sends what the gateway expects (lower-cased username, prepared phone, blanks left out) and empties the form', async () => {
    const { form, user, sent } = await renderCard({
      'POST /api/users': { status: 201, body: { user: { id: 9, name: 'Bo Field', username: 'bo.field' }, generatedPin: '4821' } },
    });
    await user.type(form.getByLabelText('Username'), ' Bo.Field ');
    await user.type(form.getByLabelText('Password'), 'secret1');
    await user.type(form.getByLabelText('Full Name'), 'Bo Field');
    const phone = form.getByLabelText('Phone Number');
    await user.clear(phone);
    await user.type(phone, '44 7911 123456');
    await user.click(form.getByRole('button', { name: 'Create User' }));
    expect((await screen.findByTestId('one-time-secret-value')).textContent).toBe('4821');
    expect(writes(sent)).toEqual([
      {
        method: 'POST',
        path: '/api/users',
        body: { username: 'bo.field', password: 'secret1', name: 'Bo Field', phone: '+447911123456', role: 'worker' },
      },
    ]);
    expect(screen.getByText('Bo Field (bo.field) has been created successfully.')).toBeTruthy();
    expect((form.getByLabelText('Username') as HTMLInputElement).value).toBe('');
    expect((form.getByLabelText('Phone Number') as HTMLInputElement).value).toBe('+44');
  });

  it("offers the superadmin the teams a new administrator will monitor, and sends those ticked; a worker's form has none", async () => {
    const { form, user, sent } = await renderCard(
      {
        'GET /api/teams': {
          status: 200,
          body: [
            { id: 3, name: 'North' },
            { id: 5, name: 'South' },
            { id: 8, name: 'West' },
          ],
        },
        'POST /api/users': { status: 201, body: { user: { id: 9, name: 'Ann Lone', username: 'ann' } } },
      },
      SUPERADMIN,
    );
    expect(form.queryByTestId('create-monitorTeamIds')).toBeNull();
    await user.type(form.getByLabelText('Username'), 'ann');
    await user.type(form.getByLabelText('Password'), 'secret1');
    await user.type(form.getByLabelText('Full Name'), 'Ann Lone');
    await user.type(form.getByLabelText('Phone Number'), '7911123456');
    await user.selectOptions(form.getByLabelText('User Role'), 'admin');
    const teams = within(form.getByRole('group', { name: 'Teams they will monitor' }));
    expect(await teams.findByText('With no team ticked they monitor none, and see no worker, until a team names them.')).toBeTruthy();
    await user.click(teams.getByLabelText('North'));
    await user.click(teams.getByLabelText('West'));
    // In their own language: Welsh.
    await user.selectOptions(form.getByLabelText('Language'), 'Cymraeg');
    await user.click(form.getByRole('button', { name: 'Create User' }));
    await waitFor(() =>
      expect(writes(sent)).toEqual([
        {
          method: 'POST',
          path: '/api/users',
          body: {
            username: 'ann',
            password: 'secret1',
            name: 'Ann Lone',
            phone: '+447911123456',
            role: 'admin',
            monitorTeamIds: [3, 8],
            language: 'cy',
          },
        },
      ]),
    );
  });

  it("puts the server's refusal under the field it names", async () => {
    const { form, user } = await renderCard({
      'POST /api/users': { status: 409, body: { statusCode: 409, message: 'Username already exists', field: 'username' } },
    });
    await user.type(form.getByLabelText('Username'), 'ann');
    await user.type(form.getByLabelText('Password'), 'secret1');
    await user.type(form.getByLabelText('Full Name'), 'Ann Lone');
    await user.type(form.getByLabelText('Phone Number'), '7911123456');
    await user.selectOptions(form.getByLabelText('User Role'), 'admin');
    expect(form.getByTestId('new-admin-teams-hint').textContent).toBe('They will monitor the same teams as you.');
    await user.click(form.getByRole('button', { name: 'Create User' }));
    await waitFor(() => expect(form.getByTestId('create-username-error').textContent).toBe('Username already exists'));
    expect(screen.getByText('Error Creating User')).toBeTruthy();
  });
});
