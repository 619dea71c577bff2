import { useId, useRef, useState, type FormEvent } from 'react';
import {
  Alert,
  ApiError,
  Button,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  FieldError,
  Label,
  PIN_LENGTH,
  PinInput,
  api,
  failureField,
  failureMessage,
  msg,
  useAuth,
  useT,
  useToast,
} from '@lws/fe-ui';

export const INCORRECT_PIN_TEXT = msg('Incorrect PIN. Please try again.');

type Step = 'idle' | 'verify' | 'new' | 'confirm';

const STEP_LABEL: Record<Exclude<Step, 'idle'>, string> = {
  verify: msg('Current PIN'),
  new: msg('New PIN'),
  confirm: msg('Confirm New PIN'),
};

export interface ChangePinCardProps {
  userId: number;
  pinSet: boolean;
  onChanged(): Promise<unknown>;
}

/**
 * Spec section 4, "PIN change": verify the current PIN, then the new one, then
 * its confirmation, then save. Every check happens on the server; the current
 * PIN is held only in this component's memory until the save. A user without a
 * PIN starts at the new PIN.
 */
export function ChangePinCard({ userId, pinSet, onChanged }: ChangePinCardProps) {
  const { toast } = useToast();
  const t = useT();
  const { refresh } = useAuth();
  const [step, setStep] = useState<Step>('idle');
  // The new PIN may be shown while it is being chosen (never the current one).
  const [reveal, setReveal] = useState(false);
  const [value, setValue] = useState('');
  // Both in English (this card's words or the server's), shown through t().
  const [error, setError] = useState<string | null>(null);
  const [locked, setLocked] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const currentPin = useRef('');
  const newPin = useRef('');
  const inputId = useId();
  const errorId = useId();

  const goTo = (next: Step, message: string | null = null) => {
    setStep(next);
    setValue('');
    setError(message);
  };

  const reset = () => {
    currentPin.current = '';
    newPin.current = '';
    setReveal(false);
    goTo('idle');
  };

  const start = () => {
    setLocked(null);
    goTo(pinSet ? 'verify' : 'new');
  };

  const wrongCurrentPin = () => {
    currentPin.current = '';
    toast({ title: t('Incorrect PIN'), message: t('The current PIN you entered is incorrect'), type: 'error' });
    goTo('verify', INCORRECT_PIN_TEXT);
  };

  const lockedOut = (e: unknown) => {
    const message = failureMessage(e, msg('Too many incorrect PINs. PIN actions are locked for 15 minutes.'));
    toast({ title: t('PIN Update Failed'), message: t(message), type: 'error' });
    reset();
    setLocked(message);
  };

  const verify = async (pin: string) => {
    setBusy(true);
    try {
      await api.post(`/api/users/${userId}/verify-pin`, { pin });
      currentPin.current = pin;
      goTo('new');
    } catch (e) {
      if (e instanceof ApiError && e.status === 423) lockedOut(e);
      else if (e instanceof ApiError && e.status === 400) wrongCurrentPin();
      else {
        toast({
          title: t('PIN Update Failed'),
          message: t(failureMessage(e, msg('Your PIN could not be checked. Please try again.'))),
          type: 'error',
        });
        reset();
      }
    } finally {
      setBusy(false);
    }
  };

  const save = async (pinCode: string) => {
    setBusy(true);
    try {
      await api.patch(`/api/users/${userId}`, pinSet ? { currentPin: currentPin.current, pinCode } : { pinCode });
      toast({ title: t('PIN Updated'), message: t('Use your new PIN from now on.') });
      reset();
      await Promise.all([refresh(), onChanged().catch((err: unknown) => console.error('Reloading the profile failed', err))]);
    } catch (e) {
      const field = failureField(e);
      if (e instanceof ApiError && e.status === 423) lockedOut(e);
      else if (e instanceof ApiError && e.status === 400 && (field === 'pin' || field === 'currentPin')) wrongCurrentPin();
      else if (e instanceof ApiError && (e.status === 409 || field === 'pinCode')) {
        // The new PIN was refused (taken or malformed): choose another without verifying again.
        const message = failureMessage(e, msg('Please choose a different PIN.'));
        toast({ title: t('PIN Update Failed'), message: t(message), type: 'error' });
        newPin.current = '';
        goTo('new', message);
      } else {
        toast({
          title: t('PIN Update Failed'),
          message: t(failureMessage(e, msg('Your PIN could not be changed. Please try again.'))),
          type: 'error',
        });
        reset();
      }
    } finally {
      setBusy(false);
    }
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy || value.length !== PIN_LENGTH) return;
    if (step === 'verify') void verify(value);
    else if (step === 'new') {
      newPin.current = value;
      goTo('confirm');
    } else if (step === 'confirm') {
      if (value !== newPin.current) {
        toast({
          title: t('PINs Do Not Match'),
          message: t('The confirmation did not match your new PIN. Please enter it again.'),
          type: 'error',
        });
        newPin.current = '';
        goTo('new', msg('The PINs did not match. Enter your new PIN again.'));
        return;
      }
      void save(value);
    }
  };

  const submitLabel =
    step === 'verify' ? (busy ? t('Verifying...') : t('Verify')) : step === 'new' ? t('Next') : busy ? t('Saving...') : t('Save PIN');

  return (
    <Card data-testid="profile-pin">
      <CardHeader>
        <CardTitle>{pinSet ? t('Change PIN') : t('Set PIN')}</CardTitle>
        <CardDescription>
          {pinSet
            ? t('Your {{length}}-digit PIN confirms check-ins and ends your shift.', { length: PIN_LENGTH })
            : t('You have no PIN yet. Set a {{length}}-digit PIN to confirm check-ins and end your shift.', { length: PIN_LENGTH })}
        </CardDescription>
      </CardHeader>
      <CardContent>
        {locked ? (
          <Alert variant="error" data-testid="pin-locked">
            {t(locked)}
          </Alert>
        ) : null}
        {step === 'idle' ? (
          <div className="lws-actions lws-actions--spaced">
            <Button variant="outline" onClick={start} data-testid="pin-change-start">
              {pinSet ? t('Change PIN') : t('Set PIN')}
            </Button>
          </div>
        ) : (
          <form
            className="lws-form"
            noValidate
            onSubmit={onSubmit}
            aria-label={pinSet ? t('Change PIN') : t('Set PIN')}
            data-testid="pin-change-form"
            data-step={step}
          >
            <div className="lws-field">
              <Label htmlFor={inputId}>{t(STEP_LABEL[step])}</Label>
              <PinInput
                key={step}
                id={inputId}
                value={value}
                onChange={(next) => {
                  setValue(next);
                  if (next) setError(null);
                }}
                invalid={Boolean(error)}
                disabled={busy}
                autoFocus
                reveal={reveal && step !== 'verify'}
                aria-describedby={error ? errorId : undefined}
                data-testid="pin-change-input"
              />
              {step !== 'verify' ? (
                <Button size="sm" variant="ghost" aria-pressed={reveal} onClick={() => setReveal((r) => !r)} data-testid="pin-reveal">
                  {reveal ? t('Hide PIN') : t('Show PIN')}
                </Button>
              ) : null}
              <FieldError id={errorId} testId="pin-change-error">
                {error && t(error)}
              </FieldError>
            </div>
            <div className="lws-actions">
              <Button type="submit" busy={busy} disabled={value.length !== PIN_LENGTH} data-testid="pin-change-submit">
                {submitLabel}
              </Button>
              <Button variant="outline" disabled={busy} onClick={reset} data-testid="pin-change-cancel">
                {t('Cancel')}
              </Button>
            </div>
          </form>
        )}
      </CardContent>
    </Card>
  );
}
