import type Redis from 'ioredis';

/** Fixed-window counters: how many times a key was hit in the current window. */
export interface Counters {
  hit(key: string, windowSeconds: number): Promise<number>;
  peek(key: string): Promise<number>;
  reset(key: string): Promise<void>;
}

export const COUNTERS = Symbol('COUNTERS');

export class RedisCounters implements Counters {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  async hit(key: string, windowSeconds: number): Promise<number> {
    const k = `${this.prefix}rl:${key}`;
    const res = await this.redis.multi().incr(k).expire(k, windowSeconds, 'NX').exec();
    return Number(res?.[0]?.[1] ?? 0);
  }

  async peek(key: string): Promise<number> {
    return Number((await this.redis.get(`${this.prefix}rl:${key}`)) ?? 0);
  }

  async reset(key: string): Promise<void> {
    await this.redis.del(`${this.prefix}rl:${key}`);
  }
}

export class MemoryCounters implements Counters {
  private readonly counts = new Map<string, { n: number; expiresAt: number }>();

  private current(key: string) {
    const c = this.counts.get(key);
    if (c && c.expiresAt <= Date.now()) {
      this.counts.delete(key);
      return undefined;
    }
    return c;
  }

  async hit(key: string, windowSeconds: number): Promise<number> {
    const c = this.current(key) ?? { n: 0, expiresAt: Date.now() + windowSeconds * 1000 };
    c.n += 1;
    this.counts.set(key, c);
    return c.n;
  }

  async peek(key: string): Promise<number> {
    return this.current(key)?.n ?? 0;
  }

  async reset(key: string): Promise<void> {
    this.counts.delete(key);
  }
}
