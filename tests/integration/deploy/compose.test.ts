/**
 * docker-compose.yml and the Dockerfile cannot run here (no Docker daemon), so they
 * are held to the same topology and configuration as the chart by reading them.
 * What an image holds, and that it starts, is images.test.ts.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';

const root = resolve(__dirname, '../../..');
const SERVICES = ['gateway', 'identity', 'locations', 'shifts', 'escalation', 'notifications', 'audit'];
const DATABASE_SERVICES = SERVICES.filter((s) => s !== 'gateway');
const INFRA = ['postgres', 'nats', 'redis'];
const SECRET_VARS = ['LWS_SUPERADMIN_PASSWORD', 'PIN_HASH_KEY', 'TWILIO_AUTH_TOKEN', 'TWILIO_ACCOUNT_SID', 'VAPID_PRIVATE_KEY'];

const configVars = JSON.parse(readFileSync(join(root, 'charts/lws/config-vars.json'), 'utf8')) as Record<string, string[]>;
const allowedVars = (service: string): Set<string> => new Set([...configVars.common, ...(configVars[service] ?? [])]);
const chartValues = parse(readFileSync(join(root, 'charts/lws/values.yaml'), 'utf8'));

const compose = parse(readFileSync(join(root, 'docker-compose.yml'), 'utf8'), { merge: true });
const composeService = (name: string) => compose.services[name];
const composeEnv = (name: string): Record<string, unknown> => composeService(name).environment ?? {};

type Instruction = { keyword: string; args: string };

/** Instructions of the Dockerfile, continuation lines joined, comments dropped. */
function dockerfileInstructions(): Instruction[] {
  const text = readFileSync(join(root, 'Dockerfile'), 'utf8');
  const logical: string[] = [];
  let current = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (current === '' && (line === '' || line.startsWith('#'))) continue;
    if (line.endsWith('\\')) {
      current += `${line.slice(0, -1)} `;
      continue;
    }
    logical.push(current + line);
    current = '';
  }
  if (current) logical.push(current);
  return logical.map((line) => {
    const [keyword, ...rest] = line.split(/\s+/);
    return { keyword: keyword.toUpperCase(), args: rest.join(' ') };
  });
}

/** The instructions of one named stage (`FROM <image> AS <name>`). */
function stage(instructions: Instruction[], name: string): Instruction[] {
  const start = instructions.findIndex((i) => i.keyword === 'FROM' && new RegExp(`\\bAS ${name}$`, 'i').test(i.args));
  expect(start).toBeGreaterThanOrEqual(0);
  const next = instructions.findIndex((i, n) => n > start && i.keyword === 'FROM');
  return instructions.slice(start, next < 0 ? undefined : next);
}

/** ENV key=value pairs (the only ENV form the Dockerfiles use). */
function envPairs(stage: Instruction[]): Record<string, string> {
  const pairs: Record<string, string> = {};
  for (const { args } of stage.filter((i) => i.keyword === 'ENV')) {
    for (const pair of args.split(/\s+/)) {
      const eq = pair.indexOf('=');
      expect(eq).toBeGreaterThan(0);
      pairs[pair.slice(0, eq)] = pair.slice(eq + 1);
    }
  }
  return pairs;
}

function dockerignorePatterns(): string[] {
  return readFileSync(join(root, '.dockerignore'), 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
}

describe('docker-compose.yml', () => {
  test('describes the platform: PostgreSQL 16, NATS with JetStream, Redis 7 and the seven services', () => {
    expect(Object.keys(compose.services).sort()).toEqual([...INFRA, ...SERVICES].sort());
    expect(composeService('postgres').image).toMatch(/^postgres:16/);
    expect(composeService('redis').image).toMatch(/^redis:7/);
    const nats = composeService('nats');
    expect(nats.image).toMatch(/^nats:2\.(1\d|[2-9]\d)/);
    expect(nats.command).toEqual(['nats-server', '-c', '/etc/nats/nats.conf']);
    expect(nats.volumes).toContain('./deploy/nats.conf:/etc/nats/nats.conf:ro');
  });

  test('NATS keeps JetStream on the data volume and fsyncs every write before acknowledging it', () => {
    const conf = readFileSync(join(root, 'deploy/nats.conf'), 'utf8').replace(/#.*$/gm, '');
    const jetstream = /jetstream\s*\{([^}]*)\}/.exec(conf)?.[1] ?? '';
    expect(jetstream).toMatch(/^\s*store_dir:\s*\/data\s*$/m);
    expect(jetstream).toMatch(/^\s*sync_interval:\s*always\s*$/m);
    expect(conf).toMatch(/^\s*http_port:\s*8222\s*$/m);
    expect(composeService('nats').volumes).toContain('nats-data:/data');
  });

  test.each(INFRA)('%s reports its health, so services can wait for it', (name) => {
    const healthcheck = composeService(name).healthcheck;
    expect(healthcheck?.test).toBeDefined();
    expect(healthcheck.disable).not.toBe(true);
  });

  test.each(SERVICES)('%s never has the test clock switched on', (name) => {
    expect(composeEnv(name)).not.toHaveProperty('LWS_TEST_CLOCK');
  });

  test('the NATS health check asks the monitoring port', () => {
    expect(composeService('nats').healthcheck.test.join(' ')).toContain(':8222/healthz');
  });

  test.each(SERVICES)('%s is built from the one Dockerfile, naming the service, with the repository root as context', (name) => {
    const build = composeService(name).build;
    expect(build).toEqual({ context: '.', dockerfile: 'Dockerfile', target: 'runtime', args: { SERVICE: name } });
    expect(existsSync(join(root, build.dockerfile))).toBe(true);
  });

  test.each(SERVICES)('%s starts only once the servers it needs are healthy', (name) => {
    const dependsOn = composeService(name).depends_on;
    const needs = ['nats', ...(name === 'gateway' ? ['redis'] : ['postgres'])];
    for (const server of needs) expect(dependsOn?.[server]).toEqual({ condition: 'service_healthy' });
  });

  test.each(SERVICES)('%s receives only variables its configuration schema knows', (name) => {
    const allowed = allowedVars(name);
    expect(Object.keys(composeEnv(name)).filter((v) => !allowed.has(v))).toEqual([]);
  });

  test.each(SERVICES)('%s binds to 0.0.0.0 and joins NATS', (name) => {
    expect(composeEnv(name).HOST).toBe('0.0.0.0');
    expect(composeEnv(name).NATS_URL).toBe('nats://nats:4222');
  });

  test.each(DATABASE_SERVICES)('%s uses the compose PostgreSQL, listening on the port the chart probes', (name) => {
    expect(String(composeEnv(name).DATABASE_URL)).toMatch(/^postgres:\/\/[^@]+@postgres:5432\/lws$/);
    expect(Number(composeEnv(name).HEALTH_PORT)).toBe(chartValues.services[name].port);
  });

  test('the gateway keeps sessions in the compose Redis and has no database', () => {
    const env = composeEnv('gateway');
    expect(env.REDIS_URL).toBe('redis://redis:6379');
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.HEALTH_PORT).toBeUndefined();
    expect(Number(env.PORT)).toBe(chartValues.services.gateway.port);
  });

  test('only the gateway is published, and only on 127.0.0.1:8080', () => {
    expect(composeService('gateway').ports).toEqual(['127.0.0.1:8080:8080']);
    for (const name of [...INFRA, ...DATABASE_SERVICES]) expect(composeService(name).ports).toBeUndefined();
  });

  test('no secret is written into the file: secrets pass through from the environment', () => {
    for (const name of SERVICES) {
      for (const variable of SECRET_VARS) {
        const value = composeEnv(name)[variable];
        // Passed through from the shell: optional (no value) or required (${VAR:?message}).
        if (variable in composeEnv(name)) {
          if (value !== null) expect(value).toMatch(new RegExp(`^\\$\\{${variable}:\\?[^}]+\\}$`));
        }
      }
    }
    expect(composeService('postgres').environment.POSTGRES_PASSWORD).toMatch(/^\$\{POSTGRES_PASSWORD:-[^}]*local[^}]*\}$/);
  });

  test('identity cannot start without a PIN hash key: compose asks for one instead of a default', () => {
    expect(composeEnv('identity').PIN_HASH_KEY).toMatch(/^\$\{PIN_HASH_KEY:\?[^}]+\}$/);
  });

  test('no variable is set to an empty string, which a config schema would reject', () => {
    for (const name of SERVICES) {
      for (const [variable, value] of Object.entries(composeEnv(name))) {
        expect({ variable, value }).not.toEqual({ variable, value: '' });
        if (typeof value === 'string') expect(value).not.toMatch(/^\$\{[A-Z_]+:-\}$/);
      }
    }
  });
});

describe('the Dockerfile', () => {
  const instructions = dockerfileInstructions();
  const final = instructions.slice(instructions.map((i) => i.keyword).lastIndexOf('FROM'));
  const runs = instructions.filter((i) => i.keyword === 'RUN').map((i) => i.args);

  test('is multi-stage and ends on the runtime stage, the slim Node 24 LTS image', () => {
    expect(instructions.filter((i) => i.keyword === 'FROM').length).toBeGreaterThanOrEqual(3);
    expect(final[0].args).toMatch(/^node:24-bookworm-slim AS runtime$/);
    // Every Node stage is on the same major version as the runtime.
    for (const from of instructions.filter((i) => i.keyword === 'FROM' && i.args.startsWith('node:')))
      expect(from.args).toMatch(/^node:24-/);
  });

  test('installs exactly the lockfile and builds once, whatever the service', () => {
    const build = stage(instructions, 'build');
    expect(build.map((i) => i.args).join('\n')).not.toContain('SERVICE');
    expect(build.filter((i) => i.keyword === 'RUN').map((i) => i.args)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^npm ci\b/), 'npm run build']),
    );
  });

  test('the bundle stage takes the service from the build argument and assembles it with scripts/image.mjs', () => {
    const bundle = stage(instructions, 'bundle');
    expect(bundle.some((i) => i.keyword === 'ARG' && i.args === 'SERVICE')).toBe(true);
    expect(
      bundle
        .filter((i) => i.keyword === 'RUN')
        .map((i) => i.args)
        .join('\n'),
    ).toContain('node scripts/image.mjs "$SERVICE" /out');
    expect(runs.some((r) => /npm (prune|install) /.test(r))).toBe(false);
  });

  test('runs as a non-root user', () => {
    const users = final.filter((i) => i.keyword === 'USER').map((i) => i.args.split(':')[0]);
    expect(users.length).toBeGreaterThan(0);
    expect(['root', '0']).not.toContain(users[users.length - 1]);
    const lastUser = final.map((i) => i.keyword).lastIndexOf('USER');
    expect(final.map((i) => i.keyword).lastIndexOf('CMD')).toBeGreaterThan(lastUser);
  });

  test("starts the image's main.js, which scripts/image.mjs writes for the service", () => {
    const cmds = final.filter((i) => i.keyword === 'CMD');
    expect(cmds).toHaveLength(1);
    expect(JSON.parse(cmds[0].args)).toEqual(['node', 'main.js']);
  });

  test("listens on 0.0.0.0 in production mode; each service's port default is the one the chart probes", () => {
    const env = envPairs(final);
    expect(env).toEqual({ NODE_ENV: 'production', HOST: '0.0.0.0' });
    const script = readFileSync(join(root, 'scripts/image.mjs'), 'utf8');
    for (const service of SERVICES) {
      const port = chartValues.services[service].port as number;
      expect(script).toMatch(
        new RegExp(`\\b${service}: \\{ portEnv: '${service === 'gateway' ? 'PORT' : 'HEALTH_PORT'}', port: ${port} \\}`),
      );
    }
  });

  test('checks its readiness with node, since the slim image has no curl', () => {
    const healthchecks = final.filter((i) => i.keyword === 'HEALTHCHECK');
    expect(healthchecks).toHaveLength(1);
    const command = healthchecks[0].args.slice(healthchecks[0].args.indexOf('CMD ') + 4);
    expect(JSON.parse(command)).toEqual(['node', 'health.js']);
  });

  test('ships only production files: the runtime copies nothing but the assembled /out', () => {
    const copies = final.filter((i) => i.keyword === 'COPY' || i.keyword === 'ADD');
    expect(copies.map((c) => c.args)).toEqual(['--from=bundle /out/ ./']);
  });

  test("a remote's image holds only that remote's built files, and copies them for the gateway as a non-root user", () => {
    const remote = stage(instructions, 'remote');
    expect(remote.some((i) => i.keyword === 'ARG' && i.args === 'REMOTE')).toBe(true);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the Dockerfile's own ARG reference, as the Dockerfile spells it.
    expect(remote.filter((i) => i.keyword === 'COPY').map((i) => i.args)).toEqual(['--from=build /src/frontends/${REMOTE}/dist/ /remote/']);
    expect(remote.find((i) => i.keyword === 'USER')?.args).toBe('1000:1000');
    expect(JSON.parse(remote.find((i) => i.keyword === 'CMD')!.args)).toEqual(['cp', '-R', '/remote/.', '/target/']);
  });
});

describe('.dockerignore', () => {
  const patterns = dockerignorePatterns();

  test('keeps local installs, build output and embedded data out of the build context', () => {
    for (const pattern of ['**/node_modules', '**/dist', '.data', '.nx']) expect(patterns).toContain(pattern);
  });

  test('keeps every workspace package and the build inputs in the build context', () => {
    const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));
    const workspaceDirs = Object.keys(lock.packages).filter((p) => p !== '' && !p.includes('node_modules'));
    expect(workspaceDirs.length).toBeGreaterThan(0);
    const needed = [
      ...workspaceDirs,
      'package.json',
      'package-lock.json',
      '.npmrc',
      'nx.json',
      'tsconfig.base.json',
      'proto',
      'scripts',
      'tools',
    ];
    const ignoredTopLevel = patterns.filter((p) => !p.includes('*') && !p.includes('/'));
    for (const path of needed) expect(ignoredTopLevel).not.toContain(path.split('/')[0]);
  });
});
