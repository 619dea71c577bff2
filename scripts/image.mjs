// Assembles the files of one service's production image:
//   node scripts/image.mjs <service> <out-dir>
// The Dockerfile runs it in its bundle stage (after npm run build) and copies <out-dir> into the
// runtime image; tests/integration/deploy/images.test.ts runs it for every service, boots the
// result against real servers and checks its dependency list; bench/images.mjs prints the sizes.
//
// <out-dir> gets:
//   node_modules/          `npm ci --omit=dev --omit=optional --workspace services/<service>`:
//                          that service's production dependencies and those of the libraries it
//                          uses, nothing a frontend, a test or a build needs
//   libs/<lib>/            package.json and dist/ of each library the service depends on, and
//                          the translations' files (libs/i18n/locales)
//   services/<service>/    package.json, dist/ and (with a database) drizzle/ migrations
//   frontends/<fe>/dist/   the gateway only: the built shell and remotes it serves
//   main.js, health.js     the image's command and health check
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Each service, the variable carrying the port its probes answer on, and that port's default. */
export const SERVICES = {
  gateway: { portEnv: 'PORT', port: 8080 },
  identity: { portEnv: 'HEALTH_PORT', port: 8081 },
  locations: { portEnv: 'HEALTH_PORT', port: 8082 },
  shifts: { portEnv: 'HEALTH_PORT', port: 8083 },
  escalation: { portEnv: 'HEALTH_PORT', port: 8084 },
  notifications: { portEnv: 'HEALTH_PORT', port: 8085 },
  audit: { portEnv: 'HEALTH_PORT', port: 8086 },
};

/** The frontends the gateway serves from STATIC_DIR (./frontends). */
export const FRONTENDS = ['shell', 'worker', 'admin', 'superadmin', 'kiosk'];

/** The install the image's node_modules comes from; the Dockerfile has no other. */
export const installArgs = (service) => [
  'ci',
  '--omit=dev',
  // Also leaves out what only an optional peer reaches, such as drizzle-orm's PGlite driver: the
  // embedded database is for `npm start`, never for an image.
  '--omit=optional',
  `--workspace=services/${service}`,
  // No install script runs but the native builds below.
  '--ignore-scripts',
  '--prefer-offline',
  '--no-audit',
  '--no-fund',
];

/**
 * Native addons built from source for the image's platform, as the workspace install builds them:
 * argon2's prebuilt linux-x64 binary crashes (SIGSEGV) on this Debian's glibc, its own build does not.
 */
export const NATIVE_BUILDS = ['argon2'];

function copyManifests(out) {
  mkdirSync(out, { recursive: true });
  for (const file of ['package.json', 'package-lock.json', '.npmrc']) cpSync(join(root, file), join(out, file));
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));
  const workspaces = Object.keys(lock.packages).filter((p) => p !== '' && !p.includes('node_modules/'));
  for (const dir of workspaces) {
    mkdirSync(join(out, dir), { recursive: true });
    cpSync(join(root, dir, 'package.json'), join(out, dir, 'package.json'));
  }
  return workspaces;
}

/** The workspace folders npm linked into node_modules/@lws: the libraries the service uses, and itself. */
function linkedWorkspaces(out) {
  const scope = join(out, 'node_modules', '@lws');
  if (!existsSync(scope)) return [];
  return readdirSync(scope).map((name) => relative(out, resolve(scope, readlinkSync(join(scope, name)))));
}

/** Every installed package (hoisted or nested) as name@version, sorted; workspace links excluded. */
export function installedPackages(dir) {
  const found = new Set();
  const visit = (modules) => {
    if (!existsSync(modules)) return;
    for (const entry of readdirSync(modules)) {
      if (entry.startsWith('.')) continue;
      const names = entry.startsWith('@') ? readdirSync(join(modules, entry)).map((n) => `${entry}/${n}`) : [entry];
      for (const name of names) {
        const path = join(modules, name);
        if (name.startsWith('@lws/')) continue;
        const manifest = join(path, 'package.json');
        if (!existsSync(manifest)) continue;
        const { version } = JSON.parse(readFileSync(manifest, 'utf8'));
        found.add(`${name}@${version}`);
        visit(join(path, 'node_modules'));
      }
    }
  };
  visit(join(dir, 'node_modules'));
  return [...found].sort();
}

/** Bytes on disk under dir (files only, links not followed). */
export function sizeOf(dir) {
  let bytes = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) bytes += sizeOf(path);
    else if (entry.isFile()) bytes += statSync(path).size;
  }
  return bytes;
}

const skipBuildLeftovers = (src) => !src.endsWith('.tsbuildinfo');

/**
 * Writes the image's files for `service` into `out` (emptied first) from this checkout, which must
 * be built. Returns the installed packages and the size in bytes.
 */
export function assembleImage(service, out, { quiet = false } = {}) {
  const probe = SERVICES[service];
  if (!probe) throw new Error(`unknown service "${service}": one of ${Object.keys(SERVICES).join(', ')}`);
  rmSync(out, { recursive: true, force: true });
  const workspaces = copyManifests(out);
  const stdio = quiet ? 'pipe' : 'inherit';
  execFileSync('npm', installArgs(service), { cwd: out, stdio });
  for (const name of NATIVE_BUILDS) {
    if (!existsSync(join(out, 'node_modules', name))) continue;
    execFileSync('npm', ['rebuild', name, '--no-audit', '--no-fund'], { cwd: out, stdio });
    // The addon stays; the compiler's intermediate files go.
    rmSync(join(out, 'node_modules', name, 'build', 'Release', 'obj.target'), { recursive: true, force: true });
  }

  const linked = linkedWorkspaces(out);
  for (const dir of workspaces) {
    if (!linked.includes(dir)) {
      rmSync(join(out, dir), { recursive: true, force: true });
      continue;
    }
    const dist = join(root, dir, 'dist');
    if (!existsSync(dist)) throw new Error(`${dir}/dist is missing: run npm run build first`);
    cpSync(dist, join(out, dir, 'dist'), { recursive: true, filter: skipBuildLeftovers });
    // A service's migrations, the translations' files (libs/i18n).
    for (const data of ['drizzle', 'locales']) {
      const from = join(root, dir, data);
      if (existsSync(from)) cpSync(from, join(out, dir, data), { recursive: true });
    }
  }
  // Folders left empty by the workspaces the service does not use.
  for (const parent of ['libs', 'services', 'frontends', 'tools']) {
    const path = join(out, parent);
    if (existsSync(path) && readdirSync(path).length === 0) rmSync(path, { recursive: true });
  }
  if (service === 'gateway') {
    for (const fe of FRONTENDS) {
      const dist = join(root, 'frontends', fe, 'dist');
      if (!existsSync(dist)) throw new Error(`frontends/${fe}/dist is missing: run npm run build first`);
      cpSync(dist, join(out, 'frontends', fe, 'dist'), { recursive: true });
    }
  }
  for (const file of ['package-lock.json', '.npmrc']) rmSync(join(out, file), { force: true });

  writeFileSync(
    join(out, 'main.js'),
    `// The command of the lws/${service} image (written by scripts/image.mjs).\nrequire('./services/${service}/dist/main.js');\n`,
  );
  // Docker's health status gates the docker compose start order, so it asks for readiness.
  // Kubernetes ignores it and probes /healthz and /readyz itself.
  writeFileSync(
    join(out, 'health.js'),
    `// The health check of the lws/${service} image (written by scripts/image.mjs): is it ready?\n` +
      `const port = process.env.${probe.portEnv} || '${probe.port}';\n` +
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the health check's own template literal, written out as its source.
      'fetch(`http://127.0.0.1:${port}/readyz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1));\n',
  );
  return { packages: installedPackages(out), bytes: sizeOf(out) };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const json = args.includes('--json');
  const [service, out] = args.filter((a) => a !== '--json');
  if (!service || !out) {
    console.error(`usage: node scripts/image.mjs <${Object.keys(SERVICES).join('|')}> <out-dir> [--json]`);
    process.exit(2);
  }
  const { packages, bytes } = assembleImage(service, resolve(out), { quiet: json });
  if (json)
    console.log(JSON.stringify({ service, ...SERVICES[service], frontends: service === 'gateway' ? FRONTENDS : [], packages, bytes }));
  else console.log(`lws/${service}: ${packages.length} packages, ${(bytes / 1024 / 1024).toFixed(1)} MiB in ${out}`);
}
