import 'reflect-metadata';
import { Global, Module, type INestApplication } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR, NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import cookieParser from 'cookie-parser';
import Redis from 'ioredis';
import { RpcClient, type InProcessBus } from '@lws/messaging';
import {
  CLOCK,
  clockFor,
  createLogger,
  LOGGER,
  loadConfig,
  NestPinoLogger,
  Readiness,
  rpcObserver,
  sampleReadiness,
  serveOps,
  Shutdown,
  type Logger,
} from '@lws/platform';
import { httpMetrics } from './common/http-metrics';
import { GATEWAY_CONFIG, gatewayConfigShape } from './config';
import { RPC } from './common/rpc';
import { ApiExceptionFilter } from './common/api-exception.filter';
import { responseCompression } from './common/compression';
import { csrfGuard, securityHeaders } from './common/csrf.middleware';
import { SessionGuard } from './common/session.guard';
import { TextSafetyInterceptor } from './common/text-safety';
import { COUNTERS, type Counters, MemoryCounters, RedisCounters } from './sessions/rate-limiter';
import { MemoryPendingSignIns, PENDING_SIGN_INS, type PendingSignIns, RedisPendingSignIns } from './auth/sso-state';
import { MemorySessionStore, RedisSessionStore, SESSION_STORE, type SessionStore } from './sessions/session.store';
import { AuthService } from './auth/auth.service';
import { KioskLoginService } from './kiosks/kiosk-login.service';
import { frontendRouter } from './static/frontends';
import { importBody, isImportRequest } from './users/import-body';
import { bodyLimit } from './common/body-limit';
import { isScimRequest, scimBody } from './scim/scim-body';
import { featureModules, ROOT_CONTROLLERS } from './routes';
import { openApiDocument } from './openapi/document';
import { OPENAPI_DOCUMENT } from './openapi/openapi.controller';

export interface GatewayOptions {
  env?: NodeJS.ProcessEnv;
  inProcessBus?: InProcessBus;
  logDestination?: Parameters<typeof createLogger>[2];
  /** Runs just before the gateway listens (the stack frees the port it held for it). */
  beforeListen?: () => Promise<void>;
}

export interface RunningGateway {
  name: 'gateway';
  url: string;
  /** Probes and /metrics, on HEALTH_PORT. */
  healthUrl: string;
  logger: Logger;
  app: INestApplication;
  close(): Promise<void>;
}

export async function startGateway(opts: GatewayOptions = {}): Promise<RunningGateway> {
  const config = loadConfig(gatewayConfigShape, opts.env);
  const logger = createLogger('gateway', config.LOG_LEVEL, opts.logDestination);
  const shutdown = new Shutdown(logger);
  const close = () => shutdown.run();
  try {
    let store: SessionStore;
    let counters: Counters;
    let pendingSignIns: PendingSignIns;
    if (config.REDIS_URL) {
      const redis = new Redis(config.REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 2, enableOfflineQueue: false });
      redis.on('error', (err) => logger.warn({ err: err.message }, 'redis connection problem'));
      await redis.connect();
      store = new RedisSessionStore(redis, config.REDIS_KEY_PREFIX);
      counters = new RedisCounters(redis, config.REDIS_KEY_PREFIX);
      pendingSignIns = new RedisPendingSignIns(redis, config.REDIS_KEY_PREFIX);
    } else {
      store = new MemorySessionStore();
      counters = new MemoryCounters();
      pendingSignIns = new MemoryPendingSignIns();
    }
    shutdown.add('session store', () => store.close());

    let rpc: RpcClient;
    if (config.NATS_URL) {
      rpc = await RpcClient.create({
        mode: 'nats',
        natsUrl: config.NATS_URL,
        subjectPrefix: config.SUBJECT_PREFIX,
        logger,
        observe: rpcObserver('gateway'),
      });
    } else if (opts.inProcessBus) {
      rpc = await RpcClient.create({ mode: 'in-process', bus: opts.inProcessBus, observe: rpcObserver('gateway') });
    } else {
      throw new Error('NATS_URL is required when the gateway runs on its own (the in-process bus exists only in the embedded launcher)');
    }
    shutdown.add('rpc client', () => rpc.close());

    const readiness = new Readiness();
    const unsampleReady = sampleReadiness('gateway', readiness);
    shutdown.add('metric samplers', () => unsampleReady());
    readiness.add('sessions', () => store.ping());
    readiness.add('bus', () => rpc.ping());

    @Global()
    @Module({
      providers: [
        { provide: GATEWAY_CONFIG, useValue: config },
        { provide: LOGGER, useValue: logger },
        { provide: SESSION_STORE, useValue: store },
        { provide: COUNTERS, useValue: counters },
        { provide: PENDING_SIGN_INS, useValue: pendingSignIns },
        { provide: RPC, useValue: rpc },
        { provide: Readiness, useValue: readiness },
        { provide: CLOCK, useValue: clockFor(config) },
      ],
      exports: [GATEWAY_CONFIG, LOGGER, SESSION_STORE, COUNTERS, PENDING_SIGN_INS, RPC, Readiness, CLOCK],
    })
    class GatewayRuntimeModule {}

    @Module({
      imports: [GatewayRuntimeModule, ...featureModules({ testClock: config.LWS_TEST_CLOCK, inProcessBus: opts.inProcessBus })],
      controllers: ROOT_CONTROLLERS,
      providers: [
        AuthService,
        KioskLoginService,
        { provide: OPENAPI_DOCUMENT, useFactory: openApiDocument },
        { provide: APP_GUARD, useClass: SessionGuard },
        { provide: APP_FILTER, useClass: ApiExceptionFilter },
        { provide: APP_INTERCEPTOR, useClass: TextSafetyInterceptor },
      ],
    })
    class GatewayModule {}

    const app = await NestFactory.create<NestExpressApplication>(GatewayModule, {
      logger: new NestPinoLogger(logger),
      abortOnError: false,
    });
    shutdown.add('nest application', () => app.close());
    app.disable('x-powered-by');
    app.set('trust proxy', config.TRUST_PROXY);
    app.use(httpMetrics);
    app.use(securityHeaders);
    app.use(responseCompression);
    app.use(cookieParser());
    app.use(csrfGuard({ publicOrigin: config.PUBLIC_ORIGIN, trustProxy: config.TRUST_PROXY }));
    // SCIM reads its own body (larger groups, SCIM errors), before the JSON parser.
    app.use(bodyLimit((req) => isImportRequest(req) || isScimRequest(req)));
    app.use(scimBody());
    app.use(importBody(store));
    app.use(frontendRouter(config));
    await opts.beforeListen?.();
    await app.listen(config.PORT, config.HOST);
    const address = app.getHttpServer().address();
    const port = typeof address === 'object' && address ? address.port : config.PORT;
    const ops = await serveOps({ host: config.HOST, port: config.HEALTH_PORT, readiness });
    shutdown.add('ops server', () => ops.close());
    readiness.markStarted();
    const url = `http://${config.HOST}:${port}`;
    logger.info({ url, health: ops.url }, 'gateway ready');
    return { name: 'gateway', url, healthUrl: ops.url, logger, app, close };
  } catch (err) {
    await close();
    throw err;
  }
}
