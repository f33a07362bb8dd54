import { markAutomationDue } from "../db/countryOptions.js";
import { runDueAutomation } from "../services/manage.js";
import type { CollapsingPhase } from "./tickPhase.js";

/**
 * Auto-build (Manage > Settings): inside the tick, every country with an auto-build option on
 * is marked as owed a run for the latest applied tick (missed ticks collapse into one run);
 * after the commit each is served by its own system action, which claims the run under the
 * country's lock (a second sweep for the same tick changes nothing). docs/rules.md, "Auto-build".
 */
export const autoBuildPhase: CollapsingPhase = {
  name: "autoBuild",
  catchUp: "collapse",
  async run({ client, ticks }) {
    return markAutomationDue(client, ticks[ticks.length - 1]!);
  },
  async afterCommit(ctx) {
    await runDueAutomation(ctx);
  },
};
