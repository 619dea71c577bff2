import { randomUUID } from 'node:crypto';
import { CommandMap, CommandPattern, ContractError, parseCommandReply, parseCommandRequest } from '@lws/contracts';
import { context } from '@opentelemetry/api';
import { connect, ErrorCode, headers, JSONCodec, MsgHdrs, NatsConnection, NatsError } from 'nats';
import { NoResponderError, RequestTimeoutError, type RpcReplyPacket } from './in-process-bus';
import { errorMessage, MessagingLogger } from './logger';
import { RemoteError, remoteErrorFromPacket } from './rpc-errors';
import { RpcObserver, RpcTransportOptions, rpcSubject } from './rpc-strategy';
import { activeCarrier, inSpan, SpanKind, type TraceCarrier } from './tracing';

export interface SendOptions {
  /** Default 5000 ms; past it the call fails with 503. */
  timeoutMs?: number;
}

type Transport = (pattern: string, data: unknown, timeoutMs: number, trace?: TraceCarrier) => Promise<RpcReplyPacket>;

const codec = JSONCodec<unknown>();

/**
 * Sends commands to services and returns their validated replies. Every failure is a RemoteError
 * carrying an HTTP-like status: 400 for a request that breaks its contract, the handler's own
 * status for an RpcError, 503 when no service answers in time, 502 for a reply that breaks its
 * contract, 500 for anything else.
 */
export class RpcClient {
  private constructor(
    private readonly transport: Transport,
    private readonly closeTransport: () => Promise<void>,
    private readonly logger?: MessagingLogger,
    /** Resolves while the transport can carry requests (readiness). */
    readonly ping: () => Promise<void> = async () => undefined,
    private readonly observe?: RpcObserver,
  ) {}

  static async create(options: RpcTransportOptions): Promise<RpcClient> {
    if (options.mode === 'in-process') {
      const bus = options.bus;
      return new RpcClient(
        (pattern, data, timeoutMs) => bus.request(pattern, data, timeoutMs),
        async () => undefined,
        options.logger,
        undefined,
        options.observe,
      );
    }
    let nc: NatsConnection;
    try {
      // noAsyncTraces: see JetStreamBus.connect.
      nc = await connect({
        servers: options.natsUrl,
        name: options.name,
        maxReconnectAttempts: -1,
        reconnectTimeWait: 1000,
        noAsyncTraces: true,
      });
    } catch (err) {
      throw new Error(`Cannot connect to NATS at ${options.natsUrl}: ${errorMessage(err)}`, { cause: err });
    }
    const prefix = options.subjectPrefix ?? '';
    const transport: Transport = async (pattern, data, timeoutMs, trace) => {
      const request = { pattern, data, id: randomUUID() };
      let traceHeaders: MsgHdrs | undefined;
      if (trace) {
        traceHeaders = headers();
        for (const [k, v] of Object.entries(trace)) traceHeaders.set(k, v);
      }
      const reply = await nc.request(rpcSubject(prefix, pattern), codec.encode(request), {
        timeout: timeoutMs,
        ...(traceHeaders ? { headers: traceHeaders } : {}),
      });
      return codec.decode(reply.data) as RpcReplyPacket;
    };
    return new RpcClient(
      transport,
      async () => {
        if (nc.isClosed()) return;
        // Draining needs the server; during an outage give up after a while rather than hang shutdown.
        let timer: NodeJS.Timeout | undefined;
        const gaveUp = new Promise<void>((resolve) => (timer = setTimeout(resolve, 5000)));
        await Promise.race([nc.drain().catch(() => undefined), gaveUp]);
        clearTimeout(timer);
        if (!nc.isClosed()) await nc.close();
      },
      options.logger,
      async () => {
        if (nc.isClosed()) throw new Error('NATS connection closed');
        await nc.flush();
      },
      options.observe,
    );
  }

  async send<P extends CommandPattern>(
    pattern: P,
    request: CommandMap[P]['request'],
    options: SendOptions = {},
  ): Promise<CommandMap[P]['reply']> {
    if (!this.observe) return this.sendOnce(pattern, request, options);
    const started = performance.now();
    try {
      const reply = await this.sendOnce(pattern, request, options);
      this.observe(pattern, 'ok', (performance.now() - started) / 1000);
      return reply;
    } catch (err) {
      this.observe(pattern, err instanceof RemoteError ? String(err.status) : 'error', (performance.now() - started) / 1000);
      throw err;
    }
  }

  private async sendOnce<P extends CommandPattern>(
    pattern: P,
    request: CommandMap[P]['request'],
    options: SendOptions,
  ): Promise<CommandMap[P]['reply']> {
    const timeoutMs = options.timeoutMs ?? 5000;
    let data: CommandMap[P]['request'];
    try {
      data = parseCommandRequest(pattern, request);
    } catch (err) {
      if (err instanceof ContractError) throw new RemoteError(400, err.message, { field: err.field });
      throw err;
    }
    let packet: RpcReplyPacket;
    try {
      // Inside a trace, the request gets a client span whose context the server continues.
      packet = activeCarrier()
        ? await inSpan(`rpc ${pattern}`, SpanKind.CLIENT, context.active(), { 'rpc.method': pattern }, () =>
            this.transport(pattern, data, timeoutMs, activeCarrier()),
          )
        : await this.transport(pattern, data, timeoutMs);
    } catch (err) {
      throw this.transportError(err, pattern, timeoutMs);
    }
    if (packet.err !== undefined && packet.err !== null) throw remoteErrorFromPacket(packet.err, pattern);
    try {
      return parseCommandReply(pattern, packet.response);
    } catch (err) {
      if (!(err instanceof ContractError)) throw err;
      this.logger?.error({ pattern, error: err.message }, 'command reply breaks its contract');
      throw new RemoteError(502, `Invalid reply from ${pattern}`);
    }
  }

  async close(): Promise<void> {
    await this.closeTransport();
  }

  private transportError(err: unknown, pattern: string, timeoutMs: number): RemoteError {
    if (err instanceof NoResponderError || (err instanceof NatsError && err.code === ErrorCode.NoResponders)) {
      return new RemoteError(503, `No service is answering ${pattern}`);
    }
    if (err instanceof RequestTimeoutError || (err instanceof NatsError && err.code === ErrorCode.Timeout)) {
      return new RemoteError(503, `${pattern} did not answer within ${timeoutMs} ms`);
    }
    this.logger?.warn({ pattern, error: errorMessage(err) }, 'command could not be sent');
    return new RemoteError(503, `${pattern} is unavailable`);
  }
}
