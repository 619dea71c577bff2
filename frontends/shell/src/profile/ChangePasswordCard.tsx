import { zodResolver } from '@hookform/resolvers/zod';
import { useId } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
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
  msg,
  useAuth,
  useT,
  useToast,
} from '@lws/fe-ui';
import { changePasswordFormSchema, type ChangePasswordForm } from '@lws/schemas';

type Field = keyof ChangePasswordForm;

const EMPTY: ChangePasswordForm = { currentPassword: '', newPassword: '', confirmPassword: '' };
const FIELDS: { key: Field; label: string; autoComplete: string; testId: string }[] = [
  { key: 'currentPassword', label: msg('Current Password'), autoComplete: 'current-password', testId: 'password-current' },
  { key: 'newPassword', label: msg('New Password'), autoComplete: 'new-password', testId: 'password-new' },
  { key: 'confirmPassword', label: msg('Confirm New Password'), autoComplete: 'new-password', testId: 'password-confirm' },
];

/**
 * Spec section 5, "Change password": rules checked as the user types, values trimmed before sending.
 * The gateway's own schema checks it, so the words under a field are the server's.
 */
export function ChangePasswordCard({ temporary }: { temporary: boolean }) {
  const { toast } = useToast();
  const t = useT();
  const { refresh } = useAuth();
  const form = useForm<ChangePasswordForm, unknown, z.output<typeof changePasswordFormSchema>>({
    resolver: zodResolver(changePasswordFormSchema),
    mode: 'onChange',
    defaultValues: EMPTY,
  });
  const { errors, isSubmitting: saving } = form.formState;
  const baseId = useId();

  // A new password typed after the confirmation rechecks it; an untouched confirmation stays quiet.
  const recheckConfirmation = () => {
    if (form.getFieldState('confirmPassword').isDirty) void form.trigger('confirmPassword');
  };

  const onSubmit = form.handleSubmit(async ({ currentPassword, newPassword }) => {
    try {
      await api.post('/api/auth/change-password', { currentPassword, newPassword });
      toast({ title: t('Password Changed'), message: t('Your password has been updated. Other devices have been logged out.') });
      form.reset(EMPTY);
      await refresh();
    } catch (e) {
      const field = failureField(e);
      if (field === 'currentPassword' || field === 'newPassword') form.setError(field, { message: failureMessage(e, '') });
      toast({ title: t('Password Change Failed'), message: t(failureMessage(e, msg('Failed to change password'))), type: 'error' });
    }
  });

  return (
    <Card data-testid="profile-password">
      <CardHeader>
        <CardTitle>{t('Change Password')}</CardTitle>
        <CardDescription>{t('At least 6 characters, with an uppercase letter and a number.')}</CardDescription>
      </CardHeader>
      <CardContent>
        <form
          className="lws-form"
          noValidate
          onSubmit={(event) => void onSubmit(event)}
          aria-label={t('Change password')}
          data-testid="password-form"
        >
          {temporary ? (
            <Alert variant="warning" data-testid="password-temporary">
              {t('You are using a temporary password. Choose your own now.')}
            </Alert>
          ) : null}
          {FIELDS.map(({ key, label, autoComplete, testId }) => {
            const error = errors[key]?.message;
            const id = `${baseId}-${key}`;
            return (
              <div className="lws-field" key={key}>
                <Label htmlFor={id}>{t(label)}</Label>
                <Input
                  id={id}
                  type="password"
                  autoComplete={autoComplete}
                  {...form.register(key, key === 'newPassword' ? { onChange: recheckConfirmation } : undefined)}
                  invalid={Boolean(error)}
                  aria-describedby={error ? `${id}-error` : undefined}
                  data-testid={testId}
                />
                <FieldError id={`${id}-error`} testId={`${testId}-error`}>
                  {error && t(error)}
                </FieldError>
              </div>
            );
          })}
          <div className="lws-actions">
            <Button type="submit" busy={saving} data-testid="password-submit">
              {saving ? t('Changing...') : t('Change Password')}
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
