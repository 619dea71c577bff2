import { zodResolver } from '@hookform/resolvers/zod';
import { useId, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import type { z } from 'zod';
import {
  Badge,
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
  roleLabel,
  useAuth,
  useT,
  useToast,
  type User,
} from '@lws/fe-ui';
import { profileDetailsSchema, type ProfileDetailsForm } from '@lws/schemas';
import { UkPhoneField } from './UkPhoneField';
import type { ProfileTeam } from './profile-data';

/** Who the user is, and a worker's team and its monitors; name and phone can be edited here. */
export function UserInfoCard({ user, team }: { user: User; team: ProfileTeam | null }) {
  const { refresh } = useAuth();
  const { toast } = useToast();
  const t = useT();
  const [editing, setEditing] = useState(false);
  // The gateway's own schema checks the details, so the words under a field are the server's.
  const form = useForm<ProfileDetailsForm, unknown, z.output<typeof profileDetailsSchema>>({ resolver: zodResolver(profileDetailsSchema) });
  const { errors, isSubmitting: saving } = form.formState;
  const nameId = useId();
  const nameErrorId = useId();

  const startEditing = () => {
    form.reset({ name: user.name, phone: user.phone ?? '+44' });
    setEditing(true);
  };

  const onSubmit = form.handleSubmit(async (input) => {
    // What is saved is what the field shows: the number in +44 form.
    form.setValue('phone', input.phone);
    try {
      await api.patch(`/api/users/${user.id}`, input);
      await refresh();
      toast({ title: t('Profile updated'), message: t('Your name and phone number have been saved.') });
      setEditing(false);
    } catch (e) {
      const field = failureField(e);
      if (field === 'name' || field === 'phone') form.setError(field, { message: failureMessage(e, '') });
      toast({
        title: t('Update failed'),
        message: t(failureMessage(e, msg('Your profile could not be saved. Please try again.'))),
        type: 'error',
      });
    }
  });

  return (
    <Card data-testid="profile-user-info">
      <CardHeader>
        <CardTitle>{t('Your Details')}</CardTitle>
        <CardDescription>{t('Your name and phone number as monitors see them.')}</CardDescription>
      </CardHeader>
      <CardContent>
        {editing ? (
          <form
            className="lws-form"
            noValidate
            onSubmit={(event) => void onSubmit(event)}
            aria-label={t('Edit your details')}
            data-testid="profile-edit-form"
          >
            <div className="lws-field">
              <Label htmlFor={nameId}>{t('Full Name')}</Label>
              <Input
                {...form.register('name')}
                id={nameId}
                autoComplete="name"
                invalid={Boolean(errors.name)}
                aria-describedby={errors.name ? nameErrorId : undefined}
                data-testid="profile-name-input"
              />
              <FieldError id={nameErrorId} testId="profile-name-input-error">
                {errors.name?.message && t(errors.name.message)}
              </FieldError>
            </div>
            <Controller
              control={form.control}
              name="phone"
              render={({ field }) => (
                <UkPhoneField
                  label={t('Phone Number')}
                  value={field.value}
                  onChange={field.onChange}
                  error={errors.phone?.message}
                  testId="profile-phone-input"
                />
              )}
            />
            <div className="lws-actions">
              <Button type="submit" busy={saving} data-testid="profile-save">
                {saving ? t('Saving...') : t('Save')}
              </Button>
              <Button variant="outline" disabled={saving} onClick={() => setEditing(false)} data-testid="profile-cancel">
                {t('Cancel')}
              </Button>
            </div>
          </form>
        ) : (
          <>
            <dl className="lws-info-list" data-testid="profile-details">
              <dt>{t('Name')}</dt>
              <dd data-testid="profile-name">{user.name}</dd>
              <dt>{t('Username')}</dt>
              <dd data-testid="profile-username">{user.username}</dd>
              <dt>{t('Role')}</dt>
              <dd>
                <Badge variant="info">{t(roleLabel(user.role))}</Badge>
              </dd>
              <dt>{t('Phone')}</dt>
              <dd data-testid="profile-phone">{user.phone || t('Not set')}</dd>
              {team ? (
                <>
                  <dt>{t('Team')}</dt>
                  <dd data-testid="profile-team">{team.name}</dd>
                  <dt>{t('Monitors')}</dt>
                  <dd data-testid="profile-monitors">{team.monitors.length > 0 ? team.monitors.join(', ') : t('Every admin')}</dd>
                </>
              ) : null}
            </dl>
            <div className="lws-actions lws-actions--spaced">
              <Button variant="outline" onClick={startEditing} data-testid="profile-edit">
                {t('Edit Details')}
              </Button>
            </div>
          </>
        )}
      </CardContent>
    </Card>
  );
}
