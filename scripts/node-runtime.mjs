// The Node.js `npm start`, `npm test` and CI run on: the one the images ship (.nvmrc, Node 24 LTS),
// whatever node the machine has (Node 20 reached its end of life in April 2026; tests on another
// runtime do not test what ships). scripts/on-node.sh asks this script for the directory of that
// binary, puts it first on PATH (so that npm, Nx, Jest, Playwright and the stack all run on it) and
// execs the wanted script with it. The first time, the version in .nvmrc is fetched from the npm
// registry (the `node-<platform>-<arch>` package holds the official binary) into .runtime/.
//
//   node scripts/node-runtime.mjs --bin    prints that directory (fetching it first if needed), or
//                                          nothing when the running node is of the same major version
//                                          (an image's node:24, a developer's nvm) or LWS_SYSTEM_NODE=1
//                                          (which keeps the machine's, with a warning)
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The version every script runs on: .nvmrc, which nvm and fnm read too. */
export function wantedNodeVersion() {
  const version = readFileSync(join(root, '.nvmrc'), 'utf8').trim().replace(/^v/, '');
  if (!/^\d+\.\d+\.\d+$/.test(version)) throw new Error(`.nvmrc must hold one exact version (like 24.22.3), not "${version}"`);
  return version;
}

/** Where the fetched binary lives: .runtime/node-v<version>-<platform>-<arch>/bin/node. */
export function runtimeBinDir(version = wantedNodeVersion()) {
  return join(root, '.runtime', `node-v${version}-${process.platform}-${process.arch}`, 'bin');
}

function fetchNode(version) {
  const target = dirname(runtimeBinDir(version));
  const staging = `${target}.partial-${process.pid}`;
  const pkg = `node-${process.platform}-${process.arch}`;
  process.stderr.write(`Fetching Node.js ${version} (${pkg}) from the npm registry into .runtime/ ...\n`);
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const r = spawnSync(
    npm,
    ['install', '--prefix', staging, '--no-save', '--no-package-lock', '--no-audit', '--no-fund', '--ignore-scripts', `${pkg}@${version}`],
    {
      stdio: ['ignore', 2, 'inherit'],
    },
  );
  const binary = join(staging, 'node_modules', pkg, 'bin', 'node');
  if (r.status !== 0 || !existsSync(binary)) {
    rmSync(staging, { recursive: true, force: true });
    throw new Error(
      `Could not fetch Node.js ${version} (npm install ${pkg}@${version} failed). Install Node ${version} yourself, or set LWS_SYSTEM_NODE=1 to run on ${process.version}.`,
    );
  }
  // Another run may have finished first: keep whichever is in place.
  if (!existsSync(target)) renameSync(join(staging, 'node_modules', pkg), target);
  rmSync(staging, { recursive: true, force: true });
}

/** The directory of the wanted node binary, fetched if missing; null when the running node will do. */
export function wantedNodeBin() {
  const version = wantedNodeVersion();
  // Any Node of the same major (the images' node:24, a developer's own) runs the scripts as it is.
  if (process.versions.node.split('.')[0] === version.split('.')[0]) return null;
  if (process.env.LWS_SYSTEM_NODE === '1') {
    process.stderr.write(`Warning: running on Node.js ${process.version}, not ${version} as the images do (LWS_SYSTEM_NODE=1).\n`);
    return null;
  }
  const bin = runtimeBinDir(version);
  if (!existsSync(join(bin, 'node'))) fetchNode(version);
  return bin;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv[2] !== '--bin') {
    process.stderr.write('usage: node scripts/node-runtime.mjs --bin\n');
    process.exit(2);
  }
  try {
    const bin = wantedNodeBin();
    if (bin) process.stdout.write(`${bin}\n`);
  } catch (err) {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  }
}
