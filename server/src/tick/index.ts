import type { Redis } from "ioredis";
import { startQueueTick, type QueueTickOptions } from "./queue.js";
import { startTimerTick } from "./timer.js";
import { ensureGameClock, runDueTicks, type TickContext } from "./turnTick.js";

export { MAX_CATCH_UP_TICKS, nextTickAt, tickDueAt, tickNumberAt } from "../turnClock.js";
export { ensureGameClock, runDueTicks, runTick, type TickContext, type TickHooks, type TickOptions, type TickResult } from "./turnTick.js";
export { jobTickNumber, TICK_QUEUE, TICK_SCHEDULER_ID, type QueueTickOptions } from "./queue.js";
export { startTimerTick, type TickDriver } from "./timer.js";

/** Periodic work of one process; `stop` ends it. */
export interface BackgroundWork {
  /** Settles when the start-up catch-up of ticks missed during downtime is done. */
  caughtUp: Promise<void>;
  stop(): Promise<void>;
}

/**
 * Starts the turn tick of this process: starts the game clock on a fresh database, catches
 * up ticks missed while every server was down (in the background, so start-up never waits
 * on another process's tick), then runs a BullMQ worker on the shared schedule with Redis or
 * an in-process timer without. With config.tickEnabled false nothing runs.
 */
export async function startBackgroundWork(ctx: TickContext, redis: Redis | undefined, options: QueueTickOptions = {}): Promise<BackgroundWork> {
  if (!ctx.config.tickEnabled) return { caughtUp: Promise.resolve(), stop: async () => undefined };
  await ensureGameClock(ctx.db);
  const caughtUp = runDueTicks(ctx, undefined, options).then(
    () => undefined,
    (err) => ctx.logger.error({ err }, "turn tick catch-up failed; the next tick retries it"),
  );
  const driver = redis ? await startQueueTick(ctx, redis, options) : startTimerTick(ctx, options);
  ctx.logger.info({ intervalMs: ctx.config.turnIntervalMs, driver: redis ? "bullmq" : "timer" }, "turn tick started");
  return {
    caughtUp,
    async stop() {
      await driver.stop();
      await caughtUp;
    },
  };
}
