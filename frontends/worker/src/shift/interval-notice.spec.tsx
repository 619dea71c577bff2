/** @jest-environment jsdom */
import { afterEach, describe, expect, it } from '@jest/globals';
import { act, screen } from '@testing-library/react';
import { useState } from 'react';
import { renderScreen, resetScreen } from '@lws/fe-ui/testing';
import { useIntervalNotice } from './interval-notice';

const ANN = { id: 7, username: 'ann', name: 'Ann Lone', role: 'worker' };
let setMinutes: (m: number | null) => void = () => undefined;

function Home({ first }: { first: number | null }) {
  const [minutes, set] = useState(first);
  setMinutes = set;
  useIntervalNotice(7, minutes);
  return null;
}

afterEach(() => {
  resetScreen();
  window.localStorage.clear();
});

describe('the worker is told when their check-in interval changes', () => {
  it('says nothing the first time, then tells a change made while the screen is open', async () => {
    renderScreen(<Home first={240} />, { signedInAs: ANN });
    await act(async () => undefined);
    expect(screen.queryByText('Check-in interval changed')).toBeNull();
    act(() => setMinutes(30));
    expect(
      await screen.findByText('You now check in every 30 minutes, counted from your next check-in. Your current deadline stays as it is.'),
    ).toBeTruthy();
  });

  it('tells a change made while the app was closed when it next opens, once', async () => {
    window.localStorage.setItem('lws.checkInInterval.7', '240');
    renderScreen(<Home first={null} />, { signedInAs: ANN });
    act(() => setMinutes(30));
    expect(await screen.findByText('Check-in interval changed')).toBeTruthy();
    resetScreen();
    renderScreen(<Home first={30} />, { signedInAs: ANN });
    await act(async () => undefined);
    expect(screen.queryByText('Check-in interval changed')).toBeNull();
  });
});
