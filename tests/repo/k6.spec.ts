import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

// The k6 scripts (bench/k6) type-check against @types/k6: k6 cannot be installed here,
// so this is what keeps them runnable (their calls are checked against a real stack by
// tests/integration/k6-plans.test.ts).

const DIR = join(__dirname, '..', '..', 'bench', 'k6');

describe('the k6 scripts', () => {
  it('are the four load scenarios: the check-in journey, a login storm, monitors watching, a shift change', () => {
    expect(
      readdirSync(DIR)
        .filter((f) => f.endsWith('.ts'))
        .sort(),
    ).toEqual(['checkin-journey.ts', 'login-storm.ts', 'monitors-watching.ts', 'shift-change.ts']);
  });

  it('type-check against @types/k6', () => {
    const r = spawnSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', join(DIR, 'tsconfig.json')], { encoding: 'utf8' });
    expect(`${r.stdout}${r.stderr}`).toBe('');
    expect(r.status).toBe(0);
  });
});
