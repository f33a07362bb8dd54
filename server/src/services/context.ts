import type { Config } from "../config.js";
import type { Db } from "../db/pool.js";
import type { Logger } from "../logger.js";
import type { TokenService } from "../auth/tokens.js";
import type { RateLimits } from "../auth/rateLimiter.js";
import type { EventBus } from "../events.js";
import type { GameMetrics } from "../metrics.js";

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
}
