import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { deviceLanguage, setLanguage } from '../i18n/i18n';
import { useNavigate } from 'react-router';
import { api, ApiError, UNAUTHORIZED_EVENT } from '../api/api';
import { dropHint, hasHint, SIGNED_IN_HINT } from './hints';
import { clearKioskSession, isKioskSession, markKioskSession } from './kiosk-session';
import { parseUser, type User } from './user';

export const INVALID_SERVER_RESPONSE = 'Invalid server response format';
/** A kiosk session ends after this long without input. */
export const KIOSK_IDLE_MS = 120_000;

/** A failed login. `status` is absent when the server was not reached. */
export class AuthError extends Error {
  override readonly name = 'AuthError';

  constructor(
    message: string,
    readonly status?: number,
    readonly serverMessage?: string,
  ) {
    super(message);
  }
}

export interface LoginInput {
  username: string;
  password: string;
  /** Asks the server for a 7-day session cookie instead of a browser-session one. */
  rememberMe: boolean;
}

export interface PinLoginResult {
  name: string;
  role: string;
}

export type KioskWho = { userId: number } | { username: string };

export interface LogoutOptions {
  toKiosk?: boolean;
}

export interface AuthContextValue {
  user: User | null;
  /** True until the first session check has answered. */
  loading: boolean;
  /** The last session check failure other than 401; the user is then left as it was. */
  error: Error | null;
  login(input: LoginInput): Promise<User>;
  /** Kiosk sign-in: who (picked on the kiosk's roster, or a typed username), then the PIN. */
  pinLogin(who: KioskWho, pin: string): Promise<PinLoginResult>;
  /**
   * Ends the session on the server, then locally even if the server failed, and leaves for /login,
   * or for /kiosk after a kiosk session or when `toKiosk` is set (an admin who just enrolled this device).
   */
  logout(options?: LogoutOptions): Promise<void>;
  refresh(): Promise<User | null>;
}

const AuthContext = createContext<AuthContextValue | null>(null);

const KIOSK_HEADERS = { 'x-kiosk-mode': 'true' };

function sameUser(a: User, b: User): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)] as (keyof User)[]);
  for (const key of keys) if (a[key] !== b[key]) return false;
  return true;
}

interface AuthProviderProps {
  children: ReactNode;
  /**
   * GET /api/auth/me, already sent by the shell while the app's code was loading: the first
   * session check reads this answer instead of asking again.
   */
  firstCheck?: Promise<Response>;
}

export function AuthProvider({ children, firstCheck }: AuthProviderProps) {
  const navigate = useNavigate();
  const [user, setUser] = useState<User | null>(null);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<Error | null>(null);
  // Bumped by every login and logout, so a session check that was already in
  // flight cannot overwrite the newer state with a stale answer.
  const generation = useRef(0);

  const refreshWith = useCallback(async (sent?: Promise<Response>): Promise<User | null> => {
    const started = generation.current;
    try {
      const body = await api.get('/api/auth/me', { started: sent });
      const me = parseUser(body);
      if (!me) throw new Error(INVALID_SERVER_RESPONSE);
      if (started === generation.current) {
        // The profile page polls every few seconds: an unchanged answer must not re-render the app.
        setUser((current) => (current && sameUser(current, me) ? current : me));
        setError(null);
      }
      return me;
    } catch (e) {
      if (started !== generation.current) return null;
      if (e instanceof ApiError && e.status === 401) {
        dropHint(SIGNED_IN_HINT);
        setUser(null);
        setError(null);
        return null;
      }
      console.error('Session check failed', e);
      setError(e instanceof Error ? e : new Error(String(e)));
      return null;
    } finally {
      setLoading(false);
    }
  }, []);
  const refresh = useCallback(() => refreshWith(), [refreshWith]);

  // Signed in, the screens speak the user's language; signed out, this device's.
  const language = user ? (user.language ?? null) : undefined;
  useEffect(() => {
    void setLanguage(language ?? deviceLanguage()).catch((e: unknown) => console.error('Loading the translations failed', e));
  }, [language]);

  const early = useRef(firstCheck);
  useEffect(() => {
    const sent = early.current;
    early.current = undefined;
    // No session cookie, so nothing to check: signed out at once, with no 401 on the way.
    if (!hasHint(SIGNED_IN_HINT)) {
      setLoading(false);
      return;
    }
    void refreshWith(sent);
  }, [refreshWith]);

  // Any other call answering 401 may mean the session ended on the server;
  // only the session check itself decides, so a stray 401 never logs anyone out.
  const userRef = useRef(user);
  userRef.current = user;
  useEffect(() => {
    const onUnauthorized = (event: Event) => {
      const path = (event as CustomEvent<{ path?: string }>).detail?.path ?? '';
      if (userRef.current && !path.startsWith('/api/auth/')) void refresh();
    };
    window.addEventListener(UNAUTHORIZED_EVENT, onUnauthorized);
    return () => window.removeEventListener(UNAUTHORIZED_EVENT, onUnauthorized);
  }, [refresh]);

  const login = useCallback(async ({ username, password, rememberMe }: LoginInput): Promise<User> => {
    generation.current += 1;
    let body: unknown;
    try {
      body = await api.post('/api/auth/login', {
        username: username.trim().toLowerCase(),
        password,
        rememberMe,
      });
    } catch (e) {
      if (e instanceof ApiError) {
        throw new AuthError(`Login failed: ${e.bodyText || e.statusText}`, e.status, e.serverMessage);
      }
      throw new AuthError(`Login failed: ${e instanceof Error ? e.message : String(e)}`);
    }
    const signedIn = parseUser(body);
    if (!signedIn) throw new AuthError(`Login failed: ${INVALID_SERVER_RESPONSE}`);
    clearKioskSession();
    setUser(signedIn);
    setError(null);
    setLoading(false);
    return signedIn;
  }, []);

  const pinLogin = useCallback(
    async (who: KioskWho, pin: string): Promise<PinLoginResult> => {
      generation.current += 1;
      let body: unknown;
      try {
        body = await api.post('/api/auth/pin-login', { ...who, pin });
      } catch (e) {
        if (e instanceof ApiError) {
          throw new AuthError(e.serverMessage ?? INVALID_SERVER_RESPONSE, e.status, e.serverMessage);
        }
        throw new AuthError('Could not reach the server. Please try again.');
      }
      const v = (body ?? {}) as Record<string, unknown>;
      if (typeof v.name !== 'string' || typeof v.role !== 'string') throw new AuthError(INVALID_SERVER_RESPONSE);
      markKioskSession();
      const signedIn = parseUser(body);
      if (signedIn) {
        setUser(signedIn);
        setError(null);
      } else {
        await refresh();
      }
      return { name: v.name, role: v.role };
    },
    [refresh],
  );

  const logout = useCallback(
    async (options?: LogoutOptions) => {
      const fromKiosk = Boolean(options?.toKiosk) || isKioskSession() || window.location.pathname.startsWith('/kiosk');
      generation.current += 1;
      let providerLogoutUrl: string | undefined;
      try {
        const answer = await api.post<{ providerLogoutUrl?: string }>(
          '/api/auth/logout',
          { fromKiosk },
          fromKiosk ? { headers: KIOSK_HEADERS } : undefined,
        );
        providerLogoutUrl = typeof answer?.providerLogoutUrl === 'string' ? answer.providerLogoutUrl : undefined;
      } catch (e) {
        console.error('Logout request failed; the local session is cleared anyway', e);
      }
      clearKioskSession();
      setUser(null);
      setError(null);
      // Signed in through the organisation's provider: its sign-out page ends that session too, then
      // sends the browser back to /login.
      if (providerLogoutUrl && /^https?:\/\//.test(providerLogoutUrl)) window.location.assign(providerLogoutUrl);
      else navigate(fromKiosk ? '/kiosk' : '/login', { replace: true });
    },
    [navigate],
  );

  // A kiosk is a shared terminal: whoever signed in there is signed out after 2 minutes without
  // input, so the next person never finds their session (the server also ends it: 2 idle minutes,
  // 15 at most, and at once when the kiosk is revoked).
  useEffect(() => {
    if (!user || !isKioskSession()) return;
    let timer = setTimeout(() => void logout(), KIOSK_IDLE_MS);
    const reset = () => {
      clearTimeout(timer);
      timer = setTimeout(() => void logout(), KIOSK_IDLE_MS);
    };
    const inputs = ['pointerdown', 'keydown', 'touchstart', 'wheel'] as const;
    for (const name of inputs) window.addEventListener(name, reset, { passive: true });
    return () => {
      clearTimeout(timer);
      for (const name of inputs) window.removeEventListener(name, reset);
    };
  }, [user, logout]);

  const value = useMemo<AuthContextValue>(
    () => ({ user, loading, error, login, pinLogin, logout, refresh }),
    [user, loading, error, login, pinLogin, logout, refresh],
  );

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthContextValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error('useAuth must be used inside <AuthProvider>');
  return value;
}
