import { useEffect, useId, useState, type FormEvent, type ReactNode } from 'react';
import { Button, Dialog, FieldError, Label, PIN_LENGTH, PinInput, msg, useT } from '@lws/fe-ui';
import { intervalText } from '../shift/interval-text';

/** What became of a PIN-confirmed action: done (the dialog closes), refused PIN (stay, show why) or failed (back to the choice). */
export type AlertOutcome = { status: 'done' } | { status: 'refused'; message: string } | { status: 'failed' };

type Step = 'choice' | 'safe' | 'emergency';

const PIN_TEXT: Record<Exclude<Step, 'choice'>, { description: string; confirm: string; busy: string }> = {
  safe: { description: msg("Enter your 4-digit security PIN to confirm you're safe"), confirm: msg('Confirm'), busy: msg('Processing...') },
  emergency: {
    description: msg('Enter your 4-digit security PIN to request emergency assistance'),
    confirm: msg('Request Help'),
    busy: msg('Requesting...'),
  },
};

export interface CheckInAlertDialogProps {
  open: boolean;
  /** The worker's check-in interval in minutes: the text follows it. */
  intervalMinutes: number;
  /** The deadline passed is a timed visit's end: the text says so rather than speak of the interval. */
  visitRanOut?: boolean;
  onSafe(pin: string): Promise<AlertOutcome>;
  onEmergency(pin: string): Promise<AlertOutcome>;
  /** Shown under the choice: the monitors' messages, which the worker can read and answer before choosing. */
  children?: ReactNode;
}

/**
 * 'Check-In Required' (spec sections 2 and 4): shown while the worker is overdue. The worker answers
 * it, either way with the PIN; it cannot be waved away, because an overdue check-in is exactly
 * what the monitors are about to be alerted to.
 */
export function CheckInAlertDialog({ open, intervalMinutes, visitRanOut = false, onSafe, onEmergency, children }: CheckInAlertDialogProps) {
  const t = useT();
  const [step, setStep] = useState<Step>('choice');
  const [pin, setPin] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const inputId = useId();
  const errorId = useId();

  useEffect(() => {
    if (!open) {
      setStep('choice');
      setPin('');
      setError(null);
    }
  }, [open]);

  const choose = (next: Step) => {
    setStep(next);
    setPin('');
    setError(null);
  };

  const submit = async (value: string) => {
    if (busy || step === 'choice' || value.length !== PIN_LENGTH) return;
    setBusy(true);
    setError(null);
    try {
      const outcome = await (step === 'safe' ? onSafe : onEmergency)(value);
      if (outcome.status === 'refused') setError(outcome.message);
      else if (outcome.status === 'failed') choose('choice');
    } finally {
      setPin('');
      setBusy(false);
    }
  };

  const text = step === 'choice' ? null : PIN_TEXT[step];

  return (
    <Dialog
      open={open}
      onClose={() => undefined}
      dismissible={false}
      hideClose
      title={t('Check-In Required')}
      description={
        text
          ? t(text.description)
          : visitRanOut
            ? t("Your visit's time has run out. Please confirm that you are safe, or request emergency assistance.")
            : intervalMinutes === 60
              ? t('Your hourly check-in is due. Please confirm that you are safe, or request emergency assistance.')
              : t('Your check-in (every {{interval}}) is due. Please confirm that you are safe, or request emergency assistance.', {
                  interval: intervalText(t, intervalMinutes),
                })
      }
      className="lws-check-in-alert"
      data-testid="check-in-alert"
    >
      {step === 'choice' ? (
        <>
          <div className="lws-check-in-alert__choices">
            <Button size="lg" block onClick={() => choose('safe')} data-testid="alert-safe">
              {t("I'm Safe")}
            </Button>
            <Button size="lg" block variant="destructive" onClick={() => choose('emergency')} data-testid="alert-emergency">
              {t('Emergency Assistance')}
            </Button>
          </div>
          {children}
        </>
      ) : (
        <form
          className="lws-form"
          noValidate
          aria-label={step === 'safe' ? t("Confirm you're safe") : t('Request emergency assistance')}
          onSubmit={(event: FormEvent<HTMLFormElement>) => {
            event.preventDefault();
            void submit(pin);
          }}
        >
          <div className="lws-field">
            <Label htmlFor={inputId}>{t('Security PIN')}</Label>
            <PinInput
              id={inputId}
              value={pin}
              onChange={setPin}
              onComplete={(value) => void submit(value)}
              invalid={Boolean(error)}
              disabled={busy}
              autoFocus
              aria-describedby={error ? errorId : undefined}
              data-testid="alert-pin-input"
            />
            <FieldError id={errorId} testId="alert-pin-error">
              {error ? t(error) : error}
            </FieldError>
          </div>
          <div className="lws-dialog__footer">
            <Button variant="outline" onClick={() => choose('choice')} disabled={busy} data-testid="alert-back">
              {t('Back')}
            </Button>
            <Button
              type="submit"
              variant={step === 'emergency' ? 'destructive' : 'primary'}
              busy={busy}
              disabled={pin.length !== PIN_LENGTH}
              data-testid="alert-pin-submit"
            >
              {t(busy ? text!.busy : text!.confirm)}
            </Button>
          </div>
        </form>
      )}
    </Dialog>
  );
}
