import { useQueryClient } from '@tanstack/react-query';
import { useId } from 'react';
import {
  Badge,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  LoadView,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
  loadOf,
  msg,
  useLiveQuery,
  useServerTimeEvery,
  useT,
  type BadgeVariant,
} from '@lws/fe-ui';
import { fetchCheckInBatches, type CheckInBatch, type CheckInBatchWorker, type CheckInWorkerState } from '@lws/fe-ui/shifts';
import { CHECK_IN_REQUESTS_KEY, CHECK_IN_REQUESTS_POLL_MS, checkInRequestsLive, requestTime, waitingWorkers } from './checkin-requests';

/** A time shows its date once it is no longer today; a minute late is soon enough. */
const REFERENCE_RECHECK_MS = 60_000;

const STATE_VARIANT: Record<CheckInWorkerState, BadgeVariant> = {
  waiting: 'warning',
  answered: 'success',
  alarm: 'danger',
  ended: 'neutral',
};

const STATE_LABEL: Record<Exclude<CheckInWorkerState, 'answered'>, string> = {
  waiting: msg('Waiting'),
  alarm: msg('Alarm opened'),
  ended: msg('Shift ended'),
};

function WorkerState({ worker, reference }: { worker: CheckInBatchWorker; reference: Date }) {
  const t = useT();
  const label =
    worker.state !== 'answered'
      ? t(STATE_LABEL[worker.state])
      : worker.answeredAt
        ? t('Checked in at {{time}}', { time: requestTime(worker.answeredAt, reference) })
        : t('Checked in');
  return (
    <Badge variant={STATE_VARIANT[worker.state]} data-testid="checkin-request-state" data-state={worker.state}>
      {label}
    </Badge>
  );
}

/** One ask: who asked and when, the deadline, how many have answered, and each worker's answer. */
function BatchView({
  batch,
  teamName,
  reference,
}: {
  batch: CheckInBatch;
  teamName?: (teamId: number) => string | undefined;
  reference: Date;
}) {
  const t = useT();
  const titleId = useId();
  const team = batch.teamId !== null ? teamName?.(batch.teamId) : undefined;
  const title =
    batch.teamId === null
      ? (batch.workers[0]?.name ?? t('One worker'))
      : team
        ? t('Everyone on shift in {{team}}', { team })
        : t('Everyone on shift in the team');
  const asked = requestTime(batch.requestedAt, reference);
  return (
    <section className="lws-form" aria-labelledby={titleId} data-testid="checkin-request" data-batch-id={batch.id}>
      <h3 id={titleId} className="lws-card__title">
        {title}
      </h3>
      <p className="lws-muted">
        <span data-testid="checkin-request-asked">
          {t('Asked by {{name}} at {{time}}', { name: batch.requestedByName ?? t('a monitor'), time: asked })}
        </span>
        {'. '}
        <span data-testid="checkin-request-due">{t('Answer by {{time}}', { time: requestTime(batch.dueAt, reference) })}</span>
      </p>
      <p>
        <strong data-testid="checkin-request-progress">
          {t('{{answered}} of {{total}} safe', { answered: batch.answered, total: batch.total })}
        </strong>
      </p>
      {batch.workers.length > 0 ? (
        <Table label={t('Answers to the request asked at {{time}}', { time: asked })} data-testid="checkin-request-workers">
          <TableHeader>
            <TableRow>
              <TableHead>{t('Worker')}</TableHead>
              <TableHead>{t('Answer')}</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {batch.workers.map((worker) => (
              <TableRow key={worker.requestId} data-testid="checkin-request-worker" data-user-id={worker.userId}>
                <TableCell>{worker.name}</TableCell>
                <TableCell>
                  <WorkerState worker={worker} reference={reference} />
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      ) : null}
    </section>
  );
}

/**
 * "Check in now" as the monitors follow it: the asks of the last 24 hours they may see, newest
 * first, each with how many of the workers asked have answered, kept current as they answer.
 */
export function CheckInRequestsCard({ teamName }: { teamName?: (teamId: number) => string | undefined }) {
  const t = useT();
  const cached = useQueryClient().getQueryData<CheckInBatch[]>(CHECK_IN_REQUESTS_KEY);
  const query = useLiveQuery({
    queryKey: CHECK_IN_REQUESTS_KEY,
    queryFn: ({ signal }) => fetchCheckInBatches(signal),
    // Read by each event as it comes (the query's options are renewed at every render).
    live: checkInRequestsLive(waitingWorkers(cached)),
    pollMs: CHECK_IN_REQUESTS_POLL_MS,
  });
  // Today's times are written without their date: "today" by the server's clock.
  const reference = useServerTimeEvery(REFERENCE_RECHECK_MS);
  return (
    <Card data-testid="checkin-requests-card">
      <CardHeader>
        <CardTitle>{t('Check-in requests')}</CardTitle>
        <CardDescription>{t('Workers asked to check in now in the last 24 hours, and who has answered.')}</CardDescription>
      </CardHeader>
      <CardContent className="lws-form">
        <LoadView
          load={loadOf(query)}
          loadingLabel={t('Loading check-in requests')}
          errorText={t('The check-in requests could not be loaded.')}
          emptyText={t('Nobody has been asked to check in in the last 24 hours.')}
          testId="checkin-requests"
          skeletonHeight="2.5rem"
        >
          {(batches) => batches.map((batch) => <BatchView key={batch.id} batch={batch} teamName={teamName} reference={reference} />)}
        </LoadView>
      </CardContent>
    </Card>
  );
}
