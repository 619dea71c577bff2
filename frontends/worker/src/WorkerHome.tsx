import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import {
  Alert,
  ApiError,
  Button,
  api,
  failureField,
  failureMessage,
  formatTime,
  msg,
  serverNow,
  useT,
  useToast,
  type User,
} from '@lws/fe-ui';
import { checkInId, parseShiftState, type ShiftState } from '@lws/fe-ui/shifts';
import { DEFAULT_LOCATION } from '@lws/rules';
import { CheckInAlertDialog, type AlertOutcome } from './alert/CheckInAlertDialog';
import { useCheckInAlert } from './alert/useCheckInAlert';
import { CheckInCard } from './check-in/CheckInCard';
import { CheckInRequestAlert } from './check-in/CheckInRequestAlert';
import { devicePosition, within, type DevicePosition } from './check-in/device-position';
import { KeptCheckInCard } from './check-in/KeptCheckInCard';
import { keptCheckIns, worthKeeping } from './check-in/kept-check-in';
import { useCheckInRequest } from './check-in/useCheckInRequest';
import { EmergencyCard } from './emergency/EmergencyCard';
import { EmergencyScreen } from './emergency/EmergencyScreen';
import { useOwnEmergency, type OwnEmergency } from './emergency/useOwnEmergency';
import { emergencyResetCurrent, useEmergencyReset } from './emergency/emergency-reset';
import { LoadingSkeleton } from './LoadingSkeleton';
import { useLocationOptions } from './locations/useLocationOptions';
import { AlarmMessagesCard } from './messages/AlarmMessagesCard';
import { INCORRECT_PIN_TEXT, PinVerificationDialog, type PinPurpose } from './pin/PinVerificationDialog';
import { CoverWarningAlert, type CoverWarning } from './shift/CoverWarningAlert';
import { ShiftStatusCard, type ShiftBusy } from './shift/ShiftStatusCard';
import { extensionsOf, useWorkerShift } from './shift/useWorkerShift';
import { useIntervalNotice } from './shift/interval-notice';
import type { Translate } from './shift/interval-text';
import { StatusCard } from './status/StatusCard';
import { StartVisitDialog, type VisitStartOutcome } from './visit/StartVisitDialog';
import { StartVisitCard, VisitCard } from './visit/VisitCard';
import type { StartVisitBody } from './visit/visit-rules';

/** Spec section 9: the worker's record is fetched again 300 ms after a shift change; the busy flag clears 300 ms after. */
export const SHIFT_SETTLE_MS = 300;

/** Spec section 8: 'Server returned {status}: {body}', or the fallback when no server answered. */
function shiftFailureText(error: unknown, verb: 'starting' | 'ending', t: Translate): string {
  if (error instanceof ApiError)
    return t('Server returned {{status}}: {{body}}', { status: error.status, body: error.bodyText || error.statusText });
  return verb === 'starting'
    ? t('There was a problem starting your shift. Please try again.')
    : t('There was a problem ending your shift. Please try again.');
}

/** The server refused the PIN itself (rather than being locked, or failing). */
function isWrongPin(error: unknown): boolean {
  return error instanceof ApiError && error.status === 400 && (failureField(error) ?? 'pin') === 'pin';
}

/**
 * The team refuses a shift while nobody is on call for part of it (409 naming `cover`): the
 * server's own words, which say from when and whom to call.
 */
function isCoverRefusal(error: unknown): boolean {
  return error instanceof ApiError && failureField(error) === 'cover';
}

function isLockedOut(error: unknown): boolean {
  return error instanceof ApiError && error.status === 423;
}

/** The "+15 min" presses left that an answer states (a visit's start or end does); null when it states none. */
function extensionsStated(body: unknown): number | null {
  const stated = body && typeof body === 'object' ? (body as { extensionsLeft?: unknown }).extensionsLeft : undefined;
  return typeof stated === 'number' ? extensionsOf(body) : null;
}

/** Spec section 8: the alert dialog's failure text is the shorter one. */
const EMERGENCY_FAILED_TEXT = {
  card: msg('Please try again or use alternative means to get help immediately.'),
  dialog: msg('Please try again or use alternative means to get help.'),
} as const;

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
    latestCheckIn: {
      id,
      timestamp: typeof v.timestamp === 'string' ? v.timestamp : serverNow().toISOString(),
      location,
      nextCheckInTime: v.nextCheckInTime,
    },
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
  const t = useT();
  const [busy, setBusy] = useState<ShiftBusy>(null);
  const [pinFor, setPinFor] = useState<PinPurpose | null>(null);
  const [pinError, setPinError] = useState<string | null>(null);
  const [pinBusy, setPinBusy] = useState(false);
  const [checkingIn, setCheckingIn] = useState(false);
  const [alertBusy, setAlertBusy] = useState(false);
  const [extending, setExtending] = useState(false);
  // The shift started, but nobody is on call for the team for part of it: shown until dismissed.
  const [coverWarning, setCoverWarning] = useState<CoverWarning | null>(null);
  // Why the last start was refused, kept on the form (a toast goes before the worker has read it).
  const [startError, setStartError] = useState<string | null>(null);
  // The Start a visit form is open; a visit's start is in flight.
  const [visitFormOpen, setVisitFormOpen] = useState(false);
  const [startingVisit, setStartingVisit] = useState(false);
  // The visit card (or the Start a visit button) that replaced what the worker pressed takes the focus.
  const [visitFocus, setVisitFocus] = useState<'visit' | 'start' | null>(null);
  const { load, reload, set, intervalMinutes, intervalRead, extensionsLeft, setExtensionsLeft, shiftNote, visitTypes } = useWorkerShift(
    user.id,
    { paused: busy !== null || pinBusy || alertBusy || extending || startingVisit },
  );
  // A visit may check in at its own interval (its type's): only the worker's own interval is told
  // when it changes, and one that changed during a visit is told once the visit is over.
  const visitOn = load.state === 'ready' && load.shift.visit !== null;
  useIntervalNotice(user.id, visitOn ? null : intervalRead);
  // A visit on (started here or elsewhere) closes the form: a later one starts from a fresh form.
  useEffect(() => {
    if (visitOn) setVisitFormOpen(false);
  }, [visitOn]);
  const locations = useLocationOptions();
  const timers = useRef(new Set<ReturnType<typeof setTimeout>>());
  const [resetDeadline, setResetDeadline] = useEmergencyReset(user.id);
  const loadedShift = load.state === 'ready' ? load.shift : null;
  // A check-in made without a network, until it reaches LWS.
  const kept = useSyncExternalStore(keptCheckIns.subscribe, keptCheckIns.snapshot);
  // The worker has answered the overdue alert already: their check-in waits for the network.
  const alert = useCheckInAlert(kept.kept ? null : loadedShift, resetDeadline);
  // The device's position for the check-in, asked for as its PIN is asked for (on shift only), so
  // the check-in itself never waits on it.
  const position = useRef<Promise<DevicePosition | undefined> | null>(null);
  const checkInAsked = loadedShift?.onShift === true && (pinFor === 'check-in' || alert);
  useEffect(() => {
    if (checkInAsked) position.current = devicePosition();
  }, [checkInAsked]);
  const own = useOwnEmergency(user.id);
  const { closed: emergencyClosed, dismissClosed } = own;

  // A monitor closed the emergency the screen was showing.
  useEffect(() => {
    if (!emergencyClosed) return;
    toast({ title: t('Emergency closed'), message: t('A monitor has closed your emergency. Stay safe!') });
    dismissClosed();
  }, [emergencyClosed, dismissClosed, toast, t]);

  // The emergency reset ends with the deadline it set: a normal check-in or the end of the shift.
  useEffect(() => {
    if (loadedShift && resetDeadline && !emergencyResetCurrent(loadedShift, resetDeadline)) setResetDeadline(null);
  }, [loadedShift, resetDeadline, setResetDeadline]);

  useEffect(() => keptCheckIns.restore(user.id), [user.id]);

  // A refusal to start is old news once the worker is on shift (started here or elsewhere); the
  // cover warning belongs to the shift it came with.
  const onShiftNow = loadedShift?.onShift === true;
  useEffect(() => {
    if (onShiftNow) setStartError(null);
    else {
      setCoverWarning(null);
      setVisitFormOpen(false);
    }
  }, [onShiftNow]);

  const { request: asked, answered: checkInRequestAnswered } = useCheckInRequest(user.id, { onShift: onShiftNow });
  const lastCheckIn = loadedShift?.latestCheckIn?.timestamp;
  // Any check-in since the monitor asked answers them, whether or not the request's own close has
  // been read yet; a check-in kept for the network has been made too.
  const checkInRequest = asked && !kept.kept && !(lastCheckIn && Date.parse(lastCheckIn) >= Date.parse(asked.requestedAt)) ? asked : null;

  // The kept check-in got through: the screen takes LWS's answer.
  const keptOutcome = kept.outcome;
  useEffect(() => {
    if (keptOutcome?.kind !== 'sent') return;
    toast({
      title: t('Check-in sent'),
      message: t('Your check-in at {{time}} has reached LWS. Stay safe!', { time: formatTime(keptOutcome.madeAt) }),
    });
    keptCheckIns.dismiss();
    checkInRequestAnswered();
    void reload();
  }, [keptOutcome, reload, checkInRequestAnswered, toast, t]);

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

  /**
   * The inline text for a PIN the server refused (with its toast), or null when the call failed
   * otherwise. The text is the English (or the server's): the dialogs show it through t().
   */
  const pinRefusal = (error: unknown): string | null => {
    if (isWrongPin(error)) {
      toast({ title: t('Incorrect PIN'), message: t('The PIN you entered is incorrect. Please try again.'), type: 'error' });
      return INCORRECT_PIN_TEXT;
    }
    if (isLockedOut(error)) {
      const message = error instanceof ApiError ? (error.serverMessage ?? msg('Too many incorrect PINs. Please wait and try again.')) : '';
      toast({ title: t('Incorrect PIN'), message: message ? t(message) : message, type: 'error' });
      return message;
    }
    return null;
  };

  const refusedPin = (error: unknown): boolean => {
    const message = pinRefusal(error);
    if (message === null) return false;
    setPinError(message);
    return true;
  };

  const startShift = async (location: string, note: string) => {
    if (!shift || busy) return;
    if (!location) {
      toast({ title: t('Location Required'), message: t('Please select your current location to continue.'), type: 'error' });
      return;
    }
    setBusy('starting');
    setStartError(null);
    setCoverWarning(null);
    set({ onShift: true, location, shiftStartTime: serverNow().toISOString(), latestCheckIn: null, nextCheckInTime: null, visit: null });
    try {
      const { coverWarning: gap, ...started } = parseShiftState(
        await api.post(`/api/users/${user.id}/start-shift`, note ? { location, note } : { location }),
      );
      set(started);
      if (gap) setCoverWarning(gap);
      toast({ title: t('Shift Started'), message: t('Your shift has been started successfully. Remember to check in regularly.') });
    } catch (e) {
      console.error('Starting the shift failed', e);
      set(shift);
      if (isCoverRefusal(e)) {
        const reason = failureMessage(e, msg('There was a problem starting your shift. Please try again.'));
        setStartError(reason);
        toast({ title: t('Failed to Start Shift'), message: t(reason), type: 'error' });
      } else {
        toast({ title: t('Failed to Start Shift'), message: shiftFailureText(e, 'starting', t), type: 'error' });
      }
    }
    later(() => void reload());
    later(() => setBusy(null));
  };

  const endShift = async (pin: string) => {
    setPinBusy(true);
    setBusy('ending');
    try {
      set(parseShiftState(await api.post(`/api/users/${user.id}/end-shift`, { pin })));
      setResetDeadline(null);
      closePin();
      toast({ title: t('Shift Ended'), message: t('Your shift has been ended successfully. Stay safe!') });
    } catch (e) {
      console.error('Ending the shift failed', e);
      if (!refusedPin(e)) {
        closePin();
        toast({ title: t('Failed to End Shift'), message: shiftFailureText(e, 'ending', t), type: 'error' });
      }
    } finally {
      setPinBusy(false);
    }
    later(() => void reload());
    later(() => setBusy(null));
  };

  /** Posts the check-in; the PIN dialog and the alert dialog each show the outcome their own way. */
  const submitCheckIn = async (pin: string): Promise<AlertOutcome> => {
    if (!shift) return { status: 'failed' };
    if (!(user.id > 0)) {
      toast({ title: t('Check-in failed'), message: t('Invalid user ID for check-in'), type: 'error' });
      return { status: 'failed' };
    }
    const location = shift.location ?? DEFAULT_LOCATION;
    const key = idempotencyKey();
    const madeAt = serverNow().toISOString();
    let where: DevicePosition | undefined;
    setCheckingIn(true);
    try {
      where = await within(position.current);
      const body = await api.post(
        '/api/check-ins',
        { userId: user.id, location, pin, ...(where ? { position: where } : {}) },
        { headers: { 'Idempotency-Key': key } },
      );
      keptCheckIns.supersede();
      set(parseCheckIn(body, shift, location));
      setResetDeadline(null);
      checkInRequestAnswered();
      toast({ title: t('Check-in successful'), message: t('Your status has been updated. Stay safe!') });
      later(() => void reload());
      return { status: 'done' };
    } catch (e) {
      console.error('Check-in failed', e);
      const refusal = pinRefusal(e);
      if (refusal !== null) return { status: 'refused', message: refusal };
      if (worthKeeping(e)) {
        // No network (or LWS out of reach): kept and sent as soon as it can be, as made now.
        keptCheckIns.keep({ userId: user.id, location, pin, key, madeAt, ...(where ? { position: where } : {}) });
        return { status: 'done' };
      }
      toast({ title: t('Check-in failed'), message: t('There was a problem checking in. Please try again.'), type: 'error' });
      void reload();
      return { status: 'failed' };
    } finally {
      setCheckingIn(false);
    }
  };

  const checkIn = async (pin: string) => {
    setPinBusy(true);
    try {
      const outcome = await submitCheckIn(pin);
      if (outcome.status === 'refused') setPinError(outcome.message);
      else closePin();
    } finally {
      setPinBusy(false);
    }
  };

  /**
   * Raises the emergency. The server also restarts an on-shift worker's check-in timer and answers
   * with the new deadline, which the emergency-reset flag then remembers.
   */
  const requestEmergency = async (from: 'card' | 'dialog'): Promise<boolean> => {
    try {
      const body = await api.post<{ user?: unknown } | undefined>('/api/emergency-call', { userId: user.id, emergency: true });
      toast({
        title: t('Emergency assistance requested'),
        message: t('Your emergency contacts are being notified. Stay where you are if possible and wait for help to arrive.'),
        type: 'warning',
      });
      void own.reload();
      const answered = parseShiftState(body?.user);
      const current = answered.onShift && answered.nextCheckInTime ? answered : await reload();
      if (current === answered) set(answered);
      if (current?.onShift && current.nextCheckInTime) setResetDeadline(current.nextCheckInTime);
      return true;
    } catch (e) {
      console.error('Requesting emergency assistance failed', e);
      toast({ title: t('Failed to request emergency assistance'), message: t(EMERGENCY_FAILED_TEXT[from]), type: 'error' });
      return false;
    }
  };

  /**
   * The alert dialog's emergency: the PIN is checked first. A PIN locked after too many wrong
   * attempts does not stand between the worker and help: the emergency is raised anyway.
   */
  const alertEmergency = async (pin: string): Promise<AlertOutcome> => {
    setAlertBusy(true);
    try {
      try {
        await api.post(`/api/users/${user.id}/verify-pin`, { pin });
      } catch (e) {
        if (isWrongPin(e)) return { status: 'refused', message: pinRefusal(e)! };
        if (!isLockedOut(e)) {
          console.error('Checking the PIN failed', e);
          toast({ title: t('Failed to request emergency assistance'), message: t(EMERGENCY_FAILED_TEXT.dialog), type: 'error' });
          return { status: 'failed' };
        }
      }
      return (await requestEmergency('dialog')) ? { status: 'done' } : { status: 'failed' };
    } finally {
      setAlertBusy(false);
    }
  };

  const alertSafe = async (pin: string): Promise<AlertOutcome> => {
    setAlertBusy(true);
    try {
      return await submitCheckIn(pin);
    } finally {
      setAlertBusy(false);
    }
  };

  /** "+15 min": more time before the check-in, within what the shift allows. */
  const extend = async () => {
    setExtending(true);
    try {
      const body = await api.post('/api/check-ins/extend', { userId: user.id, minutes: 15 });
      const next = parseShiftState(body);
      set(next);
      setExtensionsLeft(extensionsOf(body));
      const due = next.nextCheckInTime ? formatTime(next.nextCheckInTime) : null;
      toast({
        title: t('Check-in extended'),
        message: due ? t('Your next check-in is now due at {{time}}.', { time: due }) : t('Your next check-in has moved on 15 minutes.'),
      });
    } catch (e) {
      console.error('Extending the check-in failed', e);
      toast({
        title: t('Not extended'),
        message: t(failureMessage(e, msg('Your check-in could not be extended. Please try again.'))),
        type: 'error',
      });
      void reload();
    } finally {
      setExtending(false);
    }
  };

  /**
   * Starts a timed visit. The form shows a field the server refused on that field; the answer (the
   * worker with their visit and its deadline) is shown at once.
   */
  const startVisit = async (body: StartVisitBody): Promise<VisitStartOutcome> => {
    setStartingVisit(true);
    try {
      const answer = await api.post(`/api/users/${user.id}/start-visit`, body);
      const next = parseShiftState(answer);
      set(next);
      const left = extensionsStated(answer);
      if (left !== null) setExtensionsLeft(left);
      setVisitFormOpen(false);
      setVisitFocus('visit');
      toast({
        title: t('Visit started'),
        message: next.visit
          ? t('End it with your PIN by {{time}}.', { time: formatTime(next.visit.endsAt) })
          : t('Your monitors are alerted if you do not end it in time.'),
      });
      return { status: 'done' };
    } catch (e) {
      console.error('Starting the visit failed', e);
      if (e instanceof ApiError && e.status === 400) {
        return {
          status: 'refused',
          field: failureField(e) ?? null,
          message: failureMessage(e, msg('Please check the form and try again.')),
        };
      }
      if (e instanceof ApiError && e.status === 409) {
        // Off shift by now (ended elsewhere, or clocked out): the screen catches up.
        setVisitFormOpen(false);
        toast({
          title: t('Visit not started'),
          message: t(failureMessage(e, msg('The visit could not be started. Please try again.'))),
          type: 'error',
        });
        void reload();
        return { status: 'failed' };
      }
      toast({ title: t('Visit not started'), message: t('The visit could not be started. Please try again.'), type: 'error' });
      return { status: 'failed' };
    } finally {
      setStartingVisit(false);
    }
  };

  /**
   * Ends the visit with the PIN: a check-in, after which the regular interval is back. Refused and
   * locked PINs are told as for the end of a shift. The duress PIN is answered exactly as the PIN
   * (the server raises its silent alarm), so nothing here may tell them apart.
   */
  const endVisit = async (pin: string) => {
    setPinBusy(true);
    try {
      const answer = await api.post(`/api/users/${user.id}/end-visit`, { pin });
      keptCheckIns.supersede();
      set(parseShiftState(answer));
      const left = extensionsStated(answer);
      if (left !== null) setExtensionsLeft(left);
      setResetDeadline(null);
      checkInRequestAnswered();
      closePin();
      setVisitFocus('start');
      toast({ title: t('Visit ended'), message: t('Your check-in has been recorded. Stay safe!') });
    } catch (e) {
      console.error('Ending the visit failed', e);
      if (e instanceof ApiError && e.status === 409) {
        // No visit on any more (it was closed meanwhile): the screen catches up.
        closePin();
        toast({ title: t('Visit not ended'), message: t(failureMessage(e, msg('You are not on a visit'))), type: 'warning' });
        void reload();
      } else if (!refusedPin(e)) {
        closePin();
        toast({ title: t('Visit not ended'), message: t('Your visit could not be ended. Please try again.'), type: 'error' });
        void reload();
      }
    } finally {
      setPinBusy(false);
    }
    later(() => void reload());
  };

  /** "I'm safe now": the emergency stops escalating and waits for a monitor to confirm it. */
  const cancelEmergency = async (pin: string) => {
    const current = own.emergency;
    if (!current) return closePin();
    setPinBusy(true);
    try {
      const body = await api.post<{ emergency?: OwnEmergency | null }>(`/api/users/${user.id}/emergency/${current.id}/cancel`, { pin });
      if (body?.emergency) own.set(body.emergency);
      closePin();
      toast({
        title: t("You said you're safe"),
        message: t('Your monitors have been told. A monitor will confirm and close the emergency.'),
      });
    } catch (e) {
      console.error('Telling your monitors you are safe failed', e);
      if (e instanceof ApiError && e.status === 409) {
        // A monitor closed it meanwhile: the screen shows that.
        closePin();
        void own.reload();
      } else if (!refusedPin(e)) {
        closePin();
        void own.reload();
        toast({ title: t('Not sent'), message: t("Your monitors could not be told you're safe. Please try again."), type: 'error' });
      }
    } finally {
      setPinBusy(false);
    }
  };

  const onPin = (pin: string) => {
    setPinError(null);
    if (pinFor === 'end-shift') void endShift(pin);
    else if (pinFor === 'check-in') void checkIn(pin);
    else if (pinFor === 'cancel-emergency') void cancelEmergency(pin);
    else if (pinFor === 'end-visit') void endVisit(pin);
  };

  const shiftCard = shift ? (
    <ShiftStatusCard
      shift={shift}
      locations={locations}
      kioskLocation={user.kioskLocation}
      busy={busy}
      intervalMinutes={intervalMinutes}
      onStart={(location, note) => void startShift(location, note)}
      startError={startError}
      shiftNote={shiftNote}
      onEnd={() => setPinFor('end-shift')}
    />
  ) : null;
  const emergencyCard = <EmergencyCard onRequest={() => requestEmergency('card')} />;
  const emergencyScreen = own.emergency ? (
    <EmergencyScreen emergency={own.emergency} userId={user.id} onSafe={() => setPinFor('cancel-emergency')} />
  ) : null;

  // Phone first: on shift, the status, CHECK IN and the emergency action come first, so
  // they fit a phone's screen without scrolling; the shift's details and End Shift follow.
  return (
    <>
      {emergencyScreen}
      <KeptCheckInCard state={kept} onTryNow={() => void keptCheckIns.tryNow()} onDismiss={() => keptCheckIns.dismiss()} />
      {shift?.onShift ? (
        <>
          {checkInRequest ? <CheckInRequestAlert request={checkInRequest} /> : null}
          {coverWarning ? <CoverWarningAlert warning={coverWarning} onDismiss={() => setCoverWarning(null)} /> : null}
          <StatusCard
            shift={shift}
            resetDeadline={resetDeadline}
            extensionsLeft={extensionsLeft}
            extending={extending}
            onExtend={() => void extend()}
          />
          {/* While the check-in alert is up, the thread is in it: the page behind cannot be reached. */}
          {alert ? null : <AlarmMessagesCard userId={user.id} kind="missed_check_in" />}
          <CheckInCard
            shift={shift}
            resetDeadline={resetDeadline}
            processing={checkingIn}
            requested={checkInRequest !== null}
            onCheckIn={() => setPinFor('check-in')}
          />
          {emergencyCard}
          {shift.visit ? (
            <VisitCard
              visit={shift.visit}
              onEnd={() => setPinFor('end-visit')}
              focusOnShow={visitFocus === 'visit'}
              onFocused={() => setVisitFocus(null)}
            />
          ) : (
            <StartVisitCard
              onStart={() => setVisitFormOpen(true)}
              focusOnShow={visitFocus === 'start'}
              onFocused={() => setVisitFocus(null)}
            />
          )}
          {shiftCard}
        </>
      ) : shift ? (
        <>
          {shiftCard}
          {emergencyCard}
        </>
      ) : (
        <>
          <Alert variant="error" title={t('Status unavailable')} data-testid="shift-error">
            <p>{t('Your shift could not be loaded. Check your connection and try again.')}</p>
            <Button size="sm" variant="outline" onClick={() => void reload()}>
              {t('Try again')}
            </Button>
          </Alert>
          {emergencyCard}
        </>
      )}
      <PinVerificationDialog purpose={pinFor} busy={pinBusy} error={pinError} onSubmit={onPin} onCancel={closePin} />
      <StartVisitDialog
        open={visitFormOpen && shift?.onShift === true && !shift.visit}
        visitTypes={visitTypes}
        onStart={startVisit}
        onCancel={() => setVisitFormOpen(false)}
      />
      {/* During a visit of a type with its own interval, check-ins are due at that interval. */}
      <CheckInAlertDialog
        open={alert}
        intervalMinutes={shift?.visit?.checkInInterval ?? intervalMinutes}
        visitRanOut={alert && shift?.visit != null && Date.parse(shift.visit.endsAt) <= serverNow().getTime()}
        onSafe={alertSafe}
        onEmergency={alertEmergency}
      >
        {alert ? <AlarmMessagesCard userId={user.id} kind="missed_check_in" /> : null}
      </CheckInAlertDialog>
    </>
  );
}
