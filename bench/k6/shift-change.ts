// A shift-change peak: every worker of SIZE signs in and starts a shift within ten minutes, then
// checks in once, as a morning's handover arrives.
//   k6 run -e BASE_URL=... -e SIZE=10k -e ACCOUNTS_FILE=data/accounts-10k.csv shift-change.ts
import exec from 'k6/execution';
import http from 'k6/http';
import type { Options } from 'k6/options';
import { run, workers } from './lib/k6.ts';
import { checkIn, COMMON_THRESHOLDS, login, perSecond, sizeOf, startShift } from './lib/plan.ts';

const size = sizeOf(__ENV.SIZE);
const count = Math.min(size.workers, workers.length);
const WINDOW_SECONDS = size.name === 'smoke' ? 20 : 600;
const rate = perSecond(count, WINDOW_SECONDS);

export const options: Options = {
  scenarios: {
    handover: {
      executor: 'constant-arrival-rate',
      rate,
      timeUnit: '1s',
      duration: `${Math.ceil(count / rate)}s`,
      preAllocatedVUs: Math.max(2, rate * 3),
      maxVUs: Math.max(10, rate * 15),
    },
  },
  thresholds: {
    ...COMMON_THRESHOLDS,
    'http_req_duration{name:start-shift}': ['p(95)<800', 'p(99)<2000'],
    'http_req_duration{name:check-in}': ['p(95)<500', 'p(99)<1500'],
  },
};

export default function shiftChange(): void {
  const index = exec.scenario.iterationInTest;
  if (index >= count) return;
  const worker = workers[index];
  const jar = new http.CookieJar();
  const userId = run(login(worker), jar);
  run(startShift(userId, __ENV.LOCATION), jar);
  run(checkIn(userId, worker.pin, `k6-shift-${index}`), jar);
}
