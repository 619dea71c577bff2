import { createHash, randomBytes } from 'node:crypto';
import type Redis from 'ioredis';

export interface SessionData {
  userId: number;
  role: 'worker' | 'admin' | 'superadmin';
  username: string;
  name: string;
  remember: boolean;
  kiosk: boolean;
  /**
   * A session signed in at a kiosk: which kiosk, and its location (a shift started there defaults
   * to it), by id (absent for a kiosk not yet bound to one) and by its name at sign-in.
   */
  kioskId?: number;
  kioskLocationId?: number;
  kioskLocation?: string;
  createdAt: string;
  /** Signed in through the organisation's provider: what its sign-out needs. */
  sso?: { idToken: string; issuer: string };
}

/**
 * Server-side sessions. The browser holds only a random id; the store keys on its SHA-256,
 * so a dump of the store cannot be replayed as cookies.
 */
export interface SessionStore {
  create(data: SessionData, ttlSeconds: number): Promise<string>;
  get(id: string): Promise<SessionData | undefined>;
  touch(id: string, ttlSeconds: number): Promise<void>;
  destroy(id: string): Promise<void>;
  /** Revokes every session of the user, except `exceptId` (the caller's own) when given. */
  destroyAllForUser(userId: number, exceptId?: string): Promise<void>;
  /** Revokes every session signed in at the kiosk (it was revoked). */
  destroyAllForKiosk(kioskId: number): Promise<void>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export const SESSION_STORE = Symbol('SESSION_STORE');

export function newSessionId(): string {
  return randomBytes(32).toString('base64url');
}

export function sessionKey(id: string): string {
  return createHash('sha256').update(id).digest('hex');
}

export class RedisSessionStore implements SessionStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  private key(id: string) {
    return `${this.prefix}sess:${sessionKey(id)}`;
  }
  private userKey(userId: number) {
    return `${this.prefix}user-sess:${userId}`;
  }
  private kioskKey(kioskId: number) {
    return `${this.prefix}kiosk-sess:${kioskId}`;
  }

  async create(data: SessionData, ttlSeconds: number): Promise<string> {
    const id = newSessionId();
    const multi = this.redis
      .multi()
      .set(this.key(id), JSON.stringify(data), 'EX', ttlSeconds)
      .sadd(this.userKey(data.userId), sessionKey(id))
      .expire(this.userKey(data.userId), 8 * 24 * 3600);
    if (data.kioskId !== undefined) multi.sadd(this.kioskKey(data.kioskId), sessionKey(id)).expire(this.kioskKey(data.kioskId), 24 * 3600);
    await multi.exec();
    return id;
  }

  async get(id: string): Promise<SessionData | undefined> {
    const raw = await this.redis.get(this.key(id));
    return raw ? (JSON.parse(raw) as SessionData) : undefined;
  }

  async touch(id: string, ttlSeconds: number): Promise<void> {
    await this.redis.expire(this.key(id), ttlSeconds);
  }

  async destroy(id: string): Promise<void> {
    const data = await this.get(id);
    const multi = this.redis.multi().del(this.key(id));
    if (data) multi.srem(this.userKey(data.userId), sessionKey(id));
    await multi.exec();
  }

  async destroyAllForUser(userId: number, exceptId?: string): Promise<void> {
    const keep = exceptId === undefined ? undefined : sessionKey(exceptId);
    const hashed = (await this.redis.smembers(this.userKey(userId))).filter((h) => h !== keep);
    if (hashed.length === 0) return;
    const multi = this.redis.multi();
    for (const h of hashed) multi.del(`${this.prefix}sess:${h}`);
    multi.srem(this.userKey(userId), ...hashed);
    await multi.exec();
  }

  async destroyAllForKiosk(kioskId: number): Promise<void> {
    const hashed = await this.redis.smembers(this.kioskKey(kioskId));
    const multi = this.redis.multi();
    for (const h of hashed) multi.del(`${this.prefix}sess:${h}`);
    await multi.del(this.kioskKey(kioskId)).exec();
  }

  async ping(): Promise<void> {
    await this.redis.ping();
  }

  async close(): Promise<void> {
    await this.redis.quit();
  }
}

/** Embedded mode only: sessions vanish when the process stops. */
export class MemorySessionStore implements SessionStore {
  private readonly sessions = new Map<string, { data: SessionData; expiresAt: number }>();

  async create(data: SessionData, ttlSeconds: number): Promise<string> {
    const id = newSessionId();
    this.sessions.set(sessionKey(id), { data, expiresAt: Date.now() + ttlSeconds * 1000 });
    return id;
  }

  async get(id: string): Promise<SessionData | undefined> {
    const key = sessionKey(id);
    const entry = this.sessions.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= Date.now()) {
      this.sessions.delete(key);
      return undefined;
    }
    return entry.data;
  }

  async touch(id: string, ttlSeconds: number): Promise<void> {
    const entry = this.sessions.get(sessionKey(id));
    if (entry) entry.expiresAt = Date.now() + ttlSeconds * 1000;
  }

  async destroy(id: string): Promise<void> {
    this.sessions.delete(sessionKey(id));
  }

  async destroyAllForUser(userId: number, exceptId?: string): Promise<void> {
    const keep = exceptId === undefined ? undefined : sessionKey(exceptId);
    for (const [key, entry] of this.sessions) if (entry.data.userId === userId && key !== keep) this.sessions.delete(key);
  }

  async destroyAllForKiosk(kioskId: number): Promise<void> {
    for (const [key, entry] of this.sessions) if (entry.data.kioskId === kioskId) this.sessions.delete(key);
  }

  async ping(): Promise<void> {}
  async close(): Promise<void> {
    this.sessions.clear();
  }
}
