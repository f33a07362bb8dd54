import type { TurnResultJson } from "@game/schema/api";
import {
  BUILDING_DEFINITIONS,
  PRODUCTION_PRESETS,
  applyConvertStoredTurns,
  applyGovernmentChange,
  applyResearchAllocation,
  applyUnitAllocation,
  checkConstruction,
  checkConvertStoredTurns,
  checkExploration,
  checkGovernmentChange,
  checkProcessTurns,
  checkResearchAllocation,
  checkUnitAllocation,
  computeDiplomaticEffects,
  computeTechTransfer,
  emptyEffects,
  getGovernment,
  performConstruction,
  performExploration,
  performProduction,
  runEconomyTurns,
  type ConstructionOrder,
  type CountryState,
  type GovernmentType,
  type ProductionPresetId,
  type ResearchAllocation,
  type RuleRejection,
  type UnitAllocation,
  type EconomicEffects,
  formatMoney,
  plural,
} from "@game/schema/rules";
import type { DbClient } from "../db/pool.js";
import { toOwnCountryJson, type CountryRow, type CountryRowPatch, type OwnCountryJson } from "../db/countries.js";
import { AppError } from "../errors.js";
import { runCountriesAction } from "./actions.js";
import { countryTopic } from "../events.js";
import type { ServiceContext } from "./context.js";
import { buildTurnResult, technologyName, toResearchResultsJson } from "./turnResults.js";
import { ECONOMY_BONUS_INPUTS, economyBonusesFromInputs } from "./allianceEffects.js";
import { recordCountryNews, researchNews, type CountryNews } from "./countryNews.js";

const fmt = (n: number) => n.toLocaleString("en-US");

/** A rule's rejection as the 400 answer (the spec's message). */
export function ruleError(rejection: RuleRejection): AppError {
  return new AppError(400, rejection.message, rejection.code);
}

/** What an action's rule step returns: the next state, and a turn result when turns were spent. */
interface ActionOutcome<E> {
  next: CountryState;
  /** row-only columns changed beside the state */
  patch?: CountryRowPatch;
  turnResult?: TurnResultJson;
  extra?: E;
  /** the economy turns the action ran: starvation and bankruptcy become personal news */
  effects?: EconomicEffects;
  /** personal news the action produced (research levels reached) */
  news?: CountryNews[];
}

/** What every action answers: the country after it, the turn result, and action extras. */
export interface ActionResult<E = undefined> {
  country: OwnCountryJson;
  turnResult?: TurnResultJson;
  extra: E;
}

/**
 * A one-country action of the player who owns it: the transaction of runCountriesAction
 * (lock, owner check, step, write with networth recomputed, turn result, commit, events).
 * Concurrent actions on one country queue on the row lock, or find their optimistic write
 * refused and run locked, so turns, cash and land are never spent twice.
 */
export async function runCountryAction<E = undefined>(
  ctx: ServiceContext,
  userId: number,
  countryId: number,
  action: string,
  step: (state: CountryState, row: CountryRow, client: DbClient) => ActionOutcome<E> | Promise<ActionOutcome<E>>,
): Promise<ActionResult<E>> {
  const { result, rows } = await runCountriesAction(ctx, {
    name: action,
    actor: { userId, countryId },
    countryIds: [countryId],
    // alliance and diplomatic bonuses (research, income), read with the row lock
    contextFunction: ECONOMY_BONUS_INPUTS,
    async step(countries, tx) {
      const { state, row } = countries.get(countryId)!;
      const outcome = await step({ ...state, bonuses: economyBonusesFromInputs(tx.context!, tx.now.getTime()) }, row, tx.client);
      if (outcome.turnResult) tx.turnResult(countryId, outcome.turnResult);
      await recordCountryNews(tx, countryId, outcome.effects, outcome.news);
      return {
        next: new Map([[countryId, outcome.next]]),
        patches: outcome.patch ? new Map([[countryId, outcome.patch]]) : undefined,
        result: outcome,
      };
    },
  });
  return { country: toOwnCountryJson(rows.get(countryId)!), turnResult: result.turnResult, extra: result.extra as E };
}

/** Explores for `turns` turns: acres bought at the rules' price, then the economy runs per turn. */
export function exploreLand(ctx: ServiceContext, userId: number, countryId: number, turns: number) {
  return runCountryAction(ctx, userId, countryId, "explore", (state) => {
    const rejection = checkExploration(state, turns);
    if (rejection) throw ruleError(rejection);
    const { next, quote, effects } = performExploration(state, turns);
    const turnResult = buildTurnResult({
      actionType: "exploration",
      turnsConsumed: turns,
      turnsRemaining: next.turns,
      effects,
      actionResults: [
        {
          id: "exploration",
          title: "Territory Explored",
          description: `Explored ${fmt(quote.totalAcres)} acres for $${fmt(quote.totalCost)}.`,
          icon: "trending-up",
          details: [`${fmt(quote.acresPerTurn)} acres per turn`, `$${fmt(quote.costPerAcre)} per acre`, `Land: ${fmt(state.land)} -> ${fmt(next.land)} acres`],
        },
      ],
    });
    return { next, turnResult, effects, extra: { acresGained: quote.totalAcres, totalCost: quote.totalCost, efficiency: 100 } };
  });
}

/** Builds an order of one or more building types, all or nothing. */
export function constructBuildings(ctx: ServiceContext, userId: number, countryId: number, order: ConstructionOrder) {
  return runCountryAction(ctx, userId, countryId, "construct", (state) => {
    const rejection = checkConstruction(state, order);
    if (rejection) throw ruleError(rejection);
    const { next, quote, effects } = performConstruction(state, order);
    const built = Object.entries(order).filter(([, q]) => (q ?? 0) > 0) as [keyof typeof BUILDING_DEFINITIONS, number][];
    const turnResult = buildTurnResult({
      actionType: "construction",
      turnsConsumed: quote.turns,
      turnsRemaining: next.turns,
      effects,
      actionResults: [
        {
          id: "construction",
          title: "Construction Complete",
          description: `Built ${built.map(([type, q]) => `${fmt(q)} ${BUILDING_DEFINITIONS[type].name}`).join(", ")} for $${fmt(quote.cost)}.`,
          icon: "checkmark",
          details: [`Land used: ${fmt(quote.land)} acres`, `Turns used: ${quote.turns}`],
        },
      ],
    });
    return {
      next,
      turnResult,
      effects,
      extra: { buildingsBuilt: quote.regularBuildings + quote.constructionSites, buildingTypes: built.map(([t]) => t), totalCost: quote.cost, landUsed: quote.land },
    };
  });
}

/** Spends turns running the economy only (POST /production/process, /turns/consume production). */
export function processProduction(ctx: ServiceContext, userId: number, countryId: number, turns: number, actionType = "production") {
  return runCountryAction(ctx, userId, countryId, actionType, (state) => {
    const rejection = checkProcessTurns(state, turns);
    if (rejection) throw ruleError(rejection);
    const { next, effects } = performProduction(state, turns);
    const turnResult = buildTurnResult({
      actionType,
      turnsConsumed: turns,
      turnsRemaining: next.turns,
      effects,
      actionResults: [
        {
          id: actionType,
          title: actionType === "research" ? "Research Conducted" : "Production Processed",
          description: `${plural(turns, "turn")} of production processed.`,
          icon: "zap",
          details: [`Net cash: ${formatMoney(effects.netCashChange)}`, `Net food: ${fmt(effects.netFoodChange)} bushels`],
        },
      ],
    });
    return { next, turnResult, effects };
  });
}

/** POST /research/generate: one turn of the economy, whose labs yield research points. */
export function generateResearch(ctx: ServiceContext, userId: number, countryId: number) {
  return processProduction(ctx, userId, countryId, 1, "research");
}

/**
 * Spends unspent research points on technologies (no turns). Research partners (an active
 * research relation) are locked with the country, in id order: each gains the technology
 * transfer (computeTechTransfer) for every level reached that it does not hold yet, and is
 * told. The partner list is read beside the locks; a relation ended in the same instant is a
 * race of no consequence.
 */
export async function allocateResearch(ctx: ServiceContext, userId: number, countryId: number, allocations: ResearchAllocation) {
  const partnerIds = await researchPartnersOf(ctx.db, countryId);
  const transferPct = computeDiplomaticEffects(["research"]).techTransferPct;
  const { result, rows } = await runCountriesAction(ctx, {
    name: "research_allocate",
    actor: { userId, countryId },
    countryIds: [countryId, ...partnerIds],
    async step(countries, tx) {
      const { state } = countries.get(countryId)!;
      const rejection = checkResearchAllocation(state, allocations);
      if (rejection) throw ruleError(rejection);
      const { next, results } = applyResearchAllocation(state, allocations);
      const turnResult = buildTurnResult({
        actionType: "research",
        turnsConsumed: 0,
        turnsRemaining: next.turns,
        effects: emptyEffects(),
        researchResults: toResearchResultsJson(results),
        actionResults: results.map((r) => ({
          id: `research-${r.researchType}`,
          title: `${technologyName(r.researchType)} Research`,
          description: r.description,
          icon: r.levelUp ? ("trending-up" as const) : ("zap" as const),
          details: [`Points spent: ${fmt(r.pointsGained)}`, `Level ${r.previousLevel} -> ${r.currentLevel}`, `Progress to next level: ${r.progressPercent}%`],
        })),
      });
      tx.turnResult(countryId, turnResult);
      await recordCountryNews(tx, countryId, undefined, researchNews(results, next));
      const states = new Map([[countryId, next]]);
      const breakthroughs = results.filter((r) => r.levelUp).map((r) => ({ technology: r.researchType, level: r.currentLevel, pointsSpent: r.pointsGained }));
      const name = countries.get(countryId)!.row.name;
      for (const partnerId of partnerIds) {
        const partner = countries.get(partnerId)!;
        if (partner.row.is_eliminated) continue;
        const gained = computeTechTransfer(breakthroughs, partner.state.tech, transferPct);
        if (gained <= 0) continue;
        states.set(partnerId, { ...partner.state, researchPoints: partner.state.researchPoints + gained });
        tx.emit(countryTopic(partnerId), {
          type: "notice",
          countryId: partnerId,
          notice: {
            id: `transfer-${countryId}-${tx.now.getTime()}`,
            kind: "tech_transfer",
            severity: "success",
            title: "Technology transfer",
            body: `${name} shared its findings: +${fmt(gained)} research points`,
            at: tx.now.getTime(),
            view: "research",
          },
        });
      }
      return { next: states, result: { turnResult, extra: { results } } };
    },
  });
  return { country: toOwnCountryJson(rows.get(countryId)!), turnResult: result.turnResult, extra: result.extra };
}

/** The countries holding an active research relation with `countryId`, ascending. */
async function researchPartnersOf(db: ServiceContext["db"], countryId: number): Promise<number[]> {
  const { rows } = await db.query<{ id: string }>({
    name: "research_partners",
    text: `SELECT DISTINCT CASE WHEN from_country_id = $1 THEN to_country_id ELSE from_country_id END AS id
             FROM diplomatic_relations
            WHERE status = 'active' AND relation_type = 'research' AND $1 IN (from_country_id, to_country_id)`,
    values: [countryId],
  });
  return rows
    .map((r) => Number(r.id))
    .filter((id) => id !== countryId)
    .sort((a, b) => a - b);
}

/** Stores the unit production split (explicit percentages or a preset). */
export function setUnitAllocation(ctx: ServiceContext, userId: number, countryId: number, request: { preset: string } | UnitAllocation) {
  const allocation: UnitAllocation = "preset" in request ? { ...PRODUCTION_PRESETS[request.preset as ProductionPresetId] } : request;
  return runCountryAction(ctx, userId, countryId, "unit_allocation", (state) => {
    const rejection = checkUnitAllocation(allocation);
    if (rejection) throw ruleError(rejection);
    return { next: applyUnitAllocation(state, allocation) };
  });
}

/** Moves stored turns into available turns. */
export function convertStoredTurns(ctx: ServiceContext, userId: number, countryId: number, quantity: number) {
  return runCountryAction(ctx, userId, countryId, "convert_stored_turns", (state) => {
    const rejection = checkConvertStoredTurns(state, quantity);
    if (rejection) throw ruleError(rejection);
    return { next: applyConvertStoredTurns(state, quantity) };
  });
}

/**
 * Changes government: the first change is free; later ones cost cash and turns (the economy
 * runs those turns under the new government). The change counters live on the row.
 */
export function changeGovernment(ctx: ServiceContext, userId: number, countryId: number, target: GovernmentType) {
  return runCountryAction(ctx, userId, countryId, "change_government", (state, row) => {
    const history = { hasUsedFreeGovernmentChange: row.has_used_free_government_change, governmentChangeCount: row.government_change_count };
    const rejection = checkGovernmentChange(state, history, target);
    if (rejection) throw ruleError(rejection);
    const changed = applyGovernmentChange(state, history, target);
    // applyGovernmentChange already spent the turns; the economy runs once for each of them.
    const run = runEconomyTurns(changed.next, changed.cost.turns);
    const turnResult = buildTurnResult({
      actionType: "government",
      turnsConsumed: changed.cost.turns,
      turnsRemaining: run.next.turns,
      effects: run.effects,
      actionResults: [
        {
          id: "government",
          title: "Government Changed",
          description: `${getGovernment(state.governmentType).name} -> ${getGovernment(target).name}${changed.cost.free ? " (free change)" : ` for $${fmt(changed.cost.cash)}`}.`,
          icon: "checkmark",
          details: [],
        },
      ],
    });
    return {
      next: run.next,
      patch: {
        has_used_free_government_change: changed.history.hasUsedFreeGovernmentChange,
        government_change_count: changed.history.governmentChangeCount,
      },
      turnResult,
      effects: run.effects,
      extra: { cost: changed.cost },
    };
  });
}
