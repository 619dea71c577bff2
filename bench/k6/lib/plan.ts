// The journeys the k6 load tests drive, written once and run two ways: by k6 against a
// cluster (bench/k6/*.ts, through lib/k6.ts), and by Node against a local stack
// (tests/integration/k6-plans.test.ts), which checks their shape: every call, body and status.
// No k6 or Node import here: a journey is a generator that yields the HTTP calls it makes and is
// handed each answer back.

/** One HTTP call, as data. */
export interface Call {
  /** The request's `name` tag in k6 (thresholds are set per name). */
  name: string;
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
  /** The statuses that mean it worked. */
  expect: number[];
}

/** What a journey reads of an answer. */
export interface Answer {
  status: number;
  json(): unknown;
}

export type Journey<T = void> = Generator<Call, T, Answer>;

/** An account the seed step created (bench/k6/seed.mjs): its generated password and PIN. */
export interface Account {
  username: string;
  password: string;
  pin: string;
  role: 'worker' | 'admin';
}

/** The CSRF header the gateway asks of every state-changing call. */
export const XHR = { 'X-Requested-With': 'XMLHttpRequest' };

/** Sizes of a run: `smoke` for a first try (and the local check), then a site and a national rollout. */
export const SIZES = {
  smoke: { workers: 10, monitors: 2, loginsPerSecond: 2 },
  '10k': { workers: 10_000, monitors: 50, loginsPerSecond: 50 },
  '100k': { workers: 100_000, monitors: 300, loginsPerSecond: 200 },
} as const;
export type SizeName = keyof typeof SIZES;

export function sizeOf(name: string | undefined): (typeof SIZES)[SizeName] & { name: SizeName } {
  const key = (name ?? 'smoke') as SizeName;
  if (!(key in SIZES)) throw new Error(`SIZE must be one of ${Object.keys(SIZES).join(', ')}`);
  return { ...SIZES[key], name: key };
}

/** Arrivals a second when each of `count` does something once every `periodSeconds`. */
export const perSecond = (count: number, periodSeconds: number) => Math.max(1, Math.ceil(count / periodSeconds));

/** Where a shift starts: a location every fresh LWS has (LOCATION overrides it). */
export const DEFAULT_LOCATION = 'The Prospect Building';

const idOf = (answer: Answer): number => {
  const body = answer.json() as { id?: unknown } | null;
  if (typeof body?.id !== 'number') throw new Error('the login answer names no user id');
  return body.id;
};

/** Signs in; answers the account's user id (the session cookie stays in the caller's jar). */
export function* login(account: Pick<Account, 'username' | 'password'>): Journey<number> {
  const answer = yield {
    name: 'login',
    method: 'POST',
    path: '/api/auth/login',
    body: { username: account.username, password: account.password },
    expect: [200],
  };
  return idOf(answer);
}

/** A shift start; starting again while on shift answers the same shift. */
export function* startShift(userId: number, location = DEFAULT_LOCATION): Journey {
  yield { name: 'start-shift', method: 'POST', path: `/api/users/${userId}/start-shift`, body: { location }, expect: [200] };
}

/** "I'm safe": the PIN, with a key of its own so a retried request is the same check-in. */
export function* checkIn(userId: number, pin: string, key: string): Journey {
  yield {
    name: 'check-in',
    method: 'POST',
    path: '/api/check-ins',
    body: { userId, pin },
    headers: { 'Idempotency-Key': key },
    expect: [201],
  };
}

/** What a monitor's Worker Dashboard reads when the live stream is down (spec: every 2 s). */
export function* dashboards(): Journey {
  yield { name: 'dashboard', method: 'GET', path: '/api/dashboard-data', expect: [200] };
  yield { name: 'alarms', method: 'GET', path: '/api/alarms?open=true&limit=50', expect: [200] };
}

/** The live stream a monitor's screen keeps open. */
export const liveStream: Call = {
  name: 'live-stream',
  method: 'GET',
  path: '/api/events',
  headers: { Accept: 'text/event-stream' },
  expect: [200],
};

/** Thresholds every script shares: fewer than 1% failed calls, and 99% of checks passed. */
export const COMMON_THRESHOLDS = { http_req_failed: ['rate<0.01'], checks: ['rate>0.99'] };
