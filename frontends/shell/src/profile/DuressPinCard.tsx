import { zodResolver } from '@hookform/resolvers/zod';
import { useId, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import type { z } from 'zod';
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
  msg,
  useAuth,
  useT,
  useToast,
} from '@lws/fe-ui';
import { duressPinSchema, type DuressPinForm } from '@lws/schemas';

type Mode = 'idle' | 'set' | 'remove';

/**
 * The duress PIN: a second PIN a worker can enter anywhere their PIN is asked if someone
 * is forcing them. It appears to work exactly like their PIN and silently alerts their monitors.
 * Set or removed with the current PIN; the server refuses one equal to the PIN.
 */
export function DuressPinCard({ userId, duressPinSet }: { userId: number; duressPinSet: boolean }) {
  const { toast } = useToast();
  const t = useT();
  const { refresh } = useAuth();
  const [mode, setMode] = useState<Mode>('idle');
  const [reveal, setReveal] = useState(false);
  // The gateway's own schema checks the form: a duress PIN equal to the PIN typed beside it is
  // refused before it is sent.
  const form = useForm<DuressPinForm, unknown, z.output<typeof duressPinSchema>>({
    resolver: zodResolver(duressPinSchema),
    defaultValues: { currentPin: '', duressPin: '' },
  });
  const { errors, isSubmitting: busy } = form.formState;
  const currentId = useId();
  const duressId = useId();
  const errorId = useId();
  const error = errors.currentPin?.message ?? errors.duressPin?.message;

  const open = (next: Mode) => {
    form.reset({ currentPin: '', duressPin: next === 'remove' ? null : '' });
    setMode(next);
  };

  const close = () => {
    setMode('idle');
    setReveal(false);
    form.reset({ currentPin: '', duressPin: '' });
  };

  const [current, duress] = form.watch(['currentPin', 'duressPin']);
  const ready = current.length === PIN_LENGTH && (mode === 'remove' || duress?.length === PIN_LENGTH);

  const onSubmit = form.handleSubmit(async (body) => {
    try {
      await api.put(`/api/users/${userId}/duress-pin`, body);
      toast({
        title: mode === 'remove' ? t('Duress PIN removed') : t('Duress PIN saved'),
        message: mode === 'remove' ? t('Only your PIN works now.') : t('Remember it: never write it down with your PIN.'),
      });
      close();
      await refresh();
    } catch (e) {
      const field = failureField(e);
      if (e instanceof ApiError && e.status === 400 && (field === 'currentPin' || field === 'duressPin')) {
        form.setValue(field, '');
        form.setError(field, {
          message:
            field === 'currentPin'
              ? msg('Incorrect PIN. Please try again.')
              : failureMessage(e, msg('Please choose a different duress PIN.')),
        });
      } else {
        toast({ title: t('Duress PIN not saved'), message: t(failureMessage(e, msg('Please try again.'))), type: 'error' });
      }
    }
  });

  return (
    <Card data-testid="profile-duress-pin">
      <CardHeader>
        <CardTitle>{t('Duress PIN')}</CardTitle>
        <CardDescription>
          {t(
            'A second {{length}}-digit PIN for when someone is forcing you. Enter it wherever your PIN is asked: it seems to work exactly like your PIN, and silently tells your monitors you need help.',
            { length: PIN_LENGTH },
          )}
        </CardDescription>
      </CardHeader>
      <CardContent>
        {mode === 'idle' ? (
          <div className="lws-actions lws-actions--spaced">
            <span className="lws-muted" data-testid="duress-pin-status">
              {duressPinSet ? t('A duress PIN is set.') : t('No duress PIN set.')}
            </span>
            <Button variant="outline" onClick={() => open('set')} data-testid="duress-pin-start">
              {duressPinSet ? t('Change duress PIN') : t('Set duress PIN')}
            </Button>
            {duressPinSet ? (
              <Button variant="ghost" onClick={() => open('remove')} data-testid="duress-pin-remove">
                {t('Remove')}
              </Button>
            ) : null}
          </div>
        ) : (
          <form
            className="lws-form"
            noValidate
            onSubmit={(e) => void onSubmit(e)}
            aria-label={t('Duress PIN')}
            data-testid="duress-pin-form"
          >
            <div className="lws-field">
              <Label htmlFor={currentId}>{t('Your PIN')}</Label>
              <Controller
                control={form.control}
                name="currentPin"
                render={({ field }) => (
                  <PinInput
                    id={currentId}
                    value={field.value}
                    onChange={field.onChange}
                    invalid={Boolean(errors.currentPin)}
                    disabled={busy}
                    autoFocus
                    aria-describedby={error ? errorId : undefined}
                    data-testid="duress-current-input"
                  />
                )}
              />
            </div>
            {mode === 'set' ? (
              <div className="lws-field">
                <Label htmlFor={duressId}>{t('Duress PIN')}</Label>
                <Controller
                  control={form.control}
                  name="duressPin"
                  render={({ field }) => (
                    <PinInput
                      id={duressId}
                      value={field.value ?? ''}
                      onChange={field.onChange}
                      invalid={Boolean(errors.duressPin)}
                      disabled={busy}
                      reveal={reveal}
                      aria-describedby={error ? errorId : undefined}
                      data-testid="duress-new-input"
                    />
                  )}
                />
                <Button size="sm" variant="ghost" aria-pressed={reveal} onClick={() => setReveal((r) => !r)} data-testid="duress-reveal">
                  {reveal ? t('Hide PIN') : t('Show PIN')}
                </Button>
              </div>
            ) : null}
            <FieldError id={errorId} testId="duress-pin-error">
              {error && t(error)}
            </FieldError>
            <div className="lws-actions">
              <Button type="submit" busy={busy} disabled={!ready} data-testid="duress-pin-submit">
                {mode === 'remove' ? t('Remove duress PIN') : t('Save duress PIN')}
              </Button>
              <Button variant="outline" disabled={busy} onClick={close} data-testid="duress-pin-cancel">
                {t('Cancel')}
              </Button>
            </div>
          </form>
        )}
      </CardContent>
    </Card>
  );
}
