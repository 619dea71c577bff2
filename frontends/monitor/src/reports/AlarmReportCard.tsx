import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import {
  Alert,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  Input,
  Label,
  Select,
  Skeleton,
  Table,
  TableBody,
  TableCaption,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
  failureMessage,
  msg,
  serverNow,
  useLiveQuery,
  useT,
} from '@lws/fe-ui';
import { fetchTeamNames } from '../accounts/accounts-api';
import {
  FALSE_REASON_COLUMNS,
  FALSE_REASON_KEYS,
  MONTH_VALUE,
  REPORT_KIND_LABELS,
  addMonths,
  alarmReportCsvPath,
  fetchAlarmReport,
  formatSeconds,
  monthOf,
  type AlarmReport,
} from './alarm-report-api';

type Load = { state: 'loading' } | { state: 'error'; message: string } | { state: 'ready'; report: AlarmReport };

const FAILED = msg('Failed to load alarm report');

type TimeKey = 'ackP50Seconds' | 'ackP90Seconds' | 'ackMaxSeconds' | 'resolveP50Seconds' | 'resolveP90Seconds' | 'resolveMaxSeconds';

const TIME_COLUMNS: { key: TimeKey; label: string }[] = [
  { key: 'ackP50Seconds', label: msg('Ack p50') },
  { key: 'ackP90Seconds', label: msg('Ack p90') },
  { key: 'ackMaxSeconds', label: msg('Ack max') },
  { key: 'resolveP50Seconds', label: msg('Resolve p50') },
  { key: 'resolveP90Seconds', label: msg('Resolve p90') },
  { key: 'resolveMaxSeconds', label: msg('Resolve max') },
];

/** Why the month's false alarms were false, for the whole report and each team: what to train or fix. */
function FalseReasonsTable({ report }: { report: AlarmReport }) {
  const t = useT();
  const rows = [
    { key: 'all', label: t('All teams'), total: report.total },
    ...(report.byTeam.length > 1
      ? report.byTeam.map((team) => ({ key: String(team.teamId ?? 'none'), label: team.team, total: team.total }))
      : []),
  ];
  return (
    <Table label={t('False alarms by reason')} data-testid="alarm-report-false-reasons">
      <TableCaption>{t('False alarms by reason')}</TableCaption>
      <TableHeader>
        <TableRow>
          <TableHead>{t('Team')}</TableHead>
          <TableHead>{t('False alarm')}</TableHead>
          {FALSE_REASON_KEYS.map((k) => (
            <TableHead key={k}>{t(FALSE_REASON_COLUMNS[k])}</TableHead>
          ))}
        </TableRow>
      </TableHeader>
      <TableBody>
        {rows.map((row) => (
          <TableRow key={row.key} data-testid="alarm-report-false-reason-row">
            <TableCell>{row.key === 'all' ? <strong>{row.label}</strong> : row.label}</TableCell>
            <TableCell>{row.total.falseAlarm}</TableCell>
            {FALSE_REASON_KEYS.map((k) => (
              <TableCell key={k} data-testid={`alarm-report-false-${k}`}>
                {row.total.falseReasons[k]}
              </TableCell>
            ))}
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

/**
 * The monthly alarm figures (BS 8484): alarms by type, genuine and false, and how long monitors
 * took to acknowledge and resolve them. Months are London calendar months, as on the server.
 */
export function AlarmReportCard() {
  const t = useT();
  const current = monthOf(serverNow());
  const [month, setMonth] = useState(current);
  const [teamId, setTeamId] = useState<number | undefined>(undefined);
  const monthId = useId();
  const teamSelectId = useId();
  const valid = MONTH_VALUE.test(month);

  // The teams the monitor sees, for the filter; with one team there is nothing to choose.
  const teamsQuery = useQuery({ queryKey: ['teams', 'names'], queryFn: fetchTeamNames });
  const teams = teamsQuery.data ?? [];
  // The figures change as alarms open, are acknowledged and resolved: each change reads them again.
  const report = useLiveQuery({
    queryKey: ['alarm-report', month, teamId ?? null],
    queryFn: ({ signal }) => fetchAlarmReport(month, signal, teamId),
    enabled: valid,
    live: { types: ['alarm'] },
    pollMs: null,
  });
  const load: Load = report.data
    ? { state: 'ready', report: report.data }
    : report.error
      ? { state: 'error', message: t(failureMessage(report.error, msg('Please try again.'))) }
      : { state: 'loading' };

  const rows = load.state === 'ready' ? [...load.report.byKind, load.report.total] : [];

  return (
    <Card data-testid="alarm-report">
      <CardHeader className="lws-card__header--row">
        <div>
          <CardTitle>{t('Alarm Report')}</CardTitle>
          <CardDescription>
            {t(
              'Alarms opened in the month (UK time), how quickly they were acknowledged and resolved, and their outcomes. Times are nearest-rank percentiles over the alarms that reached that step.',
            )}
          </CardDescription>
        </div>
      </CardHeader>
      <CardContent>
        <div className="lws-inline-form">
          <Label htmlFor={monthId}>{t('Month')}</Label>
          <Input
            id={monthId}
            type="month"
            value={month}
            min="2000-01"
            max={addMonths(current, 12)}
            onChange={(event) => setMonth(event.target.value)}
            data-testid="alarm-report-month"
          />
          {teams.length > 1 ? (
            <>
              <Label htmlFor={teamSelectId}>{t('Team')}</Label>
              <Select
                id={teamSelectId}
                value={teamId ?? ''}
                onChange={(event) => setTeamId(event.target.value ? Number(event.target.value) : undefined)}
                data-testid="alarm-report-team"
              >
                <option value="">{t('All teams')}</option>
                {teams.map((team) => (
                  <option key={team.id} value={team.id}>
                    {team.name}
                  </option>
                ))}
              </Select>
            </>
          ) : null}
          {valid ? (
            <a
              className="lws-btn lws-btn--outline lws-btn--sm"
              href={alarmReportCsvPath(month, teamId)}
              download={`lws-alarms-${month}.csv`}
              data-testid="alarm-report-csv"
            >
              {t('Download CSV')}
            </a>
          ) : null}
        </div>
        {!valid ? (
          <p className="lws-muted" data-testid="alarm-report-pick">
            {t('Choose a month')}
          </p>
        ) : load.state === 'loading' ? (
          <div role="status" aria-label={t('Loading alarm report')}>
            <Skeleton height="2.5rem" />
          </div>
        ) : load.state === 'error' ? (
          <Alert variant="error" title={t(FAILED)} data-testid="alarm-report-error">
            <p>{load.message}</p>
          </Alert>
        ) : load.report.total.count === 0 ? (
          <p className="lws-muted" data-testid="alarm-report-empty">
            {t('No alarms in this month')}
          </p>
        ) : (
          <Table label={t('Alarms by type')} data-testid="alarm-report-table">
            <TableHeader>
              <TableRow>
                <TableHead>{t('Type')}</TableHead>
                <TableHead>{t('Alarms')}</TableHead>
                <TableHead>{t('Acknowledged')}</TableHead>
                <TableHead>{t('Resolved')}</TableHead>
                <TableHead>{t('Genuine')}</TableHead>
                <TableHead>{t('False alarm')}</TableHead>
                <TableHead>{t('Test')}</TableHead>
                <TableHead>{t('Unresolved')}</TableHead>
                {TIME_COLUMNS.map((c) => (
                  <TableHead key={c.key}>{t(c.label)}</TableHead>
                ))}
              </TableRow>
            </TableHeader>
            <TableBody>
              {rows.map((r) => (
                <TableRow key={r.kind} data-testid="alarm-report-row" data-kind={r.kind}>
                  <TableCell>
                    {r.kind === 'all' ? <strong>{t(REPORT_KIND_LABELS[r.kind])}</strong> : t(REPORT_KIND_LABELS[r.kind])}
                  </TableCell>
                  <TableCell>{r.count}</TableCell>
                  <TableCell>{r.acknowledged}</TableCell>
                  <TableCell>{r.resolved}</TableCell>
                  <TableCell>{r.genuine}</TableCell>
                  <TableCell>{r.falseAlarm}</TableCell>
                  <TableCell>{r.test}</TableCell>
                  <TableCell>{r.unresolved}</TableCell>
                  {TIME_COLUMNS.map((c) => (
                    <TableCell key={c.key} data-testid={`alarm-report-${c.key}`}>
                      {formatSeconds(r[c.key], t)}
                    </TableCell>
                  ))}
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
        {load.state === 'ready' && load.report.total.count > 0 && load.report.byTeam.length > 1 ? (
          <Table label={t('Alarms by team')} data-testid="alarm-report-teams">
            <TableCaption>{t('By team')}</TableCaption>
            <TableHeader>
              <TableRow>
                <TableHead>{t('Team')}</TableHead>
                <TableHead>{t('Alarms')}</TableHead>
                <TableHead>{t('Genuine')}</TableHead>
                <TableHead>{t('False alarm')}</TableHead>
                {TIME_COLUMNS.map((c) => (
                  <TableHead key={c.key}>{t(c.label)}</TableHead>
                ))}
              </TableRow>
            </TableHeader>
            <TableBody>
              {load.report.byTeam.map((team) => (
                <TableRow key={team.teamId ?? 'none'} data-testid="alarm-report-team-row">
                  <TableCell>{team.team}</TableCell>
                  <TableCell>{team.total.count}</TableCell>
                  <TableCell>{team.total.genuine}</TableCell>
                  <TableCell>{team.total.falseAlarm}</TableCell>
                  {TIME_COLUMNS.map((c) => (
                    <TableCell key={c.key}>{formatSeconds(team.total[c.key], t)}</TableCell>
                  ))}
                </TableRow>
              ))}
            </TableBody>
          </Table>
        ) : null}
        {load.state === 'ready' && load.report.total.falseAlarm > 0 ? <FalseReasonsTable report={load.report} /> : null}
      </CardContent>
    </Card>
  );
}
