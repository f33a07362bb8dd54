import { SPY_RECORD_RETENTION_DAYS, deleteOldMissions, resetDailyCounters } from "../db/espionage.js";
import { DAY_MS, type PeriodicPhase } from "./tickPhase.js";

/**
 * At midnight UTC every country's spy operation counters go back to zero (the spec's daily cap
 * of 30, per-type maxima). Periodic: once per UTC day the ticks reach, recorded, so a retried
 * tick does nothing; the UPDATE only touches rows of an earlier day, so running it twice for
 * one day changes nothing either. The service also reads a row of an earlier day as zero, so a
 * tick that runs late never lets yesterday's count refuse today's first operation.
 * The same run deletes missions and reports older than SPY_RECORD_RETENTION_DAYS (every
 * report has expired long before: the longest lasts 72 hours), so the tables stay bounded.
 */
export const spyDailyResetPhase: PeriodicPhase = {
  name: "spy_daily_reset",
  catchUp: "periodic",
  periodMs: DAY_MS,
  async run({ client, period, periodStart }) {
    const reset = await resetDailyCounters(client, period);
    return reset + (await deleteOldMissions(client, new Date(periodStart - SPY_RECORD_RETENTION_DAYS * DAY_MS)));
  },
};
