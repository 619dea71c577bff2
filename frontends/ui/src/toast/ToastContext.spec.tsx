/** @jest-environment jsdom */
import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { act, cleanup, render, screen } from '@testing-library/react';
import { TOAST_LIFETIME_MS, ToastProvider, useToast, type ToastContextValue } from './ToastContext';
import { ToastStack } from './ToastStack';

let api: ToastContextValue;
function Grab() {
  api = useToast();
  return null;
}

const emergency = { title: 'Emergency assistance requested', message: 'Your emergency contacts are being notified.', type: 'warning' };

afterEach(() => {
  cleanup();
  jest.useRealTimers();
});

describe('toasts', () => {
  it('shows the same news once however often it comes while shown (a double press), and again once it has gone', () => {
    jest.useFakeTimers();
    render(
      <ToastProvider>
        <Grab />
        <ToastStack />
      </ToastProvider>,
    );
    let first = 0;
    let second = 0;
    act(() => {
      first = api.toast(emergency);
      second = api.toast(emergency);
    });
    expect(second).toBe(first);
    expect(screen.getAllByText('Emergency assistance requested')).toHaveLength(1);

    // Other news still stacks.
    act(() => void api.toast({ title: 'Check-in successful' }));
    expect(screen.getByText('Check-in successful')).toBeTruthy();

    act(() => void jest.advanceTimersByTime(TOAST_LIFETIME_MS * 2));
    expect(screen.queryByText('Emergency assistance requested')).toBeNull();
    act(() => void api.toast(emergency));
    expect(screen.getAllByText('Emergency assistance requested')).toHaveLength(1);
  });
});
