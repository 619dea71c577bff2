import { createServer, type AddressInfo } from 'node:net';
import { InProcessBus } from '@lws/messaging';
import { z } from 'zod';
import {
  configTypes,
  createLogger,
  loadConfig,
  serveOps,
  startService,
  type Announce,
  type OpsServer,
  type RunningService,
  type ServiceDefinition,
} from '@lws/platform';
import { startGateway, type RunningGateway } from '@lws/gateway';
import { identityService } from '@lws/identity';
import { locationsService } from '@lws/locations';
import { shiftsService } from '@lws/shifts';
import { escalationService } from '@lws/escalation';
import { notificationsService } from '@lws/notifications';
import { auditService } from '@lws/audit';

export const BACKEND: ServiceDefinition[] = [
  identityService,
  locationsService,
  shiftsService,
  escalationService,
  notificationsService,
  auditService,
];

export interface StackOptions {
  env?: NodeJS.ProcessEnv;
  /** 'random' gives every service an ephemeral health port (tests running side by side). */
  healthPorts?: 'default' | 'random';
  announce?: Announce;
  /** Where every service writes its log lines (default: stdout). */
  logDestination?: NodeJS.WritableStream;
}

export interface RunningStack {
  url: string;
  /** Every service's Prometheus metrics at one address (METRICS_PORT). */
  metricsUrl: string;
  embedded: boolean;
  services: (RunningService | RunningGateway)[];
  close(): Promise<void>;
}

/** The stack's own variables. */
const stackConfigShape = {
  HOST: z.string().min(1).default('127.0.0.1'),
  /** Every service of the process exports its metrics here, at /metrics. */
  METRICS_PORT: configTypes.port.default(9464),
};

/**
 * Starts every service in this process: on embedded defaults (PGlite, in-process bus,
 * in-memory sessions) or, when NATS_URL / DATABASE_URL / REDIS_URL are set, against those servers.
 * Resolves once every service reports ready.
 */
export async function startStack(opts: StackOptions = {}): Promise<RunningStack> {
  const { env, release } = await withPublicBaseUrl(opts.env ?? process.env);
  const own = loadConfig(stackConfigShape, env);
  const random = opts.healthPorts === 'random';
  const embedded = !env.NATS_URL;
  const bus = embedded
    ? new InProcessBus({ logger: createLogger('bus', env.LOG_LEVEL ?? 'info', opts.logDestination as never) })
    : undefined;
  const started: (RunningService | RunningGateway)[] = [];
  let ops: OpsServer | undefined;
  const close = async () => {
    for (const s of started.splice(0).reverse()) await s.close();
    await bus?.close();
    await ops?.close();
    await release();
  };
  try {
    ops = await serveOps({ host: own.HOST, port: random ? 0 : own.METRICS_PORT });
    // Sequential on purpose: embedded databases start faster one at a time on two cores.
    const serviceEnv = random ? { ...env, HEALTH_PORT: '0' } : env;
    for (const def of BACKEND) {
      started.push(
        await startService(def, {
          env: serviceEnv,
          inProcessBus: bus,
          announce: opts.announce,
          logDestination: opts.logDestination as never,
        }),
      );
    }
    // A HEALTH_PORT set for the whole process names no one port: the gateway keeps its own default
    // (8079) unless every port is ephemeral (0).
    const gatewayEnv = serviceEnv.HEALTH_PORT === '0' ? serviceEnv : { ...env, HEALTH_PORT: undefined };
    const gateway = await startGateway({
      env: gatewayEnv,
      inProcessBus: bus,
      logDestination: opts.logDestination as never,
      beforeListen: release,
    });
    started.push(gateway);
    return { url: gateway.url, metricsUrl: `${ops.url}/metrics`, embedded, services: started, close };
  } catch (err) {
    await close();
    throw err;
  }
}

/**
 * Twilio's webhooks reach notifications through the gateway, so notifications must know the
 * gateway's URL before the gateway starts: an ephemeral gateway port (PORT=0) is chosen here. The
 * port stays bound until the gateway is about to listen on it (`release`), so nothing else on the
 * machine (another test's server, an outgoing connection) can take it while the services start.
 */
async function withPublicBaseUrl(env: NodeJS.ProcessEnv): Promise<{ env: NodeJS.ProcessEnv; release: () => Promise<void> }> {
  const nothing = async (): Promise<void> => undefined;
  if (env.PUBLIC_BASE_URL) return { env, release: nothing };
  const host = !env.HOST || env.HOST === '0.0.0.0' || env.HOST === '::' ? '127.0.0.1' : env.HOST;
  let port = env.PORT ?? '8080';
  let release = nothing;
  if (port === '0') {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, host, () => resolve()));
    port = String((probe.address() as AddressInfo).port);
    let released: Promise<void> | undefined;
    release = () => (released ??= new Promise<void>((resolve) => probe.close(() => resolve())));
  }
  return { env: { ...env, PORT: port, PUBLIC_BASE_URL: `http://${host.includes(':') ? `[${host}]` : host}:${port}` }, release };
}
export { republish, REPUBLISH_SERVICES, RepublishUsageError, type RepublishArgs } from './republish';
