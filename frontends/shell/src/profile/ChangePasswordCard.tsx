import { useId, useState, type FormEvent } from 'react';
import {
  Alert,
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
  failureField,
  failureMessage,
  useAuth,
  useToast,
} from '@lws/fe-ui';
import { hasErrors, validatePasswordChange, type Errors, type PasswordChange } from './profile-validation';

type Field = keyof PasswordChange;

const EMPTY: PasswordChange = { currentPassword: '', newPassword: '', confirmPassword: '' };
const FIELDS: { key: Field; label: string; autoComplete: string; testId: string }[] = [
  { key: 'currentPassword', label: 'Current Password', autoComplete: 'current-password', testId: 'password-current' },
  { key: 'newPassword', label: 'New Password', autoComplete: 'new-password', testId: 'password-new' },
  { key: 'confirmPassword', label: 'Confirm New Password', autoComplete: 'new-password', testId: 'password-confirm' },
];

/** Spec section 5, "Change password": rules checked as the user types, values trimmed before sending. */
export function ChangePasswordCard({ temporary }: { temporary: boolean }) {
  const { toast } = useToast();
  const { refresh } = useAuth();
  const [values, setValues] = useState<PasswordChange>(EMPTY);
  const [touched, setTouched] = useState<Partial<Record<Field, boolean>>>({});
  const [serverErrors, setServerErrors] = useState<Errors<Field>>({});
  const [saving, setSaving] = useState(false);
  const baseId = useId();

  const ruleErrors = validatePasswordChange(values);
  const shown = (field: Field) => serverErrors[field] ?? (touched[field] ? ruleErrors[field] : undefined);

  const onChange = (field: Field, value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    setTouched((t) => ({ ...t, [field]: true }));
    setServerErrors({});
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (saving) return;
    setTouched({ currentPassword: true, newPassword: true, confirmPassword: true });
    if (hasErrors(ruleErrors)) return;
    setSaving(true);
    try {
      await api.post('/api/auth/change-password', {
        currentPassword: values.currentPassword.trim(),
        newPassword: values.newPassword.trim(),
      });
      toast({ title: 'Password Changed', message: 'Your password has been updated. Other devices have been logged out.' });
      setValues(EMPTY);
      setTouched({});
      await refresh();
    } catch (e) {
      const field = failureField(e);
      if (field === 'currentPassword' || field === 'newPassword') setServerErrors({ [field]: failureMessage(e, '') });
      toast({ title: 'Password Change Failed', message: failureMessage(e, 'Failed to change password'), type: 'error' });
    } finally {
      setSaving(false);
    }
  };

  return (
    <Card data-testid="profile-password">
      <CardHeader>
        <CardTitle>Change Password</CardTitle>
        <CardDescription>At least 6 characters, with an uppercase letter and a number.</CardDescription>
      </CardHeader>
      <CardContent>
        <form className="lws-form" noValidate onSubmit={onSubmit} aria-label="Change password" data-testid="password-form">
          {temporary ? (
            <Alert variant="warning" data-testid="password-temporary">
              You are using a temporary password. Choose your own now.
            </Alert>
          ) : null}
          {FIELDS.map(({ key, label, autoComplete, testId }) => {
            const error = shown(key);
            const id = `${baseId}-${key}`;
            return (
              <div className="lws-field" key={key}>
                <Label htmlFor={id}>{label}</Label>
                <Input
                  id={id}
                  type="password"
                  autoComplete={autoComplete}
                  value={values[key]}
                  onChange={(e) => onChange(key, e.target.value)}
                  invalid={Boolean(error)}
                  aria-describedby={error ? `${id}-error` : undefined}
                  data-testid={testId}
                />
                <FieldError id={`${id}-error`} testId={`${testId}-error`}>
                  {error}
                </FieldError>
              </div>
            );
          })}
          <div className="lws-actions">
            <Button type="submit" busy={saving} data-testid="password-submit">
              {saving ? 'Changing...' : 'Change Password'}
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
