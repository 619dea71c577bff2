#!/usr/bin/env node
// Creates the accounts a k6 run signs in as, through LWS's own bulk import
// (POST /api/users/import, 10,000 rows a file), and writes their generated passwords and PINs to
// a CSV the scripts read (`username,password,pin,role`). Keep that file as you would any password
// list, and delete it after the run.
//
//   LWS_SUPERADMIN_PASSWORD=... node bench/k6/seed.mjs --size 10k --base-url https://lws.example.org
//     [--out bench/k6/data/accounts-10k.csv] [--prefix k6]
//
// Workers join the organisation's first team; the monitors are admins of the "Default" team. A
// second run with the same prefix finds every account unchanged and writes no new credentials.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const SIZES = {
  smoke: { workers: 10, monitors: 2 },
  '10k': { workers: 10_000, monitors: 50 },
  '100k': { workers: 100_000, monitors: 300 },
};
const CHUNK = 10_000;

function args(argv) {
  const out = { size: 'smoke', baseUrl: 'http://127.0.0.1:8080', prefix: 'k6', out: undefined, team: 'Default' };
  for (let i = 0; i < argv.length; i += 2) {
    const [flag, value] = [argv[i], argv[i + 1]];
    const key = { '--size': 'size', '--base-url': 'baseUrl', '--out': 'out', '--prefix': 'prefix', '--team': 'team' }[flag];
    if (!key || value === undefined)
      throw new Error(`usage: seed.mjs --size smoke|10k|100k [--base-url URL] [--out FILE] [--prefix P] [--team NAME] (got ${flag})`);
    out[key] = value;
  }
  if (!SIZES[out.size]) throw new Error(`--size must be one of ${Object.keys(SIZES).join(', ')}`);
  if (!/^[a-z][a-z0-9]{0,9}$/.test(out.prefix))
    throw new Error('--prefix is 1 to 10 lower-case letters and digits, starting with a letter');
  out.baseUrl = out.baseUrl.replace(/\/$/, '');
  out.out ??= join(dirname(fileURLToPath(import.meta.url)), 'data', `accounts-${out.size}.csv`);
  return out;
}

/** The import's rows: workers, then the monitors of `team`. Phones are made up and distinct. */
function rows({ size, prefix, team }) {
  const { workers, monitors } = SIZES[size];
  // Mobile numbers of the form libphonenumber takes (07700 900xxx is reserved for drama: refused).
  const phone = (n) => `+4477${String(n).padStart(8, '0')}`;
  const all = [];
  for (let i = 0; i < workers; i++) all.push(`${prefix}w${i},K6 Worker ${i},${phone(i)},worker,`);
  for (let i = 0; i < monitors; i++) all.push(`${prefix}m${i},K6 Monitor ${i},${phone(50_000_000 + i)},admin,${team}`);
  return all;
}

export async function seed(options) {
  const { baseUrl } = options;
  const username = process.env.LWS_SUPERADMIN_USERNAME ?? 'superadmin';
  const password = process.env.LWS_SUPERADMIN_PASSWORD;
  if (!password) throw new Error('LWS_SUPERADMIN_PASSWORD must be set (the superadmin signs in to import the accounts)');
  const headers = { 'X-Requested-With': 'XMLHttpRequest' };
  const login = await fetch(`${baseUrl}/api/auth/login`, {
    method: 'POST',
    headers: { ...headers, 'Content-Type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  if (login.status !== 200) throw new Error(`superadmin sign-in answered ${login.status}: ${await login.text()}`);
  const cookie = login.headers.get('set-cookie').split(';')[0];

  const all = rows(options);
  const accounts = [];
  for (let start = 0; start < all.length; start += CHUNK) {
    const csv = ['username,name,phone,role,team', ...all.slice(start, start + CHUNK)].join('\n');
    const res = await fetch(`${baseUrl}/api/users/import`, {
      method: 'POST',
      headers: { ...headers, cookie, 'Content-Type': 'text/csv' },
      body: csv,
    });
    const body = await res.json();
    if (res.status !== 200) {
      const wrong = (body.rows ?? []).filter((r) => r.action === 'error').slice(0, 5);
      const why = wrong.map((r) => `row ${r.row} (${r.username}): ${r.errors.map((e) => `${e.field}: ${e.message}`).join('; ')}`);
      throw new Error(`import answered ${res.status}: ${body.message ?? ''}\n  ${why.join('\n  ')}`);
    }
    // username,name,password,pin, as the import gives them, once.
    for (const line of (body.credentialsCsv ?? '')
      .split(/\r?\n/)
      .slice(1)
      .map((l) => l.trim())
      .filter(Boolean)) {
      const cells = line.split(',').map((c) => c.trim());
      const [user, pin, pass] = [cells[0], cells.at(-1), cells.at(-2)];
      accounts.push(`${user},${pass},${pin},${user.startsWith(`${options.prefix}m`) ? 'admin' : 'worker'}`);
    }
    process.stdout.write(`imported ${Math.min(start + CHUNK, all.length)} of ${all.length} (${body.summary.created} new)\n`);
  }
  mkdirSync(dirname(options.out), { recursive: true });
  writeFileSync(options.out, `username,password,pin,role\n${accounts.join('\n')}\n`, { mode: 0o600 });
  process.stdout.write(`${accounts.length} accounts with their credentials in ${options.out}\n`);
  return options.out;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  seed(args(process.argv.slice(2))).catch((err) => {
    process.stderr.write(`seed: ${err.message}\n`);
    process.exit(1);
  });
}
