import type { CountryState, TechnologyId } from "./country.js";
import { TECHNOLOGY_IDS } from "./country.js";
import { computeNetworth } from "./networth.js";
import { computeProductionPerTurn } from "./economy.js";
import { BUILDING_DEFINITIONS, checkConstruction, computeBuildingMaintenance, computeFreeLand } from "./buildings.js";
import { computeMilitaryUpkeep } from "./military.js";
import { TECHNOLOGIES, computeTechnologyCost, technologyState } from "./research.js";

// ---------------------------------------------------------------------------------------
// Country options (Manage > Settings): persisted per country (docs/rules.md, "Country management")

/** The Manage view's Settings tab: auto-build and notify options of one country. */
export interface CountryOptions {
  /** build farms when food is low (tick phase "autoBuild") */
  autoFarms: boolean;
  /** spend research points on the cheapest available technology (tick phase "autoBuild") */
  autoResearch: boolean;
  /** spend one turn of unit production when turns are near the cap (tick phase "autoBuild") */
  autoMilitary: boolean;
  /** live notices of attacks on the country (spec default on) */
  notifyAttacks: boolean;
  /** live notices of alliance messages (spec default on) */
  notifyAlliance: boolean;
  /** live notices of market updates (spec default off) */
  notifyMarket: boolean;
}

/** The spec's defaults: automation off, attacks and alliance messages on, market off. */
export const DEFAULT_COUNTRY_OPTIONS: CountryOptions = {
  autoFarms: false,
  autoResearch: false,
  autoMilitary: false,
  notifyAttacks: true,
  notifyAlliance: true,
  notifyMarket: false,
};

/** Food is "low" when it lasts fewer than this many turns at the current net loss (turns). */
export const AUTO_FARMS_FOOD_TURNS = 24;
/** Farms auto-build orders per tick at most (farms). */
export const AUTO_FARMS_MAX_PER_TICK = 5;
/** Cash auto-build keeps untouched: this many turns of expenses (turns). */
export const AUTO_CASH_RESERVE_TURNS = 10;
/** Auto-military spends a production turn only at or above this many available turns (turns). */
export const AUTO_MILITARY_MIN_TURNS = 140;
/** Countries the autoBuild phase serves per tick at most, oldest-served first (countries). */
export const AUTO_BUILD_MAX_COUNTRIES_PER_TICK = 500;

/** What the tick's auto-build does for one country this tick (each part optional). */
export interface AutomationPlan {
  /** farms to build (construction rules: cash, land, capacity, turns) */
  farms: number;
  /** research points to allocate, technology id -> points (one level) */
  research: Partial<Record<TechnologyId, number>>;
  /** turns of unit production to spend (0 or 1) */
  productionTurns: number;
}

/** The cheapest available technology whose next level the unspent points pay for, or null. */
export function cheapestAffordableTechnology(country: Pick<CountryState, "tech" | "governmentType" | "researchPoints" | "buildings">): { id: TechnologyId; cost: number } | null {
  if (country.buildings.research_labs <= 0) return null;
  let best: { id: TechnologyId; cost: number } | null = null;
  for (const id of TECHNOLOGY_IDS) {
    if (technologyState(country.tech, id) !== "available") continue;
    const cost = computeTechnologyCost(id, country.tech[id], country.governmentType);
    if (cost <= country.researchPoints && (!best || cost < best.cost)) best = { id, cost };
  }
  return best;
}

/**
 * The auto-build plan of one tick (docs/rules.md, "Auto-build"):
 * - farms: when food falls per turn and lasts fewer than AUTO_FARMS_FOOD_TURNS turns, farms
 *   enough to cover the loss, at most AUTO_FARMS_MAX_PER_TICK, within construction capacity,
 *   free land, turns, and cash above AUTO_CASH_RESERVE_TURNS turns of expenses;
 * - research: one level of the cheapest available technology the unspent points pay for;
 * - military: one turn of unit production when turns are at AUTO_MILITARY_MIN_TURNS or more and
 *   the country has industrial complexes.
 */
export function planAutomation(country: CountryState, options: Pick<CountryOptions, "autoFarms" | "autoResearch" | "autoMilitary">): AutomationPlan {
  const plan: AutomationPlan = { farms: 0, research: {}, productionTurns: 0 };
  if (options.autoResearch) {
    const tech = cheapestAffordableTechnology(country);
    if (tech) plan.research = { [tech.id]: tech.cost };
  }
  if (options.autoFarms) {
    const flow = computeProductionPerTurn(country);
    if (flow.food < 0 && country.food < -flow.food * AUTO_FARMS_FOOD_TURNS) {
      const perFarm = Math.max(1, farmOutput(country));
      const wanted = Math.min(AUTO_FARMS_MAX_PER_TICK, Math.ceil(-flow.food / perFarm));
      const reserve = (computeBuildingMaintenance(country.buildings, country.governmentType) + computeMilitaryUpkeep(country)) * AUTO_CASH_RESERVE_TURNS;
      const budget = { ...country, cash: Math.max(0, country.cash - reserve) };
      let n = Math.min(wanted, computeFreeLand(country));
      while (n > 0 && checkConstruction(budget, { farms: n })) n--;
      plan.farms = n;
    }
  }
  if (options.autoMilitary && country.turns >= AUTO_MILITARY_MIN_TURNS && country.buildings.industrial_complexes > 0) {
    plan.productionTurns = 1;
  }
  return plan;
}

/** Food one more farm adds per turn (bushels), at the country's tech and government. */
function farmOutput(country: CountryState): number {
  const now = computeProductionPerTurn(country).food;
  const more = computeProductionPerTurn({ ...country, buildings: { ...country.buildings, farms: country.buildings.farms + 1 } }).food;
  return more - now;
}

/** Whether a plan does anything. */
export function planIsEmpty(plan: AutomationPlan): boolean {
  return plan.farms === 0 && plan.productionTurns === 0 && Object.keys(plan.research).length === 0;
}

/** The construction turns a farm takes (turns), for the auto-build's turn check. */
export const FARM_TURNS = BUILDING_DEFINITIONS.farms.turns;

// ---------------------------------------------------------------------------------------
// Statistics (Manage > Statistics; spec: "Country statistics")

export interface CountryStatistics {
  /** troops + jets + tanks + turrets */
  totalForces: number;
  spies: number;
  /** total forces per acre */
  militaryLandRatio: number;
  /** cash / population (dollars per person; 0 without population) */
  perCapitaIncome: number;
  /** food / population (bushels per person) */
  foodPerPopulation: number;
  /** networth / land */
  developmentIndex: number;
  /** sum of all eleven tech levels */
  totalTechLevels: number;
  /** the eleven levels by category */
  techLevels: Record<TechnologyId, number>;
  networth: number;
}

/** The spec's country statistics, from the country's real numbers. */
export function computeCountryStatistics(country: CountryState): CountryStatistics {
  const totalForces = country.troops + country.jets + country.tanks + country.turrets;
  const networth = computeNetworth(country);
  const ratio = (a: number, b: number) => (b > 0 ? a / b : 0);
  return {
    totalForces,
    spies: country.spies,
    militaryLandRatio: ratio(totalForces, country.land),
    perCapitaIncome: ratio(country.cash, country.population),
    foodPerPopulation: ratio(country.food, country.population),
    developmentIndex: ratio(networth, country.land),
    totalTechLevels: TECHNOLOGY_IDS.reduce((s, id) => s + country.tech[id], 0),
    techLevels: { ...country.tech },
    networth,
  };
}

/** Max level of every category summed (the research progress denominator). */
export const TOTAL_MAX_TECH_LEVELS = TECHNOLOGY_IDS.reduce((s, id) => s + TECHNOLOGIES[id].maxLevel, 0);
