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
  serverNow,
  useLiveQuery,
} from '@lws/fe-ui';
import { fetchTeamNames } from '../accounts/accounts-api';
import {
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

const FAILED = 'Failed to load alarm report';

type TimeKey = 'ackP50Seconds' | 'ackP90Seconds' | 'ackMaxSeconds' | 'resolveP50Seconds' | 'resolveP90Seconds' | 'resolveMaxSeconds';

const TIME_COLUMNS: { key: TimeKey; label: string }[] = [
  { key: 'ackP50Seconds', label: 'Ack p50' },
  { key: 'ackP90Seconds', label: 'Ack p90' },
  { key: 'ackMaxSeconds', label: 'Ack max' },
  { key: 'resolveP50Seconds', label: 'Resolve p50' },
  { key: 'resolveP90Seconds', label: 'Resolve p90' },
  { key: 'resolveMaxSeconds', label: 'Resolve max' },
];

/**
 * The monthly alarm figures (BS 8484): alarms by type, genuine and false, and how long monitors
 * took to acknowledge and resolve them. Months are London calendar months, as on the server.
 */
export function AlarmReportCard() {
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
      ? { state: 'error', message: failureMessage(report.error, 'Please try again.') }
      : { state: 'loading' };

  const rows = load.state === 'ready' ? [...load.report.byKind, load.report.total] : [];

  return (
    <Card data-testid="alarm-report">
      <CardHeader className="lws-card__header--row">
        <div>
          <CardTitle>Alarm Report</CardTitle>
          <CardDescription>
            Alarms opened in the month (UK time), how quickly they were acknowledged and resolved, and their verdicts. Times are nearest-rank
            percentiles over the alarms that reached that step.
          </CardDescription>
        </div>
      </CardHeader>
      <CardContent>
        <div className="lws-inline-form">
          <Label htmlFor={monthId}>Month</Label>
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
              <Label htmlFor={teamSelectId}>Team</Label>
              <Select
                id={teamSelectId}
                value={teamId ?? ''}
                onChange={(event) => setTeamId(event.target.value ? Number(event.target.value) : undefined)}
                data-testid="alarm-report-team"
              >
                <option value="">All teams</option>
                {teams.map((t) => (
                  <option key={t.id} value={t.id}>
                    {t.name}
                  </option>
                ))}
              </Select>
            </>
          ) : null}
          {valid ? (
            <a className="lws-btn lws-btn--outline lws-btn--sm" href={alarmReportCsvPath(month, teamId)} download={`lws-alarms-${month}.csv`} data-testid="alarm-report-csv">
              Download CSV
            </a>
          ) : null}
        </div>
        {!valid ? (
          <p className="lws-muted" data-testid="alarm-report-pick">
            Choose a month
          </p>
        ) : load.state === 'loading' ? (
          <div role="status" aria-label="Loading alarm report">
            <Skeleton height="2.5rem" />
          </div>
        ) : load.state === 'error' ? (
          <Alert variant="error" title={FAILED} data-testid="alarm-report-error">
            <p>{load.message}</p>
          </Alert>
        ) : load.report.total.count === 0 ? (
          <p className="lws-muted" data-testid="alarm-report-empty">
            No alarms in this month
          </p>
        ) : (
          <Table label="Alarms by type" data-testid="alarm-report-table">
            <TableHeader>
              <TableRow>
                <TableHead>Type</TableHead>
                <TableHead>Alarms</TableHead>
                <TableHead>Acknowledged</TableHead>
                <TableHead>Resolved</TableHead>
                <TableHead>Genuine</TableHead>
                <TableHead>False alarm</TableHead>
                <TableHead>Unresolved</TableHead>
                {TIME_COLUMNS.map((c) => (
                  <TableHead key={c.key}>{c.label}</TableHead>
                ))}
              </TableRow>
            </TableHeader>
            <TableBody>
              {rows.map((r) => (
                <TableRow key={r.kind} data-testid="alarm-report-row" data-kind={r.kind}>
                  <TableCell>{r.kind === 'all' ? <strong>{REPORT_KIND_LABELS[r.kind]}</strong> : REPORT_KIND_LABELS[r.kind]}</TableCell>
                  <TableCell>{r.count}</TableCell>
                  <TableCell>{r.acknowledged}</TableCell>
                  <TableCell>{r.resolved}</TableCell>
                  <TableCell>{r.genuine}</TableCell>
                  <TableCell>{r.falseAlarm}</TableCell>
                  <TableCell>{r.unresolved}</TableCell>
                  {TIME_COLUMNS.map((c) => (
                    <TableCell key={c.key} data-testid={`alarm-report-${c.key}`}>
                      {formatSeconds(r[c.key])}
                    </TableCell>
                  ))}
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
        {load.state === 'ready' && load.report.total.count > 0 && load.report.byTeam.length > 1 ? (
          <Table label="Alarms by team" data-testid="alarm-report-teams">
            <TableCaption>By team</TableCaption>
            <TableHeader>
              <TableRow>
                <TableHead>Team</TableHead>
                <TableHead>Alarms</TableHead>
                <TableHead>Genuine</TableHead>
                <TableHead>False alarm</TableHead>
                {TIME_COLUMNS.map((c) => (
                  <TableHead key={c.key}>{c.label}</TableHead>
                ))}
              </TableRow>
            </TableHeader>
            <TableBody>
              {load.report.byTeam.map((t) => (
                <TableRow key={t.teamId ?? 'none'} data-testid="alarm-report-team-row">
                  <TableCell>{t.team}</TableCell>
                  <TableCell>{t.total.count}</TableCell>
                  <TableCell>{t.total.genuine}</TableCell>
                  <TableCell>{t.total.falseAlarm}</TableCell>
                  {TIME_COLUMNS.map((c) => (
                    <TableCell key={c.key}>{formatSeconds(t.total[c.key])}</TableCell>
                  ))}
                </TableRow>
              ))}
            </TableBody>
          </Table>
        ) : null}
      </CardContent>
    </Card>
  );
}
