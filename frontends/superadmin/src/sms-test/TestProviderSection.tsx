import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import {
  ApiError,
  Badge,
  Button,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  Input,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
  api,
  failureMessage,
  formatDateTime,
  msg,
  useT,
  useToast,
} from '@lws/fe-ui';
import { InboundSmsForm } from './InboundSmsForm';
import { FINISHED_CALL_STATUSES, parseDeliveries, parseFakeCalls, type Delivery, type FakeCall } from './reminders-api';

/** Calls wait for an answer for a minute at most: the list is read often enough to answer in time. */
export const TEST_PROVIDER_POLL_MS = 5000;

type Load = { state: 'loading' } | { state: 'absent' } | { state: 'error' } | { state: 'ready'; calls: FakeCall[]; deliveries: Delivery[] };

/**
 * The local fake messaging provider (embedded mode and tests): what it recorded, and a way to play
 * the callee. Hidden when a real provider is configured, where the server answers 404.
 */
export function TestProviderSection() {
  const { toast } = useToast();
  const t = useT();
  const [answering, setAnswering] = useState<string | null>(null);
  // Keys to press per call: empty presses 1 (accepting an alarm); a check-in reminder call takes a PIN.
  const [keys, setKeys] = useState<Record<string, string>>({});
  const query = useQuery({
    queryKey: ['test-provider'],
    queryFn: async ({ signal }) => {
      try {
        const calls = parseFakeCalls(await api.get('/api/test-provider/calls', { signal }));
        const deliveries = parseDeliveries(await api.get('/api/notifications/deliveries?limit=50', { signal }));
        return { present: true as const, calls, deliveries };
      } catch (e) {
        // A real provider is configured: there is nothing to show, and nothing to poll.
        if (e instanceof ApiError && e.status === 404) return { present: false as const };
        throw e;
      }
    },
    refetchInterval: (q) => (q.state.data?.present === false ? false : TEST_PROVIDER_POLL_MS),
  });
  const load: Load = query.data
    ? query.data.present
      ? { state: 'ready', calls: query.data.calls, deliveries: query.data.deliveries }
      : { state: 'absent' }
    : query.error
      ? { state: 'error' }
      : { state: 'loading' };
  const reload = () => query.refetch();

  const answer = async (call: FakeCall, action: 'accept' | 'ignore') => {
    setAnswering(call.callSid);
    try {
      const digits = keys[call.callSid]?.trim();
      await api.post(
        `/api/test-provider/calls/${encodeURIComponent(call.callSid)}/${action}`,
        action === 'accept' && digits ? { digits } : undefined,
      );
      toast({ title: action === 'accept' ? t('Call accepted') : t('Call ignored'), message: t('Test call to {{to}}', { to: call.to }) });
    } catch (e) {
      console.error('Answering the test call failed', e);
      toast({ title: t('Call failed'), message: t(failureMessage(e, msg('The test provider did not take the answer.'))), type: 'error' });
    } finally {
      setAnswering(null);
    }
    await reload();
  };

  if (load.state === 'absent' || load.state === 'loading') return null;

  return (
    <Card data-testid="test-provider">
      <CardHeader className="lws-card__header--row">
        <div>
          <CardTitle>{t('Test provider')}</CardTitle>
          <CardDescription>
            {t(
              'The local fake provider: calls and messages it recorded. Answer a call as the person called would, or text LWS as a phone.',
            )}
          </CardDescription>
        </div>
        <Button variant="outline" size="sm" onClick={() => void reload()} data-testid="test-provider-refresh">
          {t('Refresh')}
        </Button>
      </CardHeader>
      <CardContent>
        {load.state === 'error' ? (
          <p className="lws-muted" data-testid="test-provider-error">
            {t('The test provider could not be read.')}
          </p>
        ) : (
          <>
            <InboundSmsForm />
            <h3 className="lws-section-title">{t('Calls')}</h3>
            {load.calls.length === 0 ? (
              <p className="lws-muted" data-testid="test-calls-empty">
                {t('No calls recorded')}
              </p>
            ) : (
              <Table label={t('Calls')} data-testid="test-calls">
                <TableHeader>
                  <TableRow>
                    <TableHead>{t('Called')}</TableHead>
                    <TableHead>{t('To')}</TableHead>
                    <TableHead>{t('Status')}</TableHead>
                    <TableHead>{t('Message')}</TableHead>
                    <TableHead>{t('Answer')}</TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {load.calls.map((call) => (
                    <TableRow key={call.callSid} data-testid="test-call-row" data-call-sid={call.callSid} data-to={call.to}>
                      <TableCell>{formatDateTime(call.createdAt, t('Unknown'))}</TableCell>
                      <TableCell>{call.to}</TableCell>
                      <TableCell>
                        <Badge data-testid="test-call-status">{call.status}</Badge>
                      </TableCell>
                      <TableCell>
                        {call.say ?? ''}
                        {call.confirmation ? (
                          <div className="lws-muted" data-testid="test-call-confirmation">
                            {t('Then: {{confirmation}}', { confirmation: call.confirmation })}
                          </div>
                        ) : null}
                      </TableCell>
                      <TableCell>
                        {FINISHED_CALL_STATUSES.has(call.status) ? null : (
                          <div className="lws-actions">
                            <Input
                              aria-label={t('Keys to press (empty: 1)')}
                              className="lws-input--narrow"
                              inputMode="numeric"
                              maxLength={8}
                              value={keys[call.callSid] ?? ''}
                              placeholder="1"
                              onChange={(e) => setKeys((k) => ({ ...k, [call.callSid]: e.target.value.replace(/[^0-9*#]/g, '') }))}
                              data-testid="test-call-keys"
                            />
                            <Button
                              size="sm"
                              busy={answering === call.callSid}
                              onClick={() => void answer(call, 'accept')}
                              data-testid="test-call-accept"
                            >
                              {t('Accept')}
                            </Button>
                            <Button
                              size="sm"
                              variant="outline"
                              disabled={answering === call.callSid}
                              onClick={() => void answer(call, 'ignore')}
                              data-testid="test-call-ignore"
                            >
                              {t('Ignore')}
                            </Button>
                          </div>
                        )}
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            )}
            <h3 className="lws-section-title">{t('Latest deliveries')}</h3>
            {load.deliveries.length === 0 ? (
              <p className="lws-muted" data-testid="deliveries-empty">
                {t('No messages sent yet')}
              </p>
            ) : (
              <Table label={t('Messages')} data-testid="deliveries">
                <TableHeader>
                  <TableRow>
                    <TableHead>{t('Sent')}</TableHead>
                    <TableHead>{t('Channel')}</TableHead>
                    <TableHead>{t('To')}</TableHead>
                    <TableHead>{t('Purpose')}</TableHead>
                    <TableHead>{t('Status')}</TableHead>
                    <TableHead>{t('Attempts')}</TableHead>
                    <TableHead>{t('Message')}</TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {load.deliveries.map((d) => (
                    <TableRow
                      key={d.messageId}
                      data-testid="delivery-row"
                      data-user-id={d.userId ?? undefined}
                      data-purpose={d.purpose}
                      data-channel={d.channel}
                      data-to={d.to}
                    >
                      <TableCell>{formatDateTime(d.createdAt, t('Unknown'))}</TableCell>
                      <TableCell>{d.channel}</TableCell>
                      <TableCell>{d.to}</TableCell>
                      <TableCell>{d.purpose}</TableCell>
                      <TableCell data-testid="delivery-status">
                        {d.status}
                        {d.errorCode
                          ? ` ${d.errorMessage ? t('(error {{code}}: {{message}})', { code: d.errorCode, message: d.errorMessage }) : t('(error {{code}})', { code: d.errorCode })}`
                          : ''}
                      </TableCell>
                      <TableCell>{d.attempts ?? ''}</TableCell>
                      <TableCell>{d.body ?? ''}</TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            )}
          </>
        )}
      </CardContent>
    </Card>
  );
}
