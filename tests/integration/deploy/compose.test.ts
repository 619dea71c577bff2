/**
 * docker-compose.yml and the service Dockerfiles cannot run here (no Docker
 * daemon), so they are held to the same topology and configuration as the chart
 * by reading them.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';

const root = resolve(__dirname, '../../..');
const SERVICES = ['gateway', 'identity', 'locations', 'shifts', 'escalation', 'notifications', 'audit'];
const DATABASE_SERVICES = SERVICES.filter((s) => s !== 'gateway');
const INFRA = ['postgres', 'nats', 'redis'];
const SECRET_VARS = ['LWS_SUPERADMIN_PASSWORD', 'PIN_HASH_KEY', 'TWILIO_AUTH_TOKEN', 'TWILIO_ACCOUNT_SID', 'VAPID_PRIVATE_KEY'];

const configVars = JSON.parse(readFileSync(join(root, 'charts/lws/config-vars.json'), 'utf8')) as Record<
  string,
  string[]
>;
const allowedVars = (service: string): Set<string> =>
  new Set([...configVars.common, ...(configVars[service] ?? [])]);
const chartValues = parse(readFileSync(join(root, 'charts/lws/values.yaml'), 'utf8'));

const compose = parse(readFileSync(join(root, 'docker-compose.yml'), 'utf8'), { merge: true });
const composeService = (name: string) => compose.services[name];
const composeEnv = (name: string): Record<string, unknown> => composeService(name).environment ?? {};

type Instruction = { keyword: string; args: string };

/** Instructions of a Dockerfile, continuation lines joined, comments dropped. */
function dockerfileInstructions(service: string): Instruction[] {
  const text = readFileSync(join(root, 'services', service, 'Dockerfile'), 'utf8');
  const logical: string[] = [];
  let current = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (current === '' && (line === '' || line.startsWith('#'))) continue;
    if (line.endsWith('\\')) {
      current += line.slice(0, -1) + ' ';
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

/** The instructions of the last stage, the one that becomes the image. */
function finalStage(instructions: Instruction[]): Instruction[] {
  const lastFrom = instructions.map((i) => i.keyword).lastIndexOf('FROM');
  return instructions.slice(lastFrom);
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

  test.each(SERVICES)('%s is built from its own Dockerfile with the repository root as context', (name) => {
    const build = composeService(name).build;
    expect(build.context).toBe('.');
    expect(build.dockerfile).toBe(`services/${name}/Dockerfile`);
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

  test.each(DATABASE_SERVICES)('%s uses the compose PostgreSQL, listening where its Dockerfile says', (name) => {
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

describe.each(SERVICES)('services/%s/Dockerfile', (service) => {
  const instructions = dockerfileInstructions(service);
  const final = finalStage(instructions);
  const port = chartValues.services[service].port as number;

  test('is multi-stage and ends on the slim Node 20 runtime', () => {
    expect(instructions.filter((i) => i.keyword === 'FROM').length).toBeGreaterThanOrEqual(2);
    expect(final[0].args).toMatch(/^node:20-bookworm-slim\b/);
  });

  test('installs from the lockfile and builds with npm run build, then drops dev dependencies', () => {
    const runs = instructions.filter((i) => i.keyword === 'RUN').map((i) => i.args);
    expect(runs.some((r) => /\bnpm (ci|install)\b/.test(r))).toBe(true);
    expect(runs.some((r) => /\bnpm run build\b/.test(r))).toBe(true);
    expect(runs.some((r) => /npm (prune|ci) --omit=dev/.test(r))).toBe(true);
  });

  test('runs as a non-root user', () => {
    const users = final.filter((i) => i.keyword === 'USER').map((i) => i.args.split(':')[0]);
    expect(users.length).toBeGreaterThan(0);
    expect(['root', '0']).not.toContain(users[users.length - 1]);
    const lastUser = final.map((i) => i.keyword).lastIndexOf('USER');
    expect(final.map((i) => i.keyword).lastIndexOf('CMD')).toBeGreaterThan(lastUser);
  });

  test('starts the service from its compiled dist/main.js', () => {
    const cmds = final.filter((i) => i.keyword === 'CMD');
    expect(cmds).toHaveLength(1);
    expect(JSON.parse(cmds[0].args)).toEqual(['node', `services/${service}/dist/main.js`]);
  });

  test('listens on 0.0.0.0 in production mode, on the port the chart probes', () => {
    const env = envPairs(final);
    expect(env.HOST).toBe('0.0.0.0');
    expect(env.NODE_ENV).toBe('production');
    const allowed = allowedVars(service);
    expect(Object.keys(env).filter((v) => !allowed.has(v))).toEqual([]);
    expect(Number(env[service === 'gateway' ? 'PORT' : 'HEALTH_PORT'])).toBe(port);
    expect(final.filter((i) => i.keyword === 'EXPOSE').map((i) => Number(i.args))).toEqual([port]);
  });

  test('checks its health with node, since the slim image has no curl', () => {
    const healthchecks = final.filter((i) => i.keyword === 'HEALTHCHECK');
    expect(healthchecks).toHaveLength(1);
    const command = healthchecks[0].args.slice(healthchecks[0].args.indexOf('CMD ') + 4);
    const argv = JSON.parse(command) as string[];
    expect(argv[0]).toBe('node');
    expect(argv.join(' ')).toMatch(/\/(readyz|healthz)/);
  });

  test('ships only production files: no sources copied into the runtime image', () => {
    const copies = final.filter((i) => i.keyword === 'COPY' || i.keyword === 'ADD');
    expect(copies.length).toBeGreaterThan(0);
    for (const copy of copies) expect(copy.args).toMatch(/^--from=/);
    const bundle = instructions.filter((i) => i.keyword === 'RUN').map((i) => i.args).join('\n');
    expect(bundle).toContain(`services/${service}/dist`);
    if (service === 'gateway') {
      for (const frontend of ['shell', 'worker', 'admin', 'superadmin', 'kiosk']) expect(bundle).toContain(frontend);
      expect(bundle).toContain('frontends/$fe/dist');
    } else {
      expect(bundle).toContain(`services/${service}/drizzle`);
    }
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

describe('the service Dockerfiles', () => {
  // Seven near-identical files are what the issue asks for (one Dockerfile per service); this keeps
  // them in step, so a fix made to one cannot silently miss the others.
  test('the six database services differ only in their name and health port', () => {
    const normalised = DATABASE_SERVICES.map((service) => {
      const port = String(chartValues.services[service].port);
      return readFileSync(join(root, 'services', service, 'Dockerfile'), 'utf8')
        .replace(new RegExp(`(?<=services/|lws/|LWS )${service}\\b`, 'g'), '<svc>')
        .split(port)
        .join('<port>');
    });
    for (const text of normalised) expect(text).toBe(normalised[0]);
  });
});
