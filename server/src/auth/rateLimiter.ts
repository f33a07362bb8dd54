import type { Redis } from "ioredis";
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";

/**
 * Fixed-window limits from rate-limiter-flexible: Redis-backed when the process has Redis (so
 * every process shares the counts; the increment and its expiry are one atomic script), in
 * memory otherwise (embedded default, one process). Taking a point is the reservation: a
 * caller takes before doing the work it limits, so N parallel requests can never all pass a
 * check made before any of them has counted.
 */

/** One named limit: `points` per `durationSeconds` window per key. */
export interface LimitSpec {
  /** key prefix in Redis, e.g. "login:addr" */
  name: string;
  points: number;
  durationSeconds: number;
}

/** A limit keyed by string (an address, a user id, an account and address). */
export class Limit {
  constructor(
    readonly spec: LimitSpec,
    private readonly limiter: RateLimiterAbstract,
  ) {}

  /**
   * Takes `points` for `key` now. True when within the limit; false when over it (the points
   * stay taken, so a flood keeps the key throttled until its window ends).
   */
  async take(key: string, points = 1): Promise<boolean> {
    try {
      await this.limiter.consume(key, points);
      return true;
    } catch (err) {
      if (err instanceof RateLimiterRes) return false;
      throw err;
    }
  }

  /** Gives points back (an attempt that turned out not to count). */
  async give(key: string, points = 1): Promise<void> {
    await this.limiter.reward(key, points);
  }

  /** Forgets a key (e.g. an account's failures after a successful login). */
  async clear(key: string): Promise<void> {
    await this.limiter.delete(key);
  }
}

/**
 * Creates limits on one store. With Redis, a Redis that is not connected falls back to a
 * per-process memory limiter (insurance) instead of queueing the request until it returns.
 */
export class RateLimits {
  private readonly limits = new Map<string, Limit>();

  constructor(private readonly redis: Redis | undefined) {}

  /** The limit named `spec.name`, created on first use; a second call with the same name returns it. */
  define(spec: LimitSpec): Limit {
    let limit = this.limits.get(spec.name);
    if (limit) return limit;
    const options = { keyPrefix: `rl:${spec.name}`, points: spec.points, duration: spec.durationSeconds };
    const limiter = this.redis
      ? new RateLimiterRedis({ ...options, storeClient: this.redis, rejectIfRedisNotReady: true, insuranceLimiter: new RateLimiterMemory(options) })
      : new RateLimiterMemory(options);
    limit = new Limit(spec, limiter);
    this.limits.set(spec.name, limit);
    return limit;
  }
}
