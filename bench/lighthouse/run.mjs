// Lighthouse 13 on the screens a phone opens first: /login, /kiosk and a worker's /worker (off shift
// and on shift), with Lighthouse's default mobile emulation (Moto G Power, slow 4G, 4x CPU
// slowdown, simulated). The whole stack runs from the built output (as `npm start` does) on this
// machine's real PostgreSQL, NATS and Redis, over loopback; Chromium is Debian's (CHROME_PATH,
// default /usr/bin/chromium).
// Prints each page's scores and the audits that cost points, and fails below the targets:
// performance >= 95, accessibility 100, best practices 100.
//   node bench/lighthouse/run.mjs [--runs N]   (N runs per page, the median is kept; default 3)
//   --only /worker measures the /worker pages; --only worker-on-shift (a page's label) one of them.
//   LH_DUMP=<dir> also writes each page's median report there, whole (<label>.json).
//   STATIC_DIR=<dir> serves the frontends' builds from another folder (<dir>/<app>/dist), e.g. a
//   copy of an earlier build, to compare two builds in the same period.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import puppeteer from 'puppeteer-core';
import { startBenchStack } from '../support/stack.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const argRuns = process.argv.indexOf('--runs');
const RUNS = argRuns > 0 ? Number(process.argv[argRuns + 1]) : 3;
const argOnly = process.argv.indexOf('--only');
const ONLY = argOnly > 0 ? process.argv[argOnly + 1] : null;
const TARGETS = { performance: 95, accessibility: 100, 'best-practices': 100 };
const CATEGORIES = Object.keys(TARGETS);

const stack = await startBenchStack('lh');
const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
  chromeFlags: [
    '--headless=new',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
});
const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}` });
let failed = false;
try {
  // A worker to open /worker as.
  const admin = await stack.login('superadmin');
  const username = `lhworker${Date.now().toString(36)}`;
  const created = await stack.api('/api/users', {
    cookie: admin,
    body: { username, password: 'Lighthouse1pass', name: 'Lighthouse Worker', phone: '+447400123456', role: 'worker', pinCode: '4826' },
  });
  if (!created.ok) throw new Error(`creating the worker: ${created.status} ${await created.text()}`);
  // The session cookie and its readable hint, as a signed-in browser holds them.
  const cookiesOf = (session) => {
    const [name, value] = session.split('=');
    return [
      { name, value, domain: '127.0.0.1', path: '/', httpOnly: true },
      { name: 'lws_signed_in', value: '1', domain: '127.0.0.1', path: '/' },
    ];
  };
  const worker = cookiesOf(await stack.login(username, 'Lighthouse1pass'));
  // A second worker, on shift: /worker then shows the shift's timer, check-in and end controls.
  const onShiftName = `${username}s`;
  const onShiftCreated = await stack.api('/api/users', {
    cookie: admin,
    body: {
      username: onShiftName,
      password: 'Lighthouse1pass',
      name: 'Lighthouse Shift Worker',
      phone: '+447400123457',
      role: 'worker',
      pinCode: '4827',
    },
  });
  if (!onShiftCreated.ok) throw new Error(`creating the on-shift worker: ${onShiftCreated.status} ${await onShiftCreated.text()}`);
  const { user: onShiftUser } = await onShiftCreated.json();
  const onShiftSession = await stack.login(onShiftName, 'Lighthouse1pass');
  const started = await stack.api(`/api/users/${onShiftUser.id}/start-shift`, {
    cookie: onShiftSession,
    body: { location: 'The Prospect Building' },
  });
  if (!started.ok) throw new Error(`starting the shift: ${started.status} ${await started.text()}`);
  const onShift = cookiesOf(onShiftSession);

  // `label` names the page in the output and the dump (LH_DUMP=<dir>/<label>.json); --only takes a path or a label.
  const pages = [
    { path: '/login', label: 'login' },
    { path: '/kiosk', label: 'kiosk' },
    { path: '/worker', label: 'worker', cookies: worker },
    { path: '/worker', label: 'worker-on-shift', cookies: onShift },
  ].filter((p) => !ONLY || p.path === ONLY || p.label === ONLY);
  const results = [];
  for (const page of pages) {
    const runs = [];
    for (let i = 0; i < RUNS; i++) {
      // Each run in a browser context of its own: a first visit (no cached files, no service
      // worker, the cookie banner showing), holding only the page's cookies.
      const context = await browser.createBrowserContext();
      const tab = await context.newPage();
      if (page.cookies) await context.setCookie(...page.cookies);
      const { lhr } = await lighthouse(
        `${stack.url}${page.path}`,
        { output: 'json', logLevel: 'error', onlyCategories: CATEGORIES, disableStorageReset: true },
        undefined,
        tab,
      );
      runs.push(lhr);
      await context.close();
    }
    runs.sort((a, b) => a.categories.performance.score - b.categories.performance.score);
    const lhr = runs[Math.floor(runs.length / 2)];
    // LH_DUMP=<dir> keeps each page's median report whole, to see where the time goes.
    if (process.env.LH_DUMP) writeFileSync(join(process.env.LH_DUMP, `${page.label}.json`), JSON.stringify(lhr));
    const scores = Object.fromEntries(CATEGORIES.map((c) => [c, Math.round((lhr.categories[c].score ?? 0) * 100)]));
    const lost = Object.values(lhr.audits)
      .filter(
        (a) =>
          a.score !== null &&
          a.score < 1 &&
          a.scoreDisplayMode !== 'informative' &&
          a.scoreDisplayMode !== 'manual' &&
          a.scoreDisplayMode !== 'notApplicable',
      )
      .filter((a) => CATEGORIES.some((c) => lhr.categories[c].auditRefs.some((r) => r.id === a.id && r.weight > 0)))
      .map((a) => `${a.id}${a.displayValue ? ` (${a.displayValue})` : ''}`);
    const metrics = [
      'first-contentful-paint',
      'largest-contentful-paint',
      'total-blocking-time',
      'cumulative-layout-shift',
      'speed-index',
    ].map((id) => `${id.replace(/-/g, ' ')} ${lhr.audits[id]?.displayValue ?? '?'}`);
    results.push({ path: page.label, scores, metrics, lost, allRuns: runs.map((r) => Math.round(r.categories.performance.score * 100)) });
    const below = CATEGORIES.filter((c) => scores[c] < TARGETS[c]);
    if (below.length) failed = true;
    console.log(
      `${page.label.padEnd(15)} performance ${String(scores.performance).padStart(3)} (runs ${results.at(-1).allRuns.join(', ')})  accessibility ${String(scores.accessibility).padStart(3)}  best practices ${String(scores['best-practices']).padStart(3)}${below.length ? `  BELOW TARGET: ${below.join(', ')}` : ''}`,
    );
    console.log(`         ${metrics.join(', ')}`);
    if (lost.length) console.log(`         points lost: ${lost.join('; ')}`);
    // What to fix: the console's errors and the elements that shifted.
    for (const item of lhr.audits['errors-in-console']?.details?.items ?? [])
      console.log(`         console error: ${item.description} ${item.sourceLocation?.url ?? ''}`);
    for (const item of lhr.audits['layout-shifts']?.details?.items ?? [])
      console.log(`         layout shift ${item.score?.toFixed?.(3) ?? ''}: ${item.node?.snippet ?? item.node?.selector ?? ''}`);
    const lcp = lhr.audits['largest-contentful-paint-element']?.details?.items?.[0]?.items?.[0]?.node;
    if (lcp) console.log(`         largest paint: ${lcp.snippet}`);
  }
  const out = join(here, 'results');
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, `lighthouse-${new Date().toISOString().replace(/[:.]/g, '-')}.json`), JSON.stringify(results, null, 2));
} finally {
  await browser.disconnect();
  await chrome.kill();
  await stack.stop();
}
if (failed) {
  console.error(
    `below target (performance >= ${TARGETS.performance}, accessibility ${TARGETS.accessibility}, best practices ${TARGETS['best-practices']})`,
  );
  process.exit(1);
}
