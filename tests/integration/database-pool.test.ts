/**
 * The database pool after connections are cut: a connection the server drops as a transaction
 * begins must leave the pool, or each such cut keeps one of its slots for good. A few cuts (one
 * failover) would then leave a service waiting for connections that never come back, and its
 * shutdown waiting for clients that are never released.
 */
import net from 'node:net';
import { once } from 'node:events';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { createTestDatabase, type TestDatabase } from '@lws/testing';
import { openDatabase, type Database } from '@lws/platform';

const silent = {
  debug() {},
  info() {},
  warn() {},
  error() {},
  fatal() {},
  trace() {},
  child() {
    return silent;
  },
} as never;

/** A TCP proxy to PostgreSQL that, while `cutOnBegin` is set, drops the connection carrying a BEGIN. */
class CuttingProxy {
  cutOnBegin = false;
  cuts = 0;
  private readonly sockets = new Set<net.Socket>();
  private readonly server = net.createServer((client) => {
    const upstream = net.connect(this.target);
    for (const socket of [client, upstream]) {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    }
    const drop = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', drop);
    upstream.on('error', drop);
    upstream.on('data', (chunk) => client.write(chunk));
    client.on('data', (chunk) => {
      if (this.cutOnBegin && /\bbegin\b/i.test(chunk.toString('latin1'))) {
        this.cuts++;
        drop();
        return;
      }
      upstream.write(chunk);
    });
    client.on('close', drop);
    upstream.on('close', drop);
  });

  constructor(private readonly target: { host: string; port: number }) {}

  async listen(): Promise<number> {
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
    return (this.server.address() as net.AddressInfo).port;
  }

  close(): void {
    this.server.close();
    for (const socket of this.sockets) socket.destroy();
  }
}

let testDb: TestDatabase;
let proxy: CuttingProxy;
let database: Database | undefined;

beforeAll(async () => {
  testDb = await createTestDatabase();
  const url = new URL(testDb.url);
  proxy = new CuttingProxy({ host: url.hostname, port: Number(url.port || 5432) });
  url.port = String(await proxy.listen());
  database = await openDatabase({
    service: 'locations',
    databaseUrl: url.toString(),
    dataDir: '',
    migrationsFolder: join(__dirname, '..', '..', 'services', 'locations', 'drizzle'),
    logger: silent,
    poolSize: 2,
  });
});

afterAll(async () => {
  proxy?.close();
  await testDb?.drop();
});

it('connections cut as transactions begin leave the pool: it serves queries afterwards and closes', async () => {
  const db = database!.db;
  proxy.cutOnBegin = true;
  for (let i = 0; i < 4; i++) {
    await expect(db.transaction(async (tx) => tx.execute(sql`select 1`))).rejects.toThrow();
  }
  expect(proxy.cuts).toBe(4);
  proxy.cutOnBegin = false;

  // Twice the pool's size in cuts: had each kept its slot, no connection would be left to wait for.
  const rows = await db.transaction(async (tx) => (await tx.execute(sql`select 41 + 1 as answer`)).rows);
  expect(rows).toEqual([{ answer: 42 }]);

  let timer: NodeJS.Timeout | undefined;
  const closed = await Promise.race([
    database!.close().then(() => 'closed'),
    new Promise((r) => (timer = setTimeout(() => r('still waiting for clients'), 5000))),
  ]);
  clearTimeout(timer);
  expect(closed).toBe('closed');
}, 60_000);
