import type { Config } from "../config.js";
import type { Db } from "../db/pool.js";
import type { Logger } from "../logger.js";
import type { TokenService } from "../auth/tokens.js";
import type { RateLimits } from "../auth/rateLimiter.js";
import type { EventBus } from "../events.js";
import type { GameMetrics } from "../metrics.js";
import type { PublicAddress } from "../publicAddress.js";

/** What every service function receives: the process's shared handles. */
export interface ServiceContext {
  config: Config;
  db: Db;
  logger: Logger;
  tokens: TokenService;
  /** named rate limits (login, registration, chat), shared across processes with Redis */
  limiter: RateLimits;
  events: EventBus;
  metrics: GameMetrics;
  /** the game's time: the system clock, or a compressed one in the season simulator */
  clock: Clock;
  /** where actions draw their dice seeds: the OS in the server, a seeded sequence in the simulator */
  seeds: SeedSource;
  /** notes a Redis that stopped answering, logging once per outage (absent without Redis) */
  redisOutage?: RedisFailureSink;
  /** where this process's rooms are reached (PUBLIC_ADDRESS); absent outside a server */
  publicAddress?: PublicAddress;
}

/** Where a failed Redis operation goes: true when it was an outage (logged there), false for anything else. */
export interface RedisFailureSink {
  noteFailure(err: unknown, what: string): boolean;
}

/** Where services read the time (ms since the epoch), so a simulation can run a season in minutes. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A source of 32-bit seeds, one per action (services/actions.ts `osSeeds` in the server). */
export interface SeedSource {
  next(): number;
}
