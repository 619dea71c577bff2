import 'reflect-metadata';
import { Controller, Global, Module, type DynamicModule, type INestApplication, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ScheduleModule, SchedulerRegistry } from '@nestjs/schedule';
import type { PgSchema } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import {
  Command,
  createRpcStrategy,
  InProcessBus,
  JetStreamBus,
  messagingTables,
  Outbox,
  OutboxRelay,
  pruneMessagingTables,
  RpcClient,
  type EventBus,
  type RpcTransportOptions,
} from '@lws/messaging';
import type { CommandPattern } from '@lws/contracts';
import { baseConfigShape, healthPortShape, loadConfig, type BaseConfig } from './config';
import { createLogger, NestPinoLogger, type Logger } from './logger';
import { openDatabase, type Database } from './database';
import { HealthController, MetricsController, Readiness } from './health';
import { metrics, priorityLabel, rpcObserver, sampleMessagingTables, sampleReadiness } from './metrics';
import { DeadLetters, deadLettersController } from './dead-letters';
import { clockFor } from './clock';
import { Shutdown } from './shutdown';
import { Chores } from './chores';
import { ANNOUNCE, CLOCK, CONFIG, Consumers, DB, LOGGER, RPC, UnitOfWork, type Announce, type Clock } from './runtime';

export const VERSION = '0.1.0';

export interface ServiceDefinition<S extends z.ZodRawShape = z.ZodRawShape> {
  name: 'identity' | 'locations' | 'shifts' | 'escalation' | 'notifications' | 'audit';
  /** Service-specific variables, on top of the common ones. */
  configShape: S;
  defaultHealthPort: number;
  /** The service's feature modules. */
  imports: Type<unknown>[];
  /** The service's PostgreSQL schema, holding its tables and its outbox. */
  schema: PgSchema;
  tables: ReturnType<typeof messagingTables>;
  migrationsFolder: string;
}

export interface RuntimeOptions {
  env?: NodeJS.ProcessEnv;
  /** Embedded mode: every service in one process shares this bus instead of NATS. */
  inProcessBus?: InProcessBus;
  clock?: Clock;
  /** Where one-time operator messages go (default: stdout). */
  announce?: Announce;
  logDestination?: Parameters<typeof createLogger>[2];
}

export interface RunningService {
  name: string;
  url: string;
  logger: Logger;
  app: INestApplication;
  close(): Promise<void>;
}

export function serviceConfigShape<S extends z.ZodRawShape>(def: ServiceDefinition<S>) {
  return { ...baseConfigShape, ...healthPortShape(def.defaultHealthPort), ...def.configShape };
}

type ServiceConfig = BaseConfig & { HEALTH_PORT: number };

function loadServiceConfig(def: ServiceDefinition, env?: NodeJS.ProcessEnv): ServiceConfig {
  return loadConfig(serviceConfigShape(def), env) as unknown as ServiceConfig;
}

function pingController(service: string): Type<unknown> {
  @Controller()
  class SystemController {
    constructor(private readonly readiness: Readiness) {}

    @Command(`${service}.system.ping.v1` as CommandPattern)
    async ping() {
      const report = await this.readiness.report();
      return { service, ready: report.ready, version: VERSION };
    }
  }
  return SystemController;
}

/** Applies the service's migrations and exits: the Helm hook job runs this. */
export async function migrateOnly(def: ServiceDefinition, opts: RuntimeOptions = {}): Promise<void> {
  const config = loadServiceConfig(def, opts.env);
  const logger = createLogger(def.name, config.LOG_LEVEL, opts.logDestination);
  const database = await openDatabase({
    service: def.name,
    databaseUrl: config.DATABASE_URL,
    dataDir: config.DATA_DIR,
    templateDir: config.PGLITE_TEMPLATE_DIR,
    migrationsFolder: def.migrationsFolder,
    logger,
  });
  await database.close();
}

/**
 * Starts one service: config, logger, database (migrated), bus, outbox relay, request/reply
 * handlers, durable consumers and the health endpoints. Throws ConfigError on a bad variable.
 */
export async function startService(def: ServiceDefinition, opts: RuntimeOptions = {}): Promise<RunningService> {
  const config = loadServiceConfig(def, opts.env);
  const logger = createLogger(def.name, config.LOG_LEVEL, opts.logDestination);
  const clock = opts.clock ?? clockFor(config);
  const shutdown = new Shutdown(logger);
  const close = () => shutdown.run();

  try {
    const database: Database = await openDatabase({
      service: def.name,
      databaseUrl: config.DATABASE_URL,
      dataDir: config.DATA_DIR,
      templateDir: config.PGLITE_TEMPLATE_DIR,
      migrationsFolder: def.migrationsFolder,
      logger,
      poolSize: config.DATABASE_POOL_SIZE,
    });
    shutdown.add('database pool', () => database.close());

    let bus: EventBus;
    let rpcStrategy: ReturnType<typeof createRpcStrategy>;
    let rpcTransport: RpcTransportOptions;
    if (config.NATS_URL) {
      const jet = await JetStreamBus.connect({
        natsUrl: config.NATS_URL,
        stream: config.EVENTS_STREAM,
        replicas: config.EVENTS_STREAM_REPLICAS,
        subjectPrefix: config.SUBJECT_PREFIX,
        logger,
        name: `lws-${def.name}`,
      });
      bus = jet;
      shutdown.add('event bus', () => jet.close());
      rpcTransport = { mode: 'nats', natsUrl: config.NATS_URL, subjectPrefix: config.SUBJECT_PREFIX, logger, name: `lws-${def.name}-rpc` };
      rpcStrategy = createRpcStrategy(rpcTransport);
    } else if (opts.inProcessBus) {
      bus = opts.inProcessBus;
      rpcTransport = { mode: 'in-process', bus: opts.inProcessBus, logger };
      rpcStrategy = createRpcStrategy(rpcTransport);
    } else {
      throw new Error('NATS_URL is required when a service runs on its own (the in-process bus exists only in the embedded launcher)');
    }

    const rpc = await RpcClient.create({ ...rpcTransport, observe: rpcObserver(def.name) });
    shutdown.add('rpc client', () => rpc.close());

    const outbox = new Outbox({ tables: def.tables, producer: def.name, clock });
    const relay = new OutboxRelay({
      db: database.db,
      tables: def.tables,
      bus,
      logger,
      onParked: () => metrics.outboxParkedTotal.inc({ service: def.name }),
      onPublished: (rows) => {
        const now = Date.now();
        for (const r of rows)
          metrics.chainWait.observe(
            { service: def.name, stage: 'relay', priority: priorityLabel(r.priority) },
            Math.max(0, now - r.createdAt.getTime()) / 1000,
          );
      },
    });
    const readiness = new Readiness();
    const unsample = [...sampleMessagingTables(def.name, database.db, def.tables), sampleReadiness(def.name, readiness)];
    shutdown.add('metric samplers', () => {
      for (const remove of unsample) remove();
    });
    const consumers = new Consumers(def.name, { db: database.db, tables: def.tables, bus, logger, outbox, relay });
    readiness.add('database', () => database.ping());
    readiness.add('bus', () => bus.ping());

    @Global()
    @Module({
      imports: [ScheduleModule.forRoot()],
      providers: [
        {
          provide: Chores,
          useFactory: (registry: SchedulerRegistry) => new Chores(def.name, registry, logger),
          inject: [SchedulerRegistry],
        },
        { provide: CONFIG, useValue: config },
        { provide: LOGGER, useValue: logger },
        { provide: DB, useValue: database.db },
        { provide: CLOCK, useValue: clock },
        { provide: ANNOUNCE, useValue: opts.announce ?? ((m: string) => process.stdout.write(`\n${m}\n\n`)) },
        { provide: UnitOfWork, useValue: new UnitOfWork(database.db, outbox, relay, logger) },
        { provide: Consumers, useValue: consumers },
        { provide: Readiness, useValue: readiness },
        { provide: RPC, useValue: rpc },
      ],
      exports: [Chores, CONFIG, LOGGER, DB, CLOCK, ANNOUNCE, UnitOfWork, Consumers, Readiness, RPC],
    })
    class RuntimeModule {}

    const deadLetters = new DeadLetters(database.db, def.tables, consumers, relay);

    @Module({
      imports: [RuntimeModule, ...def.imports],
      controllers: [HealthController, MetricsController, pingController(def.name), deadLettersController(def.name, deadLetters)],
    })
    class ServiceModule {}

    const app = await NestFactory.create(ServiceModule as DynamicModule['module'], {
      logger: new NestPinoLogger(logger),
      abortOnError: false,
    });
    shutdown.add('nest application', () => app.close());
    app.connectMicroservice({ strategy: rpcStrategy }, { inheritAppConfig: true });
    // Runs the modules' onModuleInit hooks, where feature modules register their consumers, before
    // the consumers start (app.listen would run them only after).
    await app.init();
    await app.startAllMicroservices();

    relay.start();
    shutdown.add('outbox relay', () => relay.stop());
    await consumers.startAll();
    shutdown.add('durable consumers', () => consumers.stopAll());

    // The feature modules registered theirs as the app started; stopped before the app closes.
    const chores = app.get(Chores);
    chores.every('outbox-prune', 3600_000, async () => {
      const n = await pruneMessagingTables(database.db, def.tables, clock());
      if (n.outbox + n.processedEvents > 0) logger.info(n, 'pruned old outbox and dedupe rows');
    });
    shutdown.add('chores', () => chores.stop());

    await app.listen(config.HEALTH_PORT, config.HOST);
    const address = app.getHttpServer().address();
    const port = typeof address === 'object' && address ? address.port : config.HEALTH_PORT;
    readiness.markStarted();
    const url = `http://${config.HOST}:${port}`;
    logger.info({ url }, `${def.name} ready`);
    return { name: def.name, url, logger, app, close };
  } catch (err) {
    await close();
    throw err;
  }
}
