import type { CountryState, GovernmentType, RuleRejection } from "./country.js";
import { reject } from "./country.js";
import { GOVERNMENTS } from "./governments.js";
import { MAX_TURNS_PER_ACTION, checkTurnQuantity, computeMaxTurnsPerAction } from "./turns.js";

/** Most turns one exploration may spend (turns): the turn selector's maximum. */
export const EXPLORE_MAX_TURNS = MAX_TURNS_PER_ACTION;

/** Base exploration price per acre (dollars). */
export const EXPLORE_BASE_COST_PER_ACRE = 50;
/** Price added per acre for each full 100 acres owned (dollars). */
export const EXPLORE_COST_STEP = 5;
/** Acres per price step (acres). */
export const EXPLORE_COST_STEP_ACRES = 100;

/** One band of a land-size table: countries with land <= upTo explore `acres` per turn. */
export interface ExplorationBand {
  /** acres owned, inclusive upper edge */
  upTo: number;
  /** acres gained per turn */
  acres: number;
}

/**
 * Acres per turn for a republic, by land owned. The spec gives the endpoints: 54 up to 1915,
 * falling about 1 per step to 30 up to 3715, then 7 up to 21620, default 7. The 24 steps from
 * 1915 to 3715 are spaced evenly, 75 acres apart, so every band between is 75 acres wide.
 * These values already include the republic's +20% (54 = 45 x 1.2, 30 = 25 x 1.2).
 */
export const REPUBLIC_EXPLORATION_BANDS: readonly ExplorationBand[] = [
  { upTo: 1915, acres: 54 },
  { upTo: 1990, acres: 53 },
  { upTo: 2065, acres: 52 },
  { upTo: 2140, acres: 51 },
  { upTo: 2215, acres: 50 },
  { upTo: 2290, acres: 49 },
  { upTo: 2365, acres: 48 },
  { upTo: 2440, acres: 47 },
  { upTo: 2515, acres: 46 },
  { upTo: 2590, acres: 45 },
  { upTo: 2665, acres: 44 },
  { upTo: 2740, acres: 43 },
  { upTo: 2815, acres: 42 },
  { upTo: 2890, acres: 41 },
  { upTo: 2965, acres: 40 },
  { upTo: 3040, acres: 39 },
  { upTo: 3115, acres: 38 },
  { upTo: 3190, acres: 37 },
  { upTo: 3265, acres: 36 },
  { upTo: 3340, acres: 35 },
  { upTo: 3415, acres: 34 },
  { upTo: 3490, acres: 33 },
  { upTo: 3565, acres: 32 },
  { upTo: 3640, acres: 31 },
  { upTo: 3715, acres: 30 },
  { upTo: 21620, acres: 7 },
];
/** Acres per turn for a republic beyond its table (acres). */
export const REPUBLIC_EXPLORATION_DEFAULT = 7;

/**
 * Acres per turn for every other government, by land owned. The spec gives: 45 up to 1920,
 * falling to 25 up to 3560, then 6 up to 21280, default 6. The 20 steps from 1920 to 3560
 * are spaced evenly, 82 acres apart.
 */
export const STANDARD_EXPLORATION_BANDS: readonly ExplorationBand[] = [
  { upTo: 1920, acres: 45 },
  { upTo: 2002, acres: 44 },
  { upTo: 2084, acres: 43 },
  { upTo: 2166, acres: 42 },
  { upTo: 2248, acres: 41 },
  { upTo: 2330, acres: 40 },
  { upTo: 2412, acres: 39 },
  { upTo: 2494, acres: 38 },
  { upTo: 2576, acres: 37 },
  { upTo: 2658, acres: 36 },
  { upTo: 2740, acres: 35 },
  { upTo: 2822, acres: 34 },
  { upTo: 2904, acres: 33 },
  { upTo: 2986, acres: 32 },
  { upTo: 3068, acres: 31 },
  { upTo: 3150, acres: 30 },
  { upTo: 3232, acres: 29 },
  { upTo: 3314, acres: 28 },
  { upTo: 3396, acres: 27 },
  { upTo: 3478, acres: 26 },
  { upTo: 3560, acres: 25 },
  { upTo: 21280, acres: 6 },
];
/** Acres per turn for other governments beyond their table (acres). */
export const STANDARD_EXPLORATION_DEFAULT = 6;

/** The land-size table and its default for a government. */
export function explorationTable(governmentType: GovernmentType): { bands: readonly ExplorationBand[]; fallback: number } {
  return governmentType === "republic" ? { bands: REPUBLIC_EXPLORATION_BANDS, fallback: REPUBLIC_EXPLORATION_DEFAULT } : { bands: STANDARD_EXPLORATION_BANDS, fallback: STANDARD_EXPLORATION_DEFAULT };
}

/** Acres gained per exploration turn for a country owning `land` acres. */
export function computeAcresPerTurn(land: number, governmentType: GovernmentType): number {
  const { bands, fallback } = explorationTable(governmentType);
  for (const band of bands) if (land <= band.upTo) return band.acres;
  return fallback;
}

/** Full EXPLORE_COST_STEP_ACRES (100) acres owned: how many EXPLORE_COST_STEP price steps apply. */
export function computeExplorationCostSteps(land: number): number {
  return Math.floor(Math.max(0, land) / EXPLORE_COST_STEP_ACRES);
}

/** Price per explored acre before the government's bonus: 50 + 5 per full 100 acres owned (dollars). */
export function computeExplorationBaseCostPerAcre(land: number): number {
  return EXPLORE_BASE_COST_PER_ACRE + EXPLORE_COST_STEP * computeExplorationCostSteps(land);
}

/**
 * Price per explored acre: floor((50 + 5 per full 100 acres owned) x 0.9 for a republic,
 * x1 otherwise), in dollars.
 */
export function computeExplorationCostPerAcre(land: number, governmentType: GovernmentType): number {
  const base = computeExplorationBaseCostPerAcre(land);
  // integer percent keeps 55 x 0.9 = 49.5 -> 49 exact
  return Math.floor((base * GOVERNMENTS[governmentType].explorationCostPct) / 100);
}

/** The exploration calculator's figures (the client's preview and the server's charge). */
export interface ExplorationQuote {
  acresPerTurn: number;
  /** dollars */
  costPerAcre: number;
  /** acres */
  totalAcres: number;
  /** dollars */
  totalCost: number;
  /** cash after paying, dollars; negative means the shortfall */
  remainingCash: number;
}

/**
 * The exploration of `turns` turns. Acres per turn and price per acre are fixed from the land
 * owned when the action starts (not recomputed as land grows during the action), so the
 * preview shows one acres-per-turn and one cost-per-acre and the charge is exactly
 * totalAcres x costPerAcre. The server charges exactly what this returns.
 */
export function computeExploration(country: Pick<CountryState, "land" | "cash" | "governmentType">, turns: number): ExplorationQuote {
  const acresPerTurn = computeAcresPerTurn(country.land, country.governmentType);
  const costPerAcre = computeExplorationCostPerAcre(country.land, country.governmentType);
  const t = Math.max(0, Math.floor(turns));
  const totalAcres = acresPerTurn * t;
  const totalCost = costPerAcre * totalAcres;
  return { acresPerTurn, costPerAcre, totalAcres, totalCost, remainingCash: country.cash - totalCost };
}

/**
 * Whether the country may explore for `turns` turns: turns between 1 and the smaller of its
 * available turns and 50, and the total cost not above its cash ('Insufficient funds. Need
 * ${amount} more.').
 */
export function checkExploration(country: Pick<CountryState, "land" | "cash" | "governmentType" | "turns">, turns: number): RuleRejection | null {
  const turnsProblem = checkTurnQuantity(country.turns, turns, "exploration");
  if (turnsProblem) return turnsProblem;
  const quote = computeExploration(country, turns);
  if (quote.totalCost > country.cash) {
    return reject("exploration/insufficient_funds", `Insufficient funds. Need $${(quote.totalCost - country.cash).toLocaleString("en-US")} more.`);
  }
  return null;
}

/**
 * The most turns the country can explore now: within the turns one action may spend
 * (computeMaxTurnsPerAction) and paid for by its cash, so checkExploration accepts every
 * count from 1 to this and refuses one more. 0 when it cannot explore at all.
 */
export function computeAffordableExplorationTurns(country: Pick<CountryState, "land" | "cash" | "governmentType" | "turns">): number {
  const { acresPerTurn, costPerAcre } = computeExploration(country, 1);
  const maxTurns = computeMaxTurnsPerAction(country.turns);
  const perTurn = acresPerTurn * costPerAcre;
  if (perTurn <= 0) return maxTurns;
  return Math.max(0, Math.min(maxTurns, Math.floor(country.cash / perTurn)));
}

/**
 * Explores: adds the acres, pays the cost and spends the turns. Does not run the economy;
 * `performExploration` (economy.ts) does both in the order the server uses.
 */
export function applyExploration<T extends CountryState>(country: T, turns: number): { next: T; quote: ExplorationQuote } {
  const quote = computeExploration(country, turns);
  return {
    next: { ...country, land: country.land + quote.totalAcres, cash: quote.remainingCash, turns: country.turns - turns },
    quote,
  };
}
