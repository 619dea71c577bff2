// A login storm: the start of a day, or every session dropped at once (a gateway restart that
// lost Redis), as arrivals ramping to SIZE's logins a second and held there.
//   k6 run -e BASE_URL=... -e SIZE=10k -e ACCOUNTS_FILE=data/accounts-10k.csv login-storm.ts
// Every login comes from the load generator's address: raise LOGIN_MAX_ATTEMPTS_PER_IP on the
// gateway for the run (or spread the generators), or the rate limit answers 429 by design.
import exec from 'k6/execution';
import http from 'k6/http';
import type { Options } from 'k6/options';
import { run, workers } from './lib/k6.ts';
import { COMMON_THRESHOLDS, login, sizeOf } from './lib/plan.ts';

const size = sizeOf(__ENV.SIZE);
const hold = __ENV.DURATION ?? (size.name === 'smoke' ? '20s' : '3m');

export const options: Options = {
  scenarios: {
    storm: {
      executor: 'ramping-arrival-rate',
      startRate: 1,
      timeUnit: '1s',
      stages: [
        { target: size.loginsPerSecond, duration: size.name === 'smoke' ? '10s' : '1m' },
        { target: size.loginsPerSecond, duration: hold },
      ],
      preAllocatedVUs: size.loginsPerSecond * 2,
      maxVUs: size.loginsPerSecond * 10,
    },
  },
  thresholds: {
    ...COMMON_THRESHOLDS,
    // A password is checked with argon2id: a login costs far more than any other call.
    'http_req_duration{name:login}': ['p(95)<1000', 'p(99)<2500'],
  },
};

export default function loginStorm(): void {
  const worker = workers[exec.scenario.iterationInTest % workers.length];
  run(login(worker), new http.CookieJar());
}
