import { useId, useState, type FormEvent } from 'react';
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
  useToast,
} from '@lws/fe-ui';
import { CHECK_IN_INTERVALS, DEFAULT_CHECK_IN_INTERVAL, type ContactSettings } from './profile-data';
import { hasErrors, validateSettings, type Errors } from './profile-validation';

function intervalLabel(minutes: number): string {
  if (minutes < 60) return `${minutes} minutes`;
  const hours = minutes / 60;
  return hours === 1 ? '1 hour' : `${hours} hours`;
}

export interface ContactSettingsCardProps {
  userId: number;
  /** The saved settings, or null when none exist yet; the card is re-mounted when they change. */
  settings: ContactSettings | null;
  onSaved(): Promise<unknown>;
}

/** Emergency contact settings: who is called first and second, and how often check-ins are due. */
export function ContactSettingsCard({ userId, settings, onSaved }: ContactSettingsCardProps) {
  const { toast } = useToast();
  const [primaryContact, setPrimary] = useState(settings?.primaryContact ?? '');
  const [secondaryContact, setSecondary] = useState(settings?.secondaryContact ?? '');
  const [interval, setCheckInInterval] = useState(String(settings?.checkInInterval ?? DEFAULT_CHECK_IN_INTERVAL));
  const [errors, setErrors] = useState<Errors<'primaryContact' | 'secondaryContact' | 'checkInInterval'>>({});
  const [saving, setSaving] = useState(false);
  const ids = {
    primary: useId(),
    primaryError: useId(),
    secondary: useId(),
    secondaryError: useId(),
    interval: useId(),
    intervalError: useId(),
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (saving) return;
    const found = validateSettings({ primaryContact });
    setErrors(found);
    if (hasErrors(found)) return;
    const body = {
      primaryContact: primaryContact.trim(),
      secondaryContact: secondaryContact.trim() || null,
      checkInInterval: Number.parseInt(interval, 10),
    };
    setSaving(true);
    try {
      if (settings) await api.patch(`/api/users/${userId}/settings`, body);
      else await api.post('/api/settings', { userId, ...body });
      toast({ title: 'Settings saved', message: `Check-ins are due every ${intervalLabel(body.checkInInterval)}.` });
      await onSaved().catch((e: unknown) => console.error('Reloading the profile failed', e));
    } catch (e) {
      const field = failureField(e);
      if (field === 'primaryContact' || field === 'secondaryContact' || field === 'checkInInterval') {
        setErrors({ [field]: failureMessage(e, '') });
      }
      toast({ title: 'Failed to save settings', message: failureMessage(e, 'Please try again.'), type: 'error' });
    } finally {
      setSaving(false);
    }
  };

  return (
    <Card data-testid="profile-settings">
      <CardHeader>
        <CardTitle>Emergency Contact Settings</CardTitle>
        <CardDescription>Who is called first if you miss a check-in, and how often you check in.</CardDescription>
      </CardHeader>
      <CardContent>
        <form className="lws-form" noValidate onSubmit={onSubmit} aria-label="Emergency contact settings">
          <div className="lws-field">
            <Label htmlFor={ids.primary}>Primary Contact</Label>
            <Input
              id={ids.primary}
              type="tel"
              inputMode="tel"
              value={primaryContact}
              onChange={(e) => setPrimary(e.target.value)}
              invalid={Boolean(errors.primaryContact)}
              aria-describedby={errors.primaryContact ? ids.primaryError : undefined}
              data-testid="settings-primary"
            />
            <FieldError id={ids.primaryError} testId="settings-primary-error">
              {errors.primaryContact}
            </FieldError>
          </div>
          <div className="lws-field">
            <Label htmlFor={ids.secondary}>Secondary Contact (optional)</Label>
            <Input
              id={ids.secondary}
              type="tel"
              inputMode="tel"
              value={secondaryContact}
              onChange={(e) => setSecondary(e.target.value)}
              invalid={Boolean(errors.secondaryContact)}
              aria-describedby={errors.secondaryContact ? ids.secondaryError : undefined}
              data-testid="settings-secondary"
            />
            <FieldError id={ids.secondaryError} testId="settings-secondary-error">
              {errors.secondaryContact}
            </FieldError>
          </div>
          <div className="lws-field">
            <Label htmlFor={ids.interval}>Check-in Interval</Label>
            <Select
              id={ids.interval}
              value={interval}
              onChange={(e) => setCheckInInterval(e.target.value)}
              invalid={Boolean(errors.checkInInterval)}
              aria-describedby={errors.checkInInterval ? ids.intervalError : undefined}
              data-testid="settings-interval"
            >
              {CHECK_IN_INTERVALS.map((m) => (
                <option key={m} value={String(m)}>
                  {intervalLabel(m)}
                </option>
              ))}
            </Select>
            <FieldError id={ids.intervalError} testId="settings-interval-error">
              {errors.checkInInterval}
            </FieldError>
          </div>
          <div className="lws-actions">
            <Button type="submit" busy={saving} data-testid="settings-save">
              {saving ? 'Saving...' : 'Save Settings'}
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
