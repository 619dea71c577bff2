// Bulk onboarding: POST /api/users/import with a CSV of BENCH_ROWS (10,000)
// workers and admins across three teams, on the whole stack (built output) in a child process on
// real PostgreSQL, NATS and Redis. Times the dry run, the import (target: under 60 s), and the same
// file imported again (every row unchanged), and how long the other services take to hear of every
// new account (their copies holding them all). Fails on a wrong summary or a missed target.
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { startBenchStack } from '../support/stack.mjs';

const ROWS = Number(process.env.BENCH_ROWS ?? 10_000);
const TARGET_S = 60;
const TEAMS = ['North Estates', 'South Care', 'Field Crews'];
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

const s = await startBenchStack('import');
let exitCode = 0;
try {
  const superadmin = await s.login('superadmin');
  for (const name of TEAMS) {
    const res = await s.api('/api/teams', { cookie: superadmin, body: { name } });
    if (res.status !== 201) throw new Error(`team ${name}: ${res.status} ${await res.text()}`);
  }
  // One admin per 500 workers, monitoring a team; a third of the rows choose their PIN.
  const lines = ['username,name,phone,role,team,pin'];
  for (let i = 0; i < ROWS; i++) {
    const admin = i % 500 === 0;
    const pin = !admin && i % 3 === 0 ? String(i % 10_000).padStart(4, '0') : '';
    lines.push(
      `${admin ? 'ba' : 'bw'}${i},"Bench ${admin ? 'Admin' : 'Worker'} ${i}",+447911${String(100000 + i)},${admin ? 'admin' : 'worker'},${TEAMS[i % 3]},${pin}`,
    );
  }
  const csv = `${lines.join('\n')}\n`;
  const workers = lines.filter((l) => l.startsWith('bw')).length;
  const post = async (query) => {
    const t0 = performance.now();
    const res = await s.api(`/api/users/import${query}`, { cookie: superadmin, body: csv, contentType: 'text/csv' });
    const body = await res.json();
    return { ms: performance.now() - t0, status: res.status, body };
  };

  console.log(
    `import: ${ROWS} rows (${workers} workers, ${ROWS - workers} admins, 3 teams), ${(Buffer.byteLength(csv) / 1024).toFixed(0)} KB`,
  );
  const dry = await post('?dryRun=true');
  console.log(`  dry run          ${seconds(dry.ms).padStart(8)}  ${dry.status}  ${JSON.stringify(dry.body.summary)}`);
  const run = await post('');
  console.log(
    `  import           ${seconds(run.ms).padStart(8)}  ${run.status}  ${JSON.stringify(run.body.summary)}  (target < ${TARGET_S} s)`,
  );
  const heardFrom = performance.now();
  const again = await post('');
  console.log(`  the same again   ${seconds(again.ms).padStart(8)}  ${again.status}  ${JSON.stringify(again.body.summary)}`);
  // Every new account in the copies notifications and audit keep: they heard every user.created.
  const db = new pg.Client({ connectionString: s.env.DATABASE_URL });
  await db.connect();
  let heard = 0;
  for (const deadline = Date.now() + 300_000; Date.now() < deadline; await sleep(500)) {
    const { rows } = await db.query(
      `select least(
         (select count(*) from notifications.users n join identity.users u on u.id = n.user_id where u.name like 'Bench %'),
         (select count(*) from audit.users where name like 'Bench %'))::int as n`,
    );
    heard = rows[0].n;
    if (heard >= ROWS) break;
  }
  await db.end();
  console.log(
    `  every account heard by notifications and audit ${seconds(performance.now() - heardFrom)} after the import answered (${heard}/${ROWS})`,
  );
  const credentials = (run.body.credentialsCsv ?? '').trim().split('\r\n').length - 1;
  const ok =
    dry.status === 200 &&
    dry.body.summary.created === ROWS &&
    run.status === 200 &&
    run.body.summary.created === ROWS &&
    credentials === ROWS &&
    again.status === 200 &&
    again.body.summary.unchanged === ROWS &&
    heard === ROWS;
  if (!ok) {
    console.log('  FAILED: a summary, the credentials or the copies in the other services are not what the file asks for');
    exitCode = 1;
  }
  if (run.ms > TARGET_S * 1000) {
    console.log(`  FAILED: the import took longer than ${TARGET_S} s`);
    exitCode = 1;
  }
} catch (err) {
  console.error(err);
  console.error(s.log());
  exitCode = 1;
} finally {
  await s.stop();
}
process.exitCode = exitCode;
