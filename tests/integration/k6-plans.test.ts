import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkIn, dashboards, liveStream, login, startShift, XHR, type Account, type Call, type Journey } from '../../bench/k6/lib/plan';
import { startTestStack, type TestStack } from './support/test-stack';

// The k6 load tests' journeys (bench/k6) run here against a real stack, as k6 would run
// them against a cluster: the seed step, then every call of every journey, with the statuses the
// scripts count as success. k6 itself cannot be installed here; this keeps the scripts' shape true
// to the API.

const ROOT = join(__dirname, '..', '..');
let t: TestStack;
let dir: string;
let accounts: Account[];

/** Runs a journey with fetch in one session, as lib/k6.ts runs it with k6/http; every answer must be one it expects. */
async function drive<T>(journey: Journey<T>, session: { cookie?: string }): Promise<T> {
  let step = journey.next();
  while (!step.done) {
    const call: Call = step.value;
    const res = await fetch(`${t.url}${call.path}`, {
      method: call.method,
      headers: {
        ...XHR,
        ...(call.body === undefined ? {} : { 'Content-Type': 'application/json' }),
        ...(session.cookie ? { cookie: session.cookie } : {}),
        ...call.headers,
      },
      ...(call.body === undefined ? {} : { body: JSON.stringify(call.body) }),
    });
    const text = await res.text();
    expect({ call: call.name, status: res.status, ok: call.expect.includes(res.status) }).toEqual({
      call: call.name,
      status: res.status,
      ok: true,
    });
    const cookie = res.headers.get('set-cookie');
    if (cookie) session.cookie = cookie.split(';')[0];
    step = journey.next({ status: res.status, json: () => JSON.parse(text) as unknown });
  }
  return step.value;
}

beforeAll(async () => {
  t = await startTestStack({ env: { LOGIN_MAX_ATTEMPTS_PER_IP: '1000' } });
  dir = mkdtempSync(join(tmpdir(), 'lws-k6-'));
  const out = join(dir, 'accounts.csv');
  const seed = spawn(process.execPath, [join(ROOT, 'bench/k6/seed.mjs'), '--size', 'smoke', '--base-url', t.url, '--out', out], {
    env: { ...process.env, LWS_SUPERADMIN_USERNAME: t.superadmin.username, LWS_SUPERADMIN_PASSWORD: t.superadmin.password },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  seed.stdout.on('data', (d) => (output += d));
  seed.stderr.on('data', (d) => (output += d));
  const [code] = await once(seed, 'exit');
  expect({ code, output }).toEqual({ code: 0, output: expect.stringContaining('accounts with their credentials') });
  const [header, ...lines] = readFileSync(out, 'utf8').trim().split('\n');
  expect(header).toBe('username,password,pin,role');
  accounts = lines.map((l) => {
    const [username, password, pin, role] = l.split(',');
    return { username, password, pin, role } as Account;
  });
}, 120_000);

afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await t?.stop();
});

describe('the k6 journeys against a real stack (smoke size)', () => {
  it('the seed step creates the workers and monitors with their credentials, once', () => {
    expect(accounts.filter((a) => a.role === 'worker')).toHaveLength(10);
    expect(accounts.filter((a) => a.role === 'admin')).toHaveLength(2);
    for (const a of accounts) expect(a.pin).toMatch(/^\d{4}$/);
  });

  it('check-in journey and shift change: sign in, start the shift, check in; a retried check-in is the same one', async () => {
    for (const worker of accounts.filter((a) => a.role === 'worker').slice(0, 3)) {
      const session = {};
      const userId = await drive(login(worker), session);
      await drive(startShift(userId), session);
      await drive(startShift(userId), session);
      await drive(checkIn(userId, worker.pin, `k6-${userId}`), session);
      await drive(checkIn(userId, worker.pin, `k6-${userId}`), session);
    }
  });

  it('monitors watching: the dashboards answer, and the live stream opens as an event stream', async () => {
    const monitor = accounts.find((a) => a.role === 'admin')!;
    const session: { cookie?: string } = {};
    await drive(login(monitor), session);
    await drive(dashboards(), session);
    const stop = new AbortController();
    const res = await fetch(`${t.url}${liveStream.path}`, {
      headers: { ...XHR, ...liveStream.headers, cookie: session.cookie! },
      signal: stop.signal,
    });
    expect(liveStream.expect).toContain(res.status);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    stop.abort();
  });

  it('login storm: every worker signs in', async () => {
    for (const worker of accounts.filter((a) => a.role === 'worker')) expect(await drive(login(worker), {})).toBeGreaterThan(0);
  });
});
