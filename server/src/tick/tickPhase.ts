import type { DbClient } from "../db/pool.js";
import type { EventTopic, GameEvent } from "../events.js";
import type { ServiceContext } from "../services/context.js";

/**
 * What a tick phase is and what it sees: the contract between the tick (turnTick.ts, which
 * runs TICK_PHASES of phases.ts) and the domains' phase files (alliancePhases.ts, ...), in a
 * file of its own so that the phase files import neither the list that holds them nor the
 * tick that runs them.
 */

/** What the tick needs from the service context (the bench and test workers build only this). */
export type TickContext = Pick<ServiceContext, "config" | "db" | "logger" | "events" | "metrics" | "clock" | "seeds" | "redisOutage">;

/** What a phase run sees. */
export interface TickPhaseContext {
  client: DbClient;
  /** tick numbers applied in this transaction, ascending (never empty) */
  ticks: readonly number[];
  /**
   * The first tick due since the last applied one, including ticks folded into the catch-up
   * window (see MAX_CATCH_UP_TICKS): periodic phases cover every period these reach.
   */
  firstDueTick: number;
  intervalMs: number;
  /** when the last applied tick was due (ms since the epoch): the time expiries compare with */
  at: number;
  /** Queues an event to publish after the tick commits. */
  emit<E extends GameEvent>(topic: EventTopic<E>, event: E): void;
}

/** What a periodic phase run sees: the period it runs for. */
export interface PeriodicPhaseContext extends TickPhaseContext {
  /** the period's number: floor(time / periodMs) */
  period: number;
  /** when the period starts (ms since the epoch) */
  periodStart: number;
}

interface PhaseBase {
  /** unique, stable: periodic phases record their periods under it */
  name: string;
  /**
   * Work after the tick committed, when it applied ticks: a domain's own actions on what the
   * phase decided (each its own transaction, e.g. runCountriesAction per country). It must be
   * a sweep of durable state, safe to run again: a crash between the commit and this hook is
   * repaired by the next tick's run. A failure is logged; the tick stays applied.
   */
  afterCommit?(ctx: TickContext): Promise<void>;
}

export interface CollapsingPhase extends PhaseBase {
  catchUp: "collapse";
  /** @returns rows changed, for the tick's log */
  run(ctx: TickPhaseContext): Promise<number>;
}

export interface PeriodicPhase extends PhaseBase {
  catchUp: "periodic";
  /** period length in milliseconds (a UTC day: DAY_MS) */
  periodMs: number;
  /** @returns rows changed, for the tick's log */
  run(ctx: PeriodicPhaseContext): Promise<number>;
}

export type TickPhase = CollapsingPhase | PeriodicPhase;

/** A UTC day in milliseconds (periods of daily phases start at midnight UTC). */
export const DAY_MS = 86_400_000;
