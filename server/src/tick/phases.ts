import { MAX_STORED_TURNS, MAX_TURNS } from "@game/schema/rules";
import type { CollapsingPhase, TickPhase, TickPhaseContext } from "./tickPhase.js";
import { tickDueAt } from "../turnClock.js";
import { ALLIANCE_TICK_PHASES } from "./alliancePhases.js";
import { warCostsPhase } from "./warCosts.js";
import { newsRetentionPhase } from "./shellPhases.js";
import { MARKET_PHASES } from "./marketPhases.js";
import { spyDailyResetPhase } from "./espionagePhases.js";
import { autoBuildPhase } from "./managePhases.js";
import { SEASON_TICK_PHASES } from "./seasonPhases.js";

/**
 * The turn tick is an ordered list of phases, each set-based SQL inside the tick's one
 * transaction. Declared, not implied: TICK_PHASES below is the order, and each phase says how
 * it catches up after missed ticks:
 *
 * - "collapse": one run covers all the ticks applied together (adding k turns at once gives
 *   the same result as k single ticks; an expiry compares with the tick's time, so running it
 *   once for the latest tick expires everything due).
 * - "periodic": the phase runs once per period (e.g. per UTC day) that the due ticks reach,
 *   never once per tick and never twice for one period: each period is recorded in
 *   tick_phase_periods in the same transaction (primary key), so a retried or duplicated tick
 *   finds it recorded and skips it. A downtime that crosses three midnights charges a daily
 *   cost three times, once per day; three missed ticks within one day charge it once.
 *
 * A domain adds its timed work as an entry of TICK_PHASES (docs/architecture.md, "Turn tick");
 * what a phase is and sees is declared in tickPhase.ts, which the phase files import.
 */

/** Periods reached by the due ticks from `firstDueTick` to the last applied one, ascending. */
export function periodsReached(firstDueTick: number, lastTick: number, intervalMs: number, periodMs: number): number[] {
  const first = Math.floor(tickDueAt(firstDueTick, intervalMs) / periodMs);
  const last = Math.floor(tickDueAt(lastTick, intervalMs) / periodMs);
  const periods: number[] = [];
  for (let p = first; p <= last; p++) periods.push(p);
  return periods;
}

/**
 * Runs the phases in order inside the tick's transaction.
 * @returns rows changed per phase (periodic phases: summed over the periods they ran for)
 */
export async function runTickPhases(phases: readonly TickPhase[], ctx: TickPhaseContext): Promise<Record<string, number>> {
  const changed: Record<string, number> = {};
  for (const phase of phases) {
    if (phase.catchUp === "collapse") {
      changed[phase.name] = await phase.run(ctx);
      continue;
    }
    const periods = periodsReached(ctx.firstDueTick, ctx.ticks[ctx.ticks.length - 1]!, ctx.intervalMs, phase.periodMs);
    const { rows } = await ctx.client.query<{ period: number }>(
      `INSERT INTO tick_phase_periods (phase, period) SELECT $1, p FROM unnest($2::bigint[]) AS p
       ON CONFLICT (phase, period) DO NOTHING RETURNING period`,
      [phase.name, periods],
    );
    let total = 0;
    for (const period of rows.map((r) => Number(r.period)).sort((a, b) => a - b)) {
      total += await phase.run({ ...ctx, period, periodStart: period * phase.periodMs });
    }
    changed[phase.name] = total;
  }
  return changed;
}

/**
 * k ticks in one statement, the same as schema's applyTicks(turns, stored, k): available turns
 * fill up to MAX_TURNS, the rest of the k overflows into stored turns up to MAX_STORED_TURNS,
 * and nothing ever goes down (a country above a cap keeps what it has). SET expressions all
 * read the old row, so the overflow is k minus the available turns actually gained. Countries
 * at both caps are not written at all, which keeps the tick cheap once most are full.
 */
const ADD_TURNS_SQL = /* sql */ `
UPDATE countries
   SET turns = GREATEST(turns, LEAST($2::int, turns + $1::int)),
       stored_turns = GREATEST(stored_turns, LEAST($3::int,
         stored_turns + ($1::int - (GREATEST(turns, LEAST($2::int, turns + $1::int)) - turns))))
 WHERE turns < $2::int OR stored_turns < $3::int`;

/** Every country gains one turn per applied tick (collapsed: k ticks, one UPDATE). */
export const turnsPhase: CollapsingPhase = {
  name: "turns",
  catchUp: "collapse",
  async run({ client, ticks }) {
    const updated = await client.query(ADD_TURNS_SQL, [ticks.length, MAX_TURNS, MAX_STORED_TURNS]);
    return updated.rowCount ?? 0;
  },
};

/** The tick's phases, in order. Each domain with timed work adds its phase here. */
export const TICK_PHASES: readonly TickPhase[] = [turnsPhase, newsRetentionPhase, ...MARKET_PHASES, warCostsPhase, ...ALLIANCE_TICK_PHASES, spyDailyResetPhase, autoBuildPhase, ...SEASON_TICK_PHASES];
