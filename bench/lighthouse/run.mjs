// Lighthouse 13 on the screens a phone opens first: /login, /kiosk and a worker's /worker, with
// Lighthouse's default mobile emulation (Moto G Power, slow 4G, 4x CPU slowdown, simulated). The
// whole stack runs from the built output (as `npm start` does) on this machine's real PostgreSQL,
// NATS and Redis, over loopback; Chromium is Debian's (CHROME_PATH, default /usr/bin/chromium).
// Prints each page's scores and the audits that cost points, and fails below the targets
// performance >= 90, accessibility 100, best practices 100.
//   node bench/lighthouse/run.mjs [--runs N]   (N runs per page, the median is kept; default 3)
//   --only /worker measures one page.
//   LH_DUMP=<dir> also writes each page's median report there, whole.
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
const TARGETS = { performance: 90, accessibility: 100, 'best-practices': 100 };
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
  const [name, value] = (await stack.login(username, 'Lighthouse1pass')).split('=');
  const worker = [
    { name, value, domain: '127.0.0.1', path: '/', httpOnly: true },
    { name: 'lws_signed_in', value: '1', domain: '127.0.0.1', path: '/' },
  ];

  const pages = [{ path: '/login' }, { path: '/kiosk' }, { path: '/worker', cookies: worker }].filter((p) => !ONLY || p.path === ONLY);
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
    if (process.env.LH_DUMP) writeFileSync(join(process.env.LH_DUMP, `${page.path.slice(1) || 'root'}.json`), JSON.stringify(lhr));
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
    results.push({ path: page.path, scores, metrics, lost, allRuns: runs.map((r) => Math.round(r.categories.performance.score * 100)) });
    const below = CATEGORIES.filter((c) => scores[c] < TARGETS[c]);
    if (below.length) failed = true;
    console.log(
      `${page.path.padEnd(8)} performance ${String(scores.performance).padStart(3)} (runs ${results.at(-1).allRuns.join(', ')})  accessibility ${String(scores.accessibility).padStart(3)}  best practices ${String(scores['best-practices']).padStart(3)}${below.length ? `  BELOW TARGET: ${below.join(', ')}` : ''}`,
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
