import { ContractError } from '@lws/contracts';
import { backoffDelay, classifyFailure, PoisonMessageError } from './failures';
import { NoResponderError, RequestTimeoutError } from './in-process-bus';
import { RemoteError } from './rpc-errors';

const pgError = (code: string, message = 'pg') => Object.assign(new Error(message), { code });

describe('classifyFailure', () => {
  it.each([
    ['a refused connection', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })],
    ['a reset connection', Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' })],
    ['an administrator shutdown (57P01)', pgError('57P01')],
    ['a database starting up (57P03)', pgError('57P03')],
    ['a connection exception (08006)', pgError('08006')],
    ['a serialization failure (40001)', pgError('40001')],
    ['a deadlock (40P01)', pgError('40P01')],
    ['too many connections (53300)', pgError('53300')],
    ['node-postgres losing its connection', new Error('Connection terminated unexpectedly')],
    ['a pool that cannot get a connection', new Error('timeout exceeded when trying to connect')],
    ['a drizzle error wrapping a reset', new Error('Failed query: select 1', { cause: pgError('57P01') })],
    ['an RPC to nobody', new NoResponderError('shifts.shift.start.v1')],
    ['an RPC that timed out', new RequestTimeoutError('shifts.shift.start.v1', 1000)],
    ['a 503 from another service', new RemoteError(503, 'No service is answering')],
  ])('retries %s as an infrastructure fault', (_name, err) => {
    expect(classifyFailure(err)).toBe('infrastructure');
  });

  it.each([
    ['a PoisonMessageError', new PoisonMessageError('bad')],
    ['a broken contract', new ContractError('identity.user.created.v1', [{ path: 'userId', message: 'Expected number' }])],
    [
      'a poison error wrapped by something that looks transient',
      new Error('Connection terminated', { cause: new PoisonMessageError('bad') }),
    ],
  ])('parks %s at once', (_name, err) => {
    expect(classifyFailure(err)).toBe('poison');
  });

  it.each([
    ['a bug', new TypeError("Cannot read properties of undefined (reading 'id')")],
    ['a unique violation (23505)', pgError('23505', 'duplicate key value violates unique constraint')],
    ['a refusal from another service', new RemoteError(404, 'User not found')],
    ['a thrown string', 'oops'],
  ])('treats %s as an error: a few tries, then parked', (_name, err) => {
    expect(classifyFailure(err)).toBe('error');
  });
});

describe('backoffDelay', () => {
  it('doubles from the initial delay and never passes the cap', () => {
    const backoff = { initialMs: 1000, maxMs: 30_000 };
    expect([1, 2, 3, 4, 5, 6, 7, 100].map((n) => backoffDelay(backoff, n))).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000]);
  });
});
