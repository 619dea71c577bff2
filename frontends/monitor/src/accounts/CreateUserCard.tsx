import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Controller, useForm, type Resolver } from 'react-hook-form';
import {
  ApiError,
  Button,
  Card,
  CardContent,
  CardHeader,
  CardTitle,
  Checkbox,
  FieldError,
  Input,
  LANGUAGES,
  languageName,
  SOURCE_LANGUAGE,
  Label,
  PinInput,
  Select,
  Textarea,
  failureField,
  api,
  useAuth,
  useT,
  useToast,
  english,
  type Translate,
} from '@lws/fe-ui';
import { createUserSchema, type CreatableRole, type CreateUserRequest } from '@lws/schemas';
import { fetchTeamNames } from './accounts-api';
import { OneTimeSecretDialog, type OneTimeSecret } from './OneTimeSecretDialog';

/** The form's fields, as typed; the gateway's schema turns them into the request. */
export interface CreateUserInput {
  username: string;
  password: string;
  name: string;
  phone: string;
  role: CreatableRole;
  medicalInfo: string;
  /** Blank asks the server to generate one, shown once. */
  pinCode: string;
  /** The superadmin's new administrator: the teams they will monitor. */
  monitorTeamIds: number[];
  /** Their screens', texts' and calls' language. */
  language: string;
}
type CreateUserField = keyof CreateUserInput;

const EMPTY: CreateUserInput = {
  username: '',
  password: '',
  name: '',
  phone: '+44',
  role: 'worker',
  medicalInfo: '',
  pinCode: '',
  monitorTeamIds: [],
  language: SOURCE_LANGUAGE,
};
// The request's schema checks the form: the words under a field are the gateway's own.
const resolver = zodResolver(createUserSchema) as unknown as Resolver<CreateUserInput, unknown, CreateUserRequest>;

/** Spec section 8, "User creation": what to say when the server refuses, in English unless given the screen's `t()`. */
export function creationFailureText(error: unknown, t: Translate = english): string {
  if (!(error instanceof ApiError)) return t('Failed to create user');
  if (error.serverMessage) return t(error.serverMessage);
  if (typeof error.body === 'string') {
    if (error.status === 409) return t('Username already exists. Please choose a different username.');
    if (error.status === 401) return t('Not authorized. Please log in again.');
    return t('Server error: {{status}} {{statusText}}', { status: error.status, statusText: error.statusText });
  }
  return t('Failed to create user');
}

function createdUser(body: unknown): { name: string; username: string; generatedPin?: string } | null {
  const v = body && typeof body === 'object' ? (body as Record<string, unknown>) : null;
  const user = v?.user && typeof v.user === 'object' ? (v.user as Record<string, unknown>) : null;
  if (!user || typeof user.name !== 'string' || typeof user.username !== 'string') return null;
  return { name: user.name, username: user.username, ...(typeof v?.generatedPin === 'string' ? { generatedPin: v.generatedPin } : {}) };
}

/**
 * The Create User tab: a worker or an administrator (spec section 2). An administrator an admin
 * creates monitors the teams that admin monitors (identity gives them no others).
 */
export function CreateUserCard() {
  const { user } = useAuth();
  const { toast } = useToast();
  const t = useT();
  const client = useQueryClient();
  // After a first attempt the messages follow the input, so a fixed field clears at once.
  const form = useForm<CreateUserInput, unknown, CreateUserRequest>({
    resolver,
    defaultValues: EMPTY,
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });
  const { errors, isSubmitting: creating } = form.formState;
  const role = form.watch('role');
  // The superadmin chooses the teams a new administrator monitors; an admin's monitors theirs.
  const choosesTeams = role === 'admin' && user?.role === 'superadmin';
  const teams = useQuery({ queryKey: ['teams', 'names'], queryFn: fetchTeamNames, enabled: user?.role === 'superadmin' });
  const [revealPin, setRevealPin] = useState(false);
  const [secret, setSecret] = useState<OneTimeSecret | null>(null);
  const baseId = useId();
  const id = (field: CreateUserField) => `${baseId}-${field}`;
  const errorId = (field: CreateUserField) => `${baseId}-${field}-error`;

  const fieldProps = (field: CreateUserField) => ({
    id: id(field),
    invalid: Boolean(errors[field]),
    'aria-describedby': errors[field] ? errorId(field) : undefined,
    'data-testid': `create-${field}`,
  });

  const error = (field: CreateUserField) => (
    <FieldError id={errorId(field)} testId={`create-${field}-error`}>
      {errors[field]?.message && t(errors[field].message)}
    </FieldError>
  );

  const onSubmit = form.handleSubmit(async ({ monitorTeamIds, language, ...rest }) => {
    const request = {
      ...rest,
      ...(choosesTeams && monitorTeamIds?.length ? { monitorTeamIds } : {}),
      ...(language && language !== SOURCE_LANGUAGE ? { language } : {}),
    };
    try {
      const created = createdUser(await api.post('/api/users', request));
      if (!created) throw new Error('Invalid server response format');
      toast({
        title: t('User Created'),
        message: t('{{name}} ({{username}}) has been created successfully.', { name: created.name, username: created.username }),
      });
      if (created.generatedPin) {
        setSecret({ title: t('PIN for {{name}}', { name: created.name }), owner: created.name, value: created.generatedPin });
      }
      form.reset(EMPTY);
      // Every list of accounts shows the new one, even while the live stream is down.
      void client.invalidateQueries({ queryKey: ['accounts'] });
    } catch (e) {
      const field = failureField(e);
      // "monitorTeamIds.2": the team list as a whole.
      const named = field?.split('.')[0];
      if (named && named in EMPTY) form.setError(named as CreateUserField, { message: creationFailureText(e) }, { shouldFocus: true });
      toast({ title: t('Error Creating User'), message: creationFailureText(e, t), type: 'error' });
    }
  });

  return (
    <Card data-testid="create-user-card">
      <CardHeader>
        <CardTitle>{t('Create New User')}</CardTitle>
      </CardHeader>
      <CardContent>
        <form
          className="lws-form"
          noValidate
          onSubmit={(event) => void onSubmit(event)}
          aria-label={t('Create new user')}
          data-testid="create-user-form"
        >
          <div className="lws-grid-2">
            <div className="lws-field">
              <Label htmlFor={id('username')}>{t('Username')}</Label>
              <Input
                {...fieldProps('username')}
                {...form.register('username')}
                autoComplete="off"
                autoCapitalize="none"
                spellCheck={false}
              />
              {error('username')}
            </div>
            <div className="lws-field">
              <Label htmlFor={id('password')}>{t('Password')}</Label>
              <Input {...fieldProps('password')} {...form.register('password')} type="password" autoComplete="new-password" />
              {error('password')}
            </div>
            <div className="lws-field">
              <Label htmlFor={id('name')}>{t('Full Name')}</Label>
              <Input {...fieldProps('name')} {...form.register('name')} autoComplete="off" />
              {error('name')}
            </div>
            <div className="lws-field">
              <Label htmlFor={id('phone')}>{t('Phone Number')}</Label>
              <Input
                {...fieldProps('phone')}
                {...form.register('phone')}
                type="tel"
                inputMode="tel"
                autoComplete="off"
                aria-describedby={[`${baseId}-phone-hint`, errors.phone ? errorId('phone') : ''].join(' ').trim()}
              />
              <p id={`${baseId}-phone-hint`} className="lws-field-hint">
                {t('UK format with country code (+44)')}
              </p>
              {error('phone')}
            </div>
            <div className="lws-field">
              <Label htmlFor={id('role')}>{t('User Role')}</Label>
              <Select {...fieldProps('role')} {...form.register('role')}>
                <option value="worker">{t('Worker')}</option>
                <option value="admin">{t('Administrator')}</option>
              </Select>
              {role === 'admin' && user?.role === 'admin' ? (
                <p className="lws-field-hint" data-testid="new-admin-teams-hint">
                  {t('They will monitor the same teams as you.')}
                </p>
              ) : null}
              {error('role')}
            </div>
            <div className="lws-field">
              <Label htmlFor={id('language')}>{t('Language')}</Label>
              <Select {...fieldProps('language')} {...form.register('language')}>
                {LANGUAGES.map((code) => (
                  <option key={code} value={code} lang={code}>
                    {languageName(code)}
                  </option>
                ))}
              </Select>
              <p className="lws-field-hint">{t('Their screens, and the texts and calls LWS sends them.')}</p>
              {error('language')}
            </div>
            {choosesTeams ? (
              <fieldset className="lws-fieldset" aria-describedby={`${baseId}-teams-hint`} data-testid="create-monitorTeamIds">
                <legend>{t('Teams they will monitor')}</legend>
                <Controller
                  control={form.control}
                  name="monitorTeamIds"
                  render={({ field }) => (
                    <>
                      {(teams.data ?? []).map((team) => (
                        <Checkbox
                          key={team.id}
                          label={team.name}
                          checked={field.value.includes(team.id)}
                          onChange={(e) =>
                            field.onChange(e.target.checked ? [...field.value, team.id] : field.value.filter((id) => id !== team.id))
                          }
                          data-testid={`create-team-${team.id}`}
                        />
                      ))}
                    </>
                  )}
                />
                <p id={`${baseId}-teams-hint`} className="lws-field-hint">
                  {teams.isError
                    ? t('The teams could not be loaded: add them to a team in the Teams tab once created.')
                    : (teams.data?.length ?? 0) > 1
                      ? t('With no team ticked they monitor none, and see no worker, until a team names them.')
                      : t('With no team ticked they monitor the one team there is.')}
                </p>
                {error('monitorTeamIds')}
              </fieldset>
            ) : null}
            <div className="lws-field">
              <Label htmlFor={id('pinCode')}>{t('PIN (optional)')}</Label>
              <Controller
                control={form.control}
                name="pinCode"
                render={({ field }) => (
                  <PinInput
                    {...fieldProps('pinCode')}
                    value={field.value}
                    onChange={field.onChange}
                    reveal={revealPin}
                    aria-describedby={[`${baseId}-pin-hint`, errors.pinCode ? errorId('pinCode') : ''].join(' ').trim()}
                  />
                )}
              />
              <Button
                size="sm"
                variant="ghost"
                aria-pressed={revealPin}
                onClick={() => setRevealPin((r) => !r)}
                data-testid="create-pin-reveal"
              >
                {revealPin ? t('Hide PIN') : t('Show PIN')}
              </Button>
              <p id={`${baseId}-pin-hint`} className="lws-field-hint">
                {t('Leave blank to generate a random PIN, shown to you once.')}
              </p>
              {error('pinCode')}
            </div>
          </div>
          <div className="lws-field">
            <Label htmlFor={id('medicalInfo')}>{t('Medical Information')}</Label>
            <Textarea {...fieldProps('medicalInfo')} {...form.register('medicalInfo')} maxLength={2000} />
            {error('medicalInfo')}
          </div>
          <div className="lws-actions">
            <Button type="submit" busy={creating} data-testid="create-submit">
              {creating ? t('Creating...') : t('Create User')}
            </Button>
          </div>
        </form>
      </CardContent>
      <OneTimeSecretDialog secret={secret} onClose={() => setSecret(null)} />
    </Card>
  );
}
