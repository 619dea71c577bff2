import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { RpcError } from '@lws/messaging';
import type { Db, Logger, UnitOfWork } from '@lws/platform';
import { PinHasher } from './pin-hasher';
import { PinVerifier } from './pin-verifier';

const logger = { warn: () => undefined } as unknown as Logger;
const noDatabase = new Proxy(
  {},
  {
    get: () => {
      throw new Error('the database must not be used');
    },
  },
) as Db;
const dialect = new PgDialect();
const WORKER_ID = 7;

/**
 * What one PIN step does, as PostgreSQL and the outbox see it: every statement's SQL (parameters
 * apart) and every event, in order, and how many PINs were compared. The database holds one
 * worker, WORKER_ID, whose PIN is 1234, with no failures yet.
 */
async function stepOf(hasher: PinHasher, userId: number | undefined, pin: string) {
  const done: string[] = [];
  const raw: Record<string, unknown> = { id: WORKER_ID, username: 'ann', role: 'worker', pin_hash: hasher.hash('1234') };
  const tx = {
    execute: async (query: SQL) => {
      const { sql, params } = dialect.sqlToQuery(query);
      done.push(sql);
      if (sql.startsWith('select * from')) return { rows: params[0] === WORKER_ID ? [raw] : [] };
      if (sql.startsWith('select count(*)')) return { rows: [{ n: params[0] === WORKER_ID ? 1 : 0 }] };
      return { rows: [] };
    },
  };
  const emit = async (subject: string) => void done.push(`event ${subject}`);
  const uow = {
    run: (work: (t: unknown, e: unknown, a: unknown) => Promise<unknown>) => work(tx, emit, () => undefined),
  } as unknown as UnitOfWork;
  const compared = jest.spyOn(hasher, 'matches');
  compared.mockClear();
  const verifier = new PinVerifier(hasher, uow, () => new Date('2025-06-02T12:00:00Z'));
  const error = await verifier.verifyKioskStep(userId, 'ann', pin).then(
    () => undefined,
    (e: unknown) => e,
  );
  return { done, compared: compared.mock.calls.length, error };
}

describe('PinVerifier at a kiosk', () => {
  let hasher: PinHasher;

  beforeAll(async () => {
    hasher = new PinHasher({ PIN_HASH_KEY: 'k'.repeat(32) } as never, noDatabase, logger);
    await hasher.onModuleInit();
  });

  it("refuses nobody (an unknown name) by the same path as a worker's wrong PIN: the same statements, comparison and event", async () => {
    const wrong = await stepOf(hasher, WORKER_ID, '9999');
    const nobody = await stepOf(hasher, undefined, '9999');
    expect(wrong.error).toBeInstanceOf(RpcError);
    expect(nobody.error).toBeInstanceOf(RpcError);
    expect([(wrong.error as RpcError).status < 500, (nobody.error as RpcError).status < 500]).toEqual([true, true]);
    expect(nobody.done).toEqual(wrong.done);
    expect(nobody.compared).toBe(wrong.compared);
    // The lock, the failure and its count, and the failed sign-in: each writes, so both commit alike.
    expect(wrong.done).toEqual([
      expect.stringMatching(/^select \* from "identity"\."users" where id = \$1 for update$/),
      expect.stringMatching(/^insert into "identity"\."pin_failures" .* where exists/),
      expect.stringMatching(/^select count\(\*\)::int as n from "identity"\."pin_failures"/),
      'event identity.login.failed.v1',
    ]);
  });

  it('signs the worker in with their PIN, and records no failure', async () => {
    const right = await stepOf(hasher, WORKER_ID, '1234');
    expect(right.error).toBeUndefined();
    expect(right.done.some((s) => s.startsWith('insert') || s.startsWith('event'))).toBe(false);
  });
});
