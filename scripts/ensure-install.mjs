// Installs dependencies when node_modules is missing or older than package-lock.json.
import { existsSync, statSync } from 'node:fs';
import { execSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

export function ensureInstall() {
  // npm writes node_modules/.package-lock.json after every successful install.
  const installed = join(root, 'node_modules', '.package-lock.json');
  const lock = join(root, 'package-lock.json');
  if (existsSync(installed) && statSync(installed).mtimeMs >= statSync(lock).mtimeMs) return;
  process.stdout.write('Installing dependencies...\n');
  // A fresh clone installs exactly the lockfile (it lists every platform's optional packages, so
  // the tree stays clean). Later, after a package.json changed, npm install keeps every locked
  // version, records the change in the lockfile, and keeps the node_modules that is there.
  const fresh = !existsSync(join(root, 'node_modules'));
  execSync(fresh ? 'npm ci --no-audit --no-fund' : 'npm install --no-audit --no-fund', { cwd: root, stdio: 'inherit' });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) ensureInstall();
