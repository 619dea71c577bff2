// Workers on shift checking in: each signs in once (a session of its own), starts its shift, then
// checks in once an interval, spread evenly, as a day's check-ins arrive.
//   k6 run -e BASE_URL=https://lws.example.org -e SIZE=10k -e ACCOUNTS_FILE=data/accounts-10k.csv checkin-journey.ts
import exec from 'k6/execution';
import http, { type CookieJar } from 'k6/http';
import type { Options } from 'k6/options';
import { run, workers } from './lib/k6.ts';
import { checkIn, COMMON_THRESHOLDS, login, perSecond, sizeOf, startShift } from './lib/plan.ts';

const size = sizeOf(__ENV.SIZE);
/** The interval workers check in at (the default policy: every hour). */
const INTERVAL_MINUTES = Number(__ENV.INTERVAL_MINUTES ?? 60);
const rate = perSecond(Math.min(size.workers, workers.length), INTERVAL_MINUTES * 60);

export const options: Options = {
  scenarios: {
    checkins: {
      executor: 'constant-arrival-rate',
      rate,
      timeUnit: '1s',
      duration: __ENV.DURATION ?? (size.name === 'smoke' ? '30s' : `${INTERVAL_MINUTES}m`),
      preAllocatedVUs: Math.max(2, rate * 2),
      maxVUs: Math.max(10, rate * 10),
    },
  },
  thresholds: {
    ...COMMON_THRESHOLDS,
    'http_req_duration{name:check-in}': ['p(95)<500', 'p(99)<1500'],
    'http_req_duration{name:start-shift}': ['p(95)<800', 'p(99)<2000'],
  },
};

/** This VU's signed-in workers, by index: a session each, kept for the run. */
const sessions = new Map<number, { jar: CookieJar; userId: number }>();

export default function checkInJourney(): void {
  const index = exec.scenario.iterationInTest % Math.min(size.workers, workers.length);
  const worker = workers[index];
  let session = sessions.get(index);
  if (!session) {
    const jar = new http.CookieJar();
    const userId = run(login(worker), jar);
    run(startShift(userId, __ENV.LOCATION), jar);
    session = { jar, userId };
    sessions.set(index, session);
  }
  run(checkIn(session.userId, worker.pin, `k6-${exec.vu.idInTest}-${exec.scenario.iterationInTest}`), session.jar);
}
