import { zodResolver } from '@hookform/resolvers/zod';
import { useId } from 'react';
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
  Select,
  api,
  failureField,
  failureMessage,
  msg,
  useT,
  useToast,
} from '@lws/fe-ui';
import { CHECK_IN_INTERVALS, contactSettingsSchema, type ContactSettingsForm } from '@lws/schemas';
import type { ContactSettings } from './profile-data';

function intervalLabel(minutes: number, t: ReturnType<typeof useT>): string {
  if (minutes < 60) return t('{{minutes}} minutes', { minutes });
  const hours = minutes / 60;
  return hours === 1 ? t('1 hour') : t('{{hours}} hours', { hours });
}

export interface ContactSettingsCardProps {
  userId: number;
  /** The saved settings, or null when none exist yet; the card is re-mounted when they change. */
  settings: ContactSettings | null;
  /** The interval that applies now (the team's default without settings), chosen until another is. */
  checkInInterval: number;
  /** The intervals the worker's team allows; absent: every one. The gateway refuses the others. */
  allowedIntervals?: readonly number[] | null;
  onSaved(): Promise<unknown>;
}

/** Emergency contact settings: who is called first and second, and how often check-ins are due. */
export function ContactSettingsCard({ userId, settings, checkInInterval, allowedIntervals, onSaved }: ContactSettingsCardProps) {
  const choices = CHECK_IN_INTERVALS.filter((m) => !allowedIntervals || allowedIntervals.includes(m));
  const { toast } = useToast();
  const t = useT();
  // The gateway's own schema checks the form (the gateway also asks libphonenumber whether the
  // number can exist), so the words under a field are the server's.
  const form = useForm<ContactSettingsForm, unknown, z.output<typeof contactSettingsSchema>>({
    resolver: zodResolver(contactSettingsSchema),
    defaultValues: {
      primaryContact: settings?.primaryContact ?? '',
      secondaryContact: settings?.secondaryContact ?? '',
      checkInInterval: String(settings?.checkInInterval ?? checkInInterval),
    },
  });
  const { errors, isSubmitting: saving } = form.formState;
  const ids = {
    primary: useId(),
    primaryError: useId(),
    secondary: useId(),
    secondaryError: useId(),
    interval: useId(),
    intervalError: useId(),
  };

  const onSubmit = form.handleSubmit(async (body) => {
    try {
      if (settings) await api.patch(`/api/users/${userId}/settings`, body);
      else await api.post('/api/settings', { userId, ...body });
      toast({
        title: t('Settings saved'),
        message: t('Check-ins are due every {{interval}}.', { interval: intervalLabel(body.checkInInterval, t) }),
      });
      await onSaved().catch((e: unknown) => console.error('Reloading the profile failed', e));
    } catch (e) {
      const field = failureField(e);
      if (field === 'primaryContact' || field === 'secondaryContact' || field === 'checkInInterval')
        form.setError(field, { message: failureMessage(e, '') });
      toast({ title: t('Failed to save settings'), message: t(failureMessage(e, msg('Please try again.'))), type: 'error' });
    }
  });

  return (
    <Card data-testid="profile-settings">
      <CardHeader>
        <CardTitle>{t('Emergency Contact Settings')}</CardTitle>
        <CardDescription>{t('Who is called first if you miss a check-in, and how often you check in.')}</CardDescription>
      </CardHeader>
      <CardContent>
        <form className="lws-form" noValidate onSubmit={(event) => void onSubmit(event)} aria-label={t('Emergency contact settings')}>
          <div className="lws-field">
            <Label htmlFor={ids.primary}>{t('Primary Contact')}</Label>
            <Input
              {...form.register('primaryContact')}
              id={ids.primary}
              type="tel"
              inputMode="tel"
              invalid={Boolean(errors.primaryContact)}
              aria-describedby={errors.primaryContact ? ids.primaryError : undefined}
              data-testid="settings-primary"
            />
            <FieldError id={ids.primaryError} testId="settings-primary-error">
              {errors.primaryContact?.message && t(errors.primaryContact.message)}
            </FieldError>
          </div>
          <div className="lws-field">
            <Label htmlFor={ids.secondary}>{t('Secondary Contact (optional)')}</Label>
            <Input
              {...form.register('secondaryContact')}
              id={ids.secondary}
              type="tel"
              inputMode="tel"
              invalid={Boolean(errors.secondaryContact)}
              aria-describedby={errors.secondaryContact ? ids.secondaryError : undefined}
              data-testid="settings-secondary"
            />
            <FieldError id={ids.secondaryError} testId="settings-secondary-error">
              {errors.secondaryContact?.message && t(errors.secondaryContact.message)}
            </FieldError>
          </div>
          <div className="lws-field">
            <Label htmlFor={ids.interval}>{t('Check-in Interval')}</Label>
            <Select
              {...form.register('checkInInterval')}
              id={ids.interval}
              invalid={Boolean(errors.checkInInterval)}
              aria-describedby={errors.checkInInterval ? ids.intervalError : undefined}
              data-testid="settings-interval"
            >
              {choices.map((m) => (
                <option key={m} value={String(m)}>
                  {intervalLabel(m, t)}
                </option>
              ))}
            </Select>
            <FieldError id={ids.intervalError} testId="settings-interval-error">
              {errors.checkInInterval?.message && t(errors.checkInInterval.message)}
            </FieldError>
          </div>
          <div className="lws-actions">
            <Button type="submit" busy={saving} data-testid="settings-save">
              {saving ? t('Saving...') : t('Save Settings')}
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
