/**
 * charts/lws as an operator meets it: `helm template` renders valid Kubernetes
 * objects for every service, with the probes, hardening, migrations and
 * configuration the services expect, and refuses values that would only fail
 * later in the cluster.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';

const root = resolve(__dirname, '../../..');
const chartDir = join(root, 'charts/lws');
const helm = join(root, 'node_modules/.bin/helm');
const SERVICES = ['gateway', 'identity', 'locations', 'shifts', 'escalation', 'notifications', 'audit'];
const DATABASE_SERVICES = SERVICES.filter((s) => s !== 'gateway');
const DEFAULT_PORTS: Record<string, number> = {
  gateway: 8080,
  identity: 8081,
  locations: 8082,
  shifts: 8083,
  escalation: 8084,
  notifications: 8085,
  audit: 8086,
};
const SECRET_VARS = [
  'DATABASE_URL',
  'NATS_URL',
  'REDIS_URL',
  'LWS_SUPERADMIN_PASSWORD',
  'PIN_HASH_KEY',
  'TWILIO_AUTH_TOKEN',
  'VAPID_PRIVATE_KEY',
];

type K8sObject = {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  // biome-ignore lint/suspicious/noExplicitAny: objects of every kind, each test reading the fields it checks.
  [key: string]: any;
};

/** The items of a manifest's lists that the tests read. */
type Named = { name: string };
type EnvVar = { name: string; value?: string; valueFrom?: { secretKeyRef?: { name: string; key: string } } };
type EnvFrom = { configMapRef?: Named; secretRef?: Named };
type Port = { name: string; port?: number | string; containerPort?: number };
type Alert = { alert: string; labels: Record<string, string>; annotations: Record<string, string> };

const configVars = JSON.parse(readFileSync(join(chartDir, 'config-vars.json'), 'utf8')) as Record<string, string[]>;
const allowedVars = (service: string): Set<string> => new Set([...configVars.common, ...(configVars[service] ?? [])]);

let workDir: string;

function writeValues(name: string, content: string): string {
  const file = join(workDir, name);
  writeFileSync(file, content);
  return file;
}

function helmRun(args: string[]) {
  return spawnSync(helm, args, { cwd: root, encoding: 'utf8' });
}

function render(...valuesFiles: string[]): K8sObject[] {
  const args = ['template', 'lws', chartDir, '--namespace', 'lws'];
  for (const file of valuesFiles) args.push('-f', file);
  const result = helmRun(args);
  if (result.status !== 0) throw new Error(`helm template failed:\n${result.stderr}`);
  return parseAllDocuments(result.stdout)
    .map((doc) => doc.toJS() as K8sObject | null)
    .filter((obj): obj is K8sObject => obj !== null);
}

function renderFailure(valuesFile: string): string {
  const result = helmRun(['template', 'lws', chartDir, '-f', valuesFile]);
  expect(result.status).not.toBe(0);
  return result.stderr;
}

/**
 * kubernetes-models ships as ES modules only, which Jest's CommonJS runtime cannot
 * load, so the objects are validated by a Node child process.
 */
const VALIDATOR = `
const objects = JSON.parse(await new Promise((done) => {
  let text = '';
  process.stdin.on('data', (chunk) => (text += chunk));
  process.stdin.on('end', () => done(text));
}));
const errors = [];
for (const obj of objects) {
  const label = obj.kind + '/' + (obj.metadata && obj.metadata.name);
  let Model;
  // The Prometheus Operator's objects (ServiceMonitor, PrometheusRule) come with their own package.
  const models = obj.apiVersion.startsWith('monitoring.coreos.com/') ? '@kubernetes-models/prometheus-operator/' : 'kubernetes-models/';
  try {
    Model = (await import(models + obj.apiVersion))[obj.kind];
  } catch (error) {
    errors.push(label + ': unknown apiVersion ' + obj.apiVersion);
    continue;
  }
  if (!Model) { errors.push(label + ': unknown kind in ' + obj.apiVersion); continue; }
  try { new Model(obj).validate(); } catch (error) { errors.push(label + ': ' + error.message); }
}
process.stdout.write(JSON.stringify(errors));
`;

function schemaErrors(objects: unknown[]): string[] {
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', VALIDATOR], {
    cwd: root,
    input: JSON.stringify(objects),
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`validator crashed:\n${result.stderr}`);
  return JSON.parse(result.stdout) as string[];
}

const ofKind = (objects: K8sObject[], kind: string) => objects.filter((o) => o.kind === kind);
const component = (obj: K8sObject) => obj.metadata.labels?.['app.kubernetes.io/component'];
const forService = (objects: K8sObject[], kind: string, service: string) => ofKind(objects, kind).filter((o) => component(o) === service);
const isHook = (obj: K8sObject) => Boolean(obj.metadata.annotations?.['helm.sh/hook']);

function deploymentOf(objects: K8sObject[], service: string): K8sObject {
  const found = forService(objects, 'Deployment', service);
  expect(found).toHaveLength(1);
  return found[0];
}

const containerOf = (workload: K8sObject) => workload.spec.template.spec.containers[0];
const envOf = (workload: K8sObject): EnvVar[] => containerOf(workload).env ?? [];
const envValue = (workload: K8sObject, name: string) => envOf(workload).find((e) => e.name === name);
/** The variables a service's Deployment takes from its ConfigMaps. */
const configOf = (objects: K8sObject[], service: string): Record<string, string> => {
  const names = (containerOf(deploymentOf(objects, service)).envFrom ?? []).map((e: EnvFrom) => e.configMapRef?.name);
  return Object.assign(
    {},
    ...ofKind(objects, 'ConfigMap')
      .filter((c) => names.includes(c.metadata.name))
      .map((c) => c.data ?? {}),
  );
};

function secretRefs(workload: K8sObject): string[] {
  const container = containerOf(workload);
  return [
    ...(container.env ?? []).flatMap((e: EnvVar) => (e.valueFrom?.secretKeyRef ? [e.valueFrom.secretKeyRef.name] : [])),
    ...(container.envFrom ?? []).flatMap((e: EnvFrom) => (e.secretRef ? [e.secretRef.name] : [])),
  ];
}

beforeAll(() => {
  expect(existsSync(helm)).toBe(true);
  workDir = mkdtempSync(join(tmpdir(), 'lws-chart-'));
});

afterAll(() => {
  rmSync(workDir, { recursive: true, force: true });
});

test('the validator rejects a malformed object, so a clean result means something', () => {
  const broken = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'broken' },
    spec: {
      selector: {},
      template: { spec: { containers: [{ name: 'x', image: 'x', ports: [{ containerPort: 'http' }] }] } },
    },
  };
  expect(schemaErrors([broken])).toEqual([expect.stringContaining('containerPort')]);
});

test('helm lint passes with the default values and with ingress and replicas', () => {
  const values = writeValues('lint.yaml', 'ingress:\n  enabled: true\nservices:\n  gateway:\n    replicas: 3\n');
  for (const args of [
    ['lint', chartDir],
    ['lint', chartDir, '-f', values],
  ]) {
    const result = helmRun(args);
    expect({ status: result.status, output: result.stdout + result.stderr }).toMatchObject({ status: 0 });
  }
});

describe('with the default values', () => {
  let objects: K8sObject[];

  beforeAll(() => {
    objects = render();
  });

  test('every rendered object is a valid Kubernetes object', () => {
    expect(objects.length).toBeGreaterThan(0);
    expect(schemaErrors(objects)).toEqual([]);
  });

  test.each(SERVICES)('%s has a Deployment and a Service that selects its pods', (service) => {
    const deployment = deploymentOf(objects, service);
    const services = forService(objects, 'Service', service);
    expect(services).toHaveLength(1);
    const podLabels = deployment.spec.template.metadata.labels;
    for (const [key, value] of Object.entries(services[0].spec.selector)) {
      expect(podLabels[key]).toBe(value);
    }
    expect(deployment.spec.selector.matchLabels).toEqual(services[0].spec.selector);
    const portName = services[0].spec.ports[0].targetPort;
    expect(containerOf(deployment).ports.map((p: Port) => p.name)).toContain(portName);
  });

  test.each(SERVICES)('%s is probed on /healthz and /readyz at the port it listens on', (service) => {
    const deployment = deploymentOf(objects, service);
    const container = containerOf(deployment);
    const portVar = service === 'gateway' ? 'PORT' : 'HEALTH_PORT';
    const listening = Number(envValue(deployment, portVar)?.value);
    expect(listening).toBe(DEFAULT_PORTS[service]);
    const namedPort = (name: string | number) =>
      typeof name === 'number' ? name : container.ports.find((p: Port) => p.name === name)?.containerPort;
    expect(container.livenessProbe.httpGet.path).toBe('/healthz');
    expect(namedPort(container.livenessProbe.httpGet.port)).toBe(listening);
    expect(container.readinessProbe.httpGet.path).toBe('/readyz');
    expect(namedPort(container.readinessProbe.httpGet.port)).toBe(listening);
    expect(container.startupProbe.httpGet.path).toBe('/healthz');
  });

  test.each(SERVICES)('%s runs as a non-root user with a read-only, unprivileged container', (service) => {
    const pod = deploymentOf(objects, service).spec.template.spec;
    expect(pod.securityContext.runAsNonRoot).toBe(true);
    expect(pod.securityContext.runAsUser).toBeGreaterThan(0);
    expect(pod.automountServiceAccountToken).toBe(false);
    const sc = pod.containers[0].securityContext;
    expect(sc).toMatchObject({
      runAsNonRoot: true,
      readOnlyRootFilesystem: true,
      allowPrivilegeEscalation: false,
      capabilities: { drop: ['ALL'] },
    });
    expect(sc.privileged).not.toBe(true);
  });

  test.each(SERVICES)('%s binds to 0.0.0.0 and joins the event bus', (service) => {
    const deployment = deploymentOf(objects, service);
    expect(envValue(deployment, 'HOST')?.value).toBe('0.0.0.0');
    expect(envValue(deployment, 'NATS_URL')?.valueFrom?.secretKeyRef).toBeDefined();
  });

  test.each(SERVICES)('%s only receives variables its configuration schema knows', (service) => {
    const deployment = deploymentOf(objects, service);
    const allowed = allowedVars(service);
    const names = envOf(deployment).map((e) => e.name);
    const configMaps = (containerOf(deployment).envFrom ?? []).map((e: EnvFrom) => e.configMapRef?.name);
    for (const name of configMaps) {
      const configMap = ofKind(objects, 'ConfigMap').find((c) => c.metadata.name === name);
      expect(configMap).toBeDefined();
      names.push(...Object.keys(configMap!.data ?? {}));
    }
    expect(names.filter((n) => !allowed.has(n))).toEqual([]);
    expect(new Set(names).size).toBe(names.length);
  });

  test('the test clock is never switched on: LWS_TEST_CLOCK is in no rendered object', () => {
    expect(JSON.stringify(objects)).not.toContain('LWS_TEST_CLOCK');
  });

  test.each(SERVICES)('%s keeps one copy of the event stream on a single NATS server by default', (service) => {
    expect(configOf(objects, service).EVENTS_STREAM_REPLICAS).toBe('1');
  });

  test('the gateway has no database: no DATABASE_URL and no migration Job, but a Redis session store', () => {
    const gateway = deploymentOf(objects, 'gateway');
    expect(envValue(gateway, 'DATABASE_URL')).toBeUndefined();
    // Its probes and metrics port, apart from the public one.
    expect(envValue(gateway, 'HEALTH_PORT')?.value).toBe('8079');
    expect(envValue(gateway, 'REDIS_URL')?.valueFrom?.secretKeyRef).toBeDefined();
    expect(forService(objects, 'Job', 'gateway')).toEqual([]);
  });

  test.each(DATABASE_SERVICES)('%s has a pre-install/pre-upgrade Job that applies its migrations with its own image', (service) => {
    const jobs = forService(objects, 'Job', service);
    expect(jobs).toHaveLength(1);
    const job = jobs[0];
    expect(job.metadata.annotations?.['helm.sh/hook']).toBe('pre-install,pre-upgrade');
    const container = containerOf(job);
    expect(container.command).toEqual(['node', `services/${service}/dist/main.js`, '--migrate-only']);
    expect(container.image).toBe(containerOf(deploymentOf(objects, service)).image);
    expect(job.spec.template.spec.restartPolicy).toBe('Never');
    expect(job.spec.template.spec.securityContext.runAsNonRoot).toBe(true);
    expect(container.securityContext.readOnlyRootFilesystem).toBe(true);
    expect(envValue(job, 'DATABASE_URL')?.valueFrom?.secretKeyRef).toBeDefined();
    expect(envValue(job, 'HOST')?.value).toBe('0.0.0.0');
    const allowed = allowedVars(service);
    expect(
      envOf(job)
        .map((e) => e.name)
        .filter((n) => !allowed.has(n)),
    ).toEqual([]);
    expect(envValue(deploymentOf(objects, service), 'DATABASE_URL')?.valueFrom?.secretKeyRef).toBeDefined();
  });

  test('escalation runs two replicas protected by a PodDisruptionBudget; single replicas get none', () => {
    expect(deploymentOf(objects, 'escalation').spec.replicas).toBe(2);
    const budgets = ofKind(objects, 'PodDisruptionBudget');
    expect(budgets.map(component)).toEqual(['escalation']);
    expect(budgets[0].spec.minAvailable).toBe(1);
    expect(budgets[0].spec.selector.matchLabels).toEqual(deploymentOf(objects, 'escalation').spec.selector.matchLabels);
  });

  test('without an ingress nothing is exposed outside the cluster', () => {
    expect(ofKind(objects, 'Ingress')).toEqual([]);
    for (const service of ofKind(objects, 'Service')) expect(service.spec.type).toBe('ClusterIP');
    expect(envValue(deploymentOf(objects, 'gateway'), 'TRUST_PROXY')).toBeUndefined();
  });

  test('migration Jobs read only the operator Secret or hook Secrets, which exist before install', () => {
    const secrets = ofKind(objects, 'Secret');
    for (const job of ofKind(objects, 'Job')) {
      for (const name of secretRefs(job)) {
        const rendered = secrets.find((s) => s.metadata.name === name);
        if (rendered) expect(rendered.metadata.annotations?.['helm.sh/hook']).toContain('pre-install');
        else expect(name).toBe('lws-postgresql');
      }
    }
  });

  test('the database URL is read from the Secret the operator provides, never rendered in clear', () => {
    for (const workload of [...ofKind(objects, 'Deployment'), ...ofKind(objects, 'Job')]) {
      for (const name of SECRET_VARS) expect(envValue(workload, name)?.value).toBeUndefined();
    }
    const ref = envValue(deploymentOf(objects, 'identity'), 'DATABASE_URL')!.valueFrom!.secretKeyRef;
    expect(ref).toEqual({ name: 'lws-postgresql', key: 'DATABASE_URL' });
  });

  test('identity reads its PIN hash key from the Secret the operator provides; no other service gets it', () => {
    expect(envValue(deploymentOf(objects, 'identity'), 'PIN_HASH_KEY')?.valueFrom?.secretKeyRef).toEqual({
      name: 'lws-pin-hash-key',
      key: 'PIN_HASH_KEY',
    });
    for (const service of SERVICES.filter((s) => s !== 'identity')) {
      expect(envValue(deploymentOf(objects, service), 'PIN_HASH_KEY')).toBeUndefined();
    }
  });
});

describe('with an ingress, more replicas, inline endpoints and secrets', () => {
  let objects: K8sObject[];

  beforeAll(() => {
    const values = writeValues(
      'production.yaml',
      `
ingress:
  enabled: true
  className: nginx
  hosts:
    - host: lws.example.org
      paths:
        - path: /
          pathType: Prefix
  tls:
    - secretName: lws-tls
      hosts: [lws.example.org]
networkPolicy:
  enabled: true
postgresql:
  url: postgres://lws:not-a-real-password@db.internal:5432/lws
pinHashKey:
  value: not-a-real-pin-hash-key-0123456789abcdef
config:
  EVENTS_STREAM_REPLICAS: "3"
image:
  registry: registry.example.org
  tag: "1.2.3"
services:
  gateway:
    replicas: 3
  identity:
    replicas: 2
    existingSecretEnv:
      LWS_SUPERADMIN_PASSWORD: {name: lws-superadmin, key: password}
  escalation:
    env:
      EMERGENCY_NUMBER_1: "+447911123456"
  notifications:
    env:
      TWILIO_FROM_NUMBER: "+447700900000"
    secretEnv:
      TWILIO_ACCOUNT_SID: AC00000000000000000000000000000000
      TWILIO_AUTH_TOKEN: not-a-real-token
`,
    );
    objects = render(values);
  });

  test('every rendered object is a valid Kubernetes object', () => {
    expect(schemaErrors(objects)).toEqual([]);
  });

  test.each(SERVICES)('%s asks a clustered NATS for three copies of the event stream', (service) => {
    expect(configOf(objects, service).EVENTS_STREAM_REPLICAS).toBe('3');
  });

  test('the test clock stays off here too: LWS_TEST_CLOCK is in no rendered object', () => {
    expect(JSON.stringify(objects)).not.toContain('LWS_TEST_CLOCK');
  });

  test('the ingress routes the host to the gateway Service, with TLS', () => {
    const ingresses = ofKind(objects, 'Ingress');
    expect(ingresses).toHaveLength(1);
    const spec = ingresses[0].spec;
    expect(spec.ingressClassName).toBe('nginx');
    expect(spec.tls).toEqual([{ secretName: 'lws-tls', hosts: ['lws.example.org'] }]);
    expect(spec.rules[0].host).toBe('lws.example.org');
    const backend = spec.rules[0].http.paths[0].backend.service;
    const gatewayService = forService(objects, 'Service', 'gateway')[0];
    expect(backend.name).toBe(gatewayService.metadata.name);
    expect(gatewayService.spec.ports.map((p: Port) => p.name)).toContain(backend.port.name);
  });

  test('only the gateway trusts proxy headers, because only it sits behind the ingress', () => {
    expect(envValue(deploymentOf(objects, 'gateway'), 'TRUST_PROXY')?.value).toBe('true');
    for (const service of DATABASE_SERVICES) {
      expect(envValue(deploymentOf(objects, service), 'TRUST_PROXY')).toBeUndefined();
    }
  });

  test('replicas are applied and every replicated service has a PodDisruptionBudget', () => {
    expect(deploymentOf(objects, 'gateway').spec.replicas).toBe(3);
    expect(deploymentOf(objects, 'identity').spec.replicas).toBe(2);
    expect(ofKind(objects, 'PodDisruptionBudget').map(component).sort()).toEqual(['escalation', 'gateway', 'identity']);
  });

  test('images come from the configured registry and tag', () => {
    for (const service of SERVICES) {
      expect(containerOf(deploymentOf(objects, service)).image).toBe(`registry.example.org/lws/${service}:1.2.3`);
    }
  });

  test('secrets reach the pods only through Secret references', () => {
    expect(envValue(deploymentOf(objects, 'escalation'), 'EMERGENCY_NUMBER_1')?.value).toBe('+447911123456');
    const notifications = deploymentOf(objects, 'notifications');
    const tokenRef = envValue(notifications, 'TWILIO_AUTH_TOKEN')?.valueFrom?.secretKeyRef;
    const secret = ofKind(objects, 'Secret').find((s) => s.metadata.name === tokenRef?.name);
    expect(Buffer.from(secret!.data[tokenRef!.key], 'base64').toString()).toBe('not-a-real-token');
    expect(envValue(deploymentOf(objects, 'identity'), 'LWS_SUPERADMIN_PASSWORD')?.valueFrom?.secretKeyRef).toEqual({
      name: 'lws-superadmin',
      key: 'password',
    });
    const keyRef = envValue(deploymentOf(objects, 'identity'), 'PIN_HASH_KEY')?.valueFrom?.secretKeyRef;
    const keySecret = ofKind(objects, 'Secret').find((s) => s.metadata.name === keyRef?.name);
    expect(Buffer.from(keySecret!.data[keyRef!.key], 'base64').toString()).toBe('not-a-real-pin-hash-key-0123456789abcdef');
    for (const workload of [...ofKind(objects, 'Deployment'), ...ofKind(objects, 'Job')]) {
      for (const name of SECRET_VARS) expect(envValue(workload, name)?.value).toBeUndefined();
      const allowed = allowedVars(component(workload)!);
      expect(
        envOf(workload)
          .map((e) => e.name)
          .filter((n) => !allowed.has(n)),
      ).toEqual([]);
    }
  });

  test('every Secret a Deployment reads is rendered by the chart or named by the operator', () => {
    const rendered = new Set(
      ofKind(objects, 'Secret')
        .filter((s) => !isHook(s))
        .map((s) => s.metadata.name),
    );
    for (const deployment of ofKind(objects, 'Deployment')) {
      for (const name of secretRefs(deployment)) {
        expect(rendered.has(name) || name === 'lws-superadmin').toBe(true);
      }
    }
  });

  test('migration Jobs read only Secrets that exist before install: a hook Secret created before them', () => {
    const secrets = ofKind(objects, 'Secret');
    for (const job of ofKind(objects, 'Job')) {
      const jobWeight = Number(job.metadata.annotations?.['helm.sh/hook-weight'] ?? 0);
      for (const name of secretRefs(job)) {
        const secret = secrets.find((s) => s.metadata.name === name);
        expect(secret).toBeDefined();
        expect(secret!.metadata.annotations?.['helm.sh/hook']).toContain('pre-install');
        expect(secret!.metadata.annotations?.['helm.sh/hook']).toContain('pre-upgrade');
        expect(Number(secret!.metadata.annotations?.['helm.sh/hook-weight'] ?? 0)).toBeLessThan(jobWeight);
        const url = Buffer.from(secret!.data.DATABASE_URL, 'base64').toString();
        expect(url).toBe('postgres://lws:not-a-real-password@db.internal:5432/lws');
      }
    }
  });

  test('network policies admit only the ingress controller to the gateway and nobody to the other services', () => {
    const policies = ofKind(objects, 'NetworkPolicy');
    expect(policies.map(component).sort()).toEqual([...SERVICES].sort());
    const gateway = policies.find((p) => component(p) === 'gateway')!;
    expect(gateway.spec.ingress).toEqual([
      {
        from: [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'ingress-nginx' } } }],
        ports: [{ port: 'http', protocol: 'TCP' }],
      },
    ]);
    for (const policy of policies.filter((p) => component(p) !== 'gateway')) {
      expect(policy.spec.policyTypes).toEqual(['Ingress']);
      expect(policy.spec.ingress).toEqual([]);
    }
  });
});

describe('values that would only fail in the cluster are refused at render time', () => {
  test('a misspelt service variable is named', () => {
    const values = writeValues('typo.yaml', 'services:\n  notifications:\n    env:\n      TWILIO_TOKEN: x\n');
    expect(renderFailure(values)).toContain('services.notifications.env.TWILIO_TOKEN');
  });

  test('a variable of another service is refused (the gateway has no superadmin)', () => {
    const values = writeValues('other.yaml', 'services:\n  gateway:\n    env:\n      LWS_SUPERADMIN_USERNAME: root\n');
    expect(renderFailure(values)).toContain('services.gateway.env.LWS_SUPERADMIN_USERNAME');
  });

  test('the test clock cannot be switched on, for all services or for one', () => {
    const common = writeValues('clock-common.yaml', 'config:\n  LWS_TEST_CLOCK: "1"\n');
    expect(renderFailure(common)).toContain('config.LWS_TEST_CLOCK: the test clock is for tests only');
    const one = writeValues('clock-shifts.yaml', 'services:\n  shifts:\n    env:\n      LWS_TEST_CLOCK: "1"\n');
    expect(renderFailure(one)).toContain('services.shifts.env.LWS_TEST_CLOCK: the test clock is for tests only');
  });

  test('a missing NATS endpoint is refused instead of falling back to an in-process bus', () => {
    const values = writeValues('no-nats.yaml', 'nats:\n  url: ""\n  existingSecret: ""\n');
    expect(renderFailure(values)).toContain('nats.url or nats.existingSecret is required');
  });

  test('a missing or short PIN hash key is refused: identity would not start in production', () => {
    const missing = writeValues('no-pin-key.yaml', 'pinHashKey:\n  value: ""\n  existingSecret: ""\n');
    expect(renderFailure(missing)).toContain('pinHashKey.value or pinHashKey.existingSecret is required');
    const short = writeValues('short-pin-key.yaml', 'pinHashKey:\n  value: too-short\n');
    expect(renderFailure(short)).toContain('pinHashKey.value: must be at least 32 characters');
  });

  test('PIN_HASH_KEY is set from pinHashKey, not as a service variable', () => {
    const values = writeValues('pin-key-env.yaml', 'services:\n  identity:\n    secretEnv:\n      PIN_HASH_KEY: x\n');
    expect(renderFailure(values)).toContain('services.identity.secretEnv.PIN_HASH_KEY');
  });

  test('a missing database endpoint is refused instead of falling back to embedded PGlite', () => {
    const values = writeValues('no-db.yaml', 'postgresql:\n  url: ""\n  existingSecret: ""\n');
    expect(renderFailure(values)).toContain('postgresql.url or postgresql.existingSecret is required');
  });

  test('a misspelt service setting is refused by the values schema', () => {
    const values = writeValues('schema.yaml', 'services:\n  escalation:\n    replica: 3\n');
    expect(renderFailure(values)).toMatch(/replica/);
  });
});

describe('skaffold', () => {
  const skaffold = parse(readFileSync(join(root, 'skaffold.yaml'), 'utf8'));
  const defaults = parse(readFileSync(join(chartDir, 'values.yaml'), 'utf8'));

  test('builds every service image from the repository root with the one Dockerfile, naming the service', () => {
    expect(skaffold.apiVersion).toMatch(/^skaffold\/v4beta\d+$/);
    const artifacts = skaffold.build.artifacts as Array<{
      image: string;
      context: string;
      docker: { dockerfile: string; target: string; buildArgs: Record<string, string> };
    }>;
    expect(artifacts.map((a) => a.image).sort()).toEqual(SERVICES.map((s) => `lws/${s}`).sort());
    for (const artifact of artifacts) {
      const service = artifact.image.replace('lws/', '');
      expect(artifact.context).toBe('.');
      expect(artifact.docker).toEqual({ dockerfile: 'Dockerfile', target: 'runtime', buildArgs: { SERVICE: service } });
      expect(existsSync(join(root, artifact.docker.dockerfile))).toBe(true);
    }
  });

  test('deploys charts/lws with each built image set on its own service', () => {
    const releases = skaffold.deploy.helm.releases;
    expect(releases).toHaveLength(1);
    expect(releases[0].chartPath).toBe('charts/lws');
    const templates = releases[0].setValueTemplates as Record<string, string>;
    for (const service of SERVICES) {
      expect(defaults.services[service].image).toBeDefined();
      expect(templates[`services.${service}.image.repository`]).toBe(`{{.IMAGE_REPO_lws_${service}}}`);
      expect(templates[`services.${service}.image.tag`]).toBe(`{{.IMAGE_TAG_lws_${service}}}@{{.IMAGE_DIGEST_lws_${service}}}`);
    }
    expect(Object.keys(templates)).toHaveLength(SERVICES.length * 2);
  });
});

describe('monitoring', () => {
  const ALERTS = [
    'LwsDeadlineLate',
    'LwsSchedulerStalled',
    'LwsEmergencySlow',
    'LwsAlarmChainBehind',
    'LwsOutboxStuck',
    'LwsConsumerLagging',
    'LwsDeadLetter',
    'LwsAlarmUnacknowledged',
    'LwsOnCallUncovered',
    'LwsNotificationsFailing',
    'LwsProviderThrottling',
    'LwsWebhooksFailing',
    'LwsWebhookQueueStalled',
    'LwsNotificationUnconfirmed',
    'LwsReconcileRepaired',
    'LwsReconcileFailing',
    'LwsChoreFailing',
    'LwsServiceNotReady',
    'LwsServiceDown',
  ];
  const readme = () => readFileSync(join(chartDir, 'README.md'), 'utf8');

  test('is off by default: no ServiceMonitor, PrometheusRule or dashboard', () => {
    const objects = render();
    expect(ofKind(objects, 'ServiceMonitor')).toEqual([]);
    expect(ofKind(objects, 'PrometheusRule')).toEqual([]);
    expect(ofKind(objects, 'ConfigMap').filter((c) => c.metadata.name.endsWith('-dashboard'))).toEqual([]);
  });

  describe('with every switch on', () => {
    let objects: K8sObject[];
    beforeAll(() => {
      objects = render(
        writeValues(
          'monitoring.yaml',
          [
            'monitoring:',
            '  serviceMonitor: {enabled: true, labels: {release: kube-prometheus-stack}}',
            '  prometheusRule: {enabled: true, labels: {release: kube-prometheus-stack}}',
            '  grafanaDashboard: {enabled: true}',
            'networkPolicy:',
            '  enabled: true',
            '  healthFrom: [{namespaceSelector: {matchLabels: {kubernetes.io/metadata.name: monitoring}}}]',
          ].join('\n'),
        ),
      );
    });

    test('every object, the Prometheus Operator ones included, is valid', () => {
      expect(schemaErrors(objects)).toEqual([]);
    });

    test.each(SERVICES)('%s has a ServiceMonitor scraping /metrics on its health port', (service) => {
      const [monitor] = forService(objects, 'ServiceMonitor', service);
      expect(monitor.metadata.labels?.release).toBe('kube-prometheus-stack');
      const [svc] = forService(objects, 'Service', service);
      expect(monitor.spec.selector.matchLabels).toEqual(svc.spec.selector);
      const endpoint = monitor.spec.endpoints[0];
      expect(endpoint.path).toBe('/metrics');
      const port = svc.spec.ports.find((p: Port) => p.name === endpoint.port);
      // The gateway's own port is public: its metrics are on a port of their own, which it listens on.
      expect(port.port).toBe(service === 'gateway' ? 8079 : DEFAULT_PORTS[service]);
      if (service === 'gateway') expect(envValue(deploymentOf(objects, service), 'HEALTH_PORT')?.value).toBe('8079');
    });

    test("only the monitoring peers may reach the gateway's metrics port", () => {
      const [policy] = forService(objects, 'NetworkPolicy', 'gateway');
      const rule = policy.spec.ingress.find((r: { ports: Port[] }) => r.ports.some((p) => p.port === 'metrics'));
      expect(rule.from).toEqual([{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'monitoring' } } }]);
    });

    test('the PrometheusRule pages on every stall in ALERTS, each alert with a summary and a runbook section', () => {
      const [rule] = ofKind(objects, 'PrometheusRule');
      const alerts: Alert[] = rule.spec.groups.flatMap((g: { rules: Alert[] }) => g.rules);
      expect(alerts.map((a) => a.alert)).toEqual(ALERTS);
      const text = readme();
      for (const a of alerts) {
        expect(a.annotations.summary).toMatch(/\w/);
        expect(a.labels.severity).toMatch(/^(critical|warning)$/);
        const anchor = a.annotations.runbook_url.split('#')[1];
        expect(anchor).toBe(a.alert.toLowerCase());
        expect(text).toContain(`### ${a.alert}`);
      }
    });

    test('the dashboard is valid JSON in a ConfigMap the Grafana sidecar loads', () => {
      const [dashboard] = ofKind(objects, 'ConfigMap').filter((c) => c.metadata.name.endsWith('-dashboard'));
      expect(dashboard.metadata.labels?.grafana_dashboard).toBe('1');
      const json = JSON.parse(dashboard.data['lws.json']);
      expect(json.panels.length).toBeGreaterThan(10);
      for (const panel of json.panels) expect(panel.targets.length).toBeGreaterThan(0);
    });
  });
});

describe('autoscaling and separately shipped remotes', () => {
  test("by default no service is autoscaled and every remote is the gateway image's own copy", () => {
    const objects = render();
    expect(ofKind(objects, 'HorizontalPodAutoscaler')).toEqual([]);
    const gateway = deploymentOf(objects, 'gateway').spec.template.spec;
    expect(gateway.initContainers).toBeUndefined();
    expect(gateway.containers[0].volumeMounts.map((m: { mountPath: string }) => m.mountPath)).toEqual(['/tmp']);
  });

  test('a service that turns autoscaling on gets an HPA on its Deployment, which no longer fixes its pod count', () => {
    const values = writeValues(
      'autoscaling.yaml',
      [
        'services:',
        '  shifts:',
        '    autoscaling:',
        '      enabled: true',
        '  gateway:',
        '    autoscaling:',
        '      enabled: true',
        '      minReplicas: 3',
        '      maxReplicas: 12',
        '      targetMemoryUtilizationPercentage: 80',
        '',
      ].join('\n'),
    );
    const objects = render(values);
    expect(schemaErrors(objects)).toEqual([]);
    const hpas = ofKind(objects, 'HorizontalPodAutoscaler');
    expect(hpas.map(component).sort()).toEqual(['gateway', 'shifts']);
    const shifts = hpas.find((h) => component(h) === 'shifts')!;
    expect(shifts.spec.scaleTargetRef).toEqual({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      name: deploymentOf(objects, 'shifts').metadata.name,
    });
    expect(shifts.spec).toMatchObject({ minReplicas: 2, maxReplicas: 6 });
    expect(shifts.spec.metrics).toEqual([
      { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } } },
    ]);
    const gateway = hpas.find((h) => component(h) === 'gateway')!;
    expect(gateway.spec).toMatchObject({ minReplicas: 3, maxReplicas: 12 });
    expect(gateway.spec.metrics.map((m: { resource: Named }) => m.resource.name)).toEqual(['cpu', 'memory']);
    // The autoscaler owns the count: a fixed replicas would be reset on every upgrade.
    expect(deploymentOf(objects, 'shifts').spec.replicas).toBeUndefined();
    expect(deploymentOf(objects, 'identity').spec.replicas).toBe(1);
    // At least two pods: a disruption budget and spreading over nodes, as for fixed replicas.
    expect(ofKind(objects, 'PodDisruptionBudget').map(component).sort()).toEqual(['escalation', 'gateway', 'shifts']);
    expect(deploymentOf(objects, 'shifts').spec.template.spec.topologySpreadConstraints).toHaveLength(1);
  });

  test('an HPA cannot be given a bad target: the values schema refuses it', () => {
    const values = writeValues(
      'autoscaling-bad.yaml',
      'services:\n  shifts:\n    autoscaling:\n      enabled: true\n      targetCPUUtilizationPercentage: 170\n',
    );
    expect(renderFailure(values)).toMatch(/targetCPUUtilizationPercentage/);
  });

  test("a remote shipped on its own tag is copied into the gateway's pod and served in place of its own copy", () => {
    const values = writeValues(
      'remotes.yaml',
      'image:\n  registry: registry.example.com\nremotes:\n  admin:\n    image:\n      tag: "2.4.1"\nservices:\n  gateway:\n    image:\n      tag: "2.3.0"\n',
    );
    const objects = render(values);
    expect(schemaErrors(objects)).toEqual([]);
    const pod = deploymentOf(objects, 'gateway').spec.template.spec;
    expect(containerOf(deploymentOf(objects, 'gateway')).image).toBe('registry.example.com/lws/gateway:2.3.0');
    expect(pod.initContainers).toHaveLength(1);
    const [init] = pod.initContainers;
    expect(init.image).toBe('registry.example.com/lws/remote-admin:2.4.1');
    expect(init.securityContext).toMatchObject({ runAsNonRoot: true, readOnlyRootFilesystem: true, allowPrivilegeEscalation: false });
    expect(init.volumeMounts).toEqual([{ name: 'remote-admin', mountPath: '/target' }]);
    // The gateway serves STATIC_DIR (./frontends, under the image's /app) as frontends/<remote>/dist.
    expect(pod.containers[0].volumeMounts).toContainEqual({ name: 'remote-admin', mountPath: '/app/frontends/admin/dist', readOnly: true });
    expect(pod.volumes).toContainEqual({ name: 'remote-admin', emptyDir: { sizeLimit: '128Mi' } });
    // Other services' pods are not touched.
    expect(deploymentOf(objects, 'shifts').spec.template.spec.initContainers).toBeUndefined();
  });
});
