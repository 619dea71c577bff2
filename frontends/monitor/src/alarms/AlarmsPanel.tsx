import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { resolveAlarmFormSchema, type ResolveAlarmForm } from '@lws/schemas';
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
  Dialog,
  FieldError,
  Label,
  Skeleton,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
  Textarea,
  failureField,
  failureMessage,
  formatDateTime,
  msg,
  serverNow,
  useServerTimeEvery,
  useT,
  useToast,
} from '@lws/fe-ui';
import {
  alarmAge,
  alarmLabel,
  mapLink,
  FALSE_REASON_LABELS,
  SEVERITY_LABELS,
  STATE_LABELS,
  VERDICT_LABELS,
  acknowledgeAlarm,
  OPEN_ALARMS_KEY,
  useOpenAlarms,
  resolveAlarm,
  type Alarm,
} from '@lws/fe-ui/alarms';
import { AlarmMessages } from './AlarmMessages';
import { AlarmVisit } from './AlarmVisit';

/** "just now", or "14 min ago", on the server's clock. */
function ago(at: string, t: ReturnType<typeof useT>): string {
  const now = serverNow();
  const age = alarmAge(at, now, t);
  return alarmAge(at, now) === 'just now' ? age : t('{{age}} ago', { age });
}

type Load = { state: 'loading' } | { state: 'error'; message: string } | { state: 'ready'; alarms: Alarm[] };

export interface AlarmsPanelProps {
  /** The name to show for the monitor with this user id, when the screen knows it. */
  monitorName?(userId: number): string | undefined;
  /**
   * The team of the worker with this user id, shown on the alarm when several teams are in view. The
   * team switcher never hides an alarm: a monitor must see every alarm they may have to answer.
   */
  teamOf?(userId: number): string | undefined;
  /** Told of the open alarms each time they are read, so the worker tables can show them. */
  onOpenAlarms?(alarms: Alarm[]): void;
}

/** No outcome chosen yet: the radio groups start with none checked. */
const NO_VERDICT: ResolveAlarmForm = { verdict: '', severity: '', reason: '', note: '' };

/** One radio group of the outcome: the verdict, a genuine incident's severity, a false alarm's reason. */
function OutcomeChoice<K extends 'verdict' | 'severity' | 'reason'>({
  form,
  name,
  legend,
  labels,
  busy,
}: {
  form: ReturnType<typeof useForm<ResolveAlarmForm, unknown, z.output<typeof resolveAlarmFormSchema>>>;
  name: K;
  legend: string;
  labels: Record<string, string>;
  busy: boolean;
}) {
  const t = useT();
  const errorId = useId();
  const error = form.formState.errors[name]?.message;
  return (
    <fieldset className="lws-field lws-fieldset" aria-describedby={error ? errorId : undefined} data-testid={`resolve-${name}`}>
      <legend className="lws-label">{t(legend)}</legend>
      {Object.entries(labels).map(([value, label]) => (
        <label key={value} className="lws-checkbox">
          <input type="radio" {...form.register(name)} value={value} className="lws-checkbox__input" disabled={busy} />
          <span className="lws-checkbox__label">{t(label)}</span>
        </label>
      ))}
      <FieldError id={errorId} testId={`resolve-${name}-error`}>
        {error ? t(error) : null}
      </FieldError>
    </fieldset>
  );
}

function ResolveDialog({ alarm, onClose, onResolved }: { alarm: Alarm | null; onClose(): void; onResolved(): void }) {
  const { toast } = useToast();
  const t = useT();
  // The gateway's own schema checks the dialog, so the words under a field are the server's.
  const form = useForm<ResolveAlarmForm, unknown, z.output<typeof resolveAlarmFormSchema>>({
    resolver: zodResolver(resolveAlarmFormSchema),
    defaultValues: NO_VERDICT,
  });
  const verdict = form.watch('verdict');
  const { errors, isSubmitting: busy } = form.formState;
  const noteId = useId();
  const noteErrorId = useId();

  useEffect(() => {
    form.reset(NO_VERDICT);
  }, [alarm?.id, form]);

  const close = () => {
    if (!busy) onClose();
  };

  const submit = form.handleSubmit(async (outcome) => {
    if (!alarm) return;
    try {
      await resolveAlarm(alarm.id, outcome);
      toast({
        title: t('Alarm resolved'),
        message: t('The alarm for {{name}} is closed as {{verdict}}.', {
          name: alarm.workerName,
          verdict: t(VERDICT_LABELS[outcome.verdict]).toLowerCase(),
        }),
      });
      onResolved();
    } catch (e) {
      console.error('Resolving the alarm failed', e);
      const field = failureField(e);
      if (
        e instanceof ApiError &&
        e.status === 400 &&
        (field === 'note' || field === 'verdict' || field === 'severity' || field === 'reason')
      ) {
        form.setError(field, { message: t(failureMessage(e, msg('This value is not valid'))) });
      } else if (e instanceof ApiError && e.status === 409) {
        toast({ title: t('Alarm already resolved'), message: t('Another monitor resolved this alarm first.'), type: 'warning' });
        onResolved();
      } else {
        toast({
          title: t('Resolve failed'),
          message: t(failureMessage(e, msg('Failed to resolve the alarm. Please try again.'))),
          type: 'error',
        });
      }
    }
  });

  return (
    <Dialog
      open={alarm !== null}
      onClose={close}
      title={t('Resolve Alarm')}
      description={
        alarm
          ? t('{{alarm}} for {{name}}, opened {{time}}.', {
              alarm: t(alarmLabel(alarm)),
              name: alarm.workerName,
              time: formatDateTime(alarm.openedAt, t('at an unknown time')),
            })
          : undefined
      }
      data-testid="resolve-alarm-dialog"
    >
      <form className="lws-form" noValidate onSubmit={(event) => void submit(event)} aria-label={t('Resolve alarm')}>
        <OutcomeChoice form={form} name="verdict" legend={msg('Outcome')} labels={VERDICT_LABELS} busy={busy} />
        {verdict === 'genuine' && (
          <OutcomeChoice form={form} name="severity" legend={msg('How serious was the incident?')} labels={SEVERITY_LABELS} busy={busy} />
        )}
        {verdict === 'false_alarm' && (
          <OutcomeChoice form={form} name="reason" legend={msg('Why was it a false alarm?')} labels={FALSE_REASON_LABELS} busy={busy} />
        )}
        <div className="lws-field">
          <Label htmlFor={noteId}>{t('Note')}</Label>
          <Textarea
            {...form.register('note')}
            id={noteId}
            maxLength={2000}
            required
            invalid={Boolean(errors.note)}
            aria-describedby={errors.note ? noteErrorId : undefined}
            disabled={busy}
            placeholder={t('What happened and what was done')}
            data-testid="resolve-note"
          />
          <FieldError id={noteErrorId} testId="resolve-note-error">
            {errors.note?.message ? t(errors.note.message) : null}
          </FieldError>
        </div>
        <div className="lws-dialog__footer">
          <Button variant="outline" onClick={close} disabled={busy}>
            {t('Cancel')}
          </Button>
          <Button type="submit" busy={busy} data-testid="resolve-alarm-submit">
            {busy ? t('Resolving...') : t('Resolve Alarm')}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

/**
 * Open alarms, at the top of the monitors' Worker Dashboard: every missed check-in and emergency
 * that no monitor has closed. An alarm keeps escalating until a monitor acknowledges it (takes
 * ownership) and stays listed until it is resolved with a verdict and a note.
 */
export function AlarmsPanel({ monitorName, teamOf, onOpenAlarms }: AlarmsPanelProps) {
  const { toast } = useToast();
  const t = useT();
  const [acknowledging, setAcknowledging] = useState<string | null>(null);
  const [resolving, setResolving] = useState<Alarm | null>(null);
  // A failed poll keeps the list a monitor is reading; only a first read that fails says so.
  const query = useOpenAlarms();
  const client = useQueryClient();
  // A message's time shows its date once it is not today's (by the server's clock); a minute late is soon enough.
  const today = useServerTimeEvery(60_000);
  const load: Load = query.data
    ? { state: 'ready', alarms: query.data }
    : query.error
      ? {
          state: 'error',
          message:
            query.error instanceof ApiError
              ? t('Failed to fetch alarms: {{status}}', { status: query.error.status })
              : t('An error occurred while loading alarms'),
        }
      : { state: 'loading' };
  const reload = () => query.refetch();

  /** The alarm as the server answered a message: shown at once, then the list is read again. */
  const messageSent = (sent: Alarm | null) => {
    if (sent) client.setQueryData<Alarm[]>(OPEN_ALARMS_KEY, (old) => old?.map((a) => (a.id === sent.id ? sent : a)));
    void reload();
  };

  const readAlarms = load.state === 'ready' ? load.alarms : undefined;
  useEffect(() => {
    if (readAlarms) onOpenAlarms?.(readAlarms);
  }, [readAlarms, onOpenAlarms]);

  const acknowledge = async (alarm: Alarm) => {
    setAcknowledging(alarm.id);
    try {
      await acknowledgeAlarm(alarm.id);
      toast({ title: t('Alarm acknowledged'), message: t('You are handling the alarm for {{name}}.', { name: alarm.workerName }) });
    } catch (e) {
      console.error('Acknowledging the alarm failed', e);
      toast({
        title: t('Acknowledge failed'),
        message: t(failureMessage(e, msg('Failed to acknowledge the alarm. Please try again.'))),
        type: 'error',
      });
    } finally {
      setAcknowledging(null);
    }
    await reload();
  };

  const whoAcknowledged = (alarm: Alarm): string => {
    if (alarm.acknowledgedBy === null) return t('Nobody yet');
    // People are named, never numbered: the screen's own name for them ("you"), else the server's.
    const name = monitorName?.(alarm.acknowledgedBy) ?? alarm.acknowledgedByName ?? t('a monitor');
    return alarm.acknowledgedAt ? t('{{name}} at {{time}}', { name, time: formatDateTime(alarm.acknowledgedAt) }) : name;
  };

  const count = load.state === 'ready' ? load.alarms.length : null;
  const unowned = load.state === 'ready' ? load.alarms.filter((a) => a.state === 'open').length : 0;

  return (
    <Card data-testid="alarms-panel" className={unowned > 0 ? 'lws-alarms lws-alarms--active' : 'lws-alarms'}>
      <CardHeader className="lws-card__header--row">
        <div>
          <CardTitle>
            {t('Open Alarms')}{' '}
            {count !== null ? (
              <Badge variant={unowned > 0 ? 'danger' : count > 0 ? 'warning' : 'neutral'} data-testid="alarms-count">
                {count}
              </Badge>
            ) : null}
          </CardTitle>
          <CardDescription>{t('Missed check-ins and emergencies until a monitor resolves them.')}</CardDescription>
        </div>
      </CardHeader>
      <CardContent>
        {load.state === 'loading' ? (
          <div role="status" aria-label={t('Loading alarms')}>
            <Skeleton height="2.5rem" />
          </div>
        ) : load.state === 'error' ? (
          <Alert variant="error" title={t('Error loading alarms')} data-testid="alarms-error">
            <p>{load.message}</p>
          </Alert>
        ) : load.alarms.length === 0 ? (
          <p className="lws-muted" data-testid="alarms-empty">
            {t('No open alarms')}
          </p>
        ) : (
          <Table label={t('Alarms')} stickyFirstColumn data-testid="alarms-table">
            <TableHeader>
              <TableRow>
                <TableHead>{t('Worker')}</TableHead>
                <TableHead>{t('Alarm')}</TableHead>
                <TableHead>{t('Opened')}</TableHead>
                <TableHead>{t('State')}</TableHead>
                <TableHead>{t('Acknowledged by')}</TableHead>
                <TableHead>{t('Messages')}</TableHead>
                <TableHead>{t('History')}</TableHead>
                <TableHead>{t('Actions')}</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {load.alarms.map((alarm) => (
                <TableRow
                  key={alarm.id}
                  data-testid="alarm-row"
                  data-alarm-id={alarm.id}
                  data-user-id={alarm.userId}
                  data-state={alarm.state}
                >
                  <TableCell>
                    <strong data-testid="alarm-worker">{alarm.workerName}</strong>
                    {teamOf?.(alarm.userId) ? (
                      <div className="lws-muted" data-testid="alarm-team">
                        {teamOf(alarm.userId)}
                      </div>
                    ) : null}
                    {alarm.location ? <div className="lws-muted">{alarm.location}</div> : null}
                    {alarm.shiftNote ? (
                      <div className="lws-muted" data-testid="alarm-shift-note">
                        {t("Where they said they'd be: {{note}}", { note: alarm.shiftNote })}
                      </div>
                    ) : null}
                    {alarm.visit ? <AlarmVisit key={alarm.id} alarm={alarm} visit={alarm.visit} reference={today} /> : null}
                    {alarm.lastPosition ? (
                      <div className="lws-muted" data-testid="alarm-position">
                        {t('Last known position:')}{' '}
                        <a href={mapLink(alarm.lastPosition)} target="_blank" rel="noopener noreferrer">
                          {alarm.lastPosition.lat.toFixed(5)}, {alarm.lastPosition.lng.toFixed(5)}
                        </a>
                        {alarm.lastPosition.accuracy !== null ? ` (±${Math.round(alarm.lastPosition.accuracy)} m)` : ''},{' '}
                        {ago(alarm.lastPosition.at, t)}
                      </div>
                    ) : null}
                  </TableCell>
                  <TableCell>
                    <Badge
                      variant={alarm.kind === 'emergency' ? 'danger' : 'warning'}
                      data-testid="alarm-kind"
                      data-duress={alarm.duress ? 'true' : undefined}
                    >
                      {t(alarmLabel(alarm))}
                    </Badge>
                    {alarm.workerSafeAt ? (
                      <div className="lws-muted" data-testid="alarm-worker-safe">
                        {t('Said they are safe at {{time}}: confirm and resolve as a false alarm', {
                          time: formatDateTime(alarm.workerSafeAt),
                        })}
                      </div>
                    ) : null}
                    {alarm.dueAt && alarm.kind === 'missed_check_in' ? (
                      <div className="lws-muted">{t('Due {{time}}', { time: formatDateTime(alarm.dueAt) })}</div>
                    ) : null}
                    {alarm.lateCheckInAt ? (
                      <div className="lws-muted" data-testid="alarm-late-check-in">
                        {t('Checked in late at {{time}}', { time: formatDateTime(alarm.lateCheckInAt) })}
                      </div>
                    ) : null}
                  </TableCell>
                  <TableCell data-testid="alarm-opened">{formatDateTime(alarm.openedAt, t('Unknown'))}</TableCell>
                  <TableCell>
                    <Badge variant={alarm.state === 'open' ? 'danger' : 'info'} data-testid="alarm-state">
                      {t(STATE_LABELS[alarm.state])}
                    </Badge>
                  </TableCell>
                  <TableCell data-testid="alarm-acknowledged-by">{whoAcknowledged(alarm)}</TableCell>
                  <TableCell className="lws-alarm-messages-cell">
                    <AlarmMessages alarm={alarm} reference={today} onSent={messageSent} />
                  </TableCell>
                  <TableCell>
                    {alarm.history.length === 0 ? (
                      <span className="lws-muted">{t('No steps yet')}</span>
                    ) : (
                      <ol className="lws-alarm-history" data-testid="alarm-history">
                        {alarm.history.map((entry, i) => (
                          // biome-ignore lint/suspicious/noArrayIndexKey: the history only grows at its end, and two lines may read the same.
                          <li key={i}>{entry}</li>
                        ))}
                      </ol>
                    )}
                  </TableCell>
                  <TableCell>
                    <div className="lws-actions">
                      {alarm.state === 'open' ? (
                        <Button
                          size="sm"
                          busy={acknowledging === alarm.id}
                          onClick={() => void acknowledge(alarm)}
                          aria-label={t('Acknowledge the alarm for {{name}}', { name: alarm.workerName })}
                          data-testid="alarm-acknowledge"
                        >
                          {t('Acknowledge')}
                        </Button>
                      ) : null}
                      <Button
                        size="sm"
                        variant="outline"
                        onClick={() => setResolving(alarm)}
                        aria-label={t('Resolve the alarm for {{name}}', { name: alarm.workerName })}
                        data-testid="alarm-resolve"
                      >
                        {t('Resolve')}
                      </Button>
                    </div>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </CardContent>
      <ResolveDialog
        alarm={resolving}
        onClose={() => setResolving(null)}
        onResolved={() => {
          setResolving(null);
          void reload();
        }}
      />
    </Card>
  );
}
