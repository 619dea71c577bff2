/** @jest-environment jsdom */
import { afterEach, describe, expect, it } from '@jest/globals';
import { act, cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { LanguageSwitch } from '../components/LanguageSwitch';
import { formatDateTime } from '../format/date-time';
import { deviceLanguage, i18n, LANGUAGES, languageName, setLanguage, useT } from './i18n';

function Emergency() {
  const t = useT();
  return <button type="button">{t('REQUEST EMERGENCY ASSISTANCE')}</button>;
}

afterEach(async () => {
  cleanup();
  localStorage.clear();
  await act(() => setLanguage('en'));
});

describe('languages', () => {
  it('speaks English and every language with a file, each named in itself', () => {
    expect(LANGUAGES).toEqual(['en', 'cy']);
    expect(LANGUAGES.map(languageName)).toEqual(['English', 'Cymraeg']);
  });

  it('shows a screen in Welsh once chosen, with dates in Welsh, and English again after', async () => {
    await act(() => setLanguage('cy'));
    expect(i18n.t('REQUEST EMERGENCY ASSISTANCE')).toBe('GOFYN AM GYMORTH BRYS');
    expect(i18n.t('Welcome, {{name}}', { name: 'Siân' })).toMatch(/Siân/);
    expect(formatDateTime('2026-11-28T15:31:00.000Z')).toBe('28 Tach 2026, 15:31');
    expect(document.documentElement.lang).toBe('cy');
    await act(() => setLanguage('en'));
    expect(formatDateTime('2026-11-28T15:31:00.000Z')).toBe('28 Nov 2026, 15:31');
    // A language LWS does not speak is English.
    await act(() => setLanguage('fr'));
    expect(i18n.language).toBe('en');
  });

  it('the switch changes what a screen says at once, and this device keeps the choice', async () => {
    const user = userEvent.setup();
    render(
      <>
        <LanguageSwitch />
        <Emergency />
      </>,
    );
    expect(screen.getByRole('button', { name: 'REQUEST EMERGENCY ASSISTANCE' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Cymraeg' }));
    expect(await screen.findByRole('button', { name: 'GOFYN AM GYMORTH BRYS' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Cymraeg' }).getAttribute('aria-pressed')).toBe('true');
    expect(deviceLanguage()).toBe('cy');
  });
});
