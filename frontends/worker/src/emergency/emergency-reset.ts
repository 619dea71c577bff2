import { useCallback, useState } from 'react';
import type { ShiftState } from '@lws/fe-ui/shifts';

const storageKey = (userId: number) => `lws.emergencyReset.${userId}`;

function read(userId: number): string | null {
  try {
    return window.localStorage.getItem(storageKey(userId));
  } catch {
    return null;
  }
}

function write(userId: number, deadline: string | null) {
  try {
    if (deadline) window.localStorage.setItem(storageKey(userId), deadline);
    else window.localStorage.removeItem(storageKey(userId));
  } catch (e) {
    // Private browsing may refuse storage: the flag then lasts as long as the page.
    console.error('Storing the emergency reset failed', e);
  }
}

/**
 * The client's emergency-reset flag (spec section 4): after an emergency the server restarts the
 * worker's check-in timer, and the screen says 'Emergency reset active' instead of counting down as
 * usual. The flag remembers the deadline the emergency set, so it is over as soon as that deadline
 * is no longer the worker's (a normal check-in, the shift ended, here or on another device) and
 * once it has passed: an unanswered deadline after an emergency is overdue like any other.
 */
export function emergencyResetActive(shift: ShiftState | null, resetDeadline: string | null, now: Date): boolean {
  if (!shift?.onShift || !resetDeadline) return false;
  const current = shift.nextCheckInTime ?? shift.latestCheckIn?.nextCheckInTime ?? null;
  const reset = Date.parse(resetDeadline);
  return current !== null && Date.parse(current) === reset && now.getTime() < reset;
}

/** Whether the stored flag still names the worker's current deadline (else it is cleared). */
export function emergencyResetCurrent(shift: ShiftState, resetDeadline: string | null): boolean {
  if (!resetDeadline || !shift.onShift) return false;
  const current = shift.nextCheckInTime ?? shift.latestCheckIn?.nextCheckInTime ?? null;
  return current !== null && Date.parse(current) === Date.parse(resetDeadline);
}

/** The flag, kept per user in this browser so a reload does not drop it. */
export function useEmergencyReset(userId: number) {
  const [deadline, setDeadline] = useState<string | null>(() => read(userId));
  const set = useCallback(
    (next: string | null) => {
      write(userId, next);
      setDeadline(next);
    },
    [userId],
  );
  return [deadline, set] as const;
}
