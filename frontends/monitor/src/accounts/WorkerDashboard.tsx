import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useCallback, useRef, useState } from 'react';
import type { WorkerEvent } from '@lws/fe-ui';
import {
  Alert,
  ApiError,
  Button,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  ConfirmDialog,
  LiveStatusBadge,
  Label,
  Select,
  Skeleton,
  api,
  failureMessage,
  msg,
  useAuth,
  useLiveEvents,
  useLiveQuery,
  useMinimumBusy,
  syncServerClock,
  useServerTimeEvery,
  useT,
  useToast,
  type Translate,
} from '@lws/fe-ui';
import { applyWorkerChange, fetchActiveWorkers, type ShiftState, type ShiftWorker } from '@lws/fe-ui/shifts';
import { ALARM_STATUS_RANK, type OpenAlarmKind } from './ShiftCells';
import type { Alarm } from '@lws/fe-ui/alarms';
import { AlarmsPanel } from '../alarms/AlarmsPanel';
import { CheckInRequestsCard, useAskToCheckIn } from '../checkin-requests';
import { OnCallNowCard } from '../on-call/OnCallNowCard';
import { fetchTeamNames, parseAccounts, type Account } from './accounts-api';
import { OneTimeSecretDialog, type OneTimeSecret } from './OneTimeSecretDialog';
import { WorkerTable, type ResetKind, type WorkerRow } from './WorkerTable';

/** Spec section 9: worker lists poll every 30 s (only while live updates are down); the refresh spinner shows 500 ms. */
export const ACCOUNTS_POLL_MS = 30_000;
export const REFRESH_SPINNER_MS = 500;
/** Spec section 7: on returning to the window, lists older than this are fetched again. */
export const ADMIN_STALE_MS = 15_000;
export const SUPERADMIN_STALE_MS = 30_000;
/** Statuses move from Checked In to Due Soon to Overdue between polls too. */
const STATUS_RECHECK_MS = 15_000;

type Load<T> = { state: 'loading' } | { state: 'error'; message: string } | { state: 'ready'; items: T[] };

/** Spec section 8: 'Failed to fetch {what}: {status}'; `failed` is that text for the list, with its {{status}}. */
function loadFailureText(failed: string, error: unknown, t: Translate): string {
  if (error instanceof ApiError) return t(failed, { status: error.status });
  return error instanceof Error ? t(error.message) : String(error);
}

const ACCOUNTS_KEY = ['accounts', 'workers'] as const;
const ACTIVE_KEY = ['workers', 'active'] as const;
const TEAMS_KEY = ['teams', 'names'] as const;

/** What makes every list here old besides a worker's own events: an account change, a gap in the stream. */
const ACCOUNT_CHANGES = { types: ['account'] } as const;

/**
 * One list of the dashboard, read through the page's query cache: fetched again on an account
 * change, after a gap in the stream, every ACCOUNTS_POLL_MS while the stream is down, and on the
 * window regaining focus once older than `staleMs` (spec section 7).
 */
function useList<T>(key: QueryKey, fetchItems: () => Promise<T[]>, failed: string, staleMs: number) {
  const client = useQueryClient();
  const t = useT();
  // Changes applied from the event stream while a fetch is in flight: its answer may have been read
  // before them, so they are applied to it again (the stream's order makes the result converge).
  // Null while no fetch is in flight; each fetch keeps its own list, so a cancelled one cannot clear it.
  const inflightPatches = useRef<((items: T[]) => T[])[] | null>(null);
  const query = useLiveQuery({
    queryKey: key,
    queryFn: async () => {
      const mine: ((items: T[]) => T[])[] = [];
      inflightPatches.current = mine;
      try {
        const fetched = await fetchItems();
        return mine.reduce((acc, apply) => apply(acc), fetched);
      } finally {
        if (inflightPatches.current === mine) inflightPatches.current = null;
      }
    },
    live: ACCOUNT_CHANGES,
    pollMs: ACCOUNTS_POLL_MS,
    staleTime: staleMs,
    refetchOnWindowFocus: true,
  });
  // A failed poll keeps the table the user is reading; only a first load shows the error.
  const load: Load<T> = query.data
    ? { state: 'ready', items: query.data }
    : query.error
      ? { state: 'error', message: loadFailureText(failed, query.error, t) }
      : { state: 'loading' };
  const reload = useCallback(() => client.invalidateQueries({ queryKey: key }), [client, key]);
  const patch = useCallback(
    (apply: (items: T[]) => T[]) => {
      inflightPatches.current?.push(apply);
      client.setQueryData<T[]>(key, (items) => (items ? apply(items) : items));
    },
    [client, key],
  );
  return { load, reload, patch };
}

const fetchAccounts = async () => parseAccounts(await api.get('/api/worker-accounts'));

/**
 * An active worker completed from their account row when it is loaded: identity's name and phone
 * are the current ones, and only the account carries contacts and credential flags.
 */
function activeRow(w: ShiftWorker, account: Account | undefined): WorkerRow {
  const { id, name, username, phone: shiftPhone, ...shift } = w;
  const phone = account?.phone ?? shiftPhone;
  return {
    id,
    name: account?.name ?? name,
    username: account?.username ?? username,
    role: account?.role ?? 'worker',
    ...(phone ? { phone } : {}),
    ...(account?.teamId !== undefined ? { teamId: account.teamId } : {}),
    emergencyContacts: account?.emergencyContacts ?? [],
    ...(account?.passwordSet !== undefined ? { passwordSet: account.passwordSet } : {}),
    ...(account?.pinSet !== undefined ? { pinSet: account.pinSet } : {}),
    ...(account?.disabled ? { disabled: true } : {}),
    shift,
  };
}

/** Applies `change` to the row of the event's worker, leaving every other row as it is. */
function patchRow<T extends { id: number }>(event: WorkerEvent, change: (row: T) => T) {
  return (rows: T[]) => rows.map((row) => (row.id === event.userId ? change(row) : row));
}

/** The shift after the event; unchanged when it no longer applies (e.g. the shift has since ended). */
function patchedShift(shift: ShiftState, event: WorkerEvent): ShiftState {
  return applyWorkerChange(shift, event) ?? shift;
}

/** `label` in the language shown. */
function LoadingRows({ label }: { label: string }) {
  return (
    <div role="status" aria-label={label}>
      <Skeleton height="2.5rem" />
    </div>
  );
}

function LoadError({ message, onRetry, testId }: { message: string; onRetry(): void; testId: string }) {
  const t = useT();
  return (
    <Alert variant="error" title={t('Error loading workers')} data-testid={testId}>
      <p>{message}</p>
      <Button size="sm" variant="outline" onClick={onRetry}>
        {t('Try again')}
      </Button>
    </Alert>
  );
}

/**
 * The Worker Dashboard tab: 'Worker Status Dashboard' with the Active Workers and All Worker
 * Accounts tables. Columns follow the viewer's role (spec section 2): a superadmin also sees
 * Password and PIN, as set or not set with a Reset action; the values never reach the browser.
 * Statuses are judged against the server's clock, which owns every deadline. Open alarms come
 * first: they are what a monitor must act on; who is on call to answer them (by the teams' on-call
 * rotas) follows.
 */
export function WorkerDashboard() {
  const { user } = useAuth();
  const { toast } = useToast();
  const t = useT();
  const superadmin = user?.role === 'superadmin';
  const staleMs = superadmin ? SUPERADMIN_STALE_MS : ADMIN_STALE_MS;
  const accounts = useList(ACCOUNTS_KEY, fetchAccounts, msg('Failed to fetch worker accounts: {{status}}'), staleMs);
  const active = useList(ACTIVE_KEY, fetchActiveWorkers, msg('Failed to fetch active workers: {{status}}'), staleMs);
  const teams = useList(TEAMS_KEY, fetchTeamNames, msg('Failed to fetch teams: {{status}}'), staleMs);
  // An admin of several teams (and the superadmin) narrows the worker tables to one team; alarms stay.
  const [teamFilter, setTeamFilter] = useState<number | 'all'>('all');
  // Each worker's open alarm (the panel's list), shown as their status: an emergency outranks Checked In.
  const [openAlarms, setOpenAlarms] = useState<Map<number, OpenAlarmKind>>(new Map());
  const onOpenAlarms = useCallback((alarms: Alarm[]) => {
    const byWorker = new Map<number, OpenAlarmKind>();
    // Duress outranks an emergency, which outranks a missed check-in, for the same worker.
    for (const a of alarms) {
      const kind: OpenAlarmKind = a.duress ? 'duress' : a.kind;
      const shown = byWorker.get(a.userId);
      if (!shown || ALARM_STATUS_RANK[kind] > ALARM_STATUS_RANK[shown]) byWorker.set(a.userId, kind);
    }
    setOpenAlarms(byWorker);
  }, []);
  const now = useServerTimeEvery(STATUS_RECHECK_MS);
  const [refreshing, runRefresh] = useMinimumBusy(REFRESH_SPINNER_MS);
  const [deleting, setDeleting] = useState<WorkerRow | null>(null);
  const [deactivating, setDeactivating] = useState<WorkerRow | null>(null);
  const [resetting, setResetting] = useState<{ row: WorkerRow; kind: ResetKind } | null>(null);
  const [busy, setBusy] = useState(false);
  const [secret, setSecret] = useState<OneTimeSecret | null>(null);
  const { ask, isAsking } = useAskToCheckIn();

  const { reload: reloadAccounts } = accounts;
  const { reload: reloadActive } = active;
  const { reload: reloadTeams } = teams;
  const reloadAll = useCallback(async () => {
    await Promise.all([reloadActive(), reloadAccounts(), reloadTeams()]);
  }, [reloadActive, reloadAccounts, reloadTeams]);

  // Live: a check-in or a moved deadline is applied from the event itself; a shift starting or
  // ending, an emergency, fetches the lists afresh (account changes and gaps do, by the lists' keys).
  const { patch: patchActive } = active;
  const { patch: patchAccounts } = accounts;
  const onWorkerEvent = (event: WorkerEvent) => {
    const activeRows = active.load.state === 'ready' ? active.load.items : null;
    const accountRows = accounts.load.state === 'ready' ? accounts.load.items : null;
    const activeRow = activeRows?.find((w) => w.id === event.userId);
    const accountRow = accountRows?.find((a) => a.id === event.userId);
    // A worker on a timed visit is read afresh: their check-in may have ended it, and "+15 min" moves
    // its end, neither of which the event says.
    const activeShift = activeRow && !activeRow.visit ? applyWorkerChange(activeRow, event) : null;
    const accountShift = accountRow ? applyWorkerChange(accountRow.shift, event) : null;
    if (activeShift) patchActive(patchRow(event, (w) => ({ ...w, ...patchedShift(w, event) })));
    else void reloadActive();
    if (accountShift) patchAccounts(patchRow(event, (a) => ({ ...a, shift: patchedShift(a.shift, event) })));
    else void reloadAccounts();
  };
  useLiveEvents(
    ['worker'],
    (event) => {
      if (event.type === 'worker') onWorkerEvent(event.data);
    },
    () => undefined,
  );

  // A manual refresh also re-reads the server's clock, so statuses are judged on the latest time.
  const refreshData = () => runRefresh(() => Promise.all([reloadAll(), syncServerClock()]));

  const confirmDelete = async () => {
    if (!deleting) return;
    setBusy(true);
    try {
      await api.delete(`/api/users/${deleting.id}`);
      toast({
        title: t('User deleted'),
        message: t('{{name}} ({{username}}) has been deleted.', { name: deleting.name, username: deleting.username }),
      });
      setDeleting(null);
    } catch (e) {
      console.error('Deleting a user failed', e);
      toast({ title: t('Delete failed'), message: t('Failed to delete user. Please try again.'), type: 'error' });
    } finally {
      setBusy(false);
    }
    await reloadAll();
  };

  const confirmDeactivate = async () => {
    if (!deactivating) return;
    setBusy(true);
    try {
      await api.post(`/api/users/${deactivating.id}/deactivate`);
      toast({ title: t('User deactivated'), message: t('{{name}} can no longer sign in.', { name: deactivating.name }) });
      setDeactivating(null);
    } catch (e) {
      console.error('Deactivating a user failed', e);
      toast({ title: t('Deactivation failed'), message: t(failureMessage(e, msg('Please try again.'))), type: 'error' });
    } finally {
      setBusy(false);
    }
    await reloadAll();
  };

  // Reactivating takes nothing away, so it asks for no confirmation.
  const reactivate = async (row: WorkerRow) => {
    try {
      await api.post(`/api/users/${row.id}/reactivate`);
      toast({ title: t('User reactivated'), message: t('{{name}} can sign in again.', { name: row.name }) });
    } catch (e) {
      console.error('Reactivating a user failed', e);
      toast({ title: t('Reactivation failed'), message: t(failureMessage(e, msg('Please try again.'))), type: 'error' });
    }
    await reloadAll();
  };

  const confirmReset = async () => {
    if (!resetting) return;
    const { row, kind } = resetting;
    setBusy(true);
    try {
      if (kind === 'pin') {
        const body = (await api.post(`/api/users/${row.id}/reset-pin`)) as { pin?: unknown } | undefined;
        if (typeof body?.pin !== 'string') throw new Error('The server sent no PIN');
        setSecret({ title: t('New PIN for {{name}}', { name: row.name }), owner: row.name, value: body.pin });
      } else {
        const body = (await api.post(`/api/users/${row.id}/reset-password`)) as { temporaryPassword?: unknown } | undefined;
        if (typeof body?.temporaryPassword !== 'string') throw new Error('The server sent no password');
        setSecret({ title: t('Temporary password for {{name}}', { name: row.name }), owner: row.name, value: body.temporaryPassword });
      }
      setResetting(null);
    } catch (e) {
      console.error('Reset failed', e);
      toast({ title: t('Reset failed'), message: t(failureMessage(e, msg('Please try again.'))), type: 'error' });
    } finally {
      setBusy(false);
    }
    await reloadAll();
  };

  const accountsById = new Map(accounts.load.state === 'ready' ? accounts.load.items.map((a) => [a.id, a] as const) : []);
  const teamList = teams.load.state === 'ready' ? teams.load.items : [];
  const teamNames = new Map(teamList.map((team) => [team.id, team.name] as const));
  // Team names only where there is more than one team to tell apart: a single-team deployment looks as before.
  const severalTeams = teamList.length > 1;
  // An admin sees the workers and alarms of the teams they monitor: with none, every list is empty
  // whatever happens, and the screen says why and whom to ask instead of "no workers".
  const monitorsNoTeam = !superadmin && teams.load.state === 'ready' && teamList.length === 0;
  const teamName = severalTeams ? (id: number) => teamNames.get(id) : undefined;
  const chosenTeam = teamFilter !== 'all' && teamNames.has(teamFilter) ? teamFilter : 'all';
  const inTeam = (row: WorkerRow) => chosenTeam === 'all' || row.teamId === chosenTeam;
  // The team "everyone on shift" means: the one chosen, or the only one there is.
  const askTeamId = chosenTeam !== 'all' ? chosenTeam : teamList.length === 1 ? teamList[0].id : null;
  const tableProps = {
    superadmin,
    now,
    viewerId: user?.id,
    onDelete: setDeleting,
    onDeactivate: setDeactivating,
    onReactivate: (row: WorkerRow) => void reactivate(row),
    onReset: (row: WorkerRow, kind: ResetKind) => setResetting({ row, kind }),
    ...(teamName ? { teamName } : {}),
    alarmOf: (id: number) => openAlarms.get(id),
  };
  const activeRows = active.load.state === 'ready' ? active.load.items.map((w) => activeRow(w, accountsById.get(w.id))).filter(inTeam) : [];
  const accountRows = accounts.load.state === 'ready' ? accounts.load.items.filter(inTeam) : [];

  return (
    <section className="lws-page" aria-labelledby="worker-dashboard-title" data-testid="worker-dashboard">
      <div className="lws-page__header">
        <h2 id="worker-dashboard-title" className="lws-section-title">
          {t('Worker Status Dashboard')} <LiveStatusBadge />
        </h2>
        <div className="lws-actions">
          {severalTeams ? (
            <div className="lws-inline-form">
              <Label htmlFor="team-switcher">{t('Team')}</Label>
              <Select
                id="team-switcher"
                value={String(chosenTeam)}
                onChange={(e) => setTeamFilter(e.target.value === 'all' ? 'all' : Number(e.target.value))}
                data-testid="team-switcher"
              >
                <option value="all">{superadmin ? t('All teams') : t('All my teams')}</option>
                {teamList.map((team) => (
                  <option key={team.id} value={team.id}>
                    {team.name}
                  </option>
                ))}
              </Select>
            </div>
          ) : null}
          {askTeamId !== null ? (
            <Button
              variant="outline"
              busy={isAsking('team', askTeamId)}
              onClick={() => ask({ kind: 'team', id: askTeamId, name: teamNames.get(askTeamId) ?? '' })}
              data-testid="ask-team-check-in"
            >
              {t('Ask everyone on shift to check in')}
            </Button>
          ) : null}
          <Button variant="outline" busy={refreshing} onClick={() => void refreshData()} data-testid="refresh-data">
            {t('Refresh Data')}
          </Button>
        </div>
      </div>
      {monitorsNoTeam ? (
        <Alert variant="warning" title={t('You monitor no team')} data-testid="no-team-notice">
          <p>
            {t(
              'An admin sees the workers and alarms of the teams they monitor, and you monitor none yet, so nothing shows here even while workers are on shift. Ask your superadmin to add you as a monitor of your team (Teams tab).',
            )}
          </p>
        </Alert>
      ) : null}
      <AlarmsPanel
        monitorName={(id) => (id === user?.id ? t('{{name}} (you)', { name: user.name }) : accountsById.get(id)?.name)}
        {...(teamName ? { teamOf: (id: number) => teamName(accountsById.get(id)?.teamId ?? 0) } : {})}
        onOpenAlarms={onOpenAlarms}
      />
      {/* Who answers the alarms now: right after them, before the workers. */}
      <OnCallNowCard teamId={chosenTeam} />
      <Card data-testid="active-workers">
        <CardHeader>
          <CardTitle>{t('Active Workers')}</CardTitle>
          <CardDescription>{t('Workers on shift now, with their check-in status.')}</CardDescription>
        </CardHeader>
        <CardContent>
          {active.load.state === 'loading' ? (
            <LoadingRows label={t('Loading active workers')} />
          ) : active.load.state === 'error' ? (
            <LoadError message={active.load.message} onRetry={() => void refreshData()} testId="active-workers-error" />
          ) : activeRows.length === 0 ? (
            <div data-testid="active-workers-empty">
              <p className="lws-card__title">{monitorsNoTeam ? t('No team to show') : t('No Active Workers')}</p>
              <p className="lws-muted">
                {monitorsNoTeam
                  ? t('You monitor no team, so no worker on shift is shown.')
                  : chosenTeam === 'all'
                    ? t('There are currently no workers on shift.')
                    : t('There are currently no workers on shift in {{team}}.', { team: teamNames.get(chosenTeam) })}
              </p>
            </div>
          ) : (
            <WorkerTable
              {...tableProps}
              rows={activeRows}
              label={t('Active workers')}
              data-testid="active-workers-table"
              rowTestId="active-worker-row"
              onAskCheckIn={(row) => ask({ kind: 'worker', id: row.id, name: row.name })}
              askingCheckIn={(id) => isAsking('worker', id)}
              showVisits
            />
          )}
        </CardContent>
      </Card>
      {/* Who has answered a "check in now": right after the workers it was asked of. */}
      <CheckInRequestsCard teamName={(id) => teamNames.get(id)} />
      <Card data-testid="worker-accounts">
        <CardHeader>
          <CardTitle>{t('All Worker Accounts')}</CardTitle>
          <CardDescription>{superadmin ? t('Every worker and admin account.') : t('Every worker account.')}</CardDescription>
        </CardHeader>
        <CardContent>
          {accounts.load.state === 'loading' ? (
            <LoadingRows label={t('Loading worker accounts')} />
          ) : accounts.load.state === 'error' ? (
            <LoadError message={accounts.load.message} onRetry={() => void refreshData()} testId="accounts-error" />
          ) : accountRows.length === 0 ? (
            <div data-testid="accounts-empty">
              <p className="lws-card__title">{monitorsNoTeam ? t('No team to show') : t('No Worker Accounts')}</p>
              <p className="lws-muted">
                {monitorsNoTeam
                  ? t('You monitor no team, so no worker account is shown.')
                  : chosenTeam === 'all'
                    ? t('Create one in the Create User tab.')
                    : t('{{team}} has no workers yet.', { team: teamNames.get(chosenTeam) })}
              </p>
            </div>
          ) : (
            <WorkerTable
              {...tableProps}
              rows={accountRows}
              label={t('All worker accounts')}
              data-testid="accounts-table"
              rowTestId="account-row"
            />
          )}
        </CardContent>
      </Card>
      <ConfirmDialog
        open={deleting !== null}
        title={t('Delete User')}
        description={
          deleting
            ? t(
                'Are you sure you want to delete {{name}} ({{username}})? This action cannot be undone. It permanently removes the account and all of its data, including emergency contacts, settings and check-in history.',
                { name: deleting.name, username: deleting.username },
              )
            : ''
        }
        confirmLabel={t('Delete User')}
        busyLabel={t('Deleting...')}
        destructive
        busy={busy}
        onConfirm={() => void confirmDelete()}
        onCancel={() => setDeleting(null)}
        data-testid="delete-user-dialog"
      />
      <ConfirmDialog
        open={deactivating !== null}
        title={t('Deactivate User')}
        description={
          deactivating
            ? t(
                "Deactivate {{name}} ({{username}})? They are signed out at once and cannot sign in until reactivated. A shift in progress ends and their team's monitors are told.",
                { name: deactivating.name, username: deactivating.username },
              )
            : ''
        }
        confirmLabel={t('Deactivate')}
        busyLabel={t('Deactivating...')}
        destructive
        busy={busy}
        onConfirm={() => void confirmDeactivate()}
        onCancel={() => setDeactivating(null)}
        data-testid="deactivate-user-dialog"
      />
      <ConfirmDialog
        open={resetting !== null}
        title={resetting?.kind === 'pin' ? t('Reset PIN') : t('Reset Password')}
        description={
          resetting
            ? resetting.kind === 'pin'
              ? t('Issue a new PIN for {{name}}? Their current PIN stops working at once. The new PIN is shown to you once.', {
                  name: resetting.row.name,
                })
              : t(
                  'Issue a temporary password for {{name}}? Their current password stops working and they are logged out everywhere. The temporary password is shown to you once.',
                  { name: resetting.row.name },
                )
            : ''
        }
        confirmLabel={resetting?.kind === 'pin' ? t('Reset PIN') : t('Reset Password')}
        busyLabel={t('Resetting...')}
        busy={busy}
        onConfirm={() => void confirmReset()}
        onCancel={() => setResetting(null)}
        data-testid="reset-dialog"
      />
      <OneTimeSecretDialog secret={secret} onClose={() => setSecret(null)} />
    </section>
  );
}
