import { resetDailyCounters } from "../db/espionage.js";
import type { PeriodicPhase } from "./phases.js";

/** A UTC day (ms); phases.ts has the same DAY_MS, but this module is imported by it. */
const DAY_MS = 86_400_000;

/**
 * At midnight UTC every country's spy operation counters go back to zero (the spec's daily cap
 * of 30, per-type maxima). Periodic: once per UTC day the ticks reach, recorded, so a retried
 * tick does nothing; the UPDATE only touches rows of an earlier day, so running it twice for
 * one day changes nothing either. The service also reads a row of an earlier day as zero, so a
 * tick that runs late never lets yesterday's count refuse today's first operation.
 */
export const spyDailyResetPhase: PeriodicPhase = {
  name: "spy_daily_reset",
  catchUp: "periodic",
  periodMs: DAY_MS,
  async run({ client, period }) {
    return resetDailyCounters(client, period);
  },
};
