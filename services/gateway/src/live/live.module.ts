import { Inject, Injectable, Module, type DynamicModule, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { JetStreamBus, type EventTailSource, type InProcessBus } from '@lws/messaging';
import { CLOCK, LOGGER, metrics, type Clock, type Logger } from '@lws/platform';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config';
import { LiveController } from './live.controller';
import { LiveFeed } from './live-feed';

const EVENT_SOURCE = Symbol('LIVE_EVENT_SOURCE');

interface EventSource {
  source: EventTailSource;
  /** Closes what this module opened (its own NATS connection), never the embedded bus. */
  close(): Promise<void>;
}

@Injectable()
class LiveLifecycle implements OnApplicationBootstrap, OnModuleDestroy {
  constructor(
    @Inject(LiveFeed) private readonly feed: LiveFeed,
    @Inject(EVENT_SOURCE) private readonly events: EventSource,
  ) {}

  private unsample?: () => void;

  onApplicationBootstrap(): Promise<void> {
    this.unsample = metrics.sseClients.sample((g) => g.set({ service: 'gateway' }, this.feed.size));
    return this.feed.start();
  }

  /** Before the HTTP server closes, which would otherwise wait for every open stream. */
  async onModuleDestroy(): Promise<void> {
    this.unsample?.();
    await this.feed.stop();
    await this.events.close();
  }
}

/** Live updates over Server-Sent Events, fed by one tail of the event bus per gateway process. */
@Module({})
// biome-ignore lint/complexity/noStaticOnlyClass: a Nest dynamic module is a class: @Module() decorates it and register() returns it.
export class LiveModule {
  static register(inProcessBus?: InProcessBus): DynamicModule {
    return {
      module: LiveModule,
      controllers: [LiveController],
      providers: [
        {
          provide: EVENT_SOURCE,
          inject: [GATEWAY_CONFIG, LOGGER],
          useFactory: async (config: GatewayConfig, logger: Logger): Promise<EventSource> => {
            if (config.NATS_URL) {
              const bus = await JetStreamBus.connect({
                natsUrl: config.NATS_URL,
                stream: config.EVENTS_STREAM,
                subjectPrefix: config.SUBJECT_PREFIX,
                logger,
                name: 'lws-gateway-live',
              });
              return { source: bus, close: () => bus.close() };
            }
            if (!inProcessBus) throw new Error('The live stream needs NATS_URL or the embedded in-process bus');
            return { source: inProcessBus, close: async () => undefined };
          },
        },
        {
          provide: LiveFeed,
          inject: [EVENT_SOURCE, GATEWAY_CONFIG, LOGGER, CLOCK],
          useFactory: (events: EventSource, config: GatewayConfig, logger: Logger, clock: Clock) =>
            new LiveFeed({
              source: events.source,
              logger,
              clock,
              maxEvents: config.LIVE_BUFFER_EVENTS,
              maxAgeMs: config.LIVE_BUFFER_SECONDS * 1000,
            }),
        },
        LiveLifecycle,
      ],
    };
  }
}
