import { MAX_STORED_TURNS, MAX_TURNS } from "@game/schema/rules";

/**
 * The turn clock. Tick n is due at n * intervalMs milliseconds after the Unix epoch, so every
 * process (and BullMQ's `every` schedule, which starts on the same grid) agrees on which tick
 * is which without talking to each other: a retried or duplicated job maps to the same n.
 */

/** The number of the latest tick due at `now` (ms since the epoch). */
export function tickNumberAt(now: number, intervalMs: number): number {
  return Math.floor(now / intervalMs);
}

/** When tick `tickNumber` is due (ms since the epoch). */
export function tickDueAt(tickNumber: number, intervalMs: number): number {
  return tickNumber * intervalMs;
}

/**
 * When the next tick after `now` is due (ms since the epoch). The world room shows it as
 * "next turn in ...".
 * @param now @default Date.now()
 */
export function nextTickAt(intervalMs: number, now: number = Date.now()): number {
  return tickDueAt(tickNumberAt(now, intervalMs) + 1, intervalMs);
}

/**
 * Most ticks one catch-up applies (ticks). After MAX_TURNS + MAX_STORED_TURNS ticks every
 * country sits at both caps whatever it started with, so applying more changes nothing: a
 * longer downtime is caught up as exactly this many ticks, with the same result.
 */
export const MAX_CATCH_UP_TICKS = MAX_TURNS + MAX_STORED_TURNS;
