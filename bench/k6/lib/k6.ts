// Runs the journeys of plan.ts in k6: each call through k6/http, tagged by name and checked.
import { check } from 'k6';
import { SharedArray } from 'k6/data';
import http, { type CookieJar } from 'k6/http';
import { XHR, type Account, type Answer, type Call, type Journey } from './plan.ts';

/** The gateway's public URL (an ingress, or a port-forward: kubectl port-forward svc/lws-gateway 8080). */
export const BASE_URL = (__ENV.BASE_URL ?? 'http://127.0.0.1:8080').replace(/\/$/, '');

/** The accounts bench/k6/seed.mjs wrote: `username,password,pin,role`, one a line. */
export const accounts: Account[] = new SharedArray('accounts', () => {
  const [header, ...lines] = open(__ENV.ACCOUNTS_FILE ?? './data/accounts.csv')
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  if (header !== 'username,password,pin,role') throw new Error('ACCOUNTS_FILE is not what bench/k6/seed.mjs writes');
  return lines.map((line) => {
    const [username, password, pin, role] = line.split(',');
    return { username, password, pin, role: role === 'admin' ? 'admin' : 'worker' } as Account;
  });
});
export const workers = accounts.filter((a) => a.role === 'worker');
export const monitors = accounts.filter((a) => a.role === 'admin');

export function call(c: Call, jar?: CookieJar, timeout?: string): Answer {
  const res = http.request(c.method, `${BASE_URL}${c.path}`, c.body === undefined ? null : JSON.stringify(c.body), {
    headers: { ...XHR, ...(c.body === undefined ? {} : { 'Content-Type': 'application/json' }), ...c.headers },
    jar,
    timeout,
    tags: { name: c.name },
    responseCallback: http.expectedStatuses(...c.expect),
  });
  check(res, { [`${c.name}: ${c.expect.join(' or ')}`]: (r) => c.expect.includes(r.status) });
  return { status: res.status, json: () => res.json() };
}

/** Runs a journey to its end, each call in `jar` (a worker's own session), and answers its result. */
export function run<T>(journey: Journey<T>, jar?: CookieJar): T {
  let step = journey.next();
  while (!step.done) step = journey.next(call(step.value, jar));
  return step.value;
}
