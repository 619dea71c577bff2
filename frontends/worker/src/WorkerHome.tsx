import { useEffect, useRef, useState } from 'react';
import { Alert, ApiError, Button, api, failureField, serverNow, useToast, type User } from '@lws/fe-ui';
import { checkInId, parseShiftState, type ShiftState } from '@lws/fe-ui/shifts';
import { DEFAULT_LOCATION } from '@lws/rules';
import { CheckInCard } from './check-in/CheckInCard';
import { EmergencyCard } from './emergency/EmergencyCard';
import { LoadingSkeleton } from './LoadingSkeleton';
import { useLocationOptions } from './locations/useLocationOptions';
import { INCORRECT_PIN_TEXT, PinVerificationDialog, type PinPurpose } from './pin/PinVerificationDialog';
import { ShiftStatusCard, type ShiftBusy } from './shift/ShiftStatusCard';
import { useWorkerShift } from './shift/useWorkerShift';
import { StatusCard } from './status/StatusCard';

/** Spec section 9: the worker's record is fetched again 300 ms after a shift change; the busy flag clears 300 ms after. */
export const SHIFT_SETTLE_MS = 300;

/** Spec section 8: 'Server returned {status}: {body}', or the fallback when no server answered. */
function shiftFailureText(error: unknown, verb: 'starting' | 'ending'): string {
  if (error instanceof ApiError) return `Server returned ${error.status}: ${error.bodyText || error.statusText}`;
  return `There was a problem ${verb} your shift. Please try again.`;
}

/** The server refused the PIN itself (rather than being locked, or failing). */
function isWrongPin(error: unknown): boolean {
  return error instanceof ApiError && error.status === 400 && (failureField(error) ?? 'pin') === 'pin';
}

function isLockedOut(error: unknown): boolean {
  return error instanceof ApiError && error.status === 423;
}

function idempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** A check-in answer must name the check-in and the next deadline (spec section 5). */
function parseCheckIn(body: unknown, previous: ShiftState, location: string): ShiftState {
  const v = body && typeof body === 'object' ? (body as Record<string, unknown>) : null;
  if (!v) throw new Error('Invalid response from server');
  const id = checkInId(v.id);
  if (!id || typeof v.nextCheckInTime !== 'string') throw new Error('Server returned incomplete check-in data');
  const fromServer = parseShiftState(v.user);
  if (fromServer.onShift && fromServer.latestCheckIn?.id === id) return fromServer;
  return {
    ...previous,
    latestCheckIn: { id, timestamp: typeof v.timestamp === 'string' ? v.timestamp : serverNow().toISOString(), location, nextCheckInTime: v.nextCheckInTime },
    nextCheckInTime: v.nextCheckInTime,
  };
}

/**
 * The worker's home (spec section 2): shift, status, CHECK IN and emergency. Every PIN is checked
 * by the server; every deadline comes from it. A shift start shows at once (optimistically) and is
 * confirmed by the server's answer; ending a shift waits for the server to accept the PIN, so the
 * screen never shows a worker off duty who is still on shift.
 */
export function WorkerHome({ user }: { user: User }) {
  const { toast } = useToast();
  const [busy, setBusy] = useState<ShiftBusy>(null);
  const [pinFor, setPinFor] = useState<PinPurpose | null>(null);
  const [pinError, setPinError] = useState<string | null>(null);
  const [pinBusy, setPinBusy] = useState(false);
  const [checkingIn, setCheckingIn] = useState(false);
  const { load, reload, set } = useWorkerShift(user.id, { paused: busy !== null || pinBusy });
  const locations = useLocationOptions();
  const timers = useRef(new Set<ReturnType<typeof setTimeout>>());

  useEffect(() => {
    const pending = timers.current;
    return () => pending.forEach(clearTimeout);
  }, []);

  const later = (fn: () => void) => {
    const timer = setTimeout(() => {
      timers.current.delete(timer);
      fn();
    }, SHIFT_SETTLE_MS);
    timers.current.add(timer);
  };

  if (load.state === 'loading') return <LoadingSkeleton />;

  const shift = load.state === 'ready' ? load.shift : null;

  const closePin = () => {
    setPinFor(null);
    setPinError(null);
  };

  const refusedPin = (error: unknown): boolean => {
    if (isWrongPin(error)) {
      setPinError(INCORRECT_PIN_TEXT);
      toast({ title: 'Incorrect PIN', message: 'The PIN you entered is incorrect. Please try again.', type: 'error' });
      return true;
    }
    if (isLockedOut(error)) {
      const message = error instanceof ApiError ? (error.serverMessage ?? 'Too many incorrect PINs. Please wait and try again.') : '';
      setPinError(message);
      toast({ title: 'Incorrect PIN', message, type: 'error' });
      return true;
    }
    return false;
  };

  const startShift = async (location: string) => {
    if (!shift || busy) return;
    if (!location) {
      toast({ title: 'Location Required', message: 'Please select your current location to continue.', type: 'error' });
      return;
    }
    setBusy('starting');
    set({ onShift: true, location, shiftStartTime: serverNow().toISOString(), latestCheckIn: null, nextCheckInTime: null });
    try {
      set(parseShiftState(await api.post(`/api/users/${user.id}/start-shift`, { location })));
      toast({ title: 'Shift Started', message: 'Your shift has been started successfully. Remember to check in regularly.' });
    } catch (e) {
      console.error('Starting the shift failed', e);
      set(shift);
      toast({ title: 'Failed to Start Shift', message: shiftFailureText(e, 'starting'), type: 'error' });
    }
    later(() => void reload());
    later(() => setBusy(null));
  };

  const endShift = async (pin: string) => {
    setPinBusy(true);
    setBusy('ending');
    try {
      set(parseShiftState(await api.post(`/api/users/${user.id}/end-shift`, { pin })));
      closePin();
      toast({ title: 'Shift Ended', message: 'Your shift has been ended successfully. Stay safe!' });
    } catch (e) {
      console.error('Ending the shift failed', e);
      if (!refusedPin(e)) {
        closePin();
        toast({ title: 'Failed to End Shift', message: shiftFailureText(e, 'ending'), type: 'error' });
      }
    } finally {
      setPinBusy(false);
    }
    later(() => void reload());
    later(() => setBusy(null));
  };

  const checkIn = async (pin: string) => {
    if (!shift) return;
    if (!(user.id > 0)) {
      toast({ title: 'Check-in failed', message: 'Invalid user ID for check-in', type: 'error' });
      return;
    }
    const location = shift.location ?? DEFAULT_LOCATION;
    setPinBusy(true);
    setCheckingIn(true);
    try {
      const body = await api.post('/api/check-ins', { userId: user.id, location, pin }, { headers: { 'Idempotency-Key': idempotencyKey() } });
      set(parseCheckIn(body, shift, location));
      closePin();
      toast({ title: 'Check-in successful', message: 'Your status has been updated. Stay safe!' });
      later(() => void reload());
    } catch (e) {
      console.error('Check-in failed', e);
      if (!refusedPin(e)) {
        closePin();
        toast({ title: 'Check-in failed', message: 'There was a problem checking in. Please try again.', type: 'error' });
        void reload();
      }
    } finally {
      setPinBusy(false);
      setCheckingIn(false);
    }
  };

  const onPin = (pin: string) => {
    setPinError(null);
    if (pinFor === 'end-shift') void endShift(pin);
    else if (pinFor === 'check-in') void checkIn(pin);
  };

  return (
    <>
      {shift ? (
        <>
          <ShiftStatusCard
            shift={shift}
            locations={locations}
            busy={busy}
            onStart={(location) => void startShift(location)}
            onEnd={() => setPinFor('end-shift')}
          />
          {shift.onShift ? (
            <>
              <StatusCard shift={shift} />
              <CheckInCard shift={shift} processing={checkingIn} onCheckIn={() => setPinFor('check-in')} />
            </>
          ) : null}
        </>
      ) : (
        <Alert variant="error" title="Status unavailable" data-testid="shift-error">
          <p>Your shift could not be loaded. Check your connection and try again.</p>
          <Button size="sm" variant="outline" onClick={() => void reload()}>
            Try again
          </Button>
        </Alert>
      )}
      <EmergencyCard userId={user.id} />
      <PinVerificationDialog purpose={pinFor} busy={pinBusy} error={pinError} onSubmit={onPin} onCancel={closePin} />
    </>
  );
}
