import { useId, useState, type FormEvent } from 'react';
import {
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
  useAuth,
  useToast,
} from '@lws/fe-ui';

type Mode = 'idle' | 'set' | 'remove';

/**
 * Issue 13, the duress PIN: a second PIN a worker can enter anywhere their PIN is asked if someone
 * is forcing them. It appears to work exactly like their PIN and silently alerts their monitors.
 * Set or removed with the current PIN; the server refuses one equal to the PIN.
 */
export function DuressPinCard({ userId, duressPinSet }: { userId: number; duressPinSet: boolean }) {
  const { toast } = useToast();
  const { refresh } = useAuth();
  const [mode, setMode] = useState<Mode>('idle');
  const [current, setCurrent] = useState('');
  const [duress, setDuress] = useState('');
  const [reveal, setReveal] = useState(false);
  const [error, setError] = useState<{ field: 'currentPin' | 'duressPin'; message: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const currentId = useId();
  const duressId = useId();
  const errorId = useId();

  const close = () => {
    setMode('idle');
    setCurrent('');
    setDuress('');
    setReveal(false);
    setError(null);
  };

  const ready = current.length === PIN_LENGTH && (mode === 'remove' || duress.length === PIN_LENGTH);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy || !ready) return;
    setBusy(true);
    try {
      await api.put(`/api/users/${userId}/duress-pin`, { currentPin: current, duressPin: mode === 'remove' ? null : duress });
      toast({ title: mode === 'remove' ? 'Duress PIN removed' : 'Duress PIN saved', message: mode === 'remove' ? 'Only your PIN works now.' : 'Remember it: never write it down with your PIN.' });
      close();
      await refresh();
    } catch (e) {
      const field = failureField(e);
      if (e instanceof ApiError && e.status === 400 && (field === 'currentPin' || field === 'duressPin')) {
        setError({ field, message: field === 'currentPin' ? 'Incorrect PIN. Please try again.' : failureMessage(e, 'Please choose a different duress PIN.') });
        if (field === 'currentPin') setCurrent('');
        else setDuress('');
      } else {
        toast({ title: 'Duress PIN not saved', message: failureMessage(e, 'Please try again.'), type: 'error' });
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card data-testid="profile-duress-pin">
      <CardHeader>
        <CardTitle>Duress PIN</CardTitle>
        <CardDescription>
          A second {PIN_LENGTH}-digit PIN for when someone is forcing you. Enter it wherever your PIN is asked: it seems to work exactly like your PIN, and
          silently tells your monitors you need help.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {mode === 'idle' ? (
          <div className="lws-actions lws-actions--spaced">
            <span className="lws-muted" data-testid="duress-pin-status">
              {duressPinSet ? 'A duress PIN is set.' : 'No duress PIN set.'}
            </span>
            <Button variant="outline" onClick={() => setMode('set')} data-testid="duress-pin-start">
              {duressPinSet ? 'Change duress PIN' : 'Set duress PIN'}
            </Button>
            {duressPinSet ? (
              <Button variant="ghost" onClick={() => setMode('remove')} data-testid="duress-pin-remove">
                Remove
              </Button>
            ) : null}
          </div>
        ) : (
          <form className="lws-form" noValidate onSubmit={(e) => void onSubmit(e)} aria-label="Duress PIN" data-testid="duress-pin-form">
            <div className="lws-field">
              <Label htmlFor={currentId}>Your PIN</Label>
              <PinInput
                id={currentId}
                value={current}
                onChange={setCurrent}
                invalid={error?.field === 'currentPin'}
                disabled={busy}
                autoFocus
                aria-describedby={error ? errorId : undefined}
                data-testid="duress-current-input"
              />
            </div>
            {mode === 'set' ? (
              <div className="lws-field">
                <Label htmlFor={duressId}>Duress PIN</Label>
                <PinInput
                  id={duressId}
                  value={duress}
                  onChange={setDuress}
                  invalid={error?.field === 'duressPin'}
                  disabled={busy}
                  reveal={reveal}
                  aria-describedby={error ? errorId : undefined}
                  data-testid="duress-new-input"
                />
                <Button size="sm" variant="ghost" aria-pressed={reveal} onClick={() => setReveal((r) => !r)} data-testid="duress-reveal">
                  {reveal ? 'Hide PIN' : 'Show PIN'}
                </Button>
              </div>
            ) : null}
            <FieldError id={errorId} testId="duress-pin-error">
              {error?.message ?? null}
            </FieldError>
            <div className="lws-actions">
              <Button type="submit" busy={busy} disabled={!ready} data-testid="duress-pin-submit">
                {mode === 'remove' ? 'Remove duress PIN' : 'Save duress PIN'}
              </Button>
              <Button variant="outline" disabled={busy} onClick={close} data-testid="duress-pin-cancel">
                Cancel
              </Button>
            </div>
          </form>
        )}
      </CardContent>
    </Card>
  );
}
