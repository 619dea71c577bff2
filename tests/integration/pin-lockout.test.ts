import { connect } from 'nats';
import { RemoteError, RpcClient } from '@lws/messaging';
import { startService, type RunningService } from '@lws/platform';
import { identityService } from '@lws/identity';
import { createTestDatabase, testServers, uniqueId, type TestDatabase } from '@lws/testing';

/**
 * The lockout's time rules, with identity's injected clock moved by hand (real PostgreSQL and
 * NATS): only failures within 15 minutes count, and a lock ends 15 minutes after it began.
 */
describe('PIN lockout over time', () => {
  let db: TestDatabase;
  let identity: RunningService;
  let rpc: RpcClient;
  let now = new Date('2030-01-01T09:00:00Z');
  const id = uniqueId('pl');
  const stream = `LWS_${id.toUpperCase()}`;
  const minutes = (n: number) => (now = new Date(now.getTime() + n * 60_000));

  beforeAll(async () => {
    db = await createTestDatabase();
    const env = {
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      HOST: '127.0.0.1',
      HEALTH_PORT: '0',
      DATABASE_URL: db.url,
      NATS_URL: testServers.natsUrl,
      SUBJECT_PREFIX: `${id}.`,
      EVENTS_STREAM: stream,
      LWS_SUPERADMIN_PASSWORD: `Sup3r-${id}`,
      PIN_HASH_KEY: `test-only-pin-hash-key-${id}`,
    };
    identity = await startService(identityService, { env, clock: () => now, announce: () => undefined });
    rpc = await RpcClient.create({ mode: 'nats', natsUrl: testServers.natsUrl, subjectPrefix: `${id}.` });
  }, 60_000);

  afterAll(async () => {
    await rpc?.close();
    await identity?.close();
    await db?.drop();
    const nc = await connect({ servers: testServers.natsUrl });
    await (await nc.jetstreamManager()).streams.delete(stream).catch(() => undefined);
    await nc.close();
  });

  let serial = 0;
  async function worker(pin: string): Promise<number> {
    serial += 1;
    const { user } = await rpc.send('identity.user.create.v1', {
      username: `lock${serial}`,
      password: 'secret1',
      name: 'Lock Test',
      phone: `+4479111233${String(serial).padStart(2, '0')}`,
      role: 'worker',
      pin,
      actorRole: 'admin',
    });
    return user.id;
  }

  const verify = (userId: number, pin: string) =>
    rpc.send('identity.pin.verify.v1', { userId, pin }).then(
      () => 200,
      (err: RemoteError) => err.status,
    );

  it('counts only wrong PINs from the last 15 minutes', async () => {
    const userId = await worker('1111');
    for (let i = 0; i < 4; i++) expect(await verify(userId, '9999')).toBe(400);
    minutes(16);
    for (let i = 0; i < 4; i++) expect(await verify(userId, '9999')).toBe(400);
    expect(await verify(userId, '1111')).toBe(200);
  });

  it('locks on the fifth wrong PIN within 15 minutes and unlocks 15 minutes later', async () => {
    const userId = await worker('2222');
    for (let i = 0; i < 4; i++) {
      expect(await verify(userId, '9999')).toBe(400);
      minutes(3);
    }
    expect(await verify(userId, '9999')).toBe(423);
    minutes(14);
    expect(await verify(userId, '2222')).toBe(423);
    minutes(1.1);
    expect(await verify(userId, '2222')).toBe(200);
    // The lock took the earlier failures with it: one wrong PIN now is just one.
    expect(await verify(userId, '9999')).toBe(400);
    expect(await verify(userId, '2222')).toBe(200);
  });
});
