import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import request from 'supertest';
import { parseAllDocuments } from 'yaml';
import { eventually } from '@lws/testing';
import { startTestStack, XHR, type TestStack } from './support/test-stack';

/** Every metric the services must export; the chart's alerts and dashboard are held to the same list (the last test below). */
const LWS_METRICS = [
  'lws_http_requests_total',
  'lws_http_request_duration_seconds',
  'lws_rpc_requests_total',
  'lws_rpc_request_duration_seconds',
  'lws_consumer_events_total',
  'lws_consumer_pending_events',
  'lws_consumer_oldest_pending_age_seconds',
  'lws_outbox_unpublished_events',
  'lws_outbox_oldest_unpublished_age_seconds',
  'lws_outbox_parked_total',
  'lws_dead_letters_open',
  'lws_deadline_lateness_seconds',
  'lws_chain_wait_seconds',
  'lws_chain_queued',
  'lws_due_to_provider_seconds',
  'lws_deadline_steps_fired_total',
  'lws_scheduler_last_pass_age_seconds',
  'lws_alarms_open',
  'lws_alarm_oldest_open_age_seconds',
  'lws_alarms_unacknowledged',
  'lws_alarm_oldest_unacknowledged_age_seconds',
  'lws_notifications_total',
  'lws_provider_request_duration_seconds',
  'lws_provider_throttled_total',
  'lws_provider_pause_remaining_seconds',
  'lws_webhook_deliveries_total',
  'lws_webhook_attempt_duration_seconds',
  'lws_webhook_queue',
  'lws_webhook_oldest_due_age_seconds',
  'lws_oncall_uncovered_seconds',
  'lws_sse_clients',
  'lws_urgency_held_seconds',
];

/** Parses the exposition text into samples: `name{labels} value`. */
function parseMetrics(text: string): { families: Set<string>; samples: { name: string; labels: Record<string, string>; value: number }[] } {
  const families = new Set<string>();
  const samples: { name: string; labels: Record<string, string>; value: number }[] = [];
  for (const line of text.split('\n')) {
    const type = /^# TYPE (\S+) /.exec(line);
    if (type) families.add(type[1]);
    if (!line || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) continue;
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[l[1]] = l[2];
    samples.push({ name: m[1], labels, value: Number(m[3]) });
  }
  return { families, samples };
}

describe('metrics: every service exports what an operator needs to see a stall (real PostgreSQL, NATS, Redis)', () => {
  let t: TestStack;

  beforeAll(async () => {
    t = await startTestStack();
  }, 120_000);
  afterAll(() => t?.stop());

  const scrape = async () => parseMetrics(await (await fetch(t.stack.metricsUrl)).text());
  const value = (s: Awaited<ReturnType<typeof scrape>>, name: string, labels: Record<string, string>) =>
    s.samples
      .filter((x) => x.name === name && Object.entries(labels).every(([k, v]) => x.labels[k] === v))
      .reduce((n, x) => n + x.value, 0);

  it('serves every named metric at the stack address, with default process metrics, and nothing on the public port', async () => {
    const agent = request.agent(t.url);
    await agent.post('/api/auth/login').set(XHR).send({ username: t.superadmin.username, password: t.superadmin.password }).expect(200);
    await agent.get('/api/auth/me').expect(200);
    const s = await scrape();
    for (const name of LWS_METRICS) expect({ name, exported: s.families.has(name) }).toEqual({ name, exported: true });
    expect(s.families.has('process_cpu_seconds_total')).toBe(true);
    expect(s.families.has('nodejs_eventloop_lag_seconds')).toBe(true);

    expect(value(s, 'lws_http_requests_total', { route: '/api/auth/login', method: 'POST', status: '200' })).toBeGreaterThanOrEqual(1);
    expect(
      value(s, 'lws_rpc_requests_total', { service: 'gateway', subject: 'identity.auth.verify_password.v1', outcome: 'ok' }),
    ).toBeGreaterThanOrEqual(1);
    for (const service of ['identity', 'locations', 'shifts', 'escalation', 'notifications', 'audit']) {
      expect(s.samples.some((x) => x.name === 'lws_outbox_unpublished_events' && x.labels.service === service)).toBe(true);
      expect(
        s.samples.some((x) => x.name === 'lws_dead_letters_open' && x.labels.service === service && x.labels.kind === 'consumer'),
      ).toBe(true);
    }
    expect(value(s, 'lws_scheduler_last_pass_age_seconds', { service: 'escalation' })).toBeLessThan(10);
    expect(s.samples.some((x) => x.name === 'lws_alarms_open' && x.labels.kind === 'missed_check_in')).toBe(true);
    expect(s.samples.some((x) => x.name === 'lws_consumer_pending_events' && x.labels.consumer === 'escalation-shifts')).toBe(true);
    // Each stage's queue by priority (an emergency must never wait behind a flood): the scheduler's, and every service's relay.
    for (const priority of ['emergency', 'alarm', 'reminder']) {
      expect(
        s.samples.some(
          (x) =>
            x.name === 'lws_chain_queued' &&
            x.labels.stage === 'scheduler' &&
            x.labels.service === 'escalation' &&
            x.labels.priority === priority,
        ),
      ).toBe(true);
      expect(
        s.samples.some(
          (x) =>
            x.name === 'lws_chain_queued' && x.labels.stage === 'relay' && x.labels.service === 'shifts' && x.labels.priority === priority,
        ),
      ).toBe(true);
    }

    // Each process's health port serves the same; the public port never does.
    const gateway = t.stack.services.find((x) => x.name === 'gateway') as { healthUrl: string };
    const viaHealth = await fetch(`${gateway.healthUrl}/metrics`);
    expect(viaHealth.status).toBe(200);
    expect(await viaHealth.text()).toContain('# TYPE lws_http_requests_total counter');
    const pub = await fetch(`${t.url}/metrics`, { headers: { Accept: 'text/html' } });
    expect(pub.status).toBe(404);
    expect(await pub.text()).not.toContain('lws_');
  });

  it('counts what consumers handle and what the outbox holds as work flows', async () => {
    const agent = request.agent(t.url);
    await agent.post('/api/auth/login').set(XHR).send({ username: t.superadmin.username, password: t.superadmin.password }).expect(200);
    const before = value(await scrape(), 'lws_consumer_events_total', { consumer: 'shifts-locations', outcome: 'handled' });
    await agent
      .post('/api/location-options')
      .set(XHR)
      .send({ name: `Metrics ${Date.now()}` })
      .expect(201);
    await eventually(
      async () => value(await scrape(), 'lws_consumer_events_total', { consumer: 'shifts-locations', outcome: 'handled' }) > before,
      20_000,
    );
    await eventually(async () => value(await scrape(), 'lws_outbox_unpublished_events', { service: 'locations' }) === 0, 20_000);
    expect(value(await scrape(), 'lws_outbox_oldest_unpublished_age_seconds', { service: 'locations' })).toBe(0);
  });

  it("the chart's alerts and dashboard panels use only metrics the services export", async () => {
    const root = resolve(__dirname, '../..');
    const rendered = spawnSync(
      join(root, 'node_modules/.bin/helm'),
      [
        'template',
        'lws',
        join(root, 'charts/lws'),
        '--set',
        'monitoring.prometheusRule.enabled=true',
        '--set',
        'monitoring.grafanaDashboard.enabled=true',
      ],
      { encoding: 'utf8' },
    );
    expect(rendered.stderr).toBe('');
    const objects = parseAllDocuments(rendered.stdout)
      .map((d) => d.toJS())
      .filter(Boolean);
    const rule = objects.find((o) => o.kind === 'PrometheusRule');
    const dashboard = JSON.parse(objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name.endsWith('-dashboard')).data['lws.json']);
    const expressions: string[] = [
      ...rule.spec.groups.flatMap((g: { rules: { expr: string }[] }) => g.rules.map((r) => r.expr)),
      ...dashboard.panels.flatMap((p: { targets: { expr: string }[] }) => p.targets.map((t) => t.expr)),
    ];
    // Names of series: what is left once label lists, matchers, ranges and strings are taken out, less PromQL's own words.
    const PROMQL = new Set(['sum', 'max', 'min', 'rate', 'increase', 'histogram_quantile', 'avg', 'count', 'and', 'or', 'unless']);
    const used = new Set<string>();
    for (const e of expressions) {
      const bare = e
        .replace(/\b(by|without|on|ignoring)\s*\([^)]*\)/g, ' ')
        .replace(/\{[^}]*\}/g, ' ')
        .replace(/\[[^\]]*\]/g, ' ')
        .replace(/"[^"]*"/g, ' ');
      for (const m of bare.matchAll(/\b[a-z_][a-z0-9_]*\b/g)) if (!PROMQL.has(m[0])) used.add(m[0]);
    }
    expect(used.size).toBeGreaterThan(15);
    const exported = (await scrape()).families;
    // `up` is the one series Prometheus makes itself.
    const missing = [...used].filter((name) => name !== 'up' && !exported.has(name.replace(/_(bucket|sum|count)$/, '')));
    expect(missing).toEqual([]);
  });
});
