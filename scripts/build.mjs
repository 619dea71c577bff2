// Builds every project (contracts generation, libraries, services, frontends) through Nx's task graph.
import { execSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { ensureInstall } from './ensure-install.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

export function build() {
  execSync('npx nx run-many -t build --output-style=stream', {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, NX_NO_CLOUD: 'true', NX_DAEMON: 'false', NX_TUI: 'false' },
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  // `npm run build` on its own installs first, as `npm start` and `npm test` do.
  ensureInstall();
  build();
}
