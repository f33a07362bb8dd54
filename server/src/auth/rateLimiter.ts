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

/** A refused take: seconds until the key's window ends. */
export interface LimitRefusal {
  retryAfterSeconds: number;
}

/** A limit keyed by string (an address, a user id, an account and address). */
export class Limit {
  /**
   * @param shared the Redis-backed limiter (or the memory one without Redis)
   * @param local this process's memory limiter, used while Redis is unavailable
   * @param outage notes a failed Redis command and says whether an outage is in progress
   */
  constructor(
    readonly spec: LimitSpec,
    private readonly shared: RateLimiterAbstract,
    private readonly local: RateLimiterAbstract = shared,
    private readonly outage?: LimiterOutage,
  ) {}

  /**
   * Takes `points` for `key` now. Null when within the limit; when over it, how long until the
   * key's window ends (the answer's Retry-After). The points stay taken, so a flood keeps the
   * key throttled until its window ends.
   */
  async tryTake(key: string, points = 1): Promise<LimitRefusal | null> {
    try {
      await this.run((limiter) => limiter.consume(key, points));
      return null;
    } catch (err) {
      if (err instanceof RateLimiterRes) return { retryAfterSeconds: Math.max(1, Math.ceil(err.msBeforeNext / 1000)) };
      throw err;
    }
  }

  /** Gives points back (an attempt that turned out not to count). */
  async give(key: string, points = 1): Promise<void> {
    await this.run((limiter) => limiter.reward(key, points));
  }

  /** Forgets a key (e.g. an account's failures after a successful login). */
  async clear(key: string): Promise<void> {
    await this.run((limiter) => limiter.delete(key));
  }

  /**
   * Runs an operation on the shared limiter, or on the local one while Redis is unavailable:
   * a command refused (not connected: the request-path connection queues nothing) or not
   * answered within REDIS_COMMAND_TIMEOUT_MS is noted as an outage and done in memory, and
   * while the outage lasts every operation goes to memory at once (no request waits on Redis).
   */
  private async run<T>(operation: (limiter: RateLimiterAbstract) => Promise<T>): Promise<T> {
    if (this.local === this.shared || this.outage?.active) return operation(this.local);
    try {
      return await operation(this.shared);
    } catch (err) {
      if (err instanceof RateLimiterRes || !this.outage?.noteFailure(err, `limit ${this.spec.name}`)) throw err;
      return operation(this.local);
    }
  }
}

/** What a limit asks of the Redis outage tracker (redis.ts RedisOutage). */
export interface LimiterOutage {
  readonly active: boolean;
  noteFailure(err: unknown, what: string): boolean;
}

/**
 * Creates limits on one store. With Redis, a Redis that is not connected or does not answer
 * falls back to a per-process memory limiter (Limit.run) instead of waiting for it.
 */
export class RateLimits {
  private readonly limits = new Map<string, Limit>();

  /**
   * @param redis the request-path connection (RedisConnections.requests: no offline queue, a command time-out)
   * @param outage where Redis failures are noted; required with `redis`
   */
  constructor(
    private readonly redis: Redis | undefined,
    private readonly outage?: LimiterOutage,
  ) {}

  /** The limit named `spec.name`, created on first use; a second call with the same name returns it. */
  define(spec: LimitSpec): Limit {
    let limit = this.limits.get(spec.name);
    if (limit) return limit;
    const options = { keyPrefix: `rl:${spec.name}`, points: spec.points, duration: spec.durationSeconds };
    const local = new RateLimiterMemory(options);
    limit = this.redis ? new Limit(spec, new RateLimiterRedis({ ...options, storeClient: this.redis, rejectIfRedisNotReady: true }), local, this.outage) : new Limit(spec, local);
    this.limits.set(spec.name, limit);
    return limit;
  }
}
