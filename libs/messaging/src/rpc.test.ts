import { randomUUID } from 'node:crypto';
import { GetUserReply, GetUserRequest, PingReply } from '@lws/contracts';
import { eventually, testServers, uniqueId } from '@lws/testing';
import { Controller, Inject, INestMicroservice, LoggerService, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { connect, JSONCodec } from 'nats';
import { Command } from './command.decorator';
import { InProcessBus, RpcReplyPacket } from './in-process-bus';
import { RpcClient } from './rpc-client';
import { RemoteError, RpcError } from './rpc-errors';
import { createRpcStrategy, RpcTransportOptions, rpcSubject } from './rpc-strategy';
import { recordingLogger } from './testing/support';

const REPLICA = 'REPLICA';

function user(id: number) {
  return {
    id,
    username: `user${id}`,
    name: `User ${id}`,
    role: 'worker' as const,
    createdAt: '2024-05-01T10:00:00.000Z',
    pinSet: false,
    passwordIsTemporary: false,
  };
}

@Controller()
class IdentityCommands {
  static calls = 0;
  static readonly callsByReplica = new Map<string, number>();

  constructor(@Inject(REPLICA) private readonly replica: string) {}

  private count(): void {
    IdentityCommands.calls++;
    IdentityCommands.callsByReplica.set(this.replica, (IdentityCommands.callsByReplica.get(this.replica) ?? 0) + 1);
  }

  @Command('identity.system.ping.v1')
  async ping(): Promise<PingReply> {
    this.count();
    return { service: 'identity', ready: true, version: this.replica };
  }

  @Command('identity.user.get.v1')
  async getUser(request: GetUserRequest): Promise<GetUserReply> {
    this.count();
    switch (request.userId) {
      case 404:
        throw new RpcError(404, 'User not found', { code: 'user_not_found' });
      case 500:
        throw new Error('connection to postgres://lws:hunter2@db failed');
      case 501:
        // A handler that would leak a column the contract does not allow.
        return { user: { ...user(501), passwordHash: '$argon2id$...' } } as GetUserReply;
      case 408:
        await new Promise((resolve) => setTimeout(resolve, 500));
        return { user: user(408) };
      default:
        return { user: user(request.userId) };
    }
  }
}

function identityModule(replica: string) {
  @Module({ controllers: [IdentityCommands], providers: [{ provide: REPLICA, useValue: replica }] })
  class IdentityModule {}
  return IdentityModule;
}

class CapturingNestLogger implements LoggerService {
  readonly errors: string[] = [];
  log(): void {}
  warn(): void {}
  debug(): void {}
  verbose(): void {}
  error(message: unknown, ...rest: unknown[]): void {
    this.errors.push([message, ...rest].map((m) => (m instanceof Error ? `${m.message} ${m.stack}` : String(m))).join(' '));
  }
}

interface Mode {
  name: string;
  transport(): RpcTransportOptions;
  /** Sends a Nest request packet without the client's checks, as a misbehaving caller could. */
  raw(pattern: string, data: unknown): Promise<RpcReplyPacket>;
  teardown(): Promise<void>;
}

function natsMode(): Mode {
  const prefix = `${uniqueId()}.`;
  return {
    name: 'NATS',
    transport: () => ({ mode: 'nats', natsUrl: testServers.natsUrl, subjectPrefix: prefix, logger: recordingLogger() }),
    async raw(pattern, data) {
      const nc = await connect({ servers: testServers.natsUrl });
      try {
        const codec = JSONCodec<RpcReplyPacket>();
        const reply = await nc.request(rpcSubject(prefix, pattern), JSONCodec().encode({ pattern, data, id: randomUUID() }), {
          timeout: 2000,
        });
        return codec.decode(reply.data);
      } finally {
        await nc.drain();
      }
    },
    teardown: async () => undefined,
  };
}

function inProcessMode(): Mode {
  const bus = new InProcessBus({ logger: recordingLogger() });
  return {
    name: 'in-process',
    transport: () => ({ mode: 'in-process', bus }),
    raw: (pattern, data) => bus.request(pattern, data, 2000),
    teardown: () => bus.close(),
  };
}

describe.each([
  ['NATS', natsMode],
  ['in-process', inProcessMode],
])('commands over %s', (_name, makeMode) => {
  let mode: Mode;
  let app: INestMicroservice;
  let client: RpcClient;
  let nestLogger: CapturingNestLogger;

  beforeAll(async () => {
    mode = makeMode();
    nestLogger = new CapturingNestLogger();
    app = await NestFactory.createMicroservice(identityModule('replica-a'), {
      strategy: createRpcStrategy(mode.transport()),
      logger: nestLogger,
    });
    await app.listen();
    client = await RpcClient.create(mode.transport());
  });

  afterAll(async () => {
    await client.close();
    await app.close();
    await mode.teardown();
  });

  async function failure(promise: Promise<unknown>): Promise<RemoteError> {
    const err = await promise.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(RemoteError);
    return err as RemoteError;
  }

  it('answers a ping with a validated reply', async () => {
    await expect(client.send('identity.system.ping.v1', {})).resolves.toEqual({ service: 'identity', ready: true, version: 'replica-a' });
  });

  it('passes the parsed request to the handler and returns its reply', async () => {
    await expect(client.send('identity.user.get.v1', { userId: 42 })).resolves.toEqual({ user: user(42) });
  });

  it('refuses a request that breaks the contract before sending it, with 400 naming the field', async () => {
    const before = IdentityCommands.calls;
    const err = await failure(client.send('identity.user.get.v1', { userId: 0 }));
    expect(err).toMatchObject({ status: 400, field: 'userId' });
    expect(err.message).toContain('userId');
    expect(IdentityCommands.calls).toBe(before);
  });

  it('answers 400 naming the field when a bad request reaches the service', async () => {
    const before = IdentityCommands.calls;
    const packet = await mode.raw('identity.user.get.v1', { userId: 'seven' });
    expect(packet.err).toMatchObject({ status: 400, field: 'userId' });
    const unknown = await mode.raw('identity.system.ping.v1', { admin: true });
    expect(unknown.err).toMatchObject({ status: 400, field: 'admin', message: 'admin: Unknown field' });
    expect(IdentityCommands.calls).toBe(before);
  });

  it('passes an RpcError through with its status, message and code', async () => {
    const err = await failure(client.send('identity.user.get.v1', { userId: 404 }));
    expect(err).toMatchObject({ status: 404, message: 'User not found', code: 'user_not_found' });
  });

  it('turns an unexpected handler error into a generic 500 and keeps the details in the service log', async () => {
    const err = await failure(client.send('identity.user.get.v1', { userId: 500 }));
    expect(err).toMatchObject({ status: 500, message: 'Internal server error' });
    expect(err.message).not.toContain('hunter2');
    await eventually(() => nestLogger.errors.some((e) => e.includes('connection to postgres')));
  });

  it('never lets a reply that breaks its contract leave the service', async () => {
    const err = await failure(client.send('identity.user.get.v1', { userId: 501 }));
    expect(err).toMatchObject({ status: 500, message: 'Internal server error' });
    expect(JSON.stringify(err)).not.toContain('argon2');
    await eventually(() => nestLogger.errors.some((e) => e.includes('breaks its contract') && e.includes('passwordHash')));
  });

  it('answers 503 naming the command when no service handles it', async () => {
    const err = await failure(
      client.send('identity.user.create.v1', {
        username: 'worker1',
        password: 'secret-password',
        name: 'Worker One',
        phone: '+447700900123',
        role: 'worker',
        actorRole: 'admin',
      }),
    );
    expect(err.status).toBe(503);
    expect(err.message).toContain('identity.user.create.v1');
  });

  it('answers 503 naming the command when the service does not reply in time', async () => {
    const err = await failure(client.send('identity.user.get.v1', { userId: 408 }, { timeoutMs: 100 }));
    expect(err.status).toBe(503);
    expect(err.message).toContain('identity.user.get.v1');
  });
});

describe('commands over NATS with two replicas', () => {
  it('each request is answered by exactly one replica, and both share the load', async () => {
    const mode = natsMode();
    const apps: INestMicroservice[] = [];
    for (const replica of ['replica-a', 'replica-b']) {
      const app = await NestFactory.createMicroservice(identityModule(replica), {
        strategy: createRpcStrategy(mode.transport()),
        logger: false,
      });
      await app.listen();
      apps.push(app);
    }
    const client = await RpcClient.create(mode.transport());
    try {
      IdentityCommands.callsByReplica.clear();
      const replies = await Promise.all(Array.from({ length: 40 }, () => client.send('identity.system.ping.v1', {})));
      const a = IdentityCommands.callsByReplica.get('replica-a') ?? 0;
      const b = IdentityCommands.callsByReplica.get('replica-b') ?? 0;
      expect(a + b).toBe(40);
      expect(a).toBeGreaterThan(0);
      expect(b).toBeGreaterThan(0);
      expect(replies.filter((r) => r.version === 'replica-a')).toHaveLength(a);
    } finally {
      await client.close();
      for (const app of apps) await app.close();
    }
  });
});
