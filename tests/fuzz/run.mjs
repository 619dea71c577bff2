#!/usr/bin/env node
// The fuzzer's long run: node tests/fuzz/run.mjs --requests 20000 [--seed N] [--max-ms 1000]
// Runs tests/fuzz/fuzz.test.ts with those figures (the whole stack on the real servers, as
// `npm test` does), holds every answer to --max-ms, and prints counts per status and mutation,
// answer times and any finding. Needs `npm run build` (or `npm test`) once before.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const { values } = parseArgs({
  options: {
    requests: { type: 'string', default: '20000' },
    seed: { type: 'string', default: '20261125' },
    'max-ms': { type: 'string', default: '1000' },
  },
});
for (const [name, v] of Object.entries(values)) {
  if (!/^\d+$/.test(v)) {
    process.stderr.write(`--${name} must be a whole number\n`);
    process.exit(2);
  }
}
const dir = mkdtempSync(join(tmpdir(), 'lws-fuzz-'));
const reportFile = join(dir, 'report.json');
const started = Date.now();
const run = spawnSync(
  process.execPath,
  ['--experimental-vm-modules', '--disable-warning=ExperimentalWarning', join(root, 'node_modules/jest/bin/jest.js'), 'tests/fuzz'],
  {
    cwd: root,
    stdio: 'inherit',
    env: {
      ...process.env,
      OTEL_SDK_DISABLED: 'true',
      FUZZ_REQUESTS: values.requests,
      FUZZ_SEED: values.seed,
      FUZZ_MAX_MS: values['max-ms'],
      FUZZ_REPORT: reportFile,
    },
  },
);
let report;
try {
  report = JSON.parse(readFileSync(reportFile, 'utf8'));
} catch {
  process.stderr.write('The fuzzer wrote no report (the stack did not start?); see the output above.\n');
  rmSync(dir, { recursive: true, force: true });
  process.exit(run.status || 1);
}
rmSync(dir, { recursive: true, force: true });
const line = (o) =>
  Object.entries(o)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, v]) => `${k}: ${v}`)
    .join(', ');
const over = report.slowest.filter((s) => s.ms > Number(values['max-ms']));
process.stdout.write(
  [
    '',
    `Fuzzer: ${report.requests} requests, seed ${report.seed}, ${Math.round((Date.now() - started) / 1000)} s`,
    `  per status:   ${line(report.byStatus)}`,
    `  per mutation: ${line(report.byMutation)}`,
    `  5xx: ${report.findings.filter((f) => f.kind === '5xx').length}   state changed on a rejected request: ${report.findings.filter((f) => f.kind === 'state changed').length}   no answer: ${report.findings.filter((f) => f.kind === 'no answer').length}`,
    `  answer time:  p50 ${report.p50Ms} ms, p99 ${report.p99Ms} ms, max ${report.maxMs} ms (${over.length} over ${values['max-ms']} ms)`,
    ...report.findings.slice(0, 20).map((f) => `  ${f.kind} ${f.status ?? ''} ${f.request}: ${f.detail.slice(0, 200)}`),
    '',
  ].join('\n'),
);
process.exit(run.status ?? 1);
