// One project's unit tests (`*.spec.ts`, `*.spec.tsx`): no server, no build but the generated
// contracts. Each project's `test` script runs it, so `nx run @lws/shifts:test` tests the shifts
// service alone and `nx affected -t test` only what a change touches.
import { spawnSync } from 'node:child_process';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const project = relative(root, process.cwd()).split('\\').join('/');
// PGlite loads its WebAssembly through a dynamic import(), which Jest's module VM only allows with this flag.
const nodeOptions = `${process.env.NODE_OPTIONS ?? ''} --experimental-vm-modules --disable-warning=ExperimentalWarning`.trim();
const r = spawnSync(
  'npx',
  ['jest', '--ci', '--passWithNoTests', '--testMatch', '**/*.spec.ts', '**/*.spec.tsx', '--', `^${root}/${project}/`],
  {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, OTEL_SDK_DISABLED: 'true', NODE_OPTIONS: nodeOptions },
  },
);
process.exit(r.status ?? 1);
