import { zodResolver } from '@hookform/resolvers/zod';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import {
  Button,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  FieldError,
  Input,
  Label,
  api,
  failureMessage,
  formatDateTime,
  msg,
  useT,
  useToast,
} from '@lws/fe-ui';
import { awayFormSchema, type AwayForm } from '@lws/schemas';

/** An `<input type="datetime-local">` value (local time, minutes) for an instant. */
function localValue(at: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${at.getFullYear()}-${p(at.getMonth() + 1)}-${p(at.getDate())}T${p(at.getHours())}:${p(at.getMinutes())}`;
}

/**
 * An admin away: until when, so their deputies are told of their teams' alarms in their
 * place; or back now. The server checks the time (future, at most 90 days ahead).
 */
export function AwayCard({
  userId,
  awayUntil,
  onChanged,
}: {
  userId: number;
  awayUntil: string | null;
  onChanged: () => Promise<unknown>;
}) {
  const { toast } = useToast();
  const t = useT();
  const form = useForm<AwayForm, unknown, z.output<typeof awayFormSchema>>({
    resolver: zodResolver(awayFormSchema),
    defaultValues: { until: localValue(new Date(Date.now() + 24 * 3600_000)) },
  });
  // "I'm back" is a button, not the form: its failure is shown in the same place.
  const [backError, setBackError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const error = form.formState.errors.until?.message ?? backError;
  const inputId = useId();
  const errorId = useId();

  const send = async (value: string | null) => {
    setBusy(true);
    setBackError(null);
    try {
      await api.post(`/api/users/${userId}/away`, { until: value });
      toast({
        title: value ? t('Away set') : t('Welcome back'),
        message: value ? t('Your deputies are told of your teams’ alarms until then.') : t('You are told of your teams’ alarms again.'),
      });
      await onChanged();
    } catch (e) {
      const message = failureMessage(e, msg('That did not save. Please try again.'));
      if (value) form.setError('until', { message });
      else setBackError(message);
    } finally {
      setBusy(false);
    }
  };

  const onSubmit = form.handleSubmit(({ until }) => send(until));

  return (
    <Card data-testid="away-card">
      <CardHeader>
        <CardTitle>{t('Away')}</CardTitle>
        <CardDescription>{t("While you are away, your deputy is told of your teams' alarms in your place.")}</CardDescription>
      </CardHeader>
      <CardContent>
        {awayUntil ? (
          <div className="lws-inline-form">
            <p data-testid="away-status">{t('Away until {{time}}', { time: formatDateTime(awayUntil, awayUntil) })}</p>
            <Button variant="outline" busy={busy} onClick={() => void send(null)} data-testid="away-back">
              {t("I'm back")}
            </Button>
          </div>
        ) : (
          <form className="lws-inline-form" noValidate onSubmit={(event) => void onSubmit(event)}>
            <Label htmlFor={inputId}>{t('Away until')}</Label>
            <Input
              id={inputId}
              type="datetime-local"
              {...form.register('until')}
              aria-describedby={error ? errorId : undefined}
              invalid={!!error}
              data-testid="away-until"
            />
            <Button type="submit" busy={busy} data-testid="away-set">
              {t('Set away')}
            </Button>
          </form>
        )}
        <FieldError id={errorId}>{error && t(error)}</FieldError>
      </CardContent>
    </Card>
  );
}
