import { Rng } from "@game/schema/rules";
import type { Config } from "@game/server/config";
import type { Db } from "@game/server/db/pool";
import type { EventBus, EventTopic, GameEvent, TopicEvent } from "@game/server/events";
import type { Logger } from "@game/server/logger";
import { GameMetrics } from "@game/server/metrics";
import { RateLimits } from "@game/server/auth/rateLimiter";
import { resolveJwtSecret, TokenService } from "@game/server/auth/tokens";
import type { Clock, SeedSource, ServiceContext } from "@game/server/services/context";

/**
 * The season simulator's service context: the server's own services over a real database,
 * with a clock the simulator moves by hand and dice drawn from the run's seed, so a season
 * of thousands of ticks runs in minutes and replays from its seed.
 */

/** A clock that stands still until the simulator moves it. */
export class SimulatedClock implements Clock {
  constructor(private at: number) {}

  now(): number {
    return this.at;
  }

  /** Moves the clock to `at` (never backwards: services assume time only advances). */
  set(at: number): void {
    if (at < this.at) throw new Error(`the simulated clock cannot go back from ${this.at} to ${at}`);
    this.at = at;
  }
}

/** Action seeds from one seeded generator: the same run seed gives the same dice in the same order. */
export function seededSeeds(seed: number): SeedSource {
  const rng = Rng.fromSeed(seed >>> 0);
  return { next: () => rng.nextUint32() };
}

/** Events with nobody to hear them: the simulator runs no rooms, so they are dropped. */
export class DiscardingEventBus implements EventBus {
  publish<E extends GameEvent>(_topic: EventTopic<E>, _event: E): void {}

  publishAll(_events: readonly TopicEvent[]): void {}

  subscribe(): () => void {
    return () => undefined;
  }

  async ready(): Promise<void> {}
}

export interface SimulationContext extends ServiceContext {
  clock: SimulatedClock;
  events: DiscardingEventBus;
}

/** A service context for the simulator on `db` (no Redis: limits in memory, no revocation channel). */
export function simulationContext(db: Db, config: Config, logger: Logger, options: { startAt: number; seed: number }): SimulationContext {
  return {
    config,
    db,
    logger,
    tokens: new TokenService(resolveJwtSecret(config), db, config.tokenTtlSeconds, { logger }),
    limiter: new RateLimits(undefined),
    events: new DiscardingEventBus(),
    metrics: new GameMetrics(),
    clock: new SimulatedClock(options.startAt),
    seeds: seededSeeds(options.seed ^ 0x5eed_0001),
  };
}
