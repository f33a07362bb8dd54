import { nextTickAt, tickNumberAt } from "../turnClock.js";
import { runDueTicks, type TickContext, type TickOptions } from "./turnTick.js";

/** A running tick driver; `stop` waits for a tick in progress. */
export interface TickDriver {
  stop(): Promise<void>;
}

/**
 * The tick without Redis: a timer armed for the next boundary of the clock grid. Each firing
 * applies every tick due by then (runDueTicks), so a late timer, a slept laptop or a failed
 * tick is caught up by the next firing rather than lost. Never overlaps itself.
 */
export function startTimerTick(ctx: TickContext, options: TickOptions = {}): TickDriver {
  const intervalMs = ctx.config.turnIntervalMs;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();

  const arm = () => {
    if (stopped) return;
    const dueAt = nextTickAt(intervalMs);
    const expected = tickNumberAt(dueAt, intervalMs);
    // setTimeout may fire a millisecond early; the expected number, not the clock, names the tick.
    timer = setTimeout(
      () => {
        running = fire(expected).finally(arm);
      },
      Math.max(0, dueAt - Date.now()),
    );
    timer.unref();
  };

  const fire = async (expected: number) => {
    if (stopped) return;
    try {
      await runDueTicks(ctx, Math.max(expected, tickNumberAt(Date.now(), intervalMs)), options);
    } catch (err) {
      ctx.logger.error({ err, tickNumber: expected }, "turn tick failed; the next tick catches it up");
    }
  };

  arm();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
