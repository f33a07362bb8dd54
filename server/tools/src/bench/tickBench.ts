import { performance } from "node:perf_hooks";
import { MAX_STORED_TURNS, MAX_TURNS } from "@game/schema/rules";
import { loadConfig } from "@game/server/config";
import type { Db } from "@game/server/db/pool";
import { tickNumberAt } from "@game/server/turnClock";
import { insertCountries, tickContext } from "@game/server/tick/testSupport";
import { runTick } from "@game/server/tick/turnTick";

export interface TickBenchOptions {
  /** countries to create @default 100_000 */
  countries: number;
  /** alternating rounds of bare UPDATE and tick; the median is reported @default 3 */
  rounds: number;
  log(line: string): void;
}

export interface TickBenchResult {
  countries: number;
  insertMs: number;
  /** `UPDATE countries SET turns = turns`, each round (ms) */
  bareUpdateMs: number[];
  /** runTick: transaction, advisory lock, tick row, capped UPDATE, commit, each round (ms) */
  tickMs: number[];
  countriesUpdated: number;
  /** runTick when every country is at both caps: no country row is written (ms) */
  tickAtCapsMs: number;
  /** the same rounds after `fillfactor = FILLFACTOR_VARIANT` and a table rewrite */
  fillfactor: { value: number; bareUpdateMs: number[]; tickMs: number[] };
}

/**
 * The countries table's fillfactor tried as a variant (percent). Rows are ~700 bytes; with
 * free room on each page an UPDATE of unindexed columns (turns, stored_turns) is a HOT update
 * that writes no index entry, where a full page forces a new version elsewhere plus an entry
 * in each of the table's indexes.
 */
export const FILLFACTOR_VARIANT = 70;

export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

/**
 * The turn tick over `countries` countries beside a bare UPDATE of the same rows, in the same
 * database and run. Each timed statement starts after a VACUUM, so neither pays for the other's
 * dead tuples. Both write every row (the countries start at 100 turns, below the cap).
 */
export async function runTickBench(db: Db, options: TickBenchOptions): Promise<TickBenchResult> {
  const { log } = options;
  let started = performance.now();
  await insertCountries(db, options.countries, 100, 0, "bench");
  const insertMs = performance.now() - started;
  await db.query("VACUUM ANALYZE countries");
  log(`  created ${options.countries.toLocaleString("en-US")} countries in ${Math.round(insertMs)} ms (one INSERT ... SELECT generate_series)`);

  const ctx = tickContext(db, loadConfig({ turnIntervalMs: 1_200_000, tickEnabled: true, logLevel: "silent" }));
  let tickNumber = tickNumberAt(Date.now(), ctx.config.turnIntervalMs);
  let countriesUpdated = 0;
  const rounds = async (label: string) => {
    const bareUpdateMs: number[] = [];
    const tickMs: number[] = [];
    for (let round = 0; round < options.rounds; round++) {
      await db.query("VACUUM countries");
      let t0 = performance.now();
      await db.query("UPDATE countries SET turns = turns");
      bareUpdateMs.push(performance.now() - t0);

      await db.query("VACUUM countries");
      t0 = performance.now();
      const result = await runTick(ctx, tickNumber++);
      tickMs.push(performance.now() - t0);
      countriesUpdated = result.countriesUpdated;
      log(`  ${label} round ${round + 1}: bare UPDATE ${Math.round(bareUpdateMs[round]!)} ms, tick ${Math.round(tickMs[round]!)} ms (${result.countriesUpdated} rows)`);
    }
    return { bareUpdateMs, tickMs };
  };
  const main = await rounds("as migrated,");

  await db.query(`ALTER TABLE countries SET (fillfactor = ${FILLFACTOR_VARIANT})`);
  await db.query("VACUUM FULL countries");
  const variant = await rounds(`fillfactor ${FILLFACTOR_VARIANT},`);
  await db.query("ALTER TABLE countries RESET (fillfactor)");

  await db.query("UPDATE countries SET turns = $1, stored_turns = $2", [MAX_TURNS, MAX_STORED_TURNS]);
  await db.query("VACUUM countries");
  started = performance.now();
  await runTick(ctx, tickNumber++);
  const tickAtCapsMs = performance.now() - started;

  return {
    countries: options.countries,
    insertMs,
    ...main,
    countriesUpdated,
    tickAtCapsMs,
    fillfactor: { value: FILLFACTOR_VARIANT, ...variant },
  };
}
