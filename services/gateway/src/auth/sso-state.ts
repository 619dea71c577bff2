import { createHash } from 'node:crypto';
import type Redis from 'ioredis';

/** What the callback must find again: the checks sent to the provider, bound to one browser. */
export interface PendingSignIn {
  nonce: string;
  codeVerifier: string;
  /** SHA-256 of the binding cookie the browser got with the redirect. */
  binding: string;
  /** The page the person was heading to; absent: their own. */
  next?: string;
}

/** A sign-in's state lives 10 minutes and is taken once: a replayed callback finds nothing. */
export const PENDING_SIGN_IN_SECONDS = 600;

export interface PendingSignIns {
  put(state: string, pending: PendingSignIn): Promise<void>;
  take(state: string): Promise<PendingSignIn | undefined>;
}

export const PENDING_SIGN_INS = Symbol('PENDING_SIGN_INS');

export function digest(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

export class RedisPendingSignIns implements PendingSignIns {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  private key(state: string) {
    return `${this.prefix}sso:${digest(state)}`;
  }

  async put(state: string, pending: PendingSignIn): Promise<void> {
    await this.redis.set(this.key(state), JSON.stringify(pending), 'EX', PENDING_SIGN_IN_SECONDS);
  }

  async take(state: string): Promise<PendingSignIn | undefined> {
    const [[, raw]] = (await this.redis.multi().get(this.key(state)).del(this.key(state)).exec()) as [[unknown, string | null]];
    return raw ? (JSON.parse(raw) as PendingSignIn) : undefined;
  }
}

/** Embedded mode only. */
export class MemoryPendingSignIns implements PendingSignIns {
  private readonly pending = new Map<string, { value: PendingSignIn; expiresAt: number }>();

  async put(state: string, value: PendingSignIn): Promise<void> {
    const now = Date.now();
    for (const [k, v] of this.pending) if (v.expiresAt <= now) this.pending.delete(k);
    this.pending.set(digest(state), { value, expiresAt: now + PENDING_SIGN_IN_SECONDS * 1000 });
  }

  async take(state: string): Promise<PendingSignIn | undefined> {
    const key = digest(state);
    const entry = this.pending.get(key);
    this.pending.delete(key);
    return entry && entry.expiresAt > Date.now() ? entry.value : undefined;
  }
}
