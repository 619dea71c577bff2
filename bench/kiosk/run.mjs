// Kiosk PIN sign-in (POST /api/auth/pin-login) refused for an unknown username and for a real
// worker's wrong PIN: both answer 401 with the same text, and should take the same time, or the
// time tells which names are workers'. The whole stack (built output) in a child process on real
// PostgreSQL, NATS and Redis, over loopback; the two kinds interleaved, BENCH_SAMPLES (default 300)
// each after 20 of each to warm up. Prints both medians side by side. About 30 s.
import pg from 'pg';
import { startBenchStack } from '../support/stack.mjs';

const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 300);
const WARM_UP = 20;
const PIN = '4826';
const WRONG_PIN = '9371';

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
const ms = (v) => `${v.toFixed(2)} ms`;

const stack = await startBenchStack('kiosk', {
  // Every attempt here is a wrong one: neither the kiosk's throttle nor the worker's lockout may answer instead.
  KIOSK_PIN_MAX_FAILURES: '1000000',
  KIOSK_PIN_WINDOW_SECONDS: '1',
});
const db = new pg.Client({ connectionString: stack.env.DATABASE_URL });
try {
  await db.connect();
  const cookie = await stack.login('superadmin');
  const location = `Bench Depot ${Date.now()}`;
  const made = await stack.api('/api/location-options', { cookie, body: { name: location } });
  if (!made.ok) throw new Error(`location: ${made.status}`);
  const enrolled = await stack.api('/api/kiosks', { cookie, body: { name: 'Bench kiosk', location } });
  if (!enrolled.ok) throw new Error(`kiosk: ${enrolled.status} ${await enrolled.text()}`);
  const kioskCookie = enrolled.headers
    .getSetCookie()
    .find((c) => c.startsWith('lws_kiosk='))
    .split(';')[0];
  const username = `benchkiosk${Date.now()}`;
  const worker = await stack.api('/api/users', {
    cookie,
    body: { username, password: 'Secret1pass', name: 'Kiosk Bench', phone: '+447911123456', role: 'worker', pinCode: PIN },
  });
  if (!worker.ok) throw new Error(`worker: ${worker.status} ${await worker.text()}`);
  const workerId = (await worker.json()).user.id;

  const refusedText = new Set();
  async function attempt(name) {
    const started = performance.now();
    const res = await stack.api('/api/auth/pin-login', { cookie: kioskCookie, body: { username: name, pin: WRONG_PIN } });
    const elapsed = performance.now() - started;
    if (res.status !== 401) throw new Error(`${name}: ${res.status} ${await res.text()}, expected 401`);
    refusedText.add(await res.text());
    return elapsed;
  }

  const unknown = [];
  const wrong = [];
  for (let i = 0; i < WARM_UP + SAMPLES; i++) {
    // Interleaved, each kind first in every other pair: the work one answer leaves behind (the outbox
    // relay publishing its event) then falls on both kinds alike.
    const nobody = `nobody${i}x${Date.now()}`;
    let u;
    let w;
    if (i % 2 === 0) {
      u = await attempt(nobody);
      w = await attempt(username);
    } else {
      w = await attempt(username);
      u = await attempt(nobody);
    }
    // Untimed: the worker's failures would lock their PIN after five.
    await db.query('delete from identity.pin_failures where user_id = $1', [workerId]);
    if (i >= WARM_UP) {
      unknown.push(u);
      wrong.push(w);
    }
  }
  unknown.sort((a, b) => a - b);
  wrong.sort((a, b) => a - b);
  const p50 = [percentile(unknown, 0.5), percentile(wrong, 0.5)];
  console.log(`kiosk: POST /api/auth/pin-login refused, ${SAMPLES} of each, interleaved`);
  console.log(`                       p50         p90         p99`);
  console.log(`  unknown username     ${ms(p50[0]).padEnd(12)}${ms(percentile(unknown, 0.9)).padEnd(12)}${ms(percentile(unknown, 0.99))}`);
  console.log(`  worker, wrong PIN    ${ms(p50[1]).padEnd(12)}${ms(percentile(wrong, 0.9)).padEnd(12)}${ms(percentile(wrong, 0.99))}`);
  console.log(
    `  medians differ by    ${ms(Math.abs(p50[1] - p50[0]))} (${((Math.abs(p50[1] - p50[0]) / Math.max(...p50)) * 100).toFixed(0)}% of the slower)`,
  );
  console.log(
    `  answers              ${refusedText.size === 1 ? 'one 401 text for both' : `${refusedText.size} different 401 texts`}: ${[...refusedText].join(' | ')}`,
  );
  if (refusedText.size !== 1) process.exitCode = 1;
} finally {
  await db.end().catch(() => undefined);
  await stack.stop();
}
