import { BaseRpcContext, CustomTransportStrategy, MessageHandler, Server, ServerNats } from '@nestjs/microservices';
import { JSONCodec, NatsConnection, Msg, Subscription } from 'nats';
import { InProcessBus, RpcReplyPacket } from './in-process-bus';
import { errorMessage, MessagingLogger } from './logger';
import { INTERNAL_ERROR_MESSAGE } from './rpc-errors';
import { carrierOfHeaders, contextOf, inSpan, SpanKind } from './tracing';

export type RpcTransportOptions =
  | {
      mode: 'nats';
      natsUrl: string;
      /** Same prefix as the event bus, so concurrent test runs never answer each other. Default ''. */
      subjectPrefix?: string;
      logger?: MessagingLogger;
      /** Connection name shown by the NATS server. */
      name?: string;
      observe?: RpcObserver;
    }
  | { mode: 'in-process'; bus: InProcessBus; logger?: MessagingLogger; observe?: RpcObserver };

/** Told of every command a client sent: its subject, `ok` or the failure's status, and how long it took (metrics). */
export type RpcObserver = (subject: string, outcome: string, seconds: number) => void;

/** Replicas of a service join one queue group per command, so each request reaches one of them. */
export const RPC_QUEUE_GROUP = 'lws-rpc';

/**
 * Commands travel under `rpc.` because the event stream captures `identity.>` and the like: a
 * request sent on a stream subject would be answered by JetStream's PubAck instead of the service.
 */
export function rpcSubject(subjectPrefix: string, pattern: string): string {
  return `${subjectPrefix}rpc.${pattern}`;
}

/** The transport to pass as `app.connectMicroservice({ strategy })` or `createMicroservice(module, { strategy })`. */
export function createRpcStrategy(options: RpcTransportOptions): CustomTransportStrategy {
  return options.mode === 'nats' ? new NatsRpcServer(options) : new InProcessRpcServer(options.bus, options.logger);
}

function nonCommandPatterns(handlers: Map<string, MessageHandler>): string[] {
  return [...handlers.entries()].filter(([, h]) => h.isEventHandler).map(([p]) => p);
}

/** Nest's NATS server, subscribing each command on `<prefix>rpc.<pattern>` in a queue group. */
export class NatsRpcServer extends ServerNats {
  private readonly prefix: string;
  private readonly log?: MessagingLogger;
  private readonly subs: Subscription[] = [];
  private readonly codec = JSONCodec();

  constructor(options: Extract<RpcTransportOptions, { mode: 'nats' }>) {
    super({
      servers: options.natsUrl,
      name: options.name,
      queue: RPC_QUEUE_GROUP,
      maxReconnectAttempts: -1,
      reconnectTimeWait: 1000,
    });
    this.prefix = options.subjectPrefix ?? '';
    this.log = options.logger;
  }

  override bindEvents(client: NatsConnection): void {
    const ignored = nonCommandPatterns(this.messageHandlers);
    if (ignored.length > 0) {
      this.log?.warn({ patterns: ignored }, 'event handlers are not served over core NATS; use a DurableConsumer');
    }
    for (const [pattern, handler] of this.messageHandlers) {
      if (handler.isEventHandler) continue;
      const sub = client.subscribe(rpcSubject(this.prefix, pattern), {
        queue: RPC_QUEUE_GROUP,
        callback: (err, msg) => {
          if (err) {
            this.log?.error({ pattern, error: errorMessage(err) }, 'command subscription failed');
            return;
          }
          const trace = carrierOfHeaders(msg.headers);
          const handle = () => this.handleMessage(pattern, msg);
          (trace ? inSpan(`handle ${pattern}`, SpanKind.SERVER, contextOf(trace), { 'rpc.method': pattern }, handle) : handle()).catch(
            (e: unknown) => this.answerMalformed(pattern, msg, e),
          );
        },
      });
      this.subs.push(sub);
    }
    this.log?.info({ commands: this.subs.length, subjectPrefix: this.prefix }, 'serving commands over NATS');
  }

  /** Drains so requests being handled still get their reply. */
  override async close(): Promise<void> {
    let nc: NatsConnection | undefined;
    try {
      nc = this.unwrap<NatsConnection>();
    } catch {
      return;
    }
    if (!nc.isClosed()) await nc.drain().catch(() => undefined);
    this.subs.length = 0;
    await super.close();
  }

  private answerMalformed(pattern: string, msg: Msg, err: unknown): void {
    this.log?.warn({ pattern, error: errorMessage(err) }, 'malformed command request');
    if (!msg.reply) return;
    try {
      msg.respond(this.codec.encode({ err: { status: 400, message: 'Malformed request' }, isDisposed: true }));
    } catch {
      // The requester gave up or the connection is closing; it sees a timeout.
    }
  }
}

/** Serves commands through the InProcessBus in embedded mode, running them through Nest's pipeline. */
export class InProcessRpcServer extends Server implements CustomTransportStrategy {
  override readonly transportId = Symbol('lws-in-process-rpc');
  private readonly unregister: Array<() => void> = [];

  constructor(
    private readonly bus: InProcessBus,
    private readonly log?: MessagingLogger,
  ) {
    super();
  }

  listen(callback: (err?: unknown) => void): void {
    try {
      for (const [pattern, handler] of this.messageHandlers) {
        if (handler.isEventHandler) continue;
        this.unregister.push(this.bus.serve(pattern, (data) => this.dispatch(pattern, data)));
      }
      this.log?.info({ commands: this.unregister.length }, 'serving commands in process');
      callback();
    } catch (err) {
      callback(err);
    }
  }

  close(): void {
    for (const remove of this.unregister.splice(0)) remove();
  }

  on(): void {
    // The in-process transport has no connection whose status could change.
  }

  unwrap<T>(): T {
    return this.bus as unknown as T;
  }

  private dispatch(pattern: string, data: unknown): Promise<RpcReplyPacket> {
    return new Promise<RpcReplyPacket>((resolve) => {
      const handler = this.getHandlerByPattern(pattern);
      if (!handler) {
        resolve({ err: { status: 503, message: `No service is answering ${pattern}` } });
        return;
      }
      const context = new BaseRpcContext([pattern]);
      const fail = (err: unknown) => {
        this.log?.error({ pattern, error: errorMessage(err) }, 'command handler failed outside Nest');
        resolve({ err: { status: 'error', message: INTERNAL_ERROR_MESSAGE } });
      };
      try {
        this.onProcessingStartHook(this.transportId, context, async () => {
          try {
            const result$ = this.transformToObservable(await handler(data, context));
            this.send(result$, (packet) => {
              this.onProcessingEndHook?.(this.transportId, context);
              if (packet.err !== undefined) resolve({ err: packet.err });
              else resolve({ response: packet.response });
            });
          } catch (err) {
            fail(err);
          }
        });
      } catch (err) {
        fail(err);
      }
    });
  }
}
