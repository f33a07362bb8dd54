import type { Redis } from "ioredis";

/**
 * Fixed-window counters keyed by string. Backed by Redis when the process has one (so every
 * process shares the counts) and by a Map otherwise (embedded default, one process).
 */
export interface RateLimiter {
  /** Current count in the window for a key. */
  count(key: string): Promise<number>;
  /** Adds one to a key's count, starting a window of `windowMs` on the first hit. */
  increment(key: string, windowMs: number): Promise<number>;
  /** Forgets a key. */
  reset(key: string): Promise<void>;
}

export class MemoryRateLimiter implements RateLimiter {
  private readonly windows = new Map<string, { count: number; endsAt: number }>();

  async count(key: string): Promise<number> {
    const window = this.windows.get(key);
    if (!window || window.endsAt <= Date.now()) return 0;
    return window.count;
  }

  async increment(key: string, windowMs: number): Promise<number> {
    const now = Date.now();
    let window = this.windows.get(key);
    if (!window || window.endsAt <= now) {
      window = { count: 0, endsAt: now + windowMs };
      this.windows.set(key, window);
      if (this.windows.size > 100_000) this.sweep(now);
    }
    window.count += 1;
    return window.count;
  }

  async reset(key: string): Promise<void> {
    this.windows.delete(key);
  }

  private sweep(now: number): void {
    for (const [key, window] of this.windows) if (window.endsAt <= now) this.windows.delete(key);
  }
}

export class RedisRateLimiter implements RateLimiter {
  constructor(private readonly redis: Redis, private readonly prefix = "ratelimit:") {}

  async count(key: string): Promise<number> {
    return Number((await this.redis.get(this.prefix + key)) ?? 0);
  }

  async increment(key: string, windowMs: number): Promise<number> {
    const fullKey = this.prefix + key;
    const [[, count]] = (await this.redis.multi().incr(fullKey).pexpire(fullKey, windowMs, "NX").exec()) as [[null, number]];
    return count;
  }

  async reset(key: string): Promise<void> {
    await this.redis.del(this.prefix + key);
  }
}
