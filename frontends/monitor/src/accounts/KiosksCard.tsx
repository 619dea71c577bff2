import { useQuery, useQueryClient } from '@tanstack/react-query';
import { zodResolver } from '@hookform/resolvers/zod';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import {
  Alert,
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
  Skeleton,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
  api,
  failureField,
  failureMessage,
  formatDateTime,
  msg,
  useAuth,
  useT,
  useToast,
} from '@lws/fe-ui';
import { enrolKioskSchema, type EnrolKioskForm } from '@lws/schemas';
import { parseCurrentKiosk, parseKiosks, type Kiosk } from './accounts-api';

const MAX_LENGTH = 100;
const EMPTY: EnrolKioskForm = { name: '', location: '' };

/**
 * The Kiosks tab. Enrolment is done from the shared terminal itself: it gives
 * THIS browser the device cookie that lets workers log in there with a PIN.
 */
export function KiosksCard() {
  const { logout } = useAuth();
  const { toast } = useToast();
  const t = useT();
  const client = useQueryClient();
  const list = useQuery({
    queryKey: ['kiosks', 'list'],
    queryFn: async ({ signal }) => parseKiosks(await api.get('/api/kiosks', { signal })),
  });
  // Whether this browser is itself an enrolled kiosk (and which); unknown when it cannot be read.
  const here = useQuery({
    queryKey: ['kiosks', 'current'],
    queryFn: async ({ signal }) => parseCurrentKiosk(await api.get('/api/kiosks/current', { signal })),
  });
  const kiosks = list.data ?? null;
  const loadError = list.error && !list.data ? t(failureMessage(list.error, msg('The kiosk list could not be loaded.'))) : null;
  const current = here.data ?? null;
  // The gateway's own schema checks the form, so the words under a field are the server's.
  const form = useForm<EnrolKioskForm, unknown, z.output<typeof enrolKioskSchema>>({
    resolver: zodResolver(enrolKioskSchema),
    defaultValues: EMPTY,
  });
  const { errors, isSubmitting: enrolling } = form.formState;
  const [revoking, setRevoking] = useState<Kiosk | null>(null);
  const [busy, setBusy] = useState(false);
  const ids = { name: useId(), nameError: useId(), location: useId(), locationError: useId(), explain: useId() };

  const reload = () => client.invalidateQueries({ queryKey: ['kiosks'] });

  const onEnrol = form.handleSubmit(async (input) => {
    try {
      await api.post('/api/kiosks', input);
      toast({ title: t('Kiosk enrolled'), message: t('This device is now the kiosk "{{name}}".', { name: input.name }) });
      form.reset(EMPTY);
      await reload();
    } catch (e) {
      const field = failureField(e);
      if (field === 'name' || field === 'location') form.setError(field, { message: failureMessage(e, '') });
      toast({
        title: t('Enrolment failed'),
        message: t(failureMessage(e, msg('This device could not be enrolled. Please try again.'))),
        type: 'error',
      });
    }
  });

  const confirmRevoke = async () => {
    if (!revoking) return;
    setBusy(true);
    try {
      await api.delete(`/api/kiosks/${revoking.id}`);
      toast({ title: t('Kiosk revoked'), message: t('"{{name}}" can no longer be used for PIN login.', { name: revoking.name }) });
      setRevoking(null);
    } catch (e) {
      toast({
        title: t('Revoke failed'),
        message: t(failureMessage(e, msg('The kiosk could not be revoked. Please try again.'))),
        type: 'error',
      });
    } finally {
      setBusy(false);
    }
    await reload();
  };

  return (
    <div className="lws-page" data-testid="kiosks-tab">
      <Card data-testid="kiosk-enrol-card">
        <CardHeader>
          <CardTitle>{t('Enrol This Device as a Kiosk')}</CardTitle>
          <CardDescription id={ids.explain}>
            {t(
              'Enrolling makes this browser, on this device, a kiosk: workers can then log in here at /kiosk with only their PIN. Do this on the shared terminal itself, never on your own computer or phone.',
            )}
          </CardDescription>
        </CardHeader>
        <CardContent>
          {current?.enrolled ? (
            <Alert variant="info" title={t('This device is an enrolled kiosk')} data-testid="kiosk-current">
              <p>
                {current.location
                  ? t('{{name}}, {{location}}. Log out to hand it over to workers.', {
                      name: current.name ?? '',
                      location: current.location,
                    })
                  : t('{{name}}. Log out to hand it over to workers.', { name: current.name ?? '' })}
              </p>
              <Button size="sm" variant="outline" onClick={() => void logout({ toKiosk: true })} data-testid="kiosk-open-pad">
                {t('Log Out and Open the PIN Pad')}
              </Button>
            </Alert>
          ) : null}
          <form
            className="lws-form"
            noValidate
            onSubmit={(event) => void onEnrol(event)}
            aria-label={t('Enrol this device')}
            aria-describedby={ids.explain}
            data-testid="kiosk-enrol-form"
          >
            <div className="lws-grid-2">
              <div className="lws-field">
                <Label htmlFor={ids.name}>{t('Kiosk Name')}</Label>
                <Input
                  {...form.register('name')}
                  id={ids.name}
                  maxLength={MAX_LENGTH}
                  placeholder={t('e.g. Reception tablet')}
                  invalid={Boolean(errors.name)}
                  aria-describedby={errors.name ? ids.nameError : undefined}
                  data-testid="kiosk-name"
                />
                <FieldError id={ids.nameError} testId="kiosk-name-error">
                  {errors.name?.message && t(errors.name.message)}
                </FieldError>
              </div>
              <div className="lws-field">
                <Label htmlFor={ids.location}>{t('Location')}</Label>
                <Input
                  {...form.register('location')}
                  id={ids.location}
                  maxLength={MAX_LENGTH}
                  placeholder={t('One of your locations, e.g. The Prospect Building')}
                  invalid={Boolean(errors.location)}
                  aria-describedby={errors.location ? ids.locationError : undefined}
                  data-testid="kiosk-location"
                />
                <FieldError id={ids.locationError} testId="kiosk-location-error">
                  {errors.location?.message && t(errors.location.message)}
                </FieldError>
              </div>
            </div>
            <div className="lws-actions">
              <Button type="submit" busy={enrolling} data-testid="kiosk-enrol">
                {enrolling ? t('Enrolling...') : t('Enrol This Device')}
              </Button>
            </div>
          </form>
        </CardContent>
      </Card>
      <Card data-testid="kiosk-list-card">
        <CardHeader>
          <CardTitle>{t('Kiosks')}</CardTitle>
          <CardDescription>{t('Revoking a kiosk stops PIN login on it at once; it would have to be enrolled again.')}</CardDescription>
        </CardHeader>
        <CardContent>
          {loadError ? (
            <Alert variant="error" title={t('Error loading kiosks')} data-testid="kiosks-error">
              {loadError}
            </Alert>
          ) : kiosks === null ? (
            <div role="status" aria-label={t('Loading kiosks')}>
              <Skeleton height="2.5rem" />
            </div>
          ) : kiosks.length === 0 ? (
            <p className="lws-muted" data-testid="kiosks-empty">
              {t('No kiosks enrolled yet.')}
            </p>
          ) : (
            <Table label={t('Kiosks')} data-testid="kiosks-table">
              <TableHeader>
                <TableRow>
                  <TableHead>{t('Name')}</TableHead>
                  <TableHead>{t('Location')}</TableHead>
                  <TableHead>{t('Enrolled')}</TableHead>
                  <TableHead>{t('Last Used')}</TableHead>
                  <TableHead>{t('Status')}</TableHead>
                  <TableHead>{t('Actions')}</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {kiosks.map((k) => (
                  <TableRow key={k.id} data-testid="kiosk-row" data-kiosk-name={k.name}>
                    <TableCell>{k.name}</TableCell>
                    <TableCell>{k.location}</TableCell>
                    <TableCell>{formatDateTime(k.enrolledAt, t('Unknown'))}</TableCell>
                    <TableCell data-testid="kiosk-last-used">{formatDateTime(k.lastUsedAt, t('Never'))}</TableCell>
                    <TableCell data-testid="kiosk-status">
                      {k.revokedAt ? <Badge variant="danger">{t('Revoked')}</Badge> : <Badge variant="success">{t('Active')}</Badge>}
                    </TableCell>
                    <TableCell>
                      {k.revokedAt ? null : (
                        <Button
                          size="sm"
                          variant="destructive"
                          onClick={() => setRevoking(k)}
                          aria-label={t('Revoke {{name}}', { name: k.name })}
                          data-testid="kiosk-revoke"
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
        </CardContent>
      </Card>
      <ConfirmDialog
        open={revoking !== null}
        title={t('Revoke Kiosk')}
        description={
          revoking
            ? t(
                'Revoke "{{name}}" ({{location}})? Workers will no longer be able to log in on it with a PIN. This cannot be undone: the device would have to be enrolled again.',
                { name: revoking.name, location: revoking.location },
              )
            : ''
        }
        confirmLabel={t('Revoke')}
        busyLabel={t('Revoking...')}
        destructive
        busy={busy}
        onConfirm={() => void confirmRevoke()}
        onCancel={() => setRevoking(null)}
        data-testid="kiosk-revoke-dialog"
      />
    </div>
  );
}
