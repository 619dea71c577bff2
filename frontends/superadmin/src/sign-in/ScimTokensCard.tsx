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
  ConfirmDialog,
  FieldError,
  Input,
  Label,
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
  useT,
  useToast,
  LoadView,
} from '@lws/fe-ui';
import { OneTimeSecretAlert } from '@lws/fe-monitor/accounts';
import { SCIM_TOKENS_KEY, createScimToken, fetchScimTokens, revokeScimToken, type ScimToken } from './sign-in-api';

const NAME_REQUIRED = msg('Name the token, e.g. after the provider that uses it');
const NAME_MAX = 100;

/**
 * The tokens an identity provider provisions accounts with over SCIM 2.0: each is shown once when
 * created (the server keeps only its hash), listed by its first characters, and revoked here.
 */
export function ScimTokensCard() {
  const t = useT();
  const { toast } = useToast();
  const client = useQueryClient();
  const query = useQuery({ queryKey: SCIM_TOKENS_KEY, queryFn: fetchScimTokens });
  const load = loadOf(query);
  const form = useForm<{ name: string }>({ defaultValues: { name: '' } });
  const { errors } = form.formState;
  const nameId = useId();
  const [created, setCreated] = useState<{ name: string; secret: string } | null>(null);
  const [revoking, setRevoking] = useState<ScimToken | null>(null);
  const reload = () => client.invalidateQueries({ queryKey: SCIM_TOKENS_KEY });

  const create = useMutation({
    mutationFn: (name: string) => createScimToken(name),
    onSuccess: ({ token, secret }) => {
      setCreated({ name: token.name, secret });
      form.reset({ name: '' });
      void reload();
    },
    onError: (e) => {
      const message = failureMessage(e, msg('The token could not be created. Please try again.'));
      if (failureField(e) === 'name') form.setError('name', { message }, { shouldFocus: true });
      else toast({ title: t('Token not created'), message: t(message), type: 'error' });
    },
  });

  const revoke = useMutation({
    mutationFn: (token: ScimToken) => revokeScimToken(token.id),
    onSuccess: (_, token) => {
      setRevoking(null);
      toast({ title: t('Token revoked'), message: t('{{name}} can no longer be used.', { name: token.name }) });
      void reload();
    },
    onError: (e) => {
      setRevoking(null);
      toast({ title: t('Token not revoked'), message: t(failureMessage(e, msg('Please try again.'))), type: 'error' });
    },
  });

  const onCreate = form.handleSubmit(({ name }) => create.mutateAsync(name.trim()).catch(() => undefined));

  return (
    <Card data-testid="scim-tokens">
      <CardHeader>
        <CardTitle>{t('SCIM provisioning tokens')}</CardTitle>
        <CardDescription>
          {t('Your identity provider creates, updates and disables accounts over SCIM 2.0 with one of these tokens.')}
        </CardDescription>
      </CardHeader>
      <CardContent className="lws-form">
        <p data-testid="scim-base-url">
          {t('SCIM base URL:')} <code>{`${window.location.origin}/scim/v2`}</code>
        </p>

        {created ? (
          <OneTimeSecretAlert
            title={t('Copy this token now: it will not be shown again.')}
            label={t('New token {{name}}', { name: created.name })}
            value={created.secret}
            onDone={() => setCreated(null)}
            testId="scim-new-token"
          />
        ) : null}

        <form className="lws-form" noValidate onSubmit={(event) => void onCreate(event)} aria-label={t('Create a SCIM token')}>
          <div className="lws-field">
            <Label htmlFor={nameId}>{t('Token name')}</Label>
            <div className="lws-inline-form">
              <Input
                id={nameId}
                {...form.register('name', { validate: (v) => v.trim() !== '' || NAME_REQUIRED })}
                maxLength={NAME_MAX}
                autoComplete="off"
                invalid={Boolean(errors.name)}
                aria-describedby={errors.name ? `${nameId}-error` : undefined}
                data-testid="scim-token-name"
              />
              <Button type="submit" busy={create.isPending} data-testid="scim-token-create">
                {t('Create token')}
              </Button>
            </div>
            <FieldError id={`${nameId}-error`} testId="scim-token-name-error">
              {errors.name?.message ? t(errors.name.message) : null}
            </FieldError>
          </div>
        </form>

        <LoadView
          load={load}
          loadingLabel={t('Loading SCIM tokens')}
          errorText={t('The SCIM tokens could not be loaded.')}
          testId="scim-tokens"
          emptyText={t('No SCIM tokens yet.')}
        >
          {(data) => (
            <Table label={t('SCIM tokens')} className="lws-table--middle">
              <TableHeader>
                <TableRow>
                  <TableHead>{t('Name')}</TableHead>
                  <TableHead>{t('Token')}</TableHead>
                  <TableHead>{t('Created')}</TableHead>
                  <TableHead>{t('Last used')}</TableHead>
                  <TableHead>{t('Status')}</TableHead>
                  <TableHead>
                    <span className="lws-visually-hidden">{t('Actions')}</span>
                  </TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {data.map((token) => (
                  <TableRow key={token.id} data-testid="scim-token">
                    <TableCell>{token.name}</TableCell>
                    <TableCell>
                      <code>{`${token.prefix}…`}</code>
                    </TableCell>
                    <TableCell>{formatDateTime(token.createdAt)}</TableCell>
                    <TableCell>{formatDateTime(token.lastUsedAt, t('Never'))}</TableCell>
                    <TableCell>
                      {token.revokedAt ? (
                        <Badge variant="neutral" title={formatDateTime(token.revokedAt)}>
                          {t('Revoked')}
                        </Badge>
                      ) : (
                        <Badge variant="success">{t('Active')}</Badge>
                      )}
                    </TableCell>
                    <TableCell>
                      {token.revokedAt ? null : (
                        <Button
                          size="sm"
                          variant="destructive"
                          onClick={() => setRevoking(token)}
                          aria-label={t('Revoke {{name}}', { name: token.name })}
                          data-testid="scim-token-revoke"
                        >
                          {t('Revoke')}
                        </Button>
                      )}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
        </LoadView>

        <ConfirmDialog
          open={revoking !== null}
          title={t('Revoke {{name}}?', { name: revoking?.name ?? '' })}
          description={t('Your identity provider can no longer provision accounts with this token. This cannot be undone.')}
          confirmLabel={t('Revoke')}
          busyLabel={t('Revoking...')}
          busy={revoke.isPending}
          destructive
          onConfirm={() => revoking && revoke.mutate(revoking)}
          onCancel={() => setRevoking(null)}
          data-testid="scim-revoke-dialog"
        />
      </CardContent>
    </Card>
  );
}
