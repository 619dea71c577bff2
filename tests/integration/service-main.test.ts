import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { Client } from 'pg';
import { connect } from 'nats';
import { RpcClient } from '@lws/messaging';
import { createTestDatabase, eventually, testServers, uniqueId, type TestDatabase } from '@lws/testing';

const root = join(__dirname, '..', '..');
const mainOf = (svc: string) => join(root, 'services', svc, 'dist', 'main.js');

function run(svc: string, env: NodeJS.ProcessEnv, args: string[] = []) {
  const child = spawn(process.execPath, [mainOf(svc), ...args], {
    env: { PATH: process.env.PATH, OTEL_SDK_DISABLED: 'true', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d) => (output += String(d)));
  child.stderr!.on('data', (d) => (output += String(d)));
  return { child, output: () => output };
}

async function exitCode(child: ChildProcess): Promise<number | null> {
  const [code] = await once(child, 'exit');
  return code as number | null;
}

describe('a service started on its own (as its container runs it)', () => {
  let db: TestDatabase;
  const prefix = `${uniqueId('m')}.`;
  const stream = `LWS_${prefix.slice(0, -1).toUpperCase()}`;

  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db?.drop();
    const nc = await connect({ servers: testServers.natsUrl });
    await (await nc.jetstreamManager()).streams.delete(stream).catch(() => undefined);
    await nc.close();
  });

  it('stops at start-up with a message naming a bad variable', async () => {
    const { child, output } = run('identity', { HEALTH_PORT: 'eighty', DATABASE_URL: db.url, NATS_URL: testServers.natsUrl });
    expect(await exitCode(child)).toBe(1);
    expect(output()).toContain('HEALTH_PORT');
  });

  it('refuses to run without NATS_URL outside the embedded launcher', async () => {
    const { child, output } = run('locations', { HEALTH_PORT: '0', DATABASE_URL: db.url });
    expect(await exitCode(child)).toBe(1);
    expect(output()).toContain('NATS_URL is required');
  });

  it('identity refuses to start in production without PIN_HASH_KEY, naming it', async () => {
    const { child, output } = run('identity', {
      NODE_ENV: 'production',
      HEALTH_PORT: '0',
      DATABASE_URL: db.url,
      NATS_URL: testServers.natsUrl,
      SUBJECT_PREFIX: prefix,
      EVENTS_STREAM: stream,
    });
    expect(await exitCode(child)).toBe(1);
    expect(output()).toContain('Invalid configuration: PIN_HASH_KEY');
  });

  it('--migrate-only applies the committed migrations and exits', async () => {
    const { child } = run('identity', { DATABASE_URL: db.url }, ['--migrate-only']);
    expect(await exitCode(child)).toBe(0);
    const c = new Client({ connectionString: db.url });
    await c.connect();
    const tables = await c.query(`select table_name from information_schema.tables where table_schema = 'identity' order by 1`);
    await c.end();
    expect(tables.rows.map((r) => r.table_name)).toEqual([
      'api_tokens',
      'dead_letters',
      'emergency_contacts',
      'external_identities',
      'kiosks',
      'local_secrets',
      'on_call_feeds',
      'outbox',
      'pin_failures',
      'processed_events',
      'scim_tokens',
      'sso_settings',
      'teams',
      'user_import_rows',
      'user_settings',
      'users',
    ]);
  });

  it('notifications --migrate-only makes its tables, the outbound webhooks among them', async () => {
    const { child } = run('notifications', { DATABASE_URL: db.url }, ['--migrate-only']);
    expect(await exitCode(child)).toBe(0);
    const c = new Client({ connectionString: db.url });
    await c.connect();
    const tables = await c.query(`select table_name from information_schema.tables where table_schema = 'notifications' order by 1`);
    await c.end();
    expect(tables.rows.map((r) => r.table_name)).toEqual([
      'dead_letters',
      'deliveries',
      'local_secrets',
      'outbox',
      'processed_events',
      'push_subscriptions',
      'users',
      'webhook_attempts',
      'webhook_deliveries',
      'webhook_endpoints',
      'webhook_messages',
    ]);
  });

  it('answers liveness and readiness, joins the bus and stops cleanly on SIGTERM', async () => {
    // Port 0: the system picks a free one and the service logs it. A port chosen here could be
    // taken by another process's outgoing connection before the service binds it.
    const { child, output } = run('shifts', {
      HEALTH_PORT: '0',
      LOG_LEVEL: 'info',
      DATABASE_URL: db.url,
      NATS_URL: testServers.natsUrl,
      SUBJECT_PREFIX: prefix,
      EVENTS_STREAM: stream,
    });
    try {
      const port = Number(await eventually(() => /"url":"http:\/\/[^"]+:(\d+)","msg":"shifts ready"/.exec(output())?.[1], 30_000, 100));
      await eventually(async () => (await fetch(`http://127.0.0.1:${port}/readyz`)).status === 200, 30_000, 200);
      expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
      const rpc = await RpcClient.create({ mode: 'nats', natsUrl: testServers.natsUrl, subjectPrefix: prefix, logger: console });
      try {
        await expect(rpc.send('shifts.system.ping.v1', {})).resolves.toEqual({
          service: 'shifts',
          ready: true,
          version: expect.any(String),
        });
      } finally {
        await rpc.close();
      }
      child.kill('SIGTERM');
      expect(await exitCode(child)).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      // biome-ignore lint/correctness/noUnsafeFinally: a service that exited with an error is the failure to report, with its output, whatever the test saw.
      if (child.exitCode !== null && child.exitCode !== 0) throw new Error(output());
    }
  });
});
