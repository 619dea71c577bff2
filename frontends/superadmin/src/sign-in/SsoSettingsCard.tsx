import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Controller, useFieldArray, useForm, type FieldPath } from 'react-hook-form';
import {
  Alert,
  ApiError,
  Button,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  Checkbox,
  FieldError,
  Input,
  Label,
  Select,
  Skeleton,
  Textarea,
  failureField,
  failureMessage,
  loadOf,
  msg,
  useT,
  useToast,
} from '@lws/fe-ui';
import {
  SSO_SETTINGS_KEY,
  TEAM_NAMES_KEY,
  fetchSsoSettings,
  fetchTeamNames,
  saveSsoSettings,
  type PasswordLogin,
  type SsoSettings,
  type SsoSettingsRequest,
  type SubjectClaim,
} from './sign-in-api';

// The words identity uses when it refuses the same thing, so both read (and translate) alike.
const ISSUER_REQUIRED = msg('The issuer is required to turn single sign-on on');
const CLIENT_ID_REQUIRED = msg('The client ID is required to turn single sign-on on');
const NAME_REQUIRED = msg('The name shown on the login page is required');
const GROUPS_CLAIM_REQUIRED = msg('The groups claim is required');
const GROUP_REQUIRED = msg('A group is required');
const TEAM_REQUIRED = msg('Choose a team');

/** The form's fields as typed: the domains as one text, a mapping's team as the select's value. */
export interface SsoForm {
  enabled: boolean;
  displayName: string;
  issuer: string;
  clientId: string;
  /** Empty keeps the stored secret. */
  clientSecret: string;
  subjectClaim: SubjectClaim;
  emailDomains: string;
  passwordLogin: PasswordLogin;
  jitEnabled: boolean;
  groupsClaim: string;
  groupTeams: { group: string; teamId: string }[];
  linkByEmail: boolean;
}

const FIELDS: readonly (keyof SsoForm)[] = [
  'enabled',
  'displayName',
  'issuer',
  'clientId',
  'clientSecret',
  'subjectClaim',
  'emailDomains',
  'passwordLogin',
  'jitEnabled',
  'groupsClaim',
  'groupTeams',
  'linkByEmail',
];

function formValues(settings: SsoSettings): SsoForm {
  return {
    enabled: settings.enabled,
    displayName: settings.displayName,
    issuer: settings.issuer,
    clientId: settings.clientId,
    // The stored secret never comes back; the field only ever holds a new one.
    clientSecret: '',
    subjectClaim: settings.subjectClaim,
    emailDomains: settings.emailDomains.join('\n'),
    passwordLogin: settings.passwordLogin,
    jitEnabled: settings.jitEnabled,
    groupsClaim: settings.groupsClaim,
    groupTeams: settings.groupTeams.map((m) => ({ group: m.group, teamId: String(m.teamId) })),
    linkByEmail: settings.linkByEmail,
  };
}

/** PUT /api/system/sso's body; an empty secret is left out, which keeps the stored one. */
export function ssoRequest(form: SsoForm): SsoSettingsRequest {
  const secret = form.clientSecret.trim();
  return {
    enabled: form.enabled,
    displayName: form.displayName.trim(),
    issuer: form.issuer.trim(),
    clientId: form.clientId.trim(),
    ...(secret ? { clientSecret: secret } : {}),
    subjectClaim: form.subjectClaim,
    emailDomains: form.emailDomains
      .split(/[\s,]+/)
      .map((d) => d.trim())
      .filter(Boolean),
    passwordLogin: form.passwordLogin,
    jitEnabled: form.jitEnabled,
    groupsClaim: form.groupsClaim.trim(),
    groupTeams: form.groupTeams.map((m) => ({ group: m.group.trim(), teamId: Number(m.teamId) })),
    linkByEmail: form.linkByEmail,
  };
}

/**
 * The form field a refusal names: a mapping's own cell ("groupTeams.0.teamId"), else the field
 * the path starts with ("emailDomains.2" is the domains' text). None for a field the form lacks.
 */
function formField(field: string | undefined): FieldPath<SsoForm> | undefined {
  if (!field) return undefined;
  const cell = /^groupTeams\.(\d+)\.(group|teamId)$/.exec(field);
  if (cell) return `groupTeams.${Number(cell[1])}.${cell[2] as 'group' | 'teamId'}`;
  const top = field.split('.')[0] as keyof SsoForm;
  return FIELDS.includes(top) ? top : undefined;
}

const requiredWhenEnabled = (message: string) => (value: string, form: SsoForm) => !form.enabled || value.trim() !== '' || message;

/**
 * Single sign-on by OpenID Connect: the organisation's provider, who may still use a password,
 * and what happens to someone who signs in for the first time. Settings that come from the
 * server's environment are shown, not edited.
 */
export function SsoSettingsCard() {
  const t = useT();
  const query = useQuery({ queryKey: SSO_SETTINGS_KEY, queryFn: fetchSsoSettings });
  const load = loadOf(query);
  return (
    <Card data-testid="sso-settings">
      <CardHeader>
        <CardTitle>{t('Single sign-on')}</CardTitle>
        <CardDescription>
          {t("People sign in with their organisation's account (OpenID Connect: Microsoft Entra ID, Google, Okta and others).")}
        </CardDescription>
      </CardHeader>
      <CardContent>
        {load.state === 'loading' ? (
          <div role="status" aria-label={t('Loading sign-in settings')}>
            <Skeleton height="12rem" />
          </div>
        ) : load.state === 'error' ? (
          <Alert variant="error" data-testid="sso-settings-load-error">
            {t('The sign-in settings could not be loaded.')}
          </Alert>
        ) : (
          // Drawn afresh when the settings turn out to be the environment's (a 409 on saving).
          <SsoSettingsForm key={String(load.data.fromEnvironment)} settings={load.data} />
        )}
      </CardContent>
    </Card>
  );
}

function SsoSettingsForm({ settings }: { settings: SsoSettings }) {
  const t = useT();
  const { toast } = useToast();
  const client = useQueryClient();
  const teams = useQuery({ queryKey: TEAM_NAMES_KEY, queryFn: fetchTeamNames });
  const form = useForm<SsoForm>({ defaultValues: formValues(settings) });
  const mappings = useFieldArray({ control: form.control, name: 'groupTeams' });
  const { errors, isSubmitting: saving } = form.formState;
  const [failure, setFailure] = useState<string | null>(null);
  const base = useId();
  const id = (field: string) => `${base}-${field}`;
  const errorId = (field: string) => `${base}-${field}-error`;
  const readOnly = settings.fromEnvironment;

  /** A text field's label, input and message, tied together for screen readers. */
  const described = (field: FieldPath<SsoForm>, message: string | undefined) => ({
    id: id(field),
    invalid: Boolean(message),
    'aria-describedby': message ? errorId(field) : undefined,
    'data-testid': `sso-${field.replaceAll('.', '-')}`,
  });
  const fieldError = (field: FieldPath<SsoForm>, message: string | undefined) => (
    <FieldError id={errorId(field)} testId={`sso-${field.replaceAll('.', '-')}-error`}>
      {message ? t(message) : null}
    </FieldError>
  );

  const onSubmit = form.handleSubmit(async (values) => {
    setFailure(null);
    try {
      const saved = await saveSsoSettings(ssoRequest(values));
      client.setQueryData(SSO_SETTINGS_KEY, saved);
      form.reset(formValues(saved));
      toast({ title: t('Sign-in settings saved') });
    } catch (e) {
      const message = failureMessage(e, msg('The sign-in settings could not be saved. Please try again.'));
      const field = formField(failureField(e));
      if (field) form.setError(field, { message }, { shouldFocus: true });
      else setFailure(message);
      // Set in the environment meanwhile: show what is in force, read-only.
      if (e instanceof ApiError && e.status === 409) void client.invalidateQueries({ queryKey: SSO_SETTINGS_KEY });
    }
  });

  const teamNames = teams.data ?? [];
  return (
    <form
      className="lws-form"
      noValidate
      onSubmit={(event) => void onSubmit(event)}
      aria-label={t('Single sign-on')}
      data-testid="sso-form"
    >
      {readOnly ? (
        <Alert variant="info" data-testid="sso-from-environment">
          {t("These settings come from the server's environment (SSO_*) and can only be changed there.")}
        </Alert>
      ) : null}
      <dl className="lws-info-list" data-testid="sso-uris">
        <dt>{t('Redirect URI to register at your provider')}</dt>
        <dd>
          <code data-testid="sso-redirect-uri">{settings.redirectUri}</code>
        </dd>
        <dt>{t('Sign-out redirect URI')}</dt>
        <dd>
          <code data-testid="sso-post-logout-uri">{settings.postLogoutRedirectUri}</code>
        </dd>
      </dl>
      {/* A disabled fieldset disables every control in it, the Save button included. */}
      <fieldset className="lws-fieldset" disabled={readOnly}>
        <div className="lws-form">
          <Checkbox label={t('Single sign-on enabled')} {...form.register('enabled')} data-testid="sso-enabled" />
          <div className="lws-grid-2">
            <div className="lws-field">
              <Label htmlFor={id('displayName')}>{t('Name shown on the login page')}</Label>
              <Input
                {...described('displayName', errors.displayName?.message)}
                {...form.register('displayName', { validate: requiredWhenEnabled(NAME_REQUIRED) })}
                maxLength={100}
                autoComplete="off"
              />
              {fieldError('displayName', errors.displayName?.message)}
            </div>
            <div className="lws-field">
              <Label htmlFor={id('issuer')}>{t('Issuer URL')}</Label>
              <Input
                {...described('issuer', errors.issuer?.message)}
                {...form.register('issuer', { validate: requiredWhenEnabled(ISSUER_REQUIRED) })}
                type="url"
                maxLength={500}
                autoComplete="off"
                spellCheck={false}
              />
              {fieldError('issuer', errors.issuer?.message)}
            </div>
            <div className="lws-field">
              <Label htmlFor={id('clientId')}>{t('Client ID')}</Label>
              <Input
                {...described('clientId', errors.clientId?.message)}
                {...form.register('clientId', { validate: requiredWhenEnabled(CLIENT_ID_REQUIRED) })}
                maxLength={500}
                autoComplete="off"
                spellCheck={false}
              />
              {fieldError('clientId', errors.clientId?.message)}
            </div>
            <div className="lws-field">
              <Label htmlFor={id('clientSecret')}>{t('Client secret')}</Label>
              <Input
                {...described('clientSecret', errors.clientSecret?.message)}
                {...form.register('clientSecret')}
                type="password"
                maxLength={2000}
                // A browser must never offer a saved password here.
                autoComplete="new-password"
                placeholder={settings.clientSecretSet ? t('Stored — leave empty to keep') : undefined}
              />
              {fieldError('clientSecret', errors.clientSecret?.message)}
            </div>
            <div className="lws-field">
              <Label htmlFor={id('subjectClaim')}>{t('Subject claim')}</Label>
              <Select {...described('subjectClaim', errors.subjectClaim?.message)} {...form.register('subjectClaim')}>
                <option value="sub">{t('sub (standard)')}</option>
                <option value="oid">{t('oid (Microsoft Entra ID)')}</option>
              </Select>
              <p className="lws-field-hint">{t('The claim that names a person for good, even if their e-mail address changes.')}</p>
              {fieldError('subjectClaim', errors.subjectClaim?.message)}
            </div>
            <div className="lws-field">
              <Label htmlFor={id('emailDomains')}>{t('Allowed e-mail domains')}</Label>
              <Textarea
                {...described('emailDomains', errors.emailDomains?.message)}
                {...form.register('emailDomains')}
                rows={3}
                spellCheck={false}
              />
              <p className="lws-field-hint">{t('One per line, or separated by commas. None: any domain.')}</p>
              {fieldError('emailDomains', errors.emailDomains?.message)}
            </div>
          </div>

          <fieldset className="lws-fieldset" data-testid="sso-passwordLogin">
            <legend className="lws-label">{t('Password sign-in')}</legend>
            <label className="lws-checkbox">
              <input type="radio" value="everyone" className="lws-checkbox__input" {...form.register('passwordLogin')} />
              <span className="lws-checkbox__label">{t('Everyone may also use a password')}</span>
            </label>
            <label className="lws-checkbox">
              <input type="radio" value="break_glass" className="lws-checkbox__input" {...form.register('passwordLogin')} />
              <span className="lws-checkbox__label">{t('Only the superadmin, as a break-glass account')}</span>
            </label>
            {fieldError('passwordLogin', errors.passwordLogin?.message)}
          </fieldset>

          <fieldset className="lws-fieldset" data-testid="sso-first-sign-in">
            <legend className="lws-label">{t('First sign-in')}</legend>
            <Checkbox label={t('Create workers on first sign-in')} {...form.register('jitEnabled')} data-testid="sso-jitEnabled" />
            {fieldError('jitEnabled', errors.jitEnabled?.message)}
            <Checkbox
              label={t('Link an existing account by e-mail on first sign-in')}
              {...form.register('linkByEmail')}
              aria-describedby={id('linkByEmail-hint')}
              data-testid="sso-linkByEmail"
            />
            <p id={id('linkByEmail-hint')} className="lws-field-hint lws-field-hint--invalid">
              {t('Only if your provider verifies e-mail addresses')}
            </p>
            {fieldError('linkByEmail', errors.linkByEmail?.message)}
          </fieldset>

          <div className="lws-field">
            <Label htmlFor={id('groupsClaim')}>{t('Groups claim')}</Label>
            <Input
              {...described('groupsClaim', errors.groupsClaim?.message)}
              {...form.register('groupsClaim', { validate: (v) => v.trim() !== '' || GROUPS_CLAIM_REQUIRED })}
              maxLength={100}
              autoComplete="off"
              spellCheck={false}
            />
            {fieldError('groupsClaim', errors.groupsClaim?.message)}
          </div>

          <fieldset className="lws-fieldset" data-testid="sso-groupTeams">
            <legend className="lws-label">{t('Group to team mappings')}</legend>
            <p className="lws-field-hint">
              {t(
                'A worker created on first sign-in joins the team of the first of their groups listed here; without one they are not created.',
              )}
            </p>
            {teams.isError ? (
              <Alert variant="warning" data-testid="sso-teams-error">
                {t('The teams could not be loaded.')}
              </Alert>
            ) : null}
            <ol className="lws-list">
              {mappings.fields.map((row, i) => {
                const group = errors.groupTeams?.[i]?.group?.message;
                const team = errors.groupTeams?.[i]?.teamId?.message;
                return (
                  <li key={row.id} data-testid="sso-mapping">
                    <div className="lws-inline-form">
                      <Input
                        {...described(`groupTeams.${i}.group`, group)}
                        {...form.register(`groupTeams.${i}.group`, { validate: (v) => v.trim() !== '' || GROUP_REQUIRED })}
                        aria-label={t('Group {{number}}', { number: i + 1 })}
                        maxLength={256}
                        autoComplete="off"
                        spellCheck={false}
                      />
                      {/* Controlled: the teams arrive after the form, and the saved team must stay chosen. */}
                      <Controller
                        control={form.control}
                        name={`groupTeams.${i}.teamId`}
                        rules={{ required: TEAM_REQUIRED }}
                        render={({ field }) => (
                          <Select
                            {...described(`groupTeams.${i}.teamId`, team)}
                            {...field}
                            aria-label={t('Team for group {{number}}', { number: i + 1 })}
                          >
                            <option value="">{t('Choose a team…')}</option>
                            {/* A team this page does not list (not loaded, or deleted meanwhile) still shows as saved. */}
                            {field.value && !teamNames.some((tn) => String(tn.id) === field.value) ? (
                              <option value={field.value}>{t('Team #{{id}}', { id: field.value })}</option>
                            ) : null}
                            {teamNames.map((tn) => (
                              <option key={tn.id} value={tn.id}>
                                {tn.name}
                              </option>
                            ))}
                          </Select>
                        )}
                      />
                      <Button
                        size="sm"
                        variant="outline"
                        onClick={() => mappings.remove(i)}
                        aria-label={t('Remove group {{number}}', { number: i + 1 })}
                        data-testid="sso-mapping-remove"
                      >
                        {t('Remove')}
                      </Button>
                    </div>
                    {fieldError(`groupTeams.${i}.group`, group)}
                    {fieldError(`groupTeams.${i}.teamId`, team)}
                  </li>
                );
              })}
            </ol>
            <div className="lws-actions">
              <Button
                size="sm"
                variant="outline"
                onClick={() => mappings.append({ group: '', teamId: '' }, { shouldFocus: true })}
                data-testid="sso-mapping-add"
              >
                {t('Add a mapping')}
              </Button>
            </div>
            {fieldError('groupTeams', errors.groupTeams?.message)}
          </fieldset>

          {failure ? (
            <Alert variant="error" data-testid="sso-error">
              {t(failure)}
            </Alert>
          ) : null}
          <div className="lws-actions">
            <Button type="submit" busy={saving} data-testid="sso-save">
              {saving ? t('Saving...') : t('Save sign-in settings')}
            </Button>
          </div>
        </div>
      </fieldset>
    </form>
  );
}
