import type { ServiceContext } from "./context.js";

/**
 * Schedules and cancels strikes of this process. The combat service arms a strike it plans and
 * disarms one it cancels; tick/strikes.ts implements it (a BullMQ job or a timer per strike)
 * and registers it here when it starts, so the service does not import the tick.
 */
export interface StrikeScheduler {
  /** Arms the strike to run at `executeAt` (idempotent). */
  schedule(strikeId: number, executeAt: Date): Promise<void>;
  /** Disarms it (best effort: a strike cancelled in Postgres never runs anyway). */
  cancel(strikeId: number): Promise<void>;
  /** Runs every due strike now (the start-up run and the sweep); resolves when done. */
  sweep(): Promise<void>;
  stop(): Promise<void>;
}

const schedulers = new WeakMap<ServiceContext, StrikeScheduler>();

/** The scheduler running in this process for `ctx` (none when background work is off). */
export function strikeSchedulerFor(ctx: ServiceContext): StrikeScheduler | undefined {
  return schedulers.get(ctx);
}

/** Makes `scheduler` the one of `ctx` (undefined: none, after it stopped). */
export function setStrikeScheduler(ctx: ServiceContext, scheduler: StrikeScheduler | undefined): void {
  if (scheduler) schedulers.set(ctx, scheduler);
  else schedulers.delete(ctx);
}
