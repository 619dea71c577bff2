import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
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
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
  api,
  failureMessage,
  formatDateTime,
  loadOf,
  msg,
  useT,
  useToast,
  LoadView,
} from '@lws/fe-ui';

/** A dead letter: an event a service could not apply, or one of its own events the bus refused. */
export interface DeadLetter {
  id: string;
  service: string;
  kind: 'consumer' | 'outbox';
  consumer: string;
  subject: string;
  eventId: string | null;
  error: string;
  attempts: number;
  firstSeenAt: string;
}

interface Listing {
  count: number;
  letters: DeadLetter[];
  unreachable: string[];
}

export const DEAD_LETTERS_POLL_MS = 30_000;

function parseListing(body: unknown): Listing {
  const b = body as Partial<Listing> | null;
  if (!b || typeof b.count !== 'number' || !Array.isArray(b.letters) || !Array.isArray(b.unreachable)) {
    throw new Error('Invalid response format from server');
  }
  return { count: b.count, letters: b.letters as DeadLetter[], unreachable: b.unreachable as string[] };
}

/**
 * Dead Letters: what the system parked because it could never apply or publish it. An outage never
 * lands here (it is retried until it heals), so every row is something a person must look at: replay
 * it once the cause is mended, or discard it. Both are recorded in the activity log.
 */
export function DeadLettersCard() {
  const { toast } = useToast();
  const t = useT();
  const [busy, setBusy] = useState<string | null>(null);
  const [discarding, setDiscarding] = useState<DeadLetter | null>(null);
  // Read every DEAD_LETTERS_POLL_MS: parking happens in the services, without an event of its own.
  const query = useQuery({
    queryKey: ['dead-letters'],
    queryFn: async ({ signal }) => parseListing(await api.get('/api/dead-letters', { signal })),
    refetchInterval: DEAD_LETTERS_POLL_MS,
  });
  const load = loadOf(query);
  const reload = () => query.refetch();

  const replay = async (letter: DeadLetter) => {
    setBusy(letter.id);
    try {
      const res = (await api.post(`/api/dead-letters/${encodeURIComponent(letter.id)}/replay`)) as { replayed: boolean; error?: string };
      if (res.replayed) toast({ title: t('Replayed'), message: t('{{subject}} was applied', { subject: letter.subject }) });
      else toast({ title: t('Replay failed'), message: t(res.error ?? msg('It failed again and stays parked.')), type: 'error' });
    } catch (e) {
      toast({ title: t('Replay failed'), message: t(failureMessage(e, msg('The service did not take the replay.'))), type: 'error' });
    } finally {
      setBusy(null);
    }
    await reload();
  };

  const discard = async (letter: DeadLetter) => {
    setBusy(letter.id);
    try {
      await api.post(`/api/dead-letters/${encodeURIComponent(letter.id)}/discard`);
      toast({ title: t('Discarded'), message: t('{{subject}} will not be applied', { subject: letter.subject }) });
    } catch (e) {
      toast({ title: t('Discard failed'), message: t(failureMessage(e, msg('The service did not take the discard.'))), type: 'error' });
    } finally {
      setBusy(null);
      setDiscarding(null);
    }
    await reload();
  };

  return (
    <Card data-testid="dead-letters">
      <CardHeader className="lws-card__header--row">
        <div>
          <CardTitle>{t('Dead Letters')}</CardTitle>
          <CardDescription>
            {t(
              'Events the system could not apply or publish and will not retry by itself. Replay one once its cause is fixed, or discard it.',
            )}
          </CardDescription>
        </div>
        <Button variant="outline" size="sm" onClick={() => void reload()} data-testid="dead-letters-refresh">
          {t('Refresh')}
        </Button>
      </CardHeader>
      <CardContent>
        <LoadView load={load} loadingLabel={t('Loading dead letters')} errorText={t('Error loading dead letters.')} testId="dead-letters">
          {(data) => (
            <>
              <p data-testid="dead-letters-count">
                <Badge variant={data.count > 0 ? 'danger' : 'success'}>{data.count}</Badge>{' '}
                {data.count === 1 ? t('dead letter') : t('dead letters')}
              </p>
              {data.unreachable.length > 0 ? (
                <Alert variant="warning" title={t('Some services did not answer')} data-testid="dead-letters-unreachable">
                  {t('{{services}}: their dead letters are not counted.', { services: data.unreachable.join(', ') })}
                </Alert>
              ) : null}
              {data.letters.length === 0 ? (
                <p className="lws-muted" data-testid="dead-letters-empty">
                  {t('Nothing is parked.')}
                </p>
              ) : (
                <Table label={t('Dead letters')} data-testid="dead-letters-table">
                  <TableHeader>
                    <TableRow>
                      <TableHead>{t('First seen')}</TableHead>
                      <TableHead>{t('Consumer')}</TableHead>
                      <TableHead>{t('Subject')}</TableHead>
                      <TableHead>{t('Error')}</TableHead>
                      <TableHead>{t('Attempts')}</TableHead>
                      <TableHead>{t('Action')}</TableHead>
                    </TableRow>
                  </TableHeader>
                  <TableBody>
                    {data.letters.map((letter) => (
                      <TableRow key={letter.id} data-testid="dead-letter-row" data-id={letter.id}>
                        <TableCell>{formatDateTime(letter.firstSeenAt, t('Unknown'))}</TableCell>
                        <TableCell>
                          {letter.service} · {letter.kind === 'outbox' ? t('outbox (not published)') : letter.consumer}
                        </TableCell>
                        <TableCell>{letter.subject}</TableCell>
                        <TableCell data-testid="dead-letter-error">{letter.error}</TableCell>
                        <TableCell>{letter.attempts}</TableCell>
                        <TableCell>
                          <div className="lws-actions">
                            <Button
                              size="sm"
                              busy={busy === letter.id}
                              onClick={() => void replay(letter)}
                              data-testid="dead-letter-replay"
                            >
                              {t('Replay')}
                            </Button>
                            <Button
                              size="sm"
                              variant="outline"
                              disabled={busy === letter.id}
                              onClick={() => setDiscarding(letter)}
                              data-testid="dead-letter-discard"
                            >
                              {t('Discard')}
                            </Button>
                          </div>
                        </TableCell>
                      </TableRow>
                    ))}
                  </TableBody>
                </Table>
              )}
            </>
          )}
        </LoadView>
      </CardContent>
      <ConfirmDialog
        open={discarding !== null}
        title={t('Discard this dead letter?')}
        description={
          discarding ? t('{{subject}} will never be applied. This is recorded in the activity log.', { subject: discarding.subject }) : ''
        }
        confirmLabel={t('Discard')}
        busyLabel={t('Discarding...')}
        busy={busy !== null && busy === discarding?.id}
        destructive
        onConfirm={() => discarding && void discard(discarding)}
        onCancel={() => setDiscarding(null)}
        data-testid="dead-letter-discard-dialog"
      />
    </Card>
  );
}
