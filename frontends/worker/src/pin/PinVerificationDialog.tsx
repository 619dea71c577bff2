import { useEffect, useId, useState, type FormEvent } from 'react';
import { Button, Dialog, FieldError, Label, PIN_LENGTH, PinInput, msg, useT } from '@lws/fe-ui';

/** Shown through t() where the refusal is shown. */
export const INCORRECT_PIN_TEXT = msg('Incorrect PIN. Please try again.');

export type PinPurpose = 'end-shift' | 'check-in' | 'cancel-emergency' | 'end-visit';

const PIN_VERIFICATION = msg('PIN Verification');

/** `title`: the dialog's heading, 'PIN Verification' unless the action names itself. */
const TEXT: Record<PinPurpose, { title?: string; description: string; confirm: string; busy: string }> = {
  'end-shift': {
    description: msg('Enter your 4-digit security PIN to end your shift'),
    confirm: msg('End Shift'),
    busy: msg('Ending Shift...'),
  },
  'check-in': {
    description: msg("Enter your 4-digit security PIN to confirm you're safe"),
    confirm: msg('Check In'),
    busy: msg('Processing...'),
  },
  'cancel-emergency': {
    description: msg("Enter your 4-digit security PIN to tell your monitors you're safe"),
    confirm: msg("I'm safe"),
    busy: msg('Sending...'),
  },
  // Ending a visit is a check-in: the duress PIN ends it the same way, and the dialog cannot tell them apart.
  'end-visit': {
    title: msg('End visit'),
    description: msg('Enter your PIN to end the visit'),
    confirm: msg('End visit'),
    busy: msg('Ending visit...'),
  },
};

export interface PinVerificationDialogProps {
  /** Which action the PIN confirms; null closes the dialog. */
  purpose: PinPurpose | null;
  busy: boolean;
  /** The inline error after a refused PIN. */
  error: string | null;
  onSubmit(pin: string): void;
  onCancel(): void;
}

/**
 * 'PIN Verification': the server checks the PIN; this only collects it. The PIN is sent as
 * soon as the last digit is typed, and cleared after every attempt, so a refused PIN is
 * typed again from the first box.
 */
export function PinVerificationDialog({ purpose, busy, error, onSubmit, onCancel }: PinVerificationDialogProps) {
  const t = useT();
  const [pin, setPin] = useState('');
  const inputId = useId();
  const errorId = useId();
  const text = TEXT[purpose ?? 'end-shift'];

  // Every finished attempt starts the entry afresh; a successful one closes the dialog anyway.
  useEffect(() => {
    if (!busy) setPin('');
  }, [purpose, busy]);

  const submit = (value: string) => {
    if (busy || value.length !== PIN_LENGTH) return;
    onSubmit(value);
  };

  const cancel = () => {
    if (busy) return;
    setPin('');
    onCancel();
  };

  return (
    <Dialog
      open={purpose !== null}
      onClose={cancel}
      title={t(text.title ?? PIN_VERIFICATION)}
      description={t(text.description)}
      data-testid="pin-dialog"
    >
      <form
        className="lws-form"
        noValidate
        aria-label={t(text.title ?? PIN_VERIFICATION)}
        onSubmit={(event: FormEvent<HTMLFormElement>) => {
          event.preventDefault();
          submit(pin);
        }}
      >
        <div className="lws-field">
          <Label htmlFor={inputId}>{t('Security PIN')}</Label>
          <PinInput
            id={inputId}
            value={pin}
            onChange={setPin}
            onComplete={submit}
            invalid={Boolean(error)}
            disabled={busy}
            autoFocus
            aria-describedby={error ? errorId : undefined}
            data-testid="pin-dialog-input"
          />
          <FieldError id={errorId} testId="pin-dialog-error">
            {error ? t(error) : error}
          </FieldError>
        </div>
        <div className="lws-dialog__footer">
          <Button variant="outline" onClick={cancel} disabled={busy} data-testid="pin-dialog-cancel">
            {t('Cancel')}
          </Button>
          <Button type="submit" busy={busy} disabled={pin.length !== PIN_LENGTH} data-testid="pin-dialog-submit">
            {t(busy ? text.busy : text.confirm)}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
