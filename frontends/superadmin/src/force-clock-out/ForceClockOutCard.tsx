import { useState } from 'react';
import {
  Alert,
  ApiError,
  Badge,
  Button,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  ConfirmDialog,
  Skeleton,
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
  useLiveQuery,
  useMinimumBusy,
  useServerClock,
  useT,
  useToast,
} from '@lws/fe-ui';
import { fetchActiveWorkers, type ShiftWorker } from '@lws/fe-ui/shifts';

/** Spec section 9: worker lists poll every 30 s (only while live updates are down); the refresh spinner shows 500 ms. */
const POLL_MS = 30_000;
const REFRESH_SPINNER_MS = 500;
/** Durations are shown to the minute. */
const DURATION_TICK_MS = 30_000;

/** 'Nh Nm', a shift's length to the minute. */
function duration(ms: number, t: ReturnType<typeof useT>): string {
  const minutes = Math.max(0, Math.floor(ms / 60_000));
  return t('{{hours}}h {{minutes}}m', { hours: Math.floor(minutes / 60), minutes: minutes % 60 });
}

type Load = { state: 'loading' } | { state: 'error'; message: string } | { state: 'ready'; workers: ShiftWorker[] };

/**
 * Force Clock Out (superadmin): ends a worker's shift from the office, e.g. when they went home
 * without ending it. The server records who ended it and why, and stops monitoring the shift.
 */
export function ForceClockOutCard() {
  const { toast } = useToast();
  const t = useT();
  const clock = useServerClock(DURATION_TICK_MS);
  const [target, setTarget] = useState<ShiftWorker | null>(null);
  const [busy, setBusy] = useState(false);
  const [refreshing, runRefresh] = useMinimumBusy(REFRESH_SPINNER_MS);
  // Who is on shift changes with shifts starting and ending; check-ins move the next check-in column.
  const query = useLiveQuery({
    queryKey: ['workers', 'on-shift'],
    queryFn: () => fetchActiveWorkers(),
    live: { types: ['worker', 'account'] },
    pollMs: POLL_MS,
  });
  // A failed poll keeps the list on screen; only a first read that fails says so.
  const load: Load = query.data
    ? { state: 'ready', workers: query.data }
    : query.error
      ? {
          state: 'error',
          message:
            query.error instanceof ApiError
              ? t('Failed to fetch active workers: {{status}}', { status: query.error.status })
              : t('An error occurred while loading worker data'),
        }
      : { state: 'loading' };
  const reload = () => query.refetch();

  const confirm = async () => {
    if (!target) return;
    setBusy(true);
    try {
      await api.post(`/api/users/${target.id}/force-clock-out`);
      toast({ title: t('Worker clocked out'), message: t('{{name}} has been clocked out.', { name: target.name }) });
      setTarget(null);
    } catch (e) {
      console.error('Force clock out failed', e);
      toast({
        title: t('Failed to clock out {{name}}', { name: target.name }),
        message: t(failureMessage(e, msg('Please try again.'))),
        type: 'error',
      });
    } finally {
      setBusy(false);
    }
    await reload();
  };

  const now = clock.now();
  const count = load.state === 'ready' ? load.workers.length : null;

  return (
    <Card data-testid="force-clock-out">
      <CardHeader className="lws-card__header--row">
        <div>
          <CardTitle>
            {t('Force Clock Out')}{' '}
            {count !== null ? (
              <Badge variant={count > 0 ? 'info' : 'neutral'} data-testid="force-clock-out-count">
                {t('{{number}} active', { number: count })}
              </Badge>
            ) : null}
          </CardTitle>
          <CardDescription>{t('End the shift of a worker who cannot end it themselves.')}</CardDescription>
        </div>
        <Button
          variant="outline"
          busy={refreshing}
          onClick={() => void runRefresh(() => Promise.all([reload(), clock.sync()]))}
          data-testid="force-clock-out-refresh"
        >
          {t('Refresh')}
        </Button>
      </CardHeader>
      <CardContent>
        {load.state === 'loading' ? (
          <div role="status" aria-label={t('Loading active workers')}>
            <Skeleton height="2.5rem" />
          </div>
        ) : load.state === 'error' ? (
          <Alert variant="error" title={t('Error loading workers')} data-testid="force-clock-out-error">
            <p>{load.message}</p>
          </Alert>
        ) : load.workers.length === 0 ? (
          <p className="lws-muted" data-testid="force-clock-out-empty">
            {t('No active workers found')}
          </p>
        ) : (
          <Table label={t('Workers on shift')} data-testid="force-clock-out-table">
            <TableHeader>
              <TableRow>
                <TableHead>{t('Worker')}</TableHead>
                <TableHead>{t('Location')}</TableHead>
                <TableHead>{t('Shift Started')}</TableHead>
                <TableHead>{t('Duration')}</TableHead>
                <TableHead>{t('Next Check-in')}</TableHead>
                <TableHead>{t('Action')}</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {load.workers.map((w) => {
                const started = w.shiftStartTime ? Date.parse(w.shiftStartTime) : null;
                return (
                  <TableRow key={w.id} data-testid="force-clock-out-row" data-username={w.username}>
                    <TableCell>
                      <strong>{w.name}</strong>
                      {w.phone ? <div className="lws-muted">{w.phone}</div> : null}
                    </TableCell>
                    <TableCell data-testid="worker-location">{w.location ?? t('Unknown location')}</TableCell>
                    <TableCell data-testid="worker-shift-started">{formatDateTime(w.shiftStartTime, t('Unknown'))}</TableCell>
                    <TableCell data-testid="worker-duration">
                      {started === null ? t('Unknown') : duration(now.getTime() - started, t)}
                    </TableCell>
                    <TableCell data-testid="worker-next-check-in">
                      {formatDateTime(w.nextCheckInTime, t('No check-in scheduled'))}
                    </TableCell>
                    <TableCell>
                      <Button
                        size="sm"
                        variant="destructive"
                        onClick={() => setTarget(w)}
                        aria-label={t('Force clock out {{name}}', { name: w.name })}
                        data-testid="force-clock-out-button"
                      >
                        {t('Force Clock Out')}
                      </Button>
                    </TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        )}
      </CardContent>
      <ConfirmDialog
        open={target !== null}
        title={t('Force Clock Out')}
        description={
          target
            ? t(
                'Are you sure you want to force clock out {{name}}? This will end their shift immediately, mark them as off-shift and stop check-in monitoring.',
                { name: target.name },
              )
            : ''
        }
        confirmLabel={t('Force Clock Out')}
        busyLabel={t('Clocking out...')}
        destructive
        busy={busy}
        onConfirm={() => void confirm()}
        onCancel={() => setTarget(null)}
        data-testid="force-clock-out-dialog"
      />
    </Card>
  );
}
