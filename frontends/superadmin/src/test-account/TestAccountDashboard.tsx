import { useQuery } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
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
  Label,
  Select,
  Skeleton,
  Tabs,
  TabsContent,
  TabsList,
  TabsTrigger,
  api,
  failureMessage,
  formatDateTime,
  msg,
  useLiveQuery,
  useMinimumBusy,
  useT,
  useToast,
} from '@lws/fe-ui';
import { parseLocationOptions, type LocationOption } from '@lws/fe-ui/locations';
import { parseShiftState, type ShiftState } from '@lws/fe-ui/shifts';
import { SimulationSelect } from '../test-tools/SimulationSelect';
import { WorkerSelect } from '../test-tools/WorkerSelect';
import {
  DEFAULT_SIMULATION_MINUTES,
  nextCheckInOf,
  resetCheckInTimer,
  simulateCheckInDue,
  simulateSpecificTime,
  useWorkerAccounts,
} from '../test-tools/test-api';

const REFRESH_SPINNER_MS = 500;

interface TestUser {
  name: string;
  username: string;
  phone: string;
  role: string;
  medicalInfo: string;
  contacts: { id: number; name: string; phone: string; relation: string }[];
  settings: { primaryContact: string; secondaryContact: string | null; checkInInterval: number } | null;
  /** The interval that applies: the settings' own, else the worker's team's default. */
  checkInInterval: number;
  shift: ShiftState;
}

function parseTestUser(body: unknown): TestUser {
  const v = body && typeof body === 'object' ? (body as Record<string, unknown>) : null;
  if (!v || typeof v.name !== 'string') throw new Error('Invalid response from server');
  const s = v.settings && typeof v.settings === 'object' ? (v.settings as Record<string, unknown>) : null;
  return {
    name: v.name,
    username: typeof v.username === 'string' ? v.username : '',
    phone: typeof v.phone === 'string' ? v.phone : '',
    role: typeof v.role === 'string' ? v.role : 'worker',
    medicalInfo: typeof v.medicalInfo === 'string' ? v.medicalInfo : '',
    contacts: (Array.isArray(v.emergencyContacts) ? v.emergencyContacts : [])
      .filter((c): c is Record<string, unknown> => Boolean(c) && typeof c === 'object' && typeof (c as { id?: unknown }).id === 'number')
      .map((c) => ({ id: c.id as number, name: String(c.name ?? ''), phone: String(c.phone ?? ''), relation: String(c.relation ?? '') })),
    settings:
      s && typeof s.primaryContact === 'string'
        ? {
            primaryContact: s.primaryContact,
            secondaryContact: typeof s.secondaryContact === 'string' ? s.secondaryContact : null,
            checkInInterval: Number(s.checkInInterval) || 60,
          }
        : null,
    checkInInterval: typeof v.checkInInterval === 'number' && v.checkInInterval > 0 ? v.checkInInterval : 60,
    shift: parseShiftState(v),
  };
}

type Load = { state: 'idle' } | { state: 'loading' } | { state: 'error' } | { state: 'ready'; user: TestUser };

/**
 * Test Account Dashboard (spec section 2): one worker's check-in timer, driven by the simulation
 * tools. From here a superadmin starts the test worker's shift at a location (the activity log
 * names who started it), moves the deadline and ends the shift; check-ins need the worker's PIN,
 * so they are made from the worker's own screen.
 */
export function TestAccountDashboard() {
  const { toast } = useToast();
  const t = useT();
  const { load: workers, reload: reloadWorkers } = useWorkerAccounts();
  const [userId, setUserId] = useState<number | null>(null);
  const [minutes, setMinutes] = useState<number>(DEFAULT_SIMULATION_MINUTES);
  const [busy, setBusy] = useState<string | null>(null);
  const [confirmEnd, setConfirmEnd] = useState(false);
  const [startAt, setStartAt] = useState('');
  const [refreshing, runRefresh] = useMinimumBusy(REFRESH_SPINNER_MS);
  // The test user's shift also changes from their own screen: follow it live (no poll: the spec has none here).
  const testUser = useLiveQuery({
    queryKey: ['test-user', userId],
    queryFn: async ({ signal }) => parseTestUser(await api.get(`/api/users/${userId}/with-relations`, { signal })),
    live: { types: ['worker', 'account'], when: (e) => 'userId' in e.data && e.data.userId === userId },
    pollMs: null,
    enabled: userId !== null,
  });
  // A failed read says so, even with the user read before on screen.
  const load: Load =
    userId === null
      ? { state: 'idle' }
      : testUser.error
        ? { state: 'error' }
        : testUser.data
          ? { state: 'ready', user: testUser.data }
          : { state: 'loading' };
  const { refetch } = testUser;
  const reload = useCallback(async () => {
    if (userId !== null) await refetch();
  }, [refetch, userId]);

  const run = async (
    key: string,
    action: () => Promise<unknown>,
    ok: { title: string; message: (body: unknown) => string },
    failedTitle: string,
  ) => {
    setBusy(key);
    try {
      const body = await action();
      toast({ title: ok.title, message: ok.message(body) });
    } catch (e) {
      console.error(`${failedTitle}`, e);
      toast({ title: failedTitle, message: t(failureMessage(e, msg('Please try again.'))), type: 'error' });
    } finally {
      setBusy(null);
    }
    await reload();
  };

  const due = (body: unknown) => {
    const next = nextCheckInOf(body);
    return next ? t('Next check-in due {{time}}.', { time: formatDateTime(next) }) : t('The check-in timer was updated.');
  };

  const openLocations = useQuery({
    queryKey: ['location-options', 'active'],
    queryFn: async ({ signal }) => parseLocationOptions(await api.get('/api/location-options', { signal })).filter((l) => l.isActive),
  });
  const locations: LocationOption[] = openLocations.data ?? [];
  // The first open location is chosen until the superadmin picks one.
  const chosen = startAt || locations[0]?.name || '';

  const startShift = async () => {
    if (userId === null || !chosen) return;
    await run(
      'start',
      () => api.post(`/api/users/${userId}/start-shift`, { location: chosen }),
      { title: t('Shift started'), message: due },
      t('Failed to start shift'),
    );
  };

  const endShift = async () => {
    if (userId === null) return;
    setConfirmEnd(false);
    await run(
      'end',
      () => api.post(`/api/users/${userId}/force-clock-out`),
      { title: t('Shift ended'), message: () => t('The test user is off shift.') },
      t('Failed to end shift'),
    );
  };

  const user = load.state === 'ready' ? load.user : null;
  const shift = user?.shift;

  return (
    <div className="lws-page" data-testid="test-account">
      <div className="lws-page__header">
        <h2 className="lws-section-title">{t('Test Account Dashboard')}</h2>
        <Button
          variant="outline"
          busy={refreshing}
          onClick={() => void runRefresh(() => Promise.all([reload(), reloadWorkers()]))}
          data-testid="test-account-refresh"
        >
          {t('Refresh Data')}
        </Button>
      </div>
      <Alert variant="warning" title={t('Test Mode')} data-testid="test-mode-alert">
        {t('Changes made here affect the actual user: their check-in timer, shift and reminders are real.')}
      </Alert>
      {workers.state === 'ready' ? (
        <WorkerSelect workers={workers.workers} value={userId} onChange={setUserId} data-testid="test-account-user" />
      ) : workers.state === 'error' ? (
        <Alert variant="error">{t('Failed to load test user data')}</Alert>
      ) : (
        <Skeleton height="2.5rem" />
      )}
      {load.state === 'error' ? (
        <Alert variant="error" data-testid="test-account-error">
          {t('Failed to load test user data')}
        </Alert>
      ) : load.state === 'loading' ? (
        <div role="status" aria-label={t('Loading test user')}>
          <Skeleton height="8rem" />
        </div>
      ) : user && shift && userId !== null ? (
        <div className="lws-grid-2">
          <div className="lws-page">
            <Card data-testid="test-worker-status">
              <CardHeader className="lws-card__header--row">
                <CardTitle>{t('Worker Status')}</CardTitle>
                <Badge variant={shift.onShift ? 'success' : 'neutral'} data-testid="test-shift-badge">
                  {shift.onShift ? t('On Shift') : t('Off Duty')}
                </Badge>
              </CardHeader>
              <CardContent>
                <dl className="lws-info-list">
                  <dt>{t('Location')}</dt>
                  <dd>{shift.onShift ? (shift.location ?? t('Unknown location')) : t('Off Shift')}</dd>
                  <dt>{t('Shift started')}</dt>
                  <dd>{shift.onShift ? formatDateTime(shift.shiftStartTime, t('Unknown')) : t('N/A')}</dd>
                  <dt>{t('Next check-in')}</dt>
                  <dd data-testid="test-next-check-in">{formatDateTime(shift.nextCheckInTime, t('No check-in scheduled'))}</dd>
                </dl>
                <SimulationSelect value={minutes} onChange={setMinutes} data-testid="test-account-minutes" />
                <div className="lws-actions lws-actions--spaced">
                  <Button
                    busy={busy === 'simulate'}
                    disabled={busy !== null}
                    onClick={() =>
                      void run(
                        'simulate',
                        () => simulateSpecificTime(userId, minutes),
                        { title: t('Simulation started'), message: due },
                        t('Simulation failed'),
                      )
                    }
                    data-testid="test-account-simulate"
                  >
                    {t('Simulate')}
                  </Button>
                  <Button
                    variant="outline"
                    busy={busy === 'reset'}
                    disabled={busy !== null}
                    onClick={() =>
                      void run('reset', () => resetCheckInTimer(userId), { title: t('Simulation reset'), message: due }, t('Reset failed'))
                    }
                    data-testid="test-account-reset"
                  >
                    {t('Reset')}
                  </Button>
                </div>
                <h3 className="lws-section-title">{t('Shift')}</h3>
                {shift.onShift ? (
                  <Button
                    variant="destructive"
                    busy={busy === 'end'}
                    disabled={busy !== null}
                    onClick={() => setConfirmEnd(true)}
                    data-testid="test-account-end-shift"
                  >
                    {t('End Shift')}
                  </Button>
                ) : (
                  <div className="lws-actions">
                    <div className="lws-field">
                      <Label htmlFor="test-account-location">{t('Location')}</Label>
                      <Select
                        id="test-account-location"
                        value={chosen}
                        onChange={(e) => setStartAt(e.target.value)}
                        data-testid="test-account-location"
                      >
                        {locations.map((l) => (
                          <option key={l.id} value={l.name}>
                            {l.name}
                          </option>
                        ))}
                      </Select>
                    </div>
                    <Button
                      busy={busy === 'start'}
                      disabled={busy !== null || !chosen}
                      onClick={() => void startShift()}
                      data-testid="test-account-start-shift"
                    >
                      {t('Start Shift')}
                    </Button>
                  </div>
                )}
              </CardContent>
            </Card>
            {shift.onShift ? (
              <Card data-testid="test-check-in-panel">
                <CardHeader>
                  <CardTitle>{t('Check-in')}</CardTitle>
                  <CardDescription>
                    {t("A check-in needs the worker's PIN, on their screen. Here the deadline can be brought forward.")}
                  </CardDescription>
                </CardHeader>
                <CardContent>
                  <dl className="lws-info-list">
                    <dt>{t('Last check-in')}</dt>
                    <dd>{formatDateTime(shift.latestCheckIn?.timestamp, t('Never'))}</dd>
                    <dt>{t('Due')}</dt>
                    <dd>{formatDateTime(shift.nextCheckInTime, t('No check-in scheduled'))}</dd>
                  </dl>
                  <Button
                    className="lws-actions--spaced"
                    variant="outline"
                    busy={busy === 'due'}
                    disabled={busy !== null}
                    onClick={() =>
                      void run(
                        'due',
                        () => simulateCheckInDue(userId),
                        { title: t('Simulation started'), message: due },
                        t('Simulation failed'),
                      )
                    }
                    data-testid="test-account-due-now"
                  >
                    {t('Make check-in due now')}
                  </Button>
                </CardContent>
              </Card>
            ) : null}
          </div>
          <Card>
            <CardContent>
              <Tabs defaultValue="profile">
                <TabsList aria-label={t('Test user details')}>
                  <TabsTrigger value="profile">{t('Profile')}</TabsTrigger>
                  <TabsTrigger value="emergency">{t('Emergency Info')}</TabsTrigger>
                  <TabsTrigger value="settings">{t('Settings')}</TabsTrigger>
                </TabsList>
                <TabsContent value="profile">
                  <dl className="lws-info-list" data-testid="test-profile">
                    <dt>{t('Name')}</dt>
                    <dd>{user.name}</dd>
                    <dt>{t('Username')}</dt>
                    <dd>{user.username}</dd>
                    <dt>{t('Phone')}</dt>
                    <dd>{user.phone || t('Not set')}</dd>
                    <dt>{t('ID')}</dt>
                    <dd>{userId}</dd>
                  </dl>
                </TabsContent>
                <TabsContent value="emergency">
                  <dl className="lws-info-list">
                    <dt>{t('Medical information')}</dt>
                    <dd>{user.medicalInfo || t('None recorded')}</dd>
                  </dl>
                  {user.contacts.length === 0 ? (
                    <p className="lws-muted">{t('No emergency contacts')}</p>
                  ) : (
                    <ul className="lws-list">
                      {user.contacts.map((c) => (
                        <li key={c.id} className="lws-list__item">
                          <span>
                            <strong>{c.name}</strong> {c.relation ? `(${c.relation})` : ''}
                          </span>
                          <span>{c.phone}</span>
                        </li>
                      ))}
                    </ul>
                  )}
                </TabsContent>
                <TabsContent value="settings">
                  {user.settings ? (
                    <dl className="lws-info-list">
                      <dt>{t('Primary contact')}</dt>
                      <dd>{user.settings.primaryContact}</dd>
                      <dt>{t('Secondary contact')}</dt>
                      <dd>{user.settings.secondaryContact ?? t('Not set')}</dd>
                      <dt>{t('Check-in interval')}</dt>
                      <dd>{t('{{minutes}} minutes', { minutes: user.settings.checkInInterval })}</dd>
                    </dl>
                  ) : (
                    <p className="lws-muted">
                      {t("No settings saved; check-ins are due every {{minutes}} minutes (the team's default).", {
                        minutes: user.checkInInterval,
                      })}
                    </p>
                  )}
                </TabsContent>
              </Tabs>
            </CardContent>
          </Card>
        </div>
      ) : null}
      <ConfirmDialog
        open={confirmEnd}
        title={t('End Shift')}
        description={t("End {{name}}'s shift now? Check-in monitoring stops at once.", { name: user?.name ?? t('this worker') })}
        confirmLabel={t('End Shift')}
        destructive
        onConfirm={() => void endShift()}
        onCancel={() => setConfirmEnd(false)}
      />
    </div>
  );
}
