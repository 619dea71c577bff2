import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import {
  Badge,
  Button,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  Checkbox,
  ConfirmDialog,
  FieldError,
  Input,
  Label,
  Select,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
  failureField,
  failureMessage,
  formatDateTime,
  loadOf,
  msg,
  useAuth,
  serverNow,
  useT,
  useToast,
  LoadView,
} from '@lws/fe-ui';
import { API_SCOPES, API_TOKEN_MAX_DAYS, createApiTokenSchema, type ApiScope, type CreateApiTokenRequest } from '@lws/schemas';
import { OneTimeSecretAlert } from '../accounts/OneTimeSecretAlert';
import {
  API_TOKENS_KEY,
  apiTokenStatus,
  createApiToken,
  fetchApiTokens,
  revokeApiToken,
  type ApiToken,
  type ApiTokenStatus,
} from './api-tokens-api';

/** What each scope lets a token do, in the words of the screens it stands for. */
export const SCOPE_TEXT: Record<ApiScope, string> = {
  'alarms:read': msg('Read alarms and the alarm report'),
  'alarms:write': msg('Acknowledge and resolve alarms'),
  'shifts:read': msg('Read shifts, worker status and the activity log'),
  'users:read': msg('Read accounts and teams'),
  'webhooks:manage': msg('Manage webhook endpoints'),
};

export const EXPIRY_DAYS = [30, 90, 180, 365].filter((days) => days <= API_TOKEN_MAX_DAYS);
const DEFAULT_EXPIRY_DAYS = 90;
const NAME_MAX = 100;

interface ApiTokenForm {
  name: string;
  scopes: ApiScope[];
  expiresInDays: number;
}
type ApiTokenField = keyof ApiTokenForm;
const EMPTY: ApiTokenForm = { name: '', scopes: [], expiresInDays: DEFAULT_EXPIRY_DAYS };
const FIELDS = Object.keys(EMPTY) as ApiTokenField[];

// The request's schema checks the form: the words under a field are the gateway's own.
const resolver = zodResolver(createApiTokenSchema);

const STATUS_BADGE: Record<ApiTokenStatus, { text: string; variant: 'success' | 'neutral' | 'warning' }> = {
  active: { text: msg('Active'), variant: 'success' },
  revoked: { text: msg('Revoked'), variant: 'neutral' },
  expired: { text: msg('Expired'), variant: 'warning' },
};

/** Protocol words, the same in every language. */
const AUTH_HEADER = 'Authorization: Bearer lws_api_…';

/**
 * The API tokens other systems (an alarm receiving centre, a rota tool) call the API with. Each is
 * shown once when created (the server keeps only its hash), listed by its first and last
 * characters, and revoked here. An admin sees the tokens they made; the superadmin everyone's.
 */
export function ApiTokensCard() {
  const t = useT();
  const { toast } = useToast();
  const { user } = useAuth();
  const client = useQueryClient();
  const query = useQuery({ queryKey: API_TOKENS_KEY, queryFn: fetchApiTokens });
  const load = loadOf(query);
  // After a first attempt the messages follow the input, so a fixed field clears at once.
  const form = useForm<ApiTokenForm, unknown, CreateApiTokenRequest>({
    resolver,
    defaultValues: EMPTY,
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });
  const { errors } = form.formState;
  const baseId = useId();
  const id = (field: ApiTokenField) => `${baseId}-${field}`;
  const errorId = (field: ApiTokenField) => `${baseId}-${field}-error`;
  const [created, setCreated] = useState<{ name: string; secret: string } | null>(null);
  const [revoking, setRevoking] = useState<ApiToken | null>(null);
  const reload = () => client.invalidateQueries({ queryKey: API_TOKENS_KEY });
  const showsCreator = user?.role === 'superadmin';
  // Read at each render: a token that expires while the list is open is marked at the next refresh.
  const now = serverNow();

  const create = useMutation({
    mutationFn: createApiToken,
    onSuccess: ({ token, secret }) => {
      setCreated({ name: token.name, secret });
      form.reset(EMPTY);
      void reload();
    },
    onError: (e) => {
      const message = failureMessage(e, msg('The token could not be created. Please try again.'));
      // "scopes.0": the list of scopes as a whole.
      const field = failureField(e)?.split('.')[0] as ApiTokenField | undefined;
      if (field && FIELDS.includes(field)) form.setError(field, { message }, { shouldFocus: true });
      else toast({ title: t('Token not created'), message: t(message), type: 'error' });
    },
  });

  const revoke = useMutation({
    mutationFn: (token: ApiToken) => revokeApiToken(token.id),
    onSuccess: (_, token) => {
      setRevoking(null);
      toast({ title: t('Token revoked'), message: t('{{name}} can no longer be used.', { name: token.name }) });
      void reload();
    },
    onError: (e) => {
      setRevoking(null);
      toast({ title: t('Token not revoked'), message: t(failureMessage(e, msg('Please try again.'))), type: 'error' });
      void reload();
    },
  });

  const onCreate = form.handleSubmit((request) => create.mutateAsync(request).catch(() => undefined));

  const error = (field: ApiTokenField) => (
    <FieldError id={errorId(field)} testId={`api-token-${field}-error`}>
      {errors[field]?.message ? t(errors[field].message) : null}
    </FieldError>
  );
  const described = (field: ApiTokenField, hint?: string) =>
    [hint, errors[field] ? errorId(field) : ''].filter(Boolean).join(' ') || undefined;

  return (
    <Card data-testid="api-tokens">
      <CardHeader>
        <CardTitle>{t('API tokens')}</CardTitle>
        <CardDescription>
          {t(
            'Another system, such as an alarm receiving centre or a rota tool, calls the LWS API with one of these tokens. A token acts as you, within your teams, and only on what its scopes allow: whatever you lose access to, it loses too.',
          )}
        </CardDescription>
      </CardHeader>
      <CardContent className="lws-form">
        <p>
          {t('The system sends the token in a header:')} <code>{AUTH_HEADER}</code>
        </p>
        <p data-testid="api-docs-links">
          {t('What it can call:')}{' '}
          <a href="/api/docs" data-testid="api-docs-link">
            {t('API reference')}
          </a>
          {' · '}
          <a href="/api/openapi.json" data-testid="api-openapi-link">
            {t('OpenAPI document')}
          </a>
        </p>

        {created ? (
          <OneTimeSecretAlert
            title={t('Copy this token now: it will not be shown again.')}
            label={t('New token {{name}}', { name: created.name })}
            value={created.secret}
            onDone={() => setCreated(null)}
            testId="api-new-token"
          />
        ) : null}

        <form className="lws-form" noValidate onSubmit={(event) => void onCreate(event)} aria-label={t('Create an API token')}>
          <div className="lws-field">
            <Label htmlFor={id('name')}>{t('Token name')}</Label>
            <Input
              id={id('name')}
              {...form.register('name')}
              maxLength={NAME_MAX}
              autoComplete="off"
              invalid={Boolean(errors.name)}
              aria-describedby={described('name')}
              data-testid="api-token-name"
            />
            {error('name')}
          </div>
          <fieldset className="lws-fieldset" aria-describedby={described('scopes', `${baseId}-scopes-hint`)} data-testid="api-token-scopes">
            <legend className="lws-label">{t('What it may do')}</legend>
            <p id={`${baseId}-scopes-hint`} className="lws-field-hint">
              {t('Choose only what the other system needs.')}
            </p>
            {API_SCOPES.map((scope) => (
              <Checkbox
                key={scope}
                value={scope}
                {...form.register('scopes')}
                aria-invalid={errors.scopes ? true : undefined}
                label={
                  <>
                    {t(SCOPE_TEXT[scope])} <code>{scope}</code>
                  </>
                }
                data-testid={`api-token-scope-${scope}`}
              />
            ))}
            {error('scopes')}
          </fieldset>
          <div className="lws-field">
            <Label htmlFor={id('expiresInDays')}>{t('Expires after')}</Label>
            <Select
              id={id('expiresInDays')}
              {...form.register('expiresInDays', { valueAsNumber: true })}
              invalid={Boolean(errors.expiresInDays)}
              aria-describedby={described('expiresInDays')}
              data-testid="api-token-expiry"
            >
              {EXPIRY_DAYS.map((days) => (
                <option key={days} value={days}>
                  {t('{{days}} days', { days })}
                </option>
              ))}
            </Select>
            {error('expiresInDays')}
          </div>
          <div className="lws-actions">
            <Button type="submit" busy={create.isPending} data-testid="api-token-create">
              {t('Create token')}
            </Button>
          </div>
        </form>

        <LoadView
          load={load}
          loadingLabel={t('Loading API tokens')}
          errorText={t('The API tokens could not be loaded.')}
          testId="api-tokens"
          emptyText={t('No API tokens yet.')}
        >
          {(data) => (
            <Table label={t('API tokens')} className="lws-table--middle">
              <TableHeader>
                <TableRow>
                  <TableHead>{t('Name')}</TableHead>
                  <TableHead>{t('Token')}</TableHead>
                  <TableHead>{t('Scopes')}</TableHead>
                  <TableHead>{t('Created')}</TableHead>
                  {showsCreator ? <TableHead>{t('Created by')}</TableHead> : null}
                  <TableHead>{t('Expires')}</TableHead>
                  <TableHead>{t('Last used')}</TableHead>
                  <TableHead>{t('Uses')}</TableHead>
                  <TableHead>{t('Status')}</TableHead>
                  <TableHead>
                    <span className="lws-visually-hidden">{t('Actions')}</span>
                  </TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {data.map((token) => {
                  const status = apiTokenStatus(token, now);
                  const badge = STATUS_BADGE[status];
                  return (
                    <TableRow key={token.id} data-testid="api-token" data-status={status}>
                      <TableCell>{token.name}</TableCell>
                      <TableCell>
                        <code>{`${token.prefix}…${token.last4}`}</code>
                      </TableCell>
                      <TableCell>
                        {token.scopes.map((scope, i) => (
                          <span key={scope}>
                            {i > 0 ? ' ' : null}
                            <code title={scope in SCOPE_TEXT ? t(SCOPE_TEXT[scope as ApiScope]) : undefined}>{scope}</code>
                          </span>
                        ))}
                      </TableCell>
                      <TableCell>{formatDateTime(token.createdAt)}</TableCell>
                      {showsCreator ? <TableCell>{token.createdByName}</TableCell> : null}
                      <TableCell>
                        {formatDateTime(token.expiresAt)}
                        {status === 'expired' ? (
                          <>
                            {' '}
                            <Badge variant="warning" data-testid="api-token-expired">
                              {t('Expired')}
                            </Badge>
                          </>
                        ) : null}
                      </TableCell>
                      <TableCell>{formatDateTime(token.lastUsedAt, t('Never'))}</TableCell>
                      <TableCell>{token.useCount}</TableCell>
                      <TableCell>
                        <Badge
                          variant={badge.variant}
                          title={token.revokedAt ? formatDateTime(token.revokedAt) : undefined}
                          data-testid="api-token-status"
                        >
                          {t(badge.text)}
                        </Badge>
                      </TableCell>
                      <TableCell>
                        {status === 'active' ? (
                          <Button
                            size="sm"
                            variant="destructive"
                            onClick={() => setRevoking(token)}
                            aria-label={t('Revoke {{name}}', { name: token.name })}
                            data-testid="api-token-revoke"
                          >
                            {t('Revoke')}
                          </Button>
                        ) : null}
                      </TableCell>
                    </TableRow>
                  );
                })}
              </TableBody>
            </Table>
          )}
        </LoadView>

        <ConfirmDialog
          open={revoking !== null}
          title={t('Revoke {{name}}?', { name: revoking?.name ?? '' })}
          description={t('Every call made with this token is refused from now on. This cannot be undone.')}
          confirmLabel={t('Revoke')}
          busyLabel={t('Revoking...')}
          busy={revoke.isPending}
          destructive
          onConfirm={() => revoking && revoke.mutate(revoking)}
          onCancel={() => setRevoking(null)}
          data-testid="api-revoke-dialog"
        />
      </CardContent>
    </Card>
  );
}
