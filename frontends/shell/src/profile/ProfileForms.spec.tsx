/** @jest-environment jsdom */
import { afterEach, describe, expect, it } from '@jest/globals';
import { screen, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import type { User } from '@lws/fe-ui';
import { renderScreen, resetScreen, writes, type FakeRoutes } from '@lws/fe-ui/testing';
import { AwayCard } from './AwayCard';
import { ContactSettingsCard } from './ContactSettingsCard';
import { MedicalInfoCard } from './MedicalInfoCard';

// The profile's settings, medical information and away forms check with the gateway's own schemas
// through react-hook-form, with no server: what the user reads, and what is sent.

const ANN: User = { id: 7, username: 'ann', name: 'Ann Lone', role: 'worker', phone: '+447911123456' };
let reloads = 0;
const reload = async () => {
  reloads += 1;
};

afterEach(() => {
  resetScreen();
  reloads = 0;
});

const renderForm = (card: ReactNode, routes: FakeRoutes = {}) => renderScreen(card, { signedInAs: ANN, routes });

describe('Emergency Contact Settings', () => {
  it("says why a contact number is refused, in the gateway's words, and sends nothing", async () => {
    const { user, sent } = renderForm(<ContactSettingsCard userId={7} settings={null} checkInInterval={60} onSaved={reload} />);
    const form = within(screen.getByTestId('profile-settings'));
    await user.type(form.getByLabelText('Primary Contact'), '12345');
    await user.type(form.getByLabelText('Secondary Contact (optional)'), 'call 0161 496 0000');
    await user.click(form.getByRole('button', { name: 'Save Settings' }));
    expect((await form.findByTestId('settings-primary-error')).textContent).toBe('Phone number is too short');
    expect(form.getByTestId('settings-secondary-error').textContent).toBe('Please enter a valid phone number, e.g. +447700900123');
    expect(writes(sent)).toEqual([]);
  });

  it('creates the settings with the interval as a number and a blank second contact as none', async () => {
    const { user, sent } = renderForm(<ContactSettingsCard userId={7} settings={null} checkInInterval={60} onSaved={reload} />, {
      'POST /api/settings': { status: 201, body: {} },
    });
    const form = within(screen.getByTestId('profile-settings'));
    await user.type(form.getByLabelText('Primary Contact'), ' 07911 123456 ');
    await user.selectOptions(form.getByLabelText('Check-in Interval'), '120');
    await user.click(form.getByRole('button', { name: 'Save Settings' }));
    expect(await screen.findByText('Check-ins are due every 2 hours.')).toBeTruthy();
    expect(writes(sent)).toEqual([
      {
        method: 'POST',
        path: '/api/settings',
        body: { userId: 7, primaryContact: '07911 123456', secondaryContact: null, checkInInterval: 120 },
      },
    ]);
    expect(reloads).toBe(1);
  });

  it('updates saved settings in place', async () => {
    const saved = { userId: 7, primaryContact: '+447911123456', secondaryContact: '+447911654321', checkInInterval: 30 };
    const { user, sent } = renderForm(<ContactSettingsCard userId={7} settings={saved} checkInInterval={30} onSaved={reload} />, {
      'PATCH /api/users/7/settings': { body: {} },
    });
    const form = within(screen.getByTestId('profile-settings'));
    expect((form.getByLabelText('Check-in Interval') as HTMLSelectElement).value).toBe('30');
    await user.click(form.getByRole('button', { name: 'Save Settings' }));
    expect(await screen.findByText('Check-ins are due every 30 minutes.')).toBeTruthy();
    expect(writes(sent)).toEqual([
      {
        method: 'PATCH',
        path: '/api/users/7/settings',
        body: { primaryContact: '+447911123456', secondaryContact: '+447911654321', checkInInterval: 30 },
      },
    ]);
  });

  it("offers only the intervals the worker's team allows, starting on the team's default", async () => {
    const { user, sent } = renderForm(
      <ContactSettingsCard userId={7} settings={null} checkInInterval={30} allowedIntervals={[30, 60]} onSaved={reload} />,
      {
        'POST /api/settings': { status: 201, body: {} },
      },
    );
    const form = within(screen.getByTestId('profile-settings'));
    const select = form.getByLabelText('Check-in Interval') as HTMLSelectElement;
    expect([...select.options].map((o) => o.textContent)).toEqual(['30 minutes', '1 hour']);
    expect(select.value).toBe('30');
    await user.type(form.getByLabelText('Primary Contact'), '07911 123456');
    await user.click(form.getByRole('button', { name: 'Save Settings' }));
    expect(await screen.findByText('Check-ins are due every 30 minutes.')).toBeTruthy();
    expect(writes(sent)).toEqual([
      {
        method: 'POST',
        path: '/api/settings',
        body: { userId: 7, primaryContact: '07911 123456', secondaryContact: null, checkInInterval: 30 },
      },
    ]);
  });

  it("puts the gateway's refusal of an interval the team does not allow under the field", async () => {
    const saved = { userId: 7, primaryContact: '+447911123456', secondaryContact: null, checkInInterval: 60 };
    const refusal = 'Check-in interval must be 30 minutes for team North';
    const { user } = renderForm(<ContactSettingsCard userId={7} settings={saved} checkInInterval={60} onSaved={reload} />, {
      'PATCH /api/users/7/settings': { status: 400, body: { message: refusal, field: 'checkInInterval' } },
    });
    const form = within(screen.getByTestId('profile-settings'));
    await user.click(form.getByRole('button', { name: 'Save Settings' }));
    expect((await form.findByTestId('settings-interval-error')).textContent).toBe(refusal);
  });
});

describe('Medical Information', () => {
  it('saves the text as typed', async () => {
    const { user, sent } = renderForm(<MedicalInfoCard userId={7} medicalInfo="Asthma" onSaved={reload} />, {
      'PATCH /api/users/7': { body: ANN },
    });
    const form = within(screen.getByTestId('profile-medical'));
    await user.type(form.getByLabelText('Medical Information'), ', carries an inhaler');
    await user.click(form.getByRole('button', { name: 'Save Medical Information' }));
    expect(await screen.findByText('Medical information updated')).toBeTruthy();
    expect(writes(sent)).toEqual([{ method: 'PATCH', path: '/api/users/7', body: { medicalInfo: 'Asthma, carries an inhaler' } }]);
  });

  it("puts the gateway's refusal under the field", async () => {
    const { user } = renderForm(<MedicalInfoCard userId={7} medicalInfo="" onSaved={reload} />, {
      'PATCH /api/users/7': { status: 400, body: { message: 'Medical information must be at most 2000 characters', field: 'medicalInfo' } },
    });
    const form = within(screen.getByTestId('profile-medical'));
    await user.type(form.getByLabelText('Medical Information'), 'x');
    await user.click(form.getByRole('button', { name: 'Save Medical Information' }));
    expect((await form.findByTestId('medical-info-error')).textContent).toBe('Medical information must be at most 2000 characters');
  });
});

describe('Away', () => {
  it('asks for a date and time when the picker is empty, and sends the chosen local time as an instant', async () => {
    const { user, sent } = renderForm(<AwayCard userId={7} awayUntil={null} onChanged={reload} />, {
      'POST /api/users/7/away': { body: {} },
    });
    const card = within(screen.getByTestId('away-card'));
    const until = card.getByLabelText('Away until');
    await user.clear(until);
    await user.click(card.getByRole('button', { name: 'Set away' }));
    expect(await card.findByText('Choose a date and time')).toBeTruthy();
    expect(writes(sent)).toEqual([]);

    await user.type(until, '2030-06-01T09:30');
    await user.click(card.getByRole('button', { name: 'Set away' }));
    expect(await screen.findByText('Away set')).toBeTruthy();
    expect(writes(sent)).toEqual([
      { method: 'POST', path: '/api/users/7/away', body: { until: new Date('2030-06-01T09:30').toISOString() } },
    ]);
    expect(reloads).toBe(1);
  });
});
