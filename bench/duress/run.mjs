// Whether a PIN step answers in the same time with the duress PIN as with the PIN: whoever holds a
// worker's phone must not be able to tell them apart by how long the answer takes. The whole stack
// in a child process (built output) on real PostgreSQL, NATS and Redis, over loopback; requests one
// at a time with a pause before each, the PIN and the duress PIN alternating (each first in every
// other pair), so both see the same machine. Prints the median, p90 and mean of each and their
// difference. About 2 minutes.
//
//   node bench/duress/run.mjs [--workers N]     N workers per PIN (default 60)
import { startBenchStack } from '../support/stack.mjs';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const PER_PIN = arg('workers', 60);
const VERIFY_ROUNDS = 3;
const PAUSE_MS = 150;
const SITE = 'The Prospect Building';

const stack = await startBenchStack('duress');
try {
  const admin = await stack.login('superadmin');
  const json = async (res, what) => {
    if (!res.ok) throw new Error(`${what}: ${res.status} ${await res.text()}`);
    return res.json();
  };

  // Pairs of workers, one to use the PIN and one the duress PIN, each on shift with both set.
  const workers = [];
  for (let i = 0; i < PER_PIN * 2; i++) {
    const username = `duress${i}x${Math.random().toString(36).slice(2, 7)}`;
    const pin = String(1000 + i);
    const duressPin = String(6000 + i);
    const phone = `+4479111${String(30000 + i).padStart(5, '0')}`;
    const created = await json(
      await stack.api('/api/users', {
        cookie: admin,
        body: { username, password: 'Secret1pass', name: `Bench ${username}`, phone, role: 'worker', pinCode: pin },
      }),
      'create worker',
    );
    const id = created.user.id;
    const cookie = await stack.login(username, 'Secret1pass');
    await json(
      await stack.api(`/api/users/${id}/duress-pin`, { cookie, method: 'PUT', body: { currentPin: pin, duressPin } }),
      'duress PIN',
    );
    for (let tries = 0; ; tries++) {
      const res = await stack.api(`/api/users/${id}/start-shift`, { cookie, body: { location: SITE } });
      if (res.ok) break;
      if (tries > 100) throw new Error(`start shift: ${res.status}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    workers.push({ id, cookie, pin: i % 2 === 0 ? pin : duressPin, duress: i % 2 === 1 });
  }

  const timings = { checkIn: { pin: [], duress: [] }, verifyPin: { pin: [], duress: [] }, endShift: { pin: [], duress: [] } };
  const timed = async (bucket, w, path, body) => {
    // A duress request sets off its alarm's escalation in the background; the pause keeps that work
    // from landing on whichever request comes next, which would favour one kind.
    await new Promise((r) => setTimeout(r, PAUSE_MS));
    const started = process.hrtime.bigint();
    const res = await stack.api(path, { cookie: w.cookie, body });
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    await res.arrayBuffer();
    bucket[w.duress ? 'duress' : 'pin'].push(ms);
  };
  // Pairs of one PIN and one duress PIN, each kind first in every other pair, so neither gains from going first.
  const inTurn = (round) =>
    workers.flatMap((w, i) => (i % 2 === 1 ? [] : (i / 2 + round) % 2 === 0 ? [w, workers[i + 1]] : [workers[i + 1], w]));
  for (const w of inTurn(0)) await timed(timings.checkIn, w, '/api/check-ins', { userId: w.id, location: SITE, pin: w.pin });
  for (let r = 0; r < VERIFY_ROUNDS; r++)
    for (const w of inTurn(r)) await timed(timings.verifyPin, w, `/api/users/${w.id}/verify-pin`, { pin: w.pin });
  for (const w of inTurn(1)) await timed(timings.endShift, w, `/api/users/${w.id}/end-shift`, { pin: w.pin });

  const pct = (xs, p) => {
    const s = [...xs].sort((a, b) => a - b);
    return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
  };
  const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const f = (ms) => `${ms.toFixed(1).padStart(6)} ms`;
  console.log(`duress: ${PER_PIN} workers per PIN, one request at a time ${PAUSE_MS} ms apart, PIN and duress PIN alternating`);
  console.log('  step            PIN p50     duress p50   diff     PIN p90     duress p90   PIN mean    duress mean');
  for (const [step, { pin, duress }] of Object.entries(timings)) {
    const d = pct(duress, 50) - pct(pin, 50);
    console.log(
      `  ${step.padEnd(12)} ${f(pct(pin, 50))}  ${f(pct(duress, 50))}  ${(d >= 0 ? '+' : '') + d.toFixed(1).padStart(5)}  ${f(pct(pin, 90))}  ${f(pct(duress, 90))}  ${f(mean(pin))}  ${f(mean(duress))}`,
    );
  }
} finally {
  await stack.stop();
}
