import {
  TECHNOLOGIES,
  applyResearchAllocation,
  checkConstruction,
  checkResearchAllocation,
  emptyEffects,
  addEffects,
  AUTO_BUILD_MAX_COUNTRIES_PER_TICK,
  performConstruction,
  performProduction,
  planAutomation,
  planIsEmpty,
  plural,
  type CountryOptions,
  type CountryState,
  type EconomicEffects,
} from "@game/schema/rules";
import type { TurnResultJson } from "@game/schema/api";
import { claimAutomationRun, getCountryOptions, listAutomationDue, saveCountryOptions } from "../db/countryOptions.js";
import { runCountriesAction, type ActionContext } from "./actions.js";
import type { ServiceContext } from "./context.js";
import { buildTurnResult, toResearchResultsJson } from "./turnResults.js";
import { recordCountryNews, researchNews } from "./countryNews.js";
import { recordNews } from "./news.js";

/** The Manage view's options of the caller's country. */
export function readCountryOptions(ctx: ServiceContext, countryId: number): Promise<CountryOptions> {
  return getCountryOptions(ctx.db, countryId);
}

/** Stores the options; the next tick applies auto-build with them. */
export function writeCountryOptions(ctx: ServiceContext, countryId: number, options: CountryOptions): Promise<CountryOptions> {
  return saveCountryOptions(ctx.db, countryId, options);
}

/** What one auto-build run did (for tests and the tick's log). */
export interface AutomationOutcome {
  farms: number;
  researched: string[];
  productionTurns: number;
}

/**
 * One country's auto-build for the tick that owes it a run: a system action (no actor) under
 * the country's row lock. The options row is claimed in the same transaction, so a second run
 * for the same tick changes nothing. The plan is re-checked against the locked state with the
 * same rules a player's action uses.
 */
export async function runCountryAutomation(ctx: ActionContext, countryId: number, dueTick: number, options: CountryOptions): Promise<AutomationOutcome | null> {
  const { result } = await runCountriesAction(ctx, {
    name: "auto_build",
    actor: null,
    countryIds: [countryId],
    async step(countries, tx) {
      const none = { next: new Map<number, CountryState>(), result: null };
      if (!(await claimAutomationRun(tx.client, countryId, dueTick))) return none;
      const { state } = countries.get(countryId)!;
      const plan = planAutomation(state, options);
      if (planIsEmpty(plan)) return none;
      let next = state;
      let effects: EconomicEffects = emptyEffects();
      let turns = 0;
      const outcome: AutomationOutcome = { farms: 0, researched: [], productionTurns: 0 };
      const lines: string[] = [];
      let research: TurnResultJson["researchResults"] = [];
      if (Object.keys(plan.research).length > 0 && !checkResearchAllocation(next, plan.research)) {
        const applied = applyResearchAllocation(next, plan.research);
        next = applied.next;
        research = toResearchResultsJson(applied.results);
        outcome.researched = applied.results.filter((r) => r.levelUp).map((r) => r.researchType);
        for (const r of applied.results) lines.push(`${TECHNOLOGIES[r.researchType].name} researched to level ${r.currentLevel}`);
        await recordCountryNews(tx, countryId, undefined, researchNews(applied.results, next));
      }
      if (plan.farms > 0 && !checkConstruction(next, { farms: plan.farms })) {
        const built = performConstruction(next, { farms: plan.farms });
        next = built.next;
        effects = addEffects(effects, built.effects);
        turns += built.quote.turns;
        outcome.farms = plan.farms;
        lines.push(`${plural(plan.farms, "farm")} built for $${built.quote.cost.toLocaleString("en-US")} (${plural(built.quote.turns, "turn")})`);
      }
      if (plan.productionTurns > 0 && next.turns >= plan.productionTurns) {
        const produced = performProduction(next, plan.productionTurns);
        next = produced.next;
        effects = addEffects(effects, produced.effects);
        turns += plan.productionTurns;
        outcome.productionTurns = plan.productionTurns;
        lines.push(`${plural(plan.productionTurns, "turn")} of unit production processed`);
      }
      if (lines.length === 0) return none;
      await recordCountryNews(tx, countryId, turns > 0 ? effects : undefined);
      await recordNews(tx, { kind: "automation", countryId, params: { action: lines.length === 1 ? lines[0]! : `${lines.length} actions`, detail: `${lines.join("; ")}.` } });
      tx.turnResult(
        countryId,
        buildTurnResult({
          actionType: "auto_build",
          turnsConsumed: turns,
          turnsRemaining: next.turns,
          effects,
          researchResults: research,
          actionResults: [{ id: "auto_build", title: "Auto-build", description: `${lines.join("; ")}.`, icon: "zap", details: lines }],
        }),
      );
      return { next: new Map([[countryId, next]]), result: outcome };
    },
  });
  return result;
}

/** The autoBuild phase's after-commit sweep: every country owed a run, up to the per-tick limit. */
export async function runDueAutomation(ctx: ActionContext): Promise<number> {
  const due = await listAutomationDue(ctx.db, AUTO_BUILD_MAX_COUNTRIES_PER_TICK);
  let served = 0;
  for (const d of due) {
    try {
      await runCountryAutomation(ctx, d.countryId, d.dueTick, d.options);
      served++;
    } catch (err) {
      ctx.logger.warn({ err, countryId: d.countryId }, "auto-build run failed; the next tick retries it");
    }
  }
  return served;
}
