// `npm start`: install if needed, build, then run every service in one process.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { ensureInstall } from './ensure-install.mjs';
import { build } from './build.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
ensureInstall();
if (!process.argv.includes('--no-build')) build();

const child = spawn(process.execPath, [join(root, 'tools/stack/dist/cli.js')], {
  cwd: root,
  stdio: 'inherit',
  env: { LOG_LEVEL: 'warn', ...process.env },
});
// The child handles Ctrl-C itself (it shuts every service down cleanly); we only wait for it.
process.on('SIGINT', () => {});
process.on('SIGTERM', () => child.kill('SIGTERM'));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
