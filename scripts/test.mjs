// `npm test`: install if needed, build, check the servers, then unit + integration (Jest) and browser (Playwright) tests.
// `npm test -- lint` (Biome: format and rules), `-- unit` (no server, no build), `-- integration`, `-- e2e` run one part; several may be named.
import { execSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import net from 'node:net';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { ensureInstall } from './ensure-install.mjs';
import { build } from './build.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const only = (name) => args.length === 0 || args.includes(name);

const servers = [
  { name: 'PostgreSQL', url: process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres' },
  { name: 'NATS', url: process.env.TEST_NATS_URL ?? 'nats://127.0.0.1:4222' },
  { name: 'Redis', url: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379' },
];

function reachable({ url }) {
  const u = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect({ host: u.hostname, port: Number(u.port), timeout: 2000 });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(false));
  });
}

function ensureChromium() {
  if (existsSync('/usr/bin/chromium')) return;
  if (process.getuid?.() === 0 && existsSync('/usr/bin/apt-get')) {
    process.stdout.write('Installing Debian chromium for the browser tests...\n');
    execSync('apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium', { stdio: 'inherit' });
    return;
  }
  throw new Error('Browser tests need Debian chromium at /usr/bin/chromium: run `apt-get install -y chromium`');
}

function run(cmd, cmdArgs, env = {}) {
  const r = spawnSync(cmd, cmdArgs, { cwd: root, stdio: 'inherit', env: { ...process.env, OTEL_SDK_DISABLED: 'true', ...env } });
  return r.status ?? 1;
}

/** Unit tests (`*.spec.ts`, `*.spec.tsx`) need no server; integration tests (`*.test.ts`) and browser tests do. */
const JEST_PARTS = { unit: ['**/*.spec.ts', '**/*.spec.tsx'], integration: ['**/*.test.ts'] };

async function main() {
  ensureInstall();
  const unitOnly = args.length > 0 && args.every((a) => a === 'unit' || a === 'lint');
  if (unitOnly) {
    // Only the generated contracts: every unit test imports sources, never a build.
    if (run('npm', ['run', '--silent', 'gen:contracts']) !== 0) process.exit(1);
  } else {
    const down = [];
    for (const s of servers) if (!(await reachable(s))) down.push(`${s.name} at ${s.url}`);
    if (down.length > 0) {
      process.stderr.write(
        `Cannot run the tests: not reachable: ${down.join(', ')}.\nStart it (see README, "Tests"), or run \`npm test -- unit\`, which needs none.\n`,
      );
      process.exit(2);
    }
    build();
  }
  let failed = 0;
  // The formatter and the linter (biome.jsonc) first: they take a second and name the file and line.
  if (only('lint')) failed += run('npx', ['biome', 'ci', '--error-on-warnings', '.']) === 0 ? 0 : 1;
  const jestParts = Object.keys(JEST_PARTS).filter(only);
  if (jestParts.length > 0) {
    // PGlite loads its WebAssembly through a dynamic import(), which Jest's module VM only allows with this flag.
    const nodeOptions = `${process.env.NODE_OPTIONS ?? ''} --experimental-vm-modules --disable-warning=ExperimentalWarning`.trim();
    const match = jestParts.length === Object.keys(JEST_PARTS).length ? [] : ['--testMatch', ...jestParts.flatMap((p) => JEST_PARTS[p])];
    failed += run('npx', ['jest', '--ci', ...match], { NODE_OPTIONS: nodeOptions }) === 0 ? 0 : 1;
  }
  if (only('e2e')) {
    ensureChromium();
    // Flows tagged @embedded-only run on the embedded stack alone (the three-team flow leaves 1,000 workers behind).
    failed += run('npx', ['playwright', 'test', '-c', 'tests/e2e/playwright.config.ts', '--grep-invert', '@embedded-only']) === 0 ? 0 : 1;
    // The flows tagged @embedded (and @embedded-only) on npm start's embedded defaults (PGlite, in-process bus, in-memory sessions).
    failed +=
      run('npx', ['playwright', 'test', '-c', 'tests/e2e/playwright.config.ts', '--grep', '@embedded'], { LWS_E2E_EMBEDDED: '1' }) === 0
        ? 0
        : 1;
  }
  process.exit(failed === 0 ? 0 : 1);
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
