import { ContractError } from '@lws/contracts';
import { NoResponderError, RequestTimeoutError } from './in-process-bus';
import { RemoteError } from './rpc-errors';

/** Thrown by a handler for a message that can never succeed, e.g. one that breaks its contract. */
export class PoisonMessageError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PoisonMessageError';
  }
}

/**
 * What a failure says about the message that met it:
 * - `infrastructure`: a database, the bus or another service could not be reached or gave up for
 *   a reason of its own (connection refused or reset, shutdown, serialization failure, deadlock,
 *   timeout). It heals, so the message is retried until it does, never given up.
 * - `poison`: the message itself can never succeed (it breaks its contract, or a handler said so).
 * - `error`: anything else, a bug most likely; retried a few times, then parked for a person.
 */
export type FailureKind = 'infrastructure' | 'poison' | 'error';

/**
 * PostgreSQL SQLSTATEs that say "try again": class 08 (connection exception), 53 (insufficient
 * resources), 57P01..57P05 (shutdown, crash, cannot connect now, idle session timeout),
 * 40001 serialization failure, 40P01 deadlock, 55P03 lock not available, 58000 system error.
 */
const TRANSIENT_SQLSTATE = /^(08...|53...|57P0[1-5]|40001|40P01|55P03|58000|58030)$/;

/** Node's socket-level failures. */
const TRANSIENT_ERRNO = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENOTCONN',
]);

/** nats.js error codes (ErrorCode) that mean the connection or the server is not there right now. */
const TRANSIENT_NATS_CODE = new Set([
  'CONNECTION_CLOSED',
  'CONNECTION_DRAINING',
  'CONNECTION_REFUSED',
  'CONNECTION_TIMEOUT',
  'DISCONNECT',
  'TIMEOUT',
  '503',
  '408',
]);

/**
 * node-postgres reports a lost connection with plain messages and no code; so do pools that
 * time out waiting for a connection, PGlite closed under a handler, and ioredis with its offline
 * queue off (the gateway's session store).
 */
const TRANSIENT_MESSAGE =
  /stream isn't writeable|reached the max retries per request|connection is closed\.|connection terminated|terminating connection|connection (?:is )?(?:closed|ended)|timeout exceeded when trying to connect|client has encountered a connection error|cannot use a pool after calling end|the database system is (?:starting up|shutting down|in recovery mode)|server closed the connection unexpectedly|PGlite is closed/i;

function* causes(err: unknown): Generator<unknown> {
  const seen = new Set<unknown>();
  let current = err;
  while (current !== undefined && current !== null && !seen.has(current)) {
    seen.add(current);
    yield current;
    current = (current as { cause?: unknown }).cause;
  }
}

function isTransient(err: unknown): boolean {
  if (err instanceof RequestTimeoutError || err instanceof NoResponderError) return true;
  // A command to another service that answered 503 (nobody answering) or timed out.
  if (err instanceof RemoteError) return err.status === 503 || err.status === 504;
  if (!err || typeof err !== 'object') return false;
  const e = err as { code?: unknown; message?: unknown };
  if (typeof e.code === 'string') {
    // A SQLSTATE has five characters; errno and nats codes are words.
    if (e.code.length === 5 && TRANSIENT_SQLSTATE.test(e.code)) return true;
    if (TRANSIENT_ERRNO.has(e.code)) return true;
    if (err.constructor?.name === 'NatsError' && TRANSIENT_NATS_CODE.has(e.code)) return true;
  }
  return typeof e.message === 'string' && TRANSIENT_MESSAGE.test(e.message);
}

/** Classifies a failure by the error and every error it wraps (drizzle wraps the driver's). */
export function classifyFailure(err: unknown): FailureKind {
  for (const e of causes(err)) {
    if (e instanceof PoisonMessageError || e instanceof ContractError) return 'poison';
  }
  for (const e of causes(err)) if (isTransient(e)) return 'infrastructure';
  return 'error';
}

export function isInfrastructureFailure(err: unknown): boolean {
  return classifyFailure(err) === 'infrastructure';
}

/** Capped exponential backoff for a fault that heals: initial, doubling, never above max. */
export interface RetryBackoff {
  initialMs: number;
  maxMs: number;
}

export const INFRASTRUCTURE_BACKOFF: RetryBackoff = { initialMs: 1000, maxMs: 30_000 };

/** The pause before attempt `attempt + 1` after `attempt` failures (attempt >= 1). */
export function backoffDelay(backoff: RetryBackoff, attempt: number): number {
  return Math.min(backoff.maxMs, backoff.initialMs * 2 ** Math.min(Math.max(attempt - 1, 0), 20));
}

/** What a caller is told when a fault that heals stopped its request: nothing was saved, try again. */
export const TEMPORARILY_UNAVAILABLE =
  'LWS is temporarily unavailable: it cannot reach one of its databases or its message bus. Nothing was saved; please try again in a minute.';
