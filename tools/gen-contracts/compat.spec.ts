import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// The contract check `npm test` runs: proto/ against proto/compat-baseline.json, and the
// breaking changes it must catch, each made to a copy of proto/.

const REPO = join(__dirname, '..', '..');
const CLI = join(__dirname, 'compat.mjs');

function check(proto: string, baseline: string, ...extra: string[]) {
  const r = spawnSync(process.execPath, [CLI, '--proto', proto, '--baseline', baseline, ...extra], { encoding: 'utf8' });
  return { status: r.status, output: `${r.stdout}${r.stderr}` };
}

/** A copy of proto/ and its baseline, with one file edited. */
function edited(file: string, from: string, to: string) {
  const dir = mkdtempSync(join(tmpdir(), 'lws-proto-'));
  cpSync(join(REPO, 'proto'), join(dir, 'proto'), { recursive: true });
  const path = join(dir, 'proto', file);
  const text = readFileSync(path, 'utf8');
  expect(text).toContain(from);
  writeFileSync(path, text.replace(from, to));
  return { proto: join(dir, 'proto'), baseline: join(REPO, 'proto', 'compat-baseline.json'), dir };
}

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('the contract check: proto/ against the recorded baseline', () => {
  it('passes on the repository as it is: every change to proto/ is compatible and recorded', () => {
    const r = check(join(REPO, 'proto'), join(REPO, 'proto', 'compat-baseline.json'));
    expect(r.output).toContain('contracts: proto/ is compatible with proto/compat-baseline.json');
    expect(r.status).toBe(0);
  });

  it.each([
    [
      'a removed field',
      'shifts.proto',
      "  int32 user_id = 1 [(lws.rules).min = 1];\n  // Absent: the shift's location.",
      "  // Absent: the shift's location.",
      'lws.shifts.RecordCheckInRequest.userId (1) was removed',
    ],
    [
      'a renumbered field',
      'shifts.proto',
      'optional string made_at = 5',
      'optional string made_at = 15',
      'lws.shifts.RecordCheckInRequest.madeAt was renumbered from 5 to 15',
    ],
    [
      'a changed type',
      'shifts.proto',
      'optional string made_at = 5 [(lws.rules).format = "datetime"]',
      'optional int64 made_at = 5',
      'lws.shifts.RecordCheckInRequest.madeAt changed type from string to int64',
    ],
    [
      'a changed subject',
      'shifts.proto',
      'option (lws.subject) = "shifts.checkin.recorded.v1";',
      'option (lws.subject) = "shifts.checkin.recorded.v2";',
      'event shifts.checkin.recorded.v1 was removed',
    ],
    [
      'a new required field',
      'shifts.proto',
      'optional string made_at = 5',
      'string made_at = 5',
      'lws.shifts.RecordCheckInRequest.madeAt is now required',
    ],
    [
      'a tightened rule',
      'notifications.proto',
      'string call_sid = 1 [(lws.rules) = { min_len: 1, max_len: 64 }];',
      'string call_sid = 1 [(lws.rules) = { min_len: 1, max_len: 32 }];',
      'lws.notifications.FakeAnswerRequest.callSid now allows at most 32 characters (was 64)',
    ],
  ])('fails on %s, naming it', (_what, file, from, to, named) => {
    const copy = edited(file, from, to);
    dirs.push(copy.dir);
    const r = check(copy.proto, copy.baseline);
    expect(r.output).toContain(named);
    expect(r.output).toContain('breaking change');
    expect(r.status).toBe(1);
    // A breaking change is never recorded as the new baseline.
    expect(check(copy.proto, copy.baseline, '--update').status).toBe(1);
  });

  it('asks for a compatible change to be recorded, then passes', () => {
    const copy = edited(
      'shifts.proto',
      'optional string made_at = 5 [(lws.rules).format = "datetime"];',
      'optional string made_at = 5 [(lws.rules).format = "datetime"];\n  optional string note = 15;',
    );
    dirs.push(copy.dir);
    const baseline = join(copy.dir, 'baseline.json');
    cpSync(copy.baseline, baseline);
    const before = check(copy.proto, baseline);
    expect(before.output).toContain('proto/ changed compatibly; record it with `npm run contracts:baseline`');
    expect(before.status).toBe(1);
    expect(check(copy.proto, baseline, '--update').status).toBe(0);
    expect(check(copy.proto, baseline).status).toBe(0);
  });
});
