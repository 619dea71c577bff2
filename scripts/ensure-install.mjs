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
  // npm install keeps every locked version and leaves package-lock.json unchanged, and unlike
  // npm ci it keeps a node_modules that is already there.
  execSync('npm install --no-audit --no-fund', { cwd: root, stdio: 'inherit' });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) ensureInstall();
