import { useState } from 'react';
import {
  Badge,
  Button,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
  formatDateTime,
  useLiveQuery,
  useT,
  useToast,
  LoadView,
  type Load,
} from '@lws/fe-ui';
import { fetchReminderStatus, sendTestReminder, type ReminderStatus } from './reminders-api';
import { TestProviderSection } from './TestProviderSection';

/** Spec section 9: the reminder status is read every 10 s, only while live updates are down. */
export const REMINDER_STATUS_POLL_MS = 10_000;

function YesNo({ flag }: { flag: boolean }) {
  const t = useT();
  return <Badge variant={flag ? 'warning' : 'neutral'}>{flag ? t('Yes') : t('No')}</Badge>;
}

/**
 * SMS Reminder Test Panel (spec section 2): whether the server's reminders run, who is due for one,
 * and test sends through the real messaging path.
 */
export function SmsTestPanel() {
  const { toast } = useToast();
  const t = useT();
  const [sending, setSending] = useState<string | null>(null);
  // Live: shifts and deadlines change who is due, and a reminder sent shows as an 'SMS Sent' entry.
  const query = useLiveQuery({
    queryKey: ['reminders', 'status'],
    queryFn: () => fetchReminderStatus(),
    live: { types: ['worker', 'activity', 'account'], when: (e) => e.type !== 'activity' || e.data.type === 'sms_sent' },
    pollMs: REMINDER_STATUS_POLL_MS,
  });
  // A failed read says so (the spec's panel), even with an older status on screen.
  const load: Load<ReminderStatus> = query.error
    ? { state: 'error', error: query.error }
    : query.data
      ? { state: 'ready', data: query.data }
      : { state: 'loading' };
  const reload = () => query.refetch();

  const send = async (userId: number, minutes: 5 | 2) => {
    const failed = t('Failed to send {{minutes}}-minute reminder. Check console for details', { minutes });
    setSending(`${userId}:${minutes}`);
    try {
      const result = await sendTestReminder(userId, minutes);
      if (result.status === 'failed' || result.status === 'undelivered') {
        console.error(`The ${minutes}-minute test reminder failed`, result);
        toast({ title: t('Test failed'), message: failed, type: 'error' });
      } else {
        toast({
          title: t('Test reminder sent'),
          message: t('{{minutes}}-minute reminder sent to {{name}} ({{status}}).', {
            minutes,
            name: result.userName ?? t('Worker #{{id}}', { id: userId }),
            status: result.status,
          }),
        });
      }
    } catch (e) {
      console.error(`Sending the ${minutes}-minute test reminder failed`, e);
      toast({ title: t('Test failed'), message: failed, type: 'error' });
    } finally {
      setSending(null);
    }
  };

  return (
    <div className="lws-page" data-testid="sms-test-panel">
      <Card>
        <CardHeader className="lws-card__header--row">
          <div>
            <CardTitle>{t('SMS Reminder Test Panel')}</CardTitle>
            <CardDescription>{t('Reminders go out 5 and 2 minutes before each check-in is due.')}</CardDescription>
          </div>
          <Button variant="outline" size="sm" onClick={() => void reload()} data-testid="sms-test-refresh">
            {t('Refresh')}
          </Button>
        </CardHeader>
        <CardContent>
          <LoadView
            load={load}
            loadingLabel={t('Loading reminder status')}
            errorText={t('Failed to load reminder system status. The system may be offline.')}
            testId="sms-test"
            skeletonHeight="4rem"
          >
            {(data) => (
              <>
                <dl className="lws-info-list" data-testid="reminder-summary">
                  <dt>{t('Reminder system')}</dt>
                  <dd data-testid="reminder-system-active">
                    <Badge variant={data.reminderSystemActive ? 'success' : 'danger'}>
                      {data.reminderSystemActive ? t('Active') : t('Inactive')}
                    </Badge>
                  </dd>
                  <dt>{t('Active workers')}</dt>
                  <dd data-testid="reminder-active-workers">{data.activeWorkers}</dd>
                  <dt>{t('Current time')}</dt>
                  <dd data-testid="reminder-now">{formatDateTime(data.now, t('Unknown'))}</dd>
                </dl>
                {data.workers.length === 0 ? (
                  <p className="lws-muted" data-testid="reminder-workers-empty">
                    {t('No workers on shift')}
                  </p>
                ) : (
                  <Table label={t('Workers a reminder goes to')} data-testid="reminder-workers">
                    <TableHeader>
                      <TableRow>
                        <TableHead>{t('Worker')}</TableHead>
                        <TableHead>{t('Next check-in')}</TableHead>
                        <TableHead>{t('Minutes until')}</TableHead>
                        <TableHead>{t('Due for 5 min')}</TableHead>
                        <TableHead>{t('Due for 2 min')}</TableHead>
                        <TableHead>{t('Test')}</TableHead>
                      </TableRow>
                    </TableHeader>
                    <TableBody>
                      {data.workers.map((w) => (
                        <TableRow key={w.id} data-testid="reminder-worker-row" data-user-id={w.id}>
                          <TableCell>
                            <strong>{w.name ?? t('Worker #{{id}}', { id: w.id })}</strong>
                            {w.phone ? <div className="lws-muted">{w.phone}</div> : null}
                          </TableCell>
                          <TableCell>{formatDateTime(w.nextCheckIn, t('No check-in scheduled'))}</TableCell>
                          <TableCell data-testid="reminder-minutes-until">{w.minutesUntil === null ? '' : w.minutesUntil}</TableCell>
                          <TableCell data-testid="reminder-due-5">
                            <YesNo flag={w.due5min} />
                          </TableCell>
                          <TableCell data-testid="reminder-due-2">
                            <YesNo flag={w.due2min} />
                          </TableCell>
                          <TableCell>
                            <div className="lws-actions">
                              <Button
                                size="sm"
                                variant="outline"
                                busy={sending === `${w.id}:5`}
                                disabled={sending !== null}
                                onClick={() => void send(w.id, 5)}
                                data-testid="send-test-5"
                              >
                                {t('Send 5 min test')}
                              </Button>
                              <Button
                                size="sm"
                                variant="outline"
                                busy={sending === `${w.id}:2`}
                                disabled={sending !== null}
                                onClick={() => void send(w.id, 2)}
                                data-testid="send-test-2"
                              >
                                {t('Send 2 min test')}
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
      </Card>
      <TestProviderSection />
    </div>
  );
}
