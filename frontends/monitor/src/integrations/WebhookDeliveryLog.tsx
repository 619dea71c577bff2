import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { Fragment, useId, useState } from 'react';
import {
  Alert,
  Badge,
  Button,
  Label,
  Select,
  Skeleton,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
  failureMessage,
  formatDateTime,
  msg,
  useT,
  useToast,
  type BadgeVariant,
  type Translate,
} from '@lws/fe-ui';
import { WEBHOOK_DELIVERY_STATUSES } from '@lws/schemas';
import {
  fetchDeliveryPage,
  prettyPayload,
  replayable,
  replayDelivery,
  webhookDeliveriesKey,
  WEBHOOK_ENDPOINTS_KEY,
  type AttemptOutcome,
  type WebhookDelivery,
  type WebhookDeliveryStatus,
  type WebhookEndpoint,
} from './webhooks-api';

/** A retry waits seconds to hours: a log refreshed this often shows each attempt soon after it is made. */
export const DELIVERY_POLL_MS = 5000;

export const DELIVERY_STATUS: Record<WebhookDeliveryStatus, { text: string; variant: BadgeVariant }> = {
  pending: { text: msg('Pending'), variant: 'info' },
  succeeded: { text: msg('Succeeded'), variant: 'success' },
  failed: { text: msg('Failed'), variant: 'danger' },
  canceled: { text: msg('Cancelled'), variant: 'neutral' },
};

const OUTCOME: Record<AttemptOutcome, { text: string; variant: BadgeVariant }> = {
  succeeded: { text: msg('Succeeded'), variant: 'success' },
  retrying: { text: msg('Failed, will retry'), variant: 'warning' },
  failed: { text: msg('Failed, no more retries'), variant: 'danger' },
  gone: { text: msg('410 Gone: endpoint disabled'), variant: 'danger' },
};

export const httpStatusText = (status: number | null, t: Translate) =>
  status === null ? t('No answer') : t('HTTP {{status}}', { status });
const latencyText = (ms: number | null, t: Translate) => (ms === null ? '' : t('{{ms}} ms', { ms }));

/** Pages overlap when deliveries arrive between reads: each delivery is listed once, as last read. */
function unique(pages: readonly { deliveries: WebhookDelivery[] }[]): WebhookDelivery[] {
  const seen = new Map<string, WebhookDelivery>();
  for (const page of pages) for (const d of page.deliveries) if (!seen.has(d.id)) seen.set(d.id, d);
  return [...seen.values()];
}

/** One delivery's attempts, each with the answer it got, and the body that was sent. */
function DeliveryDetails({ delivery }: { delivery: WebhookDelivery }) {
  const t = useT();
  return (
    <div className="lws-form" data-testid="webhook-delivery-details">
      {delivery.attemptLog.length === 0 ? (
        <p className="lws-muted">{t('Not attempted yet.')}</p>
      ) : (
        <Table label={t('Attempts')}>
          <TableHeader>
            <TableRow>
              <TableHead>{t('Attempt')}</TableHead>
              <TableHead>{t('Time')}</TableHead>
              <TableHead>{t('Outcome')}</TableHead>
              <TableHead>{t('HTTP status')}</TableHead>
              <TableHead>{t('Latency')}</TableHead>
              <TableHead>{t('Response')}</TableHead>
              <TableHead>{t('Error')}</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {delivery.attemptLog.map((a) => (
              <TableRow key={a.attempt} data-testid="webhook-attempt">
                <TableCell>{a.attempt}</TableCell>
                <TableCell>{formatDateTime(a.at)}</TableCell>
                <TableCell>
                  <Badge variant={OUTCOME[a.outcome].variant}>{t(OUTCOME[a.outcome].text)}</Badge>
                </TableCell>
                <TableCell>{httpStatusText(a.httpStatus, t)}</TableCell>
                <TableCell>{latencyText(a.latencyMs, t)}</TableCell>
                <TableCell>
                  {a.responseExcerpt ? (
                    <pre className="lws-code-block" data-testid="webhook-attempt-excerpt">
                      {a.responseExcerpt}
                    </pre>
                  ) : null}
                </TableCell>
                <TableCell data-testid="webhook-attempt-error">{a.error}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      <div>
        <p className="lws-label">{t('Payload')}</p>
        <pre className="lws-code-block" data-testid="webhook-delivery-payload">
          {prettyPayload(delivery.payload)}
        </pre>
      </div>
    </div>
  );
}

/**
 * One endpoint's delivery log, newest first, read again every few seconds while it is open: each
 * delivery's status, attempts and next attempt; opened, every attempt and the payload. A delivery
 * that has stopped trying (failed, or canceled when the endpoint was disabled) can be sent again.
 */
export function WebhookDeliveryLog({ endpoint }: { endpoint: WebhookEndpoint }) {
  const t = useT();
  const { toast } = useToast();
  const client = useQueryClient();
  const filterId = useId();
  const [status, setStatus] = useState<WebhookDeliveryStatus | null>(null);
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const log = useInfiniteQuery({
    queryKey: webhookDeliveriesKey(endpoint.id, status),
    queryFn: ({ pageParam, signal }) => fetchDeliveryPage({ endpointId: endpoint.id, status, cursor: pageParam, signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    refetchInterval: DELIVERY_POLL_MS,
  });
  const deliveries = log.data ? unique(log.data.pages) : null;

  const replay = useMutation({
    mutationFn: (delivery: WebhookDelivery) => replayDelivery(delivery.id),
    onSuccess: () => {
      toast({ title: t('Delivery sent again'), message: t('It is tried again now, on a new run of the retry schedule.') });
    },
    onError: (e) => {
      toast({ title: t('Delivery not sent again'), message: t(failureMessage(e, msg('Please try again.'))), type: 'error' });
    },
    onSettled: () => {
      void client.invalidateQueries({ queryKey: ['webhooks', 'deliveries', endpoint.id] });
      void client.invalidateQueries({ queryKey: WEBHOOK_ENDPOINTS_KEY });
    },
  });

  const flip = (id: string) =>
    setOpen((current) => {
      const next = new Set(current);
      if (!next.delete(id)) next.add(id);
      return next;
    });

  return (
    <section className="lws-form" aria-label={t('Delivery log of {{name}}', { name: endpoint.name })} data-testid="webhook-delivery-log">
      <div className="lws-inline-form">
        <Label htmlFor={filterId}>{t('Status')}</Label>
        <Select
          id={filterId}
          value={status ?? ''}
          onChange={(e) => setStatus((e.target.value || null) as WebhookDeliveryStatus | null)}
          data-testid="webhook-delivery-filter"
        >
          <option value="">{t('Every status')}</option>
          {WEBHOOK_DELIVERY_STATUSES.map((s) => (
            <option key={s} value={s}>
              {t(DELIVERY_STATUS[s].text)}
            </option>
          ))}
        </Select>
      </div>
      {deliveries === null ? (
        log.isError ? (
          <Alert variant="error" data-testid="webhook-deliveries-error">
            {t('The delivery log could not be loaded.')}
          </Alert>
        ) : (
          <div role="status" aria-label={t('Loading the delivery log')}>
            <Skeleton height="4rem" />
          </div>
        )
      ) : deliveries.length === 0 ? (
        <p className="lws-muted" data-testid="webhook-deliveries-empty">
          {status ? t('No deliveries with this status.') : t('Nothing has been sent to this endpoint yet.')}
        </p>
      ) : (
        <Table label={t('Deliveries to {{name}}', { name: endpoint.name })} className="lws-table--middle">
          <TableHeader>
            <TableRow>
              <TableHead>{t('Event')}</TableHead>
              <TableHead>{t('Status')}</TableHead>
              <TableHead>{t('Attempts')}</TableHead>
              <TableHead>{t('Next attempt')}</TableHead>
              <TableHead>{t('Last answer')}</TableHead>
              <TableHead>{t('Created')}</TableHead>
              <TableHead>
                <span className="lws-visually-hidden">{t('Actions')}</span>
              </TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {deliveries.map((d) => {
              const expanded = open.has(d.id);
              const detailsId = `${filterId}-${d.id}`;
              return (
                <Fragment key={d.id}>
                  <TableRow data-testid="webhook-delivery" data-status={d.status}>
                    <TableCell>
                      <code>{d.eventType}</code>
                    </TableCell>
                    <TableCell>
                      <Badge
                        variant={DELIVERY_STATUS[d.status].variant}
                        title={d.lastError ?? undefined}
                        data-testid="webhook-delivery-status"
                      >
                        {t(DELIVERY_STATUS[d.status].text)}
                      </Badge>
                    </TableCell>
                    <TableCell>{d.attempts}</TableCell>
                    <TableCell>{d.nextAttemptAt ? formatDateTime(d.nextAttemptAt) : '–'}</TableCell>
                    <TableCell>
                      {d.attempts > 0
                        ? [httpStatusText(d.lastHttpStatus, t), latencyText(d.lastLatencyMs, t)].filter(Boolean).join(', ')
                        : '–'}
                    </TableCell>
                    <TableCell>{formatDateTime(d.createdAt)}</TableCell>
                    <TableCell>
                      <div className="lws-actions">
                        <Button
                          size="sm"
                          variant="outline"
                          aria-expanded={expanded}
                          aria-controls={expanded ? detailsId : undefined}
                          onClick={() => flip(d.id)}
                          aria-label={
                            expanded
                              ? t('Hide the details of {{event}}', { event: d.eventType })
                              : t('Show the details of {{event}}', { event: d.eventType })
                          }
                          data-testid="webhook-delivery-toggle"
                        >
                          {expanded ? t('Hide details') : t('Details')}
                        </Button>
                        {replayable(d) ? (
                          <Button
                            size="sm"
                            variant="outline"
                            busy={replay.isPending && replay.variables?.id === d.id}
                            onClick={() => replay.mutate(d)}
                            aria-label={t('Send {{event}} again', { event: d.eventType })}
                            data-testid="webhook-delivery-replay"
                          >
                            {t('Replay')}
                          </Button>
                        ) : null}
                      </div>
                    </TableCell>
                  </TableRow>
                  {expanded ? (
                    <TableRow id={detailsId}>
                      <TableCell colSpan={7}>
                        {d.lastError ? (
                          <p className="lws-field-error" data-testid="webhook-delivery-error">
                            {d.lastError}
                          </p>
                        ) : null}
                        <DeliveryDetails delivery={d} />
                      </TableCell>
                    </TableRow>
                  ) : null}
                </Fragment>
              );
            })}
          </TableBody>
        </Table>
      )}
      {log.hasNextPage ? (
        <div className="lws-actions">
          <Button
            size="sm"
            variant="outline"
            busy={log.isFetchingNextPage}
            onClick={() => void log.fetchNextPage()}
            data-testid="webhook-deliveries-more"
          >
            {t('Load more')}
          </Button>
        </div>
      ) : null}
    </section>
  );
}
