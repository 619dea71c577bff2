import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Fragment, useState } from 'react';
import {
  Badge,
  Button,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  ConfirmDialog,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
  failureMessage,
  formatDateTime,
  loadOf,
  msg,
  useT,
  useToast,
  type Translate,
  LoadView,
} from '@lws/fe-ui';
import { OneTimeSecretAlert } from '../accounts/OneTimeSecretAlert';
import { fetchTeamNames } from '../accounts/accounts-api';
import { DELIVERY_STATUS, httpStatusText, WebhookDeliveryLog } from './WebhookDeliveryLog';
import { WebhookEndpointForm } from './WebhookEndpointForm';
import {
  deleteEndpoint,
  fetchEndpoints,
  rotateEndpointSecret,
  sendTestEvent,
  updateEndpoint,
  WEBHOOK_ENDPOINTS_KEY,
  type WebhookEndpoint,
} from './webhooks-api';

/** Nothing pushes an endpoint's last delivery and queue to the page: they are read again this often. */
export const ENDPOINTS_POLL_MS = 15_000;
const COLUMNS = 8;

/** Why an endpoint was disabled, as the notifications service records it. */
function disabledReasonText(reason: string | null, t: Translate): string | null {
  if (!reason) return null;
  if (reason === 'The endpoint answered 410 Gone') return t('the endpoint answered 410 Gone');
  if (/^Disabled by user \d+$/.test(reason)) return t('turned off here');
  return reason;
}

type Confirming = { action: 'rotate' | 'delete'; endpoint: WebhookEndpoint } | null;

/**
 * Signed outbound webhooks (Standard Webhooks): the endpoints another system (an alarm receiving
 * centre, a control room, an HR system) receives LWS's events at, each with its signing secret,
 * shown once; and each endpoint's delivery log. An admin manages the endpoints of their teams; the
 * superadmin every one.
 */
export function WebhooksCard() {
  const t = useT();
  const { toast } = useToast();
  const client = useQueryClient();
  const query = useQuery({ queryKey: WEBHOOK_ENDPOINTS_KEY, queryFn: fetchEndpoints, refetchInterval: ENDPOINTS_POLL_MS });
  const load = loadOf(query);
  // Only to name an endpoint's teams; without it they are shown by number.
  const teams = useQuery({ queryKey: ['teams', 'names'], queryFn: fetchTeamNames });
  const teamName = new Map((teams.data ?? []).map((team) => [team.id, team.name]));
  const [secret, setSecret] = useState<{ name: string; secret: string; rotated: boolean } | null>(null);
  const [confirming, setConfirming] = useState<Confirming>(null);
  const [logOf, setLogOf] = useState<string | null>(null);
  const reload = () => {
    void client.invalidateQueries({ queryKey: WEBHOOK_ENDPOINTS_KEY });
    void client.invalidateQueries({ queryKey: ['webhooks', 'deliveries'] });
  };
  const refused = (title: string) => (e: unknown) => {
    toast({ title, message: t(failureMessage(e, msg('Please try again.'))), type: 'error' });
    reload();
  };

  const toggle = useMutation({
    mutationFn: (endpoint: WebhookEndpoint) => updateEndpoint(endpoint.id, { enabled: !endpoint.enabled }),
    onSuccess: (endpoint) => {
      toast({
        title: endpoint.enabled ? t('Endpoint enabled') : t('Endpoint disabled'),
        message: endpoint.enabled
          ? t('{{name}} receives new events from now on.', { name: endpoint.name })
          : t('Nothing more is sent to {{name}}; what was waiting for it is cancelled.', { name: endpoint.name }),
      });
      reload();
    },
    onError: refused(t('Endpoint not changed')),
  });

  const test = useMutation({
    mutationFn: (endpoint: WebhookEndpoint) => sendTestEvent(endpoint.id),
    onSuccess: (_, endpoint) => {
      toast({ title: t('Test event sent'), message: t('Its delivery to {{name}} shows in the delivery log.', { name: endpoint.name }) });
      setLogOf(endpoint.id);
      reload();
    },
    onError: refused(t('Test event not sent')),
  });

  const rotate = useMutation({
    mutationFn: (endpoint: WebhookEndpoint) => rotateEndpointSecret(endpoint.id),
    onSuccess: ({ endpoint, secret: value }) => {
      setConfirming(null);
      setSecret({ name: endpoint.name, secret: value, rotated: true });
      reload();
    },
    onError: (e) => {
      setConfirming(null);
      refused(t('Secret not rotated'))(e);
    },
  });

  const remove = useMutation({
    mutationFn: (endpoint: WebhookEndpoint) => deleteEndpoint(endpoint.id),
    onSuccess: (_, endpoint) => {
      setConfirming(null);
      if (logOf === endpoint.id) setLogOf(null);
      toast({ title: t('Endpoint deleted'), message: t('Nothing more is sent to {{name}}.', { name: endpoint.name }) });
      reload();
    },
    onError: (e) => {
      setConfirming(null);
      refused(t('Endpoint not deleted'))(e);
    },
  });

  const teamsText = (endpoint: WebhookEndpoint) =>
    endpoint.teamIds === null ? t('Every team') : endpoint.teamIds.map((id) => teamName.get(id) ?? `#${id}`).join(', ');

  return (
    <Card data-testid="webhooks">
      <CardHeader>
        <CardTitle>{t('Webhooks')}</CardTitle>
        <CardDescription>
          {t(
            'Another system, such as an alarm receiving centre, a control room or an HR system, receives the events it chooses as they happen: LWS posts each to its endpoint, signed, and tries again for about a day until it is answered.',
          )}
        </CardDescription>
      </CardHeader>
      <CardContent className="lws-form">
        {secret ? (
          <>
            <OneTimeSecretAlert
              title={
                secret.rotated
                  ? t('Copy the new signing secret now: it will not be shown again. The old one keeps signing for 24 hours.')
                  : t('Copy this signing secret now: it will not be shown again.')
              }
              label={t('Signing secret of {{name}}', { name: secret.name })}
              value={secret.secret}
              onDone={() => setSecret(null)}
              testId="webhook-secret"
            />
            <p data-testid="webhook-verify">
              {t(
                'The receiver verifies each request with this secret, as Standard Webhooks describes (webhook-id, webhook-timestamp and webhook-signature headers), and refuses any that fails.',
              )}{' '}
              <a href="/api/docs">{t('How to verify a webhook')}</a>
            </p>
          </>
        ) : null}

        <WebhookEndpointForm
          onCreated={({ endpoint, secret: value }) => {
            setSecret({ name: endpoint.name, secret: value, rotated: false });
            reload();
          }}
        />

        <LoadView
          load={load}
          loadingLabel={t('Loading webhook endpoints')}
          errorText={t('The webhook endpoints could not be loaded.')}
          testId="webhooks"
          emptyText={t('No webhook endpoints yet.')}
        >
          {(data) => (
            <Table label={t('Webhook endpoints')} className="lws-table--middle">
              <TableHeader>
                <TableRow>
                  <TableHead>{t('Name')}</TableHead>
                  <TableHead>{t('URL')}</TableHead>
                  <TableHead>{t('Events')}</TableHead>
                  <TableHead>{t('Teams')}</TableHead>
                  <TableHead>{t('Status')}</TableHead>
                  <TableHead>{t('Last delivery')}</TableHead>
                  <TableHead>{t('Waiting')}</TableHead>
                  <TableHead>
                    <span className="lws-visually-hidden">{t('Actions')}</span>
                  </TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {data.map((endpoint) => {
                  const reason = disabledReasonText(endpoint.disabledReason, t);
                  const last = endpoint.lastDelivery;
                  const logOpen = logOf === endpoint.id;
                  const logId = `webhook-log-${endpoint.id}`;
                  return (
                    <Fragment key={endpoint.id}>
                      <TableRow data-testid="webhook-endpoint" data-enabled={endpoint.enabled}>
                        <TableCell>
                          {endpoint.name}
                          {endpoint.receivesDuress ? (
                            <>
                              {' '}
                              <Badge variant="warning">{t('Duress')}</Badge>
                            </>
                          ) : null}
                        </TableCell>
                        <TableCell>
                          <code>{endpoint.url}</code>
                        </TableCell>
                        <TableCell>
                          <span title={endpoint.eventTypes.join(', ')}>{endpoint.eventTypes.length}</span>
                        </TableCell>
                        <TableCell>{teamsText(endpoint)}</TableCell>
                        <TableCell>
                          <Badge
                            variant={endpoint.enabled ? 'success' : 'warning'}
                            title={endpoint.disabledAt ? formatDateTime(endpoint.disabledAt) : undefined}
                            data-testid="webhook-endpoint-status"
                          >
                            {endpoint.enabled ? t('Enabled') : reason ? t('Disabled: {{reason}}', { reason }) : t('Disabled')}
                          </Badge>
                        </TableCell>
                        <TableCell data-testid="webhook-endpoint-last">
                          {last ? (
                            <>
                              <Badge variant={DELIVERY_STATUS[last.status].variant}>{t(DELIVERY_STATUS[last.status].text)}</Badge>{' '}
                              {last.httpStatus !== null ? `${httpStatusText(last.httpStatus, t)}, ` : ''}
                              {formatDateTime(last.at)}
                            </>
                          ) : (
                            t('None yet')
                          )}
                        </TableCell>
                        <TableCell>{endpoint.pending}</TableCell>
                        <TableCell>
                          <div className="lws-actions">
                            <Button
                              size="sm"
                              variant="outline"
                              aria-expanded={logOpen}
                              aria-controls={logOpen ? logId : undefined}
                              onClick={() => setLogOf(logOpen ? null : endpoint.id)}
                              aria-label={
                                logOpen
                                  ? t('Hide the delivery log of {{name}}', { name: endpoint.name })
                                  : t('Show the delivery log of {{name}}', { name: endpoint.name })
                              }
                              data-testid="webhook-endpoint-log"
                            >
                              {logOpen ? t('Hide deliveries') : t('Deliveries')}
                            </Button>
                            <Button
                              size="sm"
                              variant="outline"
                              disabled={!endpoint.enabled}
                              busy={test.isPending && test.variables?.id === endpoint.id}
                              onClick={() => test.mutate(endpoint)}
                              aria-label={t('Send a test event to {{name}}', { name: endpoint.name })}
                              data-testid="webhook-endpoint-test"
                            >
                              {t('Send test')}
                            </Button>
                            <Button
                              size="sm"
                              variant="outline"
                              busy={toggle.isPending && toggle.variables?.id === endpoint.id}
                              onClick={() => toggle.mutate(endpoint)}
                              aria-label={
                                endpoint.enabled
                                  ? t('Disable {{name}}', { name: endpoint.name })
                                  : t('Enable {{name}}', { name: endpoint.name })
                              }
                              data-testid="webhook-endpoint-toggle"
                            >
                              {endpoint.enabled ? t('Disable') : t('Enable')}
                            </Button>
                            <Button
                              size="sm"
                              variant="outline"
                              onClick={() => setConfirming({ action: 'rotate', endpoint })}
                              aria-label={t('Rotate the secret of {{name}}', { name: endpoint.name })}
                              data-testid="webhook-endpoint-rotate"
                            >
                              {t('Rotate secret')}
                            </Button>
                            <Button
                              size="sm"
                              variant="destructive"
                              onClick={() => setConfirming({ action: 'delete', endpoint })}
                              aria-label={t('Delete {{name}}', { name: endpoint.name })}
                              data-testid="webhook-endpoint-delete"
                            >
                              {t('Delete')}
                            </Button>
                          </div>
                        </TableCell>
                      </TableRow>
                      {logOpen ? (
                        <TableRow id={logId}>
                          <TableCell colSpan={COLUMNS}>
                            <WebhookDeliveryLog endpoint={endpoint} />
                          </TableCell>
                        </TableRow>
                      ) : null}
                    </Fragment>
                  );
                })}
              </TableBody>
            </Table>
          )}
        </LoadView>

        <ConfirmDialog
          open={confirming?.action === 'rotate'}
          title={t('Rotate the secret of {{name}}?', { name: confirming?.endpoint.name ?? '' })}
          description={t(
            'A new signing secret is made and shown once. The old one keeps signing beside it for 24 hours, so the receiver can switch to the new one without missing an event.',
          )}
          confirmLabel={t('Rotate secret')}
          busyLabel={t('Rotating...')}
          busy={rotate.isPending}
          onConfirm={() => confirming && rotate.mutate(confirming.endpoint)}
          onCancel={() => setConfirming(null)}
          data-testid="webhook-rotate-dialog"
        />
        <ConfirmDialog
          open={confirming?.action === 'delete'}
          title={t('Delete {{name}}?', { name: confirming?.endpoint.name ?? '' })}
          description={t('Nothing more is sent to it, and its delivery log is deleted with it. This cannot be undone.')}
          confirmLabel={t('Delete')}
          busyLabel={t('Deleting...')}
          busy={remove.isPending}
          destructive
          onConfirm={() => confirming && remove.mutate(confirming.endpoint)}
          onCancel={() => setConfirming(null)}
          data-testid="webhook-delete-dialog"
        />
      </CardContent>
    </Card>
  );
}
