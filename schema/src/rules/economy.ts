import type { CountryState, RuleRejection, UnitType } from "./country.js";
import { UNIT_TYPES } from "./country.js";
import { GOVERNMENTS, floorPct } from "./governments.js";
import { ENTERPRISE_ZONE_INCOME, HOUSING_PER_RESIDENCE, computeBuildingMaintenance, applyConstruction } from "./buildings.js";
import type { ConstructionOrder, ConstructionQuote } from "./buildings.js";
import { applyExploration } from "./exploration.js";
import type { ExplorationQuote } from "./exploration.js";
import { computeMilitaryUpkeep, computeProductionBonusPct, computeUnitProduction } from "./military.js";
import type { UnitCounts } from "./military.js";
import { computeResearchPointsPerTurn, computeTechEffects } from "./research.js";
import { checkTurnQuantity } from "./turns.js";

/*
 * One economy turn, in this declared phase order (docs/rules.md, "Economy"):
 *   1. income     tax on housed people + enterprise zones, x government tax% x business tech%
 *   2. expenses   building maintenance + military upkeep; if cash cannot pay: bankruptcy
 *   3. food       farms produce, people and units eat; if food runs out: starvation
 *   4. oil        rigs produce, jets, tanks and complexes burn; if oil runs out: no jets/tanks built
 *   5. production industrial complexes build units by the allocation
 *   6. population moves 1/20 of the way to the housing cap, x government growth% x medical
 *                tech% (no growth while starving); the cap is x residential tech%
 *   7. research   labs add research points
 * Every phase reads the country as it was at the start of the turn; losses and gains are
 * applied together at the end, so the phases do not depend on each other's order except
 * through the flags (bankrupt, starving, out of oil).
 */

/** Tax paid per housed person per turn (dollars). */
export const TAX_PER_PERSON = 1;
// ENTERPRISE_ZONE_INCOME and HOUSING_PER_RESIDENCE are defined beside the building table
// (buildings.ts), whose effect text renders them.
/** People housed per acre owned (people). */
export const HOUSING_PER_ACRE = 10;
/** Population moves 1/this of the gap to the housing cap each turn. */
export const POPULATION_GROWTH_DIVISOR = 20;
/** Farm output per farm per turn, in tenths of a bushel (5.3 bushels). */
export const FARM_FOOD_TENTHS = 53;
/** Oil rig output per rig per turn (barrels). */
export const OIL_PER_RIG = 2;
/** Food eaten per turn, in hundredths of a bushel per person or unit. */
export const FOOD_HUNDREDTHS_PER: Readonly<Record<"population" | UnitType, number>> = {
  population: 1, // 0.01 bushel per person
  troops: 2, // 0.02
  jets: 3, // 0.03
  turrets: 1, // 0.01
  tanks: 3, // 0.03
  spies: 2, // 0.02
};
/** Oil burnt per jet and per tank per turn, in tenths of a barrel (0.1 barrel). */
export const OIL_TENTHS_PER_VEHICLE = 1;
/** Oil burnt per industrial complex per turn (barrels). */
export const OIL_PER_COMPLEX = 1;
/** Share of population and troops lost in a turn of starvation (percent, rounded up). */
export const STARVATION_LOSS_PCT = 5;
/** Share of each unit type that deserts in a turn of bankruptcy (percent, rounded up). */
export const BANKRUPTCY_DESERTION_PCT = 5;

/** Units of each type, as in losses. */
export type AllUnitCounts = Record<UnitType, number>;

/**
 * What turns of economy did: every field of the spec's economicEffects plus research points,
 * units produced, and what went wrong. Sums over turns, except productionBonus.
 */
export interface EconomicEffects {
  /** dollars of tax and business income */
  taxRevenue: number;
  /** dollars due: maintenanceCosts + militaryUpkeep */
  expenses: number;
  /** dollars, the real change of cash (differs from taxRevenue - expenses when bankrupt) */
  netCashChange: number;
  foodProduced: number;
  /** bushels actually eaten */
  foodConsumed: number;
  netFoodChange: number;
  oilProduced: number;
  /** barrels actually burnt */
  oilConsumed: number;
  netOilChange: number;
  /** people, negative for a loss */
  populationChange: number;
  /** dollars of building maintenance due */
  maintenanceCosts: number;
  /** percent bonus on unit production (government and industrial tech); not summed */
  productionBonus: number;
  researchPointsGained: number;
  militaryProduced: UnitCounts;
  /** dollars of military upkeep due */
  militaryUpkeep: number;
  /** dollars of expenses cash could not pay */
  unpaidExpenses: number;
  /** turns in which cash ran out */
  bankruptTurns: number;
  /** turns in which food ran out */
  starvingTurns: number;
  /** turns in which oil ran out */
  oilShortageTurns: number;
  /** units lost to desertion and starvation */
  unitsLost: AllUnitCounts;
}

/** Effects of zero turns. */
export function emptyEffects(): EconomicEffects {
  return {
    taxRevenue: 0,
    expenses: 0,
    netCashChange: 0,
    foodProduced: 0,
    foodConsumed: 0,
    netFoodChange: 0,
    oilProduced: 0,
    oilConsumed: 0,
    netOilChange: 0,
    populationChange: 0,
    maintenanceCosts: 0,
    productionBonus: 0,
    researchPointsGained: 0,
    militaryProduced: { troops: 0, jets: 0, turrets: 0, tanks: 0 },
    militaryUpkeep: 0,
    unpaidExpenses: 0,
    bankruptTurns: 0,
    starvingTurns: 0,
    oilShortageTurns: 0,
    unitsLost: { troops: 0, jets: 0, turrets: 0, tanks: 0, spies: 0 },
  };
}

/**
 * People the country can house: (10 per acre + 200 per residence) x (100 + 2 x residential
 * level)%, floored.
 */
export function computeHousingCap(country: Pick<CountryState, "land" | "buildings" | "tech">): number {
  const base = country.land * HOUSING_PER_ACRE + country.buildings.residences * HOUSING_PER_RESIDENCE;
  return floorPct(base, computeTechEffects(country.tech).housingPct);
}

/**
 * Income per turn, in dollars: (housed people x 1 + enterprise zones x 200) x government tax%
 * x (100 + 2 x business level)%, floored. Only people within the housing cap pay tax (the
 * housing factor min(1, cap / population)).
 */
export function computeTaxRevenue(country: Pick<CountryState, "population" | "land" | "buildings" | "governmentType" | "tech" | "bonuses">): number {
  const housed = Math.min(country.population, computeHousingCap(country));
  const base = housed * TAX_PER_PERSON + country.buildings.enterprise_zones * ENTERPRISE_ZONE_INCOME;
  const gov = GOVERNMENTS[country.governmentType].taxPct;
  const tech = computeTechEffects(country.tech).taxPct;
  const revenue = Math.floor((base * gov * tech) / 10_000);
  // An outside income bonus in force (the alliance's Economic Surge), floored.
  const bonus = country.bonuses?.incomePct ?? 0;
  return bonus > 0 ? Math.floor((revenue * (100 + bonus)) / 100) : revenue;
}

/** Food grown per turn, in bushels: farms x 5.3 x government food% x (100 + 2 x agricultural level)%, floored. */
export function computeFoodProduced(country: Pick<CountryState, "buildings" | "governmentType" | "tech">): number {
  const gov = GOVERNMENTS[country.governmentType].foodProductionPct;
  const tech = computeTechEffects(country.tech).foodProductionPct;
  return Math.floor((country.buildings.farms * FARM_FOOD_TENTHS * gov * tech) / (10 * 100 * 100));
}

/** Food eaten per turn, in bushels: 0.01 per person and 0.01-0.03 per unit, rounded up. */
export function computeFoodDemand(country: Pick<CountryState, "population" | UnitType>): number {
  const hundredths = country.population * FOOD_HUNDREDTHS_PER.population + UNIT_TYPES.reduce((s, u) => s + country[u] * FOOD_HUNDREDTHS_PER[u], 0);
  return Math.ceil(hundredths / 100);
}

/** Oil pumped per turn, in barrels: rigs x 2 x government oil%, floored. */
export function computeOilProduced(country: Pick<CountryState, "buildings" | "governmentType">): number {
  return Math.floor((country.buildings.oil_rigs * OIL_PER_RIG * GOVERNMENTS[country.governmentType].oilProductionPct) / 100);
}

/** Oil burnt per turn, in barrels: 0.1 per jet and tank (rounded up) + 1 per industrial complex. */
export function computeOilDemand(country: Pick<CountryState, "jets" | "tanks" | "buildings">): number {
  return Math.ceil(((country.jets + country.tanks) * OIL_TENTHS_PER_VEHICLE) / 10) + country.buildings.industrial_complexes * OIL_PER_COMPLEX;
}

/**
 * The population's move toward the housing cap in one turn: up by ceil(gap / 20 x government
 * growth% x (100 + 5 x medical level)%), never past the cap; down by ceil(excess / 20) when
 * above it (neither bonus speeds the decline).
 */
export function computePopulationChange(country: Pick<CountryState, "population" | "land" | "buildings" | "governmentType" | "tech">): number {
  const cap = computeHousingCap(country);
  const pop = country.population;
  if (pop < cap) {
    const gov = GOVERNMENTS[country.governmentType].populationGrowthPct;
    const medical = computeTechEffects(country.tech).populationGrowthPct;
    const growth = Math.ceil(((cap - pop) * gov * medical) / (POPULATION_GROWTH_DIVISOR * 100 * 100));
    return Math.min(growth, cap - pop);
  }
  if (pop > cap) return -Math.ceil((pop - cap) / POPULATION_GROWTH_DIVISOR);
  return 0;
}

function lossOf(count: number, pct: number): number {
  return Math.min(count, Math.ceil((count * pct) / 100));
}

/** Runs one turn of the economy. Does not touch turns: the action that spent them did. */
export function runEconomyTurn<T extends CountryState>(country: T): { next: T; effects: EconomicEffects } {
  const effects = emptyEffects();
  const lost: AllUnitCounts = { troops: 0, jets: 0, turrets: 0, tanks: 0, spies: 0 };

  // 1-2. cash
  const taxRevenue = computeTaxRevenue(country);
  const maintenance = computeBuildingMaintenance(country.buildings, country.governmentType);
  const upkeep = computeMilitaryUpkeep(country);
  const expenses = maintenance + upkeep;
  const available = country.cash + taxRevenue;
  let cash: number;
  if (available >= expenses) {
    cash = available - expenses;
  } else {
    // bankruptcy: pay what there is; unpaid soldiers desert
    cash = 0;
    effects.unpaidExpenses = expenses - available;
    effects.bankruptTurns = 1;
    for (const u of UNIT_TYPES) lost[u] += lossOf(country[u], BANKRUPTCY_DESERTION_PCT);
  }

  // 3. food
  const foodProduced = computeFoodProduced(country);
  const foodDemand = computeFoodDemand(country);
  const foodAvailable = country.food + foodProduced;
  const starving = foodAvailable < foodDemand;
  const food = starving ? 0 : foodAvailable - foodDemand;
  let population = country.population;
  if (starving) {
    effects.starvingTurns = 1;
    population -= lossOf(population, STARVATION_LOSS_PCT);
    lost.troops += lossOf(country.troops - lost.troops, STARVATION_LOSS_PCT);
  }

  // 4. oil
  const oilProduced = computeOilProduced(country);
  const oilDemand = computeOilDemand(country);
  const oilAvailable = country.oil + oilProduced;
  const fuel = oilAvailable >= oilDemand;
  const oil = fuel ? oilAvailable - oilDemand : 0;
  if (!fuel) effects.oilShortageTurns = 1;

  // 5. production
  const produced = computeUnitProduction(country, fuel);

  // 6. population (growth toward the cap is suspended while starving; decline above it is not)
  const change = computePopulationChange({ ...country, population });
  if (!starving || change < 0) population += change;

  // 7. research
  const researchPointsGained = computeResearchPointsPerTurn(country);

  const next: T = {
    ...country,
    cash,
    food,
    oil,
    population,
    troops: country.troops - lost.troops + produced.troops,
    jets: country.jets - lost.jets + produced.jets,
    turrets: country.turrets - lost.turrets + produced.turrets,
    tanks: country.tanks - lost.tanks + produced.tanks,
    spies: country.spies - lost.spies,
    researchPoints: country.researchPoints + researchPointsGained,
  };

  effects.taxRevenue = taxRevenue;
  effects.expenses = expenses;
  effects.maintenanceCosts = maintenance;
  effects.militaryUpkeep = upkeep;
  effects.netCashChange = cash - country.cash;
  effects.foodProduced = foodProduced;
  effects.foodConsumed = Math.min(foodDemand, foodAvailable);
  effects.netFoodChange = food - country.food;
  effects.oilProduced = oilProduced;
  effects.oilConsumed = Math.min(oilDemand, oilAvailable);
  effects.netOilChange = oil - country.oil;
  effects.populationChange = population - country.population;
  effects.productionBonus = computeProductionBonusPct(country);
  effects.researchPointsGained = researchPointsGained;
  effects.militaryProduced = produced;
  effects.unitsLost = lost;
  return { next, effects };
}

/** Adds `b` into `a` (productionBonus takes b's value: it is a rate, not an amount). */
export function addEffects(a: EconomicEffects, b: EconomicEffects): EconomicEffects {
  const sum = emptyEffects();
  for (const key of Object.keys(sum) as (keyof EconomicEffects)[]) {
    const x = a[key];
    const y = b[key];
    if (typeof x === "number" && typeof y === "number") (sum as unknown as Record<string, number>)[key] = x + y;
  }
  for (const u of Object.keys(sum.militaryProduced) as (keyof UnitCounts)[]) sum.militaryProduced[u] = a.militaryProduced[u] + b.militaryProduced[u];
  for (const u of UNIT_TYPES) sum.unitsLost[u] = a.unitsLost[u] + b.unitsLost[u];
  sum.productionBonus = b.productionBonus;
  return sum;
}

/** Runs `n` turns of the economy one after another and sums their effects. */
export function runEconomyTurns<T extends CountryState>(country: T, n: number): { next: T; effects: EconomicEffects } {
  let next = country;
  let effects = emptyEffects();
  for (let i = 0; i < n; i++) {
    const turn = runEconomyTurn(next);
    next = turn.next;
    effects = addEffects(effects, turn.effects);
  }
  return { next, effects };
}

/** GET /production/status's productionPerTurn: net flows of one turn (may be negative). */
export interface ProductionPerTurn {
  /** dollars: income - maintenance - upkeep */
  cash: number;
  /** bushels: produced - eaten */
  food: number;
  /** barrels: produced - burnt */
  oil: number;
  troops: number;
  jets: number;
  tanks: number;
  turrets: number;
}

/** Where a turn's cash comes from and goes (dollars per turn). */
export interface CashFlowPerTurn {
  taxes: number;
  buildingMaintenance: number;
  militaryUpkeep: number;
  /** the wars the country declared: $10 per target acre each (its allies may carry part) */
  wars: number;
  /** taxes - maintenance - upkeep - wars */
  net: number;
}

/**
 * A turn's cash flow, the wars included: the advisor, the overview and the turn's economy read
 * the same numbers (issue 30: the advisor said "Growing +$514/turn" while a $950/turn war
 * drained the treasury). `warCostPerTurn` is the sum of the country's declared wars' cost per turn.
 */
export function computeCashFlowPerTurn(country: CountryState, warCostPerTurn = 0): CashFlowPerTurn {
  const taxes = computeTaxRevenue(country);
  const buildingMaintenance = computeBuildingMaintenance(country.buildings, country.governmentType);
  const militaryUpkeep = computeMilitaryUpkeep(country);
  const wars = Math.max(0, warCostPerTurn);
  return { taxes, buildingMaintenance, militaryUpkeep, wars, net: taxes - buildingMaintenance - militaryUpkeep - wars };
}

/** Net production per turn at the country's current size, before shortages. */
export function computeProductionPerTurn(country: CountryState): ProductionPerTurn {
  const units = computeUnitProduction(country, country.oil + computeOilProduced(country) >= computeOilDemand(country));
  return {
    cash: computeTaxRevenue(country) - computeBuildingMaintenance(country.buildings, country.governmentType) - computeMilitaryUpkeep(country),
    food: computeFoodProduced(country) - computeFoodDemand(country),
    oil: computeOilProduced(country) - computeOilDemand(country),
    troops: units.troops,
    jets: units.jets,
    tanks: units.tanks,
    turrets: units.turrets,
  };
}

/** GET /buildings/production's productionRates: housing cap, food and oil per turn. */
export function computeBuildingProductionRates(country: CountryState): {
  population: { total: number };
  food: { total: number };
  oil: { total: number };
} {
  return {
    population: { total: computeHousingCap(country) },
    food: { total: computeFoodProduced(country) },
    oil: { total: computeOilProduced(country) },
  };
}

// ---------------------------------------------------------------------------------------
// Whole actions: the action, then one economy turn per turn spent

/** Explore for `turns` turns, then run the economy for each (call checkExploration first). */
export function performExploration<T extends CountryState>(country: T, turns: number): { next: T; quote: ExplorationQuote; effects: EconomicEffects } {
  const explored = applyExploration(country, turns);
  const run = runEconomyTurns(explored.next, turns);
  return { next: run.next, quote: explored.quote, effects: run.effects };
}

/**
 * Build the order, then run the economy for the turns it takes, with the new buildings
 * already working (call checkConstruction first).
 */
export function performConstruction<T extends CountryState>(country: T, order: ConstructionOrder): { next: T; quote: ConstructionQuote; effects: EconomicEffects } {
  const built = applyConstruction(country, order);
  const run = runEconomyTurns(built.next, built.quote.turns);
  return { next: run.next, quote: built.quote, effects: run.effects };
}

/** Whether POST /production/process may spend `turns` turns (1..min(available, 50)). */
export function checkProcessTurns(country: Pick<CountryState, "turns">, turns: number): RuleRejection | null {
  return checkTurnQuantity(country.turns, turns, "production");
}

/** Spend `turns` turns doing nothing but running the economy (POST /production/process). */
export function performProduction<T extends CountryState>(country: T, turns: number): { next: T; effects: EconomicEffects } {
  return runEconomyTurns({ ...country, turns: country.turns - turns }, turns);
}
