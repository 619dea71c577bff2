/** @jest-environment jsdom */
import { afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { screen, within } from '@testing-library/react';
import { renderScreen, resetScreen, supportDialogs, writes, type FakeRoutes } from '@lws/fe-ui/testing';
import { KiosksCard } from './KiosksCard';

const ADMIN = { id: 2, username: 'ada', name: 'Ada Min', role: 'admin' };

beforeAll(supportDialogs);
afterEach(resetScreen);

async function renderCard(routes: FakeRoutes = {}) {
  const rendered = renderScreen(<KiosksCard />, {
    signedInAs: ADMIN,
    routes: { 'GET /api/kiosks': { body: [] }, 'GET /api/kiosks/current': { body: { enrolled: false } }, ...routes },
  });
  expect(await screen.findByTestId('kiosks-empty')).toBeTruthy();
  return { ...rendered, form: within(screen.getByTestId('kiosk-enrol-form')) };
}

describe('KiosksCard enrolment (issue 14: react-hook-form with the gateway schema)', () => {
  it("names each missing field in the gateway's words and sends nothing", async () => {
    const { form, user, sent } = await renderCard();
    await user.type(form.getByLabelText('Location'), '   ');
    await user.click(form.getByRole('button', { name: 'Enrol This Device' }));
    expect((await form.findByTestId('kiosk-name-error')).textContent).toBe('Kiosk name is required');
    expect(form.getByTestId('kiosk-location-error').textContent).toBe('Location is required');
    expect(writes(sent)).toEqual([]);
  });

  it('enrols this device with the trimmed name and location, then lists it', async () => {
    let enrolled = false;
    const { form, user, sent } = await renderCard({
      'POST /api/kiosks': () => {
        enrolled = true;
        return { status: 201, body: { id: 4, name: 'Reception tablet', location: 'Ground floor' } };
      },
      'GET /api/kiosks': () => ({
        body: enrolled ? [{ id: 4, name: 'Reception tablet', location: 'Ground floor', enrolledAt: '2026-11-27T09:00:00Z' }] : [],
      }),
    });
    await user.type(form.getByLabelText('Kiosk Name'), '  Reception tablet ');
    await user.type(form.getByLabelText('Location'), ' Ground floor');
    await user.click(form.getByRole('button', { name: 'Enrol This Device' }));
    expect(await screen.findByText('This device is now the kiosk "Reception tablet".')).toBeTruthy();
    expect(writes(sent)).toEqual([{ method: 'POST', path: '/api/kiosks', body: { name: 'Reception tablet', location: 'Ground floor' } }]);
    expect((await screen.findAllByTestId('kiosk-row')).map((row) => row.getAttribute('data-kiosk-name'))).toEqual(['Reception tablet']);
    expect((form.getByLabelText('Kiosk Name') as HTMLInputElement).value).toBe('');
  });
});
