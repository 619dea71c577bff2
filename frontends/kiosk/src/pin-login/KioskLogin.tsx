import { useEffect, useRef, useState } from 'react';
import {
  Alert,
  AuthError,
  Button,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  INVALID_SERVER_RESPONSE,
  Input,
  KIOSK_HINT,
  Label,
  PageStatus,
  api,
  ApiError,
  dropHint,
  hasHint,
  roleHome,
  useAuth,
  useDocumentTitle,
  useNavigate,
  useT,
  LanguageSwitch,
} from '@lws/fe-ui';
import { PinPad } from './PinPad';

export const PIN_LENGTH = 4;
/** Someone already signed in is moved on almost at once, but not before the screen has painted. */
export const ALREADY_SIGNED_IN_REDIRECT_MS = 100;
/** Long enough to read the welcome line after a successful PIN. */
export const AFTER_LOGIN_REDIRECT_MS = 500;

type Phase = 'entering' | 'checking' | 'signed-in';

/** One worker on the kiosk's roster: first name and last initial. */
export interface RosterEntry {
  id: number;
  label: string;
}

/** Who is about to type a PIN: picked on the roster, or a typed username. */
type Who = { userId: number; label: string } | { username: string; label: string };

/**
 * Whether this browser is an enrolled kiosk, with the workers who may sign in at it; `unknown`
 * when the check failed (a username can still be typed; the server decides at login).
 */
type Device =
  | { state: 'checking' }
  | { state: 'enrolled'; label: string; workers: RosterEntry[] }
  | { state: 'not-enrolled' }
  | { state: 'unknown' };

function deviceOf(body: unknown): Device {
  const v = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  const label = [v.name, v.location].filter((part): part is string => typeof part === 'string' && part !== '').join(', ');
  const workers = (Array.isArray(v.workers) ? v.workers : []).filter(
    (w): w is RosterEntry =>
      !!w && typeof w === 'object' && typeof (w as RosterEntry).id === 'number' && typeof (w as RosterEntry).label === 'string',
  );
  return { state: 'enrolled', label, workers };
}

/** Names shown at once; a longer roster is narrowed with the search box. */
export const ROSTER_SHOWN = 30;

/** Step one: the worker finds their name (or types their username). */
function WhoPicker({ workers, onPick }: { workers: RosterEntry[]; onPick(who: Who): void }) {
  const t = useT();
  const [query, setQuery] = useState('');
  const [username, setUsername] = useState('');
  const q = query.trim().toLowerCase();
  const matches = q ? workers.filter((w) => w.label.toLowerCase().includes(q)) : workers;
  const shown = matches.slice(0, ROSTER_SHOWN);
  const more = matches.length - shown.length;
  return (
    <div className="lws-kiosk__who" data-testid="kiosk-who">
      {workers.length > 0 ? (
        <>
          <Label htmlFor="kiosk-search">{t('Find your name')}</Label>
          <Input
            id="kiosk-search"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            placeholder={t('Search by name')}
            autoComplete="off"
            data-testid="kiosk-search"
          />
          <ul className="lws-kiosk__roster" aria-label={t('Workers')} data-testid="kiosk-roster">
            {shown.map((w) => (
              <li key={w.id}>
                <Button variant="outline" onClick={() => onPick({ userId: w.id, label: w.label })} data-testid="kiosk-name">
                  {w.label}
                </Button>
              </li>
            ))}
          </ul>
          {matches.length === 0 ? <p className="lws-muted">{t('No name matches. Try your username below.')}</p> : null}
          {more > 0 ? <p className="lws-muted">{t('{{number}} more: type more of your name.', { number: more })}</p> : null}
        </>
      ) : null}
      <form
        className="lws-kiosk__username"
        onSubmit={(e) => {
          e.preventDefault();
          const u = username.trim().toLowerCase();
          if (u) onPick({ username: u, label: u });
        }}
      >
        <Label htmlFor="kiosk-username">{t('Or enter your username')}</Label>
        <Input
          id="kiosk-username"
          value={username}
          onChange={(e) => setUsername(e.target.value)}
          autoComplete="off"
          autoCapitalize="none"
          data-testid="kiosk-username"
        />
        <Button type="submit" disabled={!username.trim()} data-testid="kiosk-username-next">
          {t('Next')}
        </Button>
      </form>
    </div>
  );
}

function NotEnrolled() {
  const t = useT();
  return (
    <Alert variant="warning" title={t('This device is not an enrolled kiosk')} data-testid="kiosk-not-enrolled">
      <p>
        {t(
          'PIN login works only on a kiosk an administrator has enrolled. An administrator must log in on this device, open the Admin Dashboard, choose the Kiosks tab and enrol it.',
        )}
      </p>
      <p>
        <a href="/login">{t('Log in with a username and password instead')}</a>
      </p>
    </Alert>
  );
}

export function KioskLogin() {
  const { user, loading, pinLogin } = useAuth();
  const navigate = useNavigate();
  const t = useT();
  useDocumentTitle(t('Kiosk'));
  const [pin, setPin] = useState('');
  const [phase, setPhase] = useState<Phase>('entering');
  const [error, setError] = useState<string | null>(null);
  const [welcome, setWelcome] = useState<string | null>(null);
  const redirectTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const [device, setDevice] = useState<Device>({ state: 'checking' });
  const [who, setWho] = useState<Who | null>(null);
  const whoRef = useRef<Who | null>(null);
  whoRef.current = who;

  useEffect(() => {
    let active = true;
    // Only an enrolled kiosk has a roster; an ordinary browser is told so without asking.
    if (!hasHint(KIOSK_HINT)) {
      setDevice({ state: 'not-enrolled' });
      return;
    }
    api
      .get('/api/kiosks/roster')
      .then((body) => active && setDevice(deviceOf(body)))
      .catch((e: unknown) => {
        if (e instanceof ApiError && e.status === 403) {
          dropHint(KIOSK_HINT);
          if (active) setDevice({ state: 'not-enrolled' });
          return;
        }
        console.error('Kiosk enrolment check failed', e);
        if (active) setDevice({ state: 'unknown' });
      });
    return () => {
      active = false;
    };
  }, []);

  useEffect(() => () => clearTimeout(redirectTimer.current), []);

  useEffect(() => {
    if (loading || !user || phase !== 'entering') return;
    const timer = setTimeout(() => navigate(roleHome(user.role), { replace: true }), ALREADY_SIGNED_IN_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [loading, user, phase, navigate]);

  // Key presses can arrive faster than React re-renders, so the digits typed
  // so far and the busy flag are read from refs, never from a stale closure.
  const pinRef = useRef('');
  const busyRef = useRef(false);
  const updatePin = (next: string) => {
    pinRef.current = next;
    setPin(next);
  };

  const submit = async (value: string) => {
    busyRef.current = true;
    setPhase('checking');
    const current = whoRef.current;
    if (!current) return;
    try {
      const result = await pinLogin('userId' in current ? { userId: current.userId } : { username: current.username }, value);
      setPhase('signed-in');
      setWelcome(result.name);
      redirectTimer.current = setTimeout(() => navigate(roleHome(result.role), { replace: true }), AFTER_LOGIN_REDIRECT_MS);
    } catch (e) {
      updatePin('');
      busyRef.current = false;
      setPhase('entering');
      if (e instanceof AuthError && e.status === 403) setDevice({ state: 'not-enrolled' });
      setError(e instanceof AuthError ? e.message : INVALID_SERVER_RESPONSE);
    }
  };

  const padUsable = (device.state === 'enrolled' || device.state === 'unknown') && who !== null;

  const addDigit = (digit: string) => {
    if (!padUsable || busyRef.current || pinRef.current.length >= PIN_LENGTH) return;
    const next = pinRef.current + digit;
    updatePin(next);
    setError(null);
    if (next.length === PIN_LENGTH) void submit(next);
  };

  const removeDigit = () => {
    if (!busyRef.current) updatePin(pinRef.current.slice(0, -1));
  };

  const clear = () => {
    if (busyRef.current) return;
    updatePin('');
    setError(null);
  };

  const notMe = () => {
    if (busyRef.current) return;
    updatePin('');
    setError(null);
    setWho(null);
  };

  const handlers = useRef({ addDigit, removeDigit, clear });
  handlers.current = { addDigit, removeDigit, clear };

  // A kiosk may have a physical keyboard or a number pad as well as a touch screen.
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.altKey || event.ctrlKey || event.metaKey) return;
      if (/^[0-9]$/.test(event.key)) handlers.current.addDigit(event.key);
      else if (event.key === 'Backspace') handlers.current.removeDigit();
      else if (event.key === 'Escape') handlers.current.clear();
      else return;
      event.preventDefault();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);

  const busy = phase !== 'entering';

  return (
    <main className="lws-kiosk" data-testid="remote-kiosk">
      <Card className="lws-kiosk__card">
        <CardHeader>
          <h1 className="lws-card__title">{t('Kiosk Login')}</h1>
          <CardDescription>
            {device.state === 'not-enrolled'
              ? t('PIN login is not available on this device.')
              : who
                ? t('Enter your 4-digit PIN to log in.')
                : t('Choose your name, then enter your PIN.')}
          </CardDescription>
          {device.state === 'enrolled' && device.label ? (
            <p className="lws-muted" data-testid="kiosk-label">
              {device.label}
            </p>
          ) : null}
        </CardHeader>
        <CardContent>
          {device.state === 'checking' ? (
            <PageStatus text={t('Loading...')} testId="kiosk-checking" />
          ) : device.state === 'not-enrolled' ? (
            <NotEnrolled />
          ) : !who ? (
            <WhoPicker workers={device.state === 'enrolled' ? device.workers : []} onPick={setWho} />
          ) : (
            <>
              <p className="lws-kiosk__greeting" data-testid="kiosk-who-picked">
                {t('Hello, {{name}}', { name: who.label })}{' '}
                <Button variant="ghost" size="sm" onClick={notMe} disabled={busy} data-testid="kiosk-not-me">
                  {t('Not you?')}
                </Button>
              </p>
              <PinPad
                length={PIN_LENGTH}
                value={pin}
                disabled={busy}
                invalid={Boolean(error)}
                onDigit={addDigit}
                onDelete={removeDigit}
                onClear={clear}
              />
              <div aria-live="assertive">
                {error ? (
                  <p className="lws-field-error" role="alert" data-testid="pin-error">
                    {t(error)}
                  </p>
                ) : null}
                {phase === 'checking' ? <p className="lws-page__subtitle">{t('Checking PIN...')}</p> : null}
                {phase === 'signed-in' && welcome ? (
                  <p className="lws-page__subtitle" data-testid="pin-welcome">
                    {t('Welcome, {{name}}', { name: welcome })}
                  </p>
                ) : null}
              </div>
            </>
          )}
        </CardContent>
      </Card>
      {/* A shared terminal: whoever steps up chooses the language they read. */}
      <LanguageSwitch />
    </main>
  );
}
