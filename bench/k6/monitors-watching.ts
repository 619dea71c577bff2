// Monitors watching: each holds the live stream open, and reads the Worker Dashboard and open
// alarms every 2 seconds, as the screen does while the stream is down (the worst case).
//   k6 run -e BASE_URL=... -e SIZE=10k -e ACCOUNTS_FILE=data/accounts-10k.csv monitors-watching.ts
// k6 cannot read a stream: the `streams` scenario holds each one open for STREAM_SECONDS, which is
// what the gateway carries (open connections, heartbeats); its timeouts are the expected end, so
// only the dashboards count toward the error threshold. xk6-sse can read the events themselves.
import { sleep } from 'k6';
import exec from 'k6/execution';
import http from 'k6/http';
import type { Options } from 'k6/options';
import { call, monitors, run } from './lib/k6.ts';
import { COMMON_THRESHOLDS, dashboards, liveStream, login, sizeOf } from './lib/plan.ts';

const size = sizeOf(__ENV.SIZE);
const vus = Math.max(1, Math.min(size.monitors, monitors.length));
const duration = __ENV.DURATION ?? (size.name === 'smoke' ? '30s' : '10m');
const STREAM_SECONDS = Number(__ENV.STREAM_SECONDS ?? 25);

export const options: Options = {
  scenarios: {
    dashboards: { executor: 'constant-vus', vus, duration, exec: 'watch' },
    streams: { executor: 'constant-vus', vus, duration, exec: 'stream' },
  },
  thresholds: {
    checks: COMMON_THRESHOLDS.checks,
    'http_req_failed{scenario:dashboards}': ['rate<0.01'],
    'http_req_duration{name:dashboard}': ['p(95)<800', 'p(99)<2000'],
    'http_req_duration{name:alarms}': ['p(95)<500', 'p(99)<1500'],
  },
};

const signedIn = new Set<string>();

/** The VU's monitor, signed in once (the VU's own cookie jar keeps the session). */
function monitor(scenario: string) {
  const account = monitors[exec.vu.idInTest % monitors.length];
  if (!signedIn.has(scenario)) {
    run(login(account), http.cookieJar());
    signedIn.add(scenario);
  }
}

export function watch(): void {
  monitor('dashboards');
  run(dashboards(), http.cookieJar());
  sleep(2);
}

export function stream(): void {
  monitor('streams');
  // Ends by its own timeout: the stream never ends by itself.
  const { status } = call({ ...liveStream, expect: [0, 200] }, http.cookieJar(), `${STREAM_SECONDS}s`);
  if (status !== 0 && status !== 200) sleep(1);
}
