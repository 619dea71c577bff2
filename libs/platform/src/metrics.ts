import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { urgency, type MessagingTables, type RpcObserver } from '@lws/messaging';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Db } from './database';
import type { Readiness } from './health';

/**
 * One Prometheus registry per process. In the one-process stack every service's series share it,
 * told apart by the `service` label; a service in its own process exports only its own.
 */
export const metricsRegistry = new Registry();
collectDefaultMetrics({ register: metricsRegistry });

type Sampler = (gauge: Gauge<string>) => Promise<void> | void;

/**
 * A gauge read when Prometheus scrapes: each service adds a sampler (a query of its own tables or
 * of the bus). A sampler that fails leaves its series out of that scrape rather than show a stale
 * value; the service's readiness says why.
 */
export class SampledGauge {
  private readonly samplers = new Set<Sampler>();
  readonly gauge: Gauge<string>;

  constructor(name: string, help: string, labelNames: readonly string[]) {
    const samplers = this.samplers;
    this.gauge = new Gauge({
      name,
      help,
      labelNames: [...labelNames],
      registers: [metricsRegistry],
      async collect() {
        this.reset();
        await Promise.all([...samplers].map((s) => Promise.resolve(s(this)).catch(() => undefined)));
      },
    });
  }

  /** Adds a sampler; returns its removal (a service that stops takes its series with it). */
  sample(sampler: Sampler): () => void {
    this.samplers.add(sampler);
    return () => this.samplers.delete(sampler);
  }
}

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const LATENESS_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 300];

const counter = (name: string, help: string, labelNames: string[]) => new Counter({ name, help, labelNames, registers: [metricsRegistry] });
const histogram = (name: string, help: string, labelNames: string[], buckets = LATENCY_BUCKETS) =>
  new Histogram({ name, help, labelNames, buckets, registers: [metricsRegistry] });

/** Every LWS metric. Names are the contract with the chart's alerts and dashboard (a test holds them to it). */
export const metrics = {
  httpRequests: counter('lws_http_requests_total', 'HTTP requests answered, by route and status', ['service', 'method', 'route', 'status']),
  httpDuration: histogram('lws_http_request_duration_seconds', 'HTTP request latency', ['service', 'method', 'route', 'status']),
  rpcRequests: counter('lws_rpc_requests_total', 'Commands sent to another service, by subject and outcome (ok or the status)', [
    'service',
    'subject',
    'outcome',
  ]),
  rpcDuration: histogram('lws_rpc_request_duration_seconds', 'Command round-trip latency', ['service', 'subject', 'outcome']),
  consumerEvents: counter(
    'lws_consumer_events_total',
    'Events a durable consumer received, by outcome: handled, duplicate, retried (infrastructure or error) or parked',
    ['service', 'consumer', 'outcome'],
  ),
  consumerBatches: counter(
    'lws_consumer_batches_total',
    'Batches of events a durable consumer applied in one transaction (committed), or that failed and went one event at a time (fallback)',
    ['service', 'consumer', 'outcome'],
  ),
  consumerPending: new SampledGauge('lws_consumer_pending_events', 'Events on the bus a consumer has not acknowledged yet', [
    'service',
    'consumer',
  ]),
  consumerOldestAge: new SampledGauge(
    'lws_consumer_oldest_pending_age_seconds',
    'Age of the oldest event a consumer has not acknowledged yet (0 when none)',
    ['service', 'consumer'],
  ),
  outboxUnpublished: new SampledGauge('lws_outbox_unpublished_events', 'Outbox rows not yet published (parked rows excluded)', ['service']),
  outboxOldestAge: new SampledGauge(
    'lws_outbox_oldest_unpublished_age_seconds',
    'Age of the oldest outbox row not yet published (0 when none)',
    ['service'],
  ),
  outboxParkedTotal: counter('lws_outbox_parked_total', 'Outbox rows parked because the bus refused them for good', ['service']),
  deadLettersOpen: new SampledGauge(
    'lws_dead_letters_open',
    'Open dead letters: events a consumer parked (kind=consumer) and outbox rows the bus refused (kind=outbox)',
    ['service', 'kind'],
  ),
  deadlineLateness: histogram(
    'lws_deadline_lateness_seconds',
    'How late a deadline step fired (fired minus due)',
    ['service', 'kind'],
    LATENESS_BUCKETS,
  ),
  chainWait: histogram(
    'lws_chain_wait_seconds',
    'How long work waited at one stage of the alarm chain, by priority (emergency, alarm, reminder): scheduler (due to fired), relay (written to published), sender (asked to taken by the provider)',
    ['service', 'stage', 'priority'],
    LATENESS_BUCKETS,
  ),
  chainQueued: new SampledGauge('lws_chain_queued', 'Work due and not yet taken at one stage of the alarm chain, by priority', [
    'service',
    'stage',
    'priority',
  ]),
  dueToProvider: histogram(
    'lws_due_to_provider_seconds',
    "From when a message fell due (an emergency's press, a missed deadline, a reminder's time) to the provider taking it, by priority",
    ['service', 'channel', 'priority'],
    LATENESS_BUCKETS,
  ),
  stepsFired: counter('lws_deadline_steps_fired_total', 'Deadline steps fired, by step and what they did', ['service', 'step', 'status']),
  schedulerLastPassAge: new SampledGauge(
    'lws_scheduler_last_pass_age_seconds',
    'Seconds since the deadline scheduler last completed a pass',
    ['service'],
  ),
  alarmsOpen: new SampledGauge('lws_alarms_open', 'Open alarms (not resolved), by kind', ['service', 'kind']),
  alarmOldestOpenAge: new SampledGauge('lws_alarm_oldest_open_age_seconds', 'Age of the oldest open alarm, by kind', ['service', 'kind']),
  alarmsUnacknowledged: new SampledGauge('lws_alarms_unacknowledged', 'Open alarms nobody has acknowledged, by kind', ['service', 'kind']),
  alarmOldestUnacknowledgedAge: new SampledGauge(
    'lws_alarm_oldest_unacknowledged_age_seconds',
    'Age of the oldest alarm nobody has acknowledged, by kind',
    ['service', 'kind'],
  ),
  notifications: counter('lws_notifications_total', 'Messages handed to a provider, by channel and outcome (sent or failed)', [
    'service',
    'channel',
    'outcome',
  ]),
  requestsAskedAgain: counter(
    'lws_notification_requests_asked_again_total',
    "An alarm's notification requests asked for again because notifications had not confirmed taking them",
    ['service'],
  ),
  requestsUnconfirmed: counter(
    'lws_notification_requests_unconfirmed_total',
    "An alarm's notification requests still unconfirmed after 3 asks (each raised a system alert)",
    ['service'],
  ),
  reconcileRepairs: counter(
    'lws_reconcile_repairs_total',
    "Differences reconciliation found between a service's copy and the owner's data and repaired (each also a system alert), by kind",
    ['service', 'kind'],
  ),
  reconcileRounds: counter(
    'lws_reconcile_rounds_total',
    'Reconciliation rounds, by outcome (ok, or failed: the owner or the database could not be read)',
    ['service', 'owner', 'outcome'],
  ),
  purged: counter(
    'lws_purged_total',
    'Personal data deleted once its retention ended (device positions: 30 days after the shift), by what',
    ['service', 'what'],
  ),
  purgeRounds: counter('lws_purge_rounds_total', 'Retention rounds, by what and outcome (ok, or failed: retried at the next round)', [
    'service',
    'what',
    'outcome',
  ]),
  choreRuns: counter(
    'lws_chore_runs_total',
    'Rounds of a periodic chore (pruning, purging, auditing, sweeping), by outcome (ok, or failed: retried at the next period)',
    ['service', 'chore', 'outcome'],
  ),
  choreDuration: histogram('lws_chore_duration_seconds', 'How long a round of a periodic chore took', ['service', 'chore']),
  providerDuration: histogram('lws_provider_request_duration_seconds', 'Latency of requests to the messaging provider', [
    'service',
    'channel',
    'outcome',
  ]),
  providerThrottled: counter('lws_provider_throttled_total', 'Requests the messaging provider refused as too many (429), by channel', [
    'service',
    'channel',
  ]),
  providerPauseRemaining: new SampledGauge(
    'lws_provider_pause_remaining_seconds',
    "Seconds a provider's 429 still holds new sends other than emergencies (0 when none does)",
    ['service'],
  ),
  webhookDeliveries: counter(
    'lws_webhook_deliveries_total',
    'Webhook attempts, by outcome: succeeded (2xx), retrying (tried again later), failed (given up: the retry schedule ran out, or it can never be sent), gone (410: the endpoint was disabled)',
    ['service', 'outcome'],
  ),
  webhookAttemptDuration: histogram(
    'lws_webhook_attempt_duration_seconds',
    "How long a webhook endpoint took to answer (or to time out), by the attempt's outcome",
    ['service', 'outcome'],
    [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15],
  ),
  webhookQueue: new SampledGauge(
    'lws_webhook_queue',
    'Webhook deliveries still being tried, by state: due (waiting for the sender), sending, waiting (for a retry)',
    ['service', 'state'],
  ),
  onCallUncovered: new SampledGauge(
    'lws_oncall_uncovered_seconds',
    'Seconds a team with an on-call rota has had nobody on call, by team (0 while someone is; looks back a day at most)',
    ['service', 'team'],
  ),
  webhookOldestDueAge: new SampledGauge(
    'lws_webhook_oldest_due_age_seconds',
    'Seconds the oldest due webhook delivery has waited for the sender (0 when none waits)',
    ['service'],
  ),
  sseClients: new SampledGauge('lws_sse_clients', 'Browsers connected to the live event stream', ['service']),
  ready: new SampledGauge(
    'lws_ready',
    'Whether the service reports ready (1) or not (0): database, bus and, for escalation, the scheduler',
    ['service'],
  ),
  urgencyHeld: new SampledGauge(
    'lws_urgency_held_seconds',
    "Seconds this process's bulk work (a flood's batches) has waited while an emergency ran, since it started (only rises: its rate is the share of time a flood gave way)",
    [],
  ),
};

// One gate per process (every service a process runs shares it), so one series per process.
metrics.urgencyHeld.sample((g) => g.set(urgency.heldMs / 1000));

/**
 * Shares one read among the gauges of a scrape: the promise is reused for a second, so a query
 * behind several gauges runs once per scrape, not once per gauge.
 */
export function oncePerScrape<T>(read: () => Promise<T>): () => Promise<T> {
  let cached: { at: number; value: Promise<T> } | undefined;
  return () => {
    if (!cached || Date.now() - cached.at > 1000) cached = { at: Date.now(), value: read() };
    return cached.value;
  };
}

/** The service's readiness as a gauge, so an alert can name what is not ready and for how long. */
export function sampleReadiness(service: string, readiness: Readiness): () => void {
  return metrics.ready.sample(async (g) => g.set({ service }, (await readiness.report()).ready ? 1 : 0));
}

/** Counts and times every command a service's client sends. */
export function rpcObserver(service: string): RpcObserver {
  return (subject, outcome, seconds) => {
    metrics.rpcRequests.inc({ service, subject, outcome });
    metrics.rpcDuration.observe({ service, subject, outcome }, seconds);
  };
}

/**
 * The outbox backlog and the open dead letters of one service, read from its tables at scrape
 * time (one statement over partial indexes). Returns the samplers' removal.
 */
export function sampleMessagingTables(service: string, db: Db, tables: MessagingTables): (() => void)[] {
  // One statement serves the three gauges of a scrape.
  const read = oncePerScrape(async () => {
    const { rows } = (await db.execute(sql`
      select
        (select count(*) from ${tables.outbox} where published_at is null and parked_at is null)::int as unpublished,
        coalesce(extract(epoch from now() - (select min(created_at) from ${tables.outbox} where published_at is null and parked_at is null)), 0)::float8 as oldest,
        (select count(*) from ${tables.outbox} where parked_at is not null and published_at is null)::int as parked,
        (select count(*) from ${tables.deadLetters} where resolved_at is null)::int as letters,
        (select coalesce(jsonb_object_agg(priority, n), '{}'::jsonb) from (
          select priority, count(*)::int as n from ${tables.outbox} where published_at is null and parked_at is null group by priority) p) as by_priority`)) as unknown as {
      rows: { unpublished: number; oldest: number; parked: number; letters: number; by_priority: Record<string, number> }[];
    };
    return rows[0];
  });
  return [
    metrics.outboxUnpublished.sample(async (g) => g.set({ service }, (await read()).unpublished)),
    metrics.outboxOldestAge.sample(async (g) => g.set({ service }, Math.max(0, (await read()).oldest))),
    metrics.chainQueued.sample(async (g) => {
      const byPriority = (await read()).by_priority;
      for (const [priority] of PRIORITY_LABELS.entries())
        g.set({ service, stage: 'relay', priority: priorityLabel(priority) }, byPriority[priority] ?? 0);
    }),
    metrics.deadLettersOpen.sample(async (g) => {
      const r = await read();
      g.set({ service, kind: 'consumer' }, r.letters);
      g.set({ service, kind: 'outbox' }, r.parked);
    }),
  ];
}

/** The labels of priorities 0, 1 and 2 (deadlines, outbox rows, deliveries), in lws_chain_* metrics. */
export const PRIORITY_LABELS = ['emergency', 'alarm', 'reminder'] as const;
export const priorityLabel = (priority: number): string => PRIORITY_LABELS[priority] ?? String(priority);

/** The text Prometheus scrapes. */
export async function metricsText(): Promise<{ contentType: string; body: string }> {
  return { contentType: metricsRegistry.contentType, body: await metricsRegistry.metrics() };
}

export interface OpsServer {
  /** Base URL, e.g. http://127.0.0.1:9464 */
  url: string;
  close(): Promise<void>;
}

/**
 * A plain HTTP server for operators' machines, never the public port: GET /metrics, and with a
 * readiness, /healthz and /readyz (the gateway's health port; the one-process stack's METRICS_PORT).
 */
export async function serveOps(options: { host: string; port: number; readiness?: Readiness }): Promise<OpsServer> {
  const { readiness } = options;
  const json = (res: ServerResponse, status: number, body: unknown) =>
    res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8' }).end(JSON.stringify(body));
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (req.method !== 'GET') return json(res, 405, { message: 'Method not allowed' });
    if (path === '/metrics') {
      metricsText().then(
        ({ contentType, body }) => res.writeHead(200, { 'Content-Type': contentType }).end(body),
        (err) => json(res, 500, { message: `metrics failed: ${err instanceof Error ? err.message : String(err)}` }),
      );
      return;
    }
    if (readiness && path === '/healthz') return json(res, 200, { status: 'ok' });
    if (readiness && path === '/readyz') {
      readiness.report().then((r) => json(res, r.ready ? 200 : 503, { status: r.ready ? 'ready' : 'not ready', checks: r.checks }));
      return;
    }
    json(res, 404, { message: 'Not found' });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  return {
    url: `http://${options.host.includes(':') ? `[${options.host}]` : options.host}:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
