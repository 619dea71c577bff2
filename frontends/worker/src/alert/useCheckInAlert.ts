import { useCallback, useEffect, useRef, useState } from 'react';
import { serverNow, useInterval, useServerTimeEvery } from '@lws/fe-ui';
import { statusUser, type ShiftState } from '@lws/fe-ui/shifts';
import { workerDeadline, workerOwnStatus } from '@lws/rules';
import { emergencyResetActive } from '../emergency/emergency-reset';
import { playAlertSound, unlockAlertSound } from './alert-sound';

/** Spec section 9: the overdue alert is rechecked every 60 s (and at the moment the countdown reaches zero). */
export const OVERDUE_RECHECK_MS = 60_000;
/** Spec section 9: the sound plays at 5 minutes remaining, and again only after more than 6 minutes remained. */
export const SOUND_AT_MS = 5 * 60_000;
export const SOUND_REARM_MS = 6 * 60_000;
const WATCH_MS = 1000;

/**
 * The alert flag (spec section 4): a worker on shift whose deadline is known (a check-in or the shift
 * start) and has passed on the server's clock. The emergency-reset state counts as safe.
 */
export function overdueAlert(shift: ShiftState | null, resetDeadline: string | null, now: Date): boolean {
  if (!shift?.onShift) return false;
  const user = statusUser(shift);
  if (!user.latestCheckIn && !shift.shiftStartTime) return false;
  return workerOwnStatus({ user, emergencyReset: emergencyResetActive(shift, resetDeadline, now) }, now) === 'overdue';
}

/**
 * Watches the worker's deadline: raises the check-in alert when it is overdue (checked every 60 s,
 * on every change of the shift, and the moment the countdown reaches zero) and plays the alert sound
 * once when 5 minutes remain.
 */
export function useCheckInAlert(shift: ShiftState | null, resetDeadline: string | null): boolean {
  const [alert, setAlert] = useState(false);
  const inputs = useRef({ shift, resetDeadline });
  inputs.current = { shift, resetDeadline };

  const recheck = useCallback(() => {
    const { shift: s, resetDeadline: r } = inputs.current;
    setAlert(overdueAlert(s, r, serverNow()));
  }, []);

  // Re-read every 60 s and whenever the server clock is measured again: the first measurement
  // may land after the shift did, and a device clock that runs slow must not hide an overdue check-in.
  const recheckedAt = useServerTimeEvery(OVERDUE_RECHECK_MS);
  useEffect(recheck, [recheck, recheckedAt, shift, resetDeadline]);

  const lastRemaining = useRef<number | null>(null);
  const soundArmed = useRef(true);
  useInterval(
    () => {
      const { shift: s } = inputs.current;
      if (!s?.onShift) {
        lastRemaining.current = null;
        soundArmed.current = true;
        return;
      }
      const now = serverNow();
      const remaining = workerDeadline({ user: statusUser(s) }, now).getTime() - now.getTime();
      const previous = lastRemaining.current;
      lastRemaining.current = remaining;
      if (previous !== null && previous > 0 && remaining <= 0) recheck();
      if (remaining > SOUND_REARM_MS) soundArmed.current = true;
      else if (soundArmed.current && remaining > 0 && remaining <= SOUND_AT_MS) {
        soundArmed.current = false;
        void playAlertSound();
      }
    },
    shift?.onShift ? WATCH_MS : null,
  );

  useEffect(() => {
    const unlock = () => unlockAlertSound();
    window.addEventListener('pointerdown', unlock, { once: true });
    window.addEventListener('keydown', unlock, { once: true });
    return () => {
      window.removeEventListener('pointerdown', unlock);
      window.removeEventListener('keydown', unlock);
    };
  }, []);

  return alert;
}
