import type { BuildingCounts, BuildingType, CountryState, GovernmentType, RuleRejection } from "./country.js";
import { BUILDING_TYPES, reject } from "./country.js";
import { GOVERNMENTS, ceilPct } from "./governments.js";

/**
 * Business income per enterprise zone per turn (dollars; designed, issue 27: was 200). With the
 * farm's spec figures (5.3 bushels sold at 29 for 50 of maintenance on 1,500) a farm returned
 * 6.9% of its price a turn and an enterprise zone 4.0% (200 - 100 on 2,500), so the cheapest
 * building per acre was also the best investment and the farm-heavy style led every season by
 * 27-46%. At 300 a zone would return 8.0% (docs/balance.md "Issue 27, second stop"); that change
 * is not in force: it made the AI's raiders build instead of attack, and the simulator had not
 * yet shown it balances the styles.
 */
export const ENTERPRISE_ZONE_INCOME = 200;
/**
 * Extra people housed per residence (designed, issue 27: was 200). At 200 a full residence
 * returned 3.3% of its price a turn after feeding its people (200 tax - 75 - 2 bushels at the
 * store's 29), and only once filled; at 300 it would be 6.9% (300 - 75 - 87 on 2,000), level with
 * a farm (proposed, not in force: see ENTERPRISE_ZONE_INCOME).
 */
export const HOUSING_PER_RESIDENCE = 200;

/** Building categories of the spec's table. */
export type BuildingCategory = "Commercial" | "Residential" | "Industrial" | "Military" | "Research" | "Food Production" | "Infrastructure";

/** One row of the spec's building table. */
export interface BuildingDefinition {
  id: BuildingType;
  name: string;
  category: BuildingCategory;
  /** purchase price before government bonuses, dollars */
  cost: number;
  /** acres used per building */
  land: number;
  /** turns the construction takes */
  turns: number;
  /** upkeep per building per turn before government bonuses, dollars */
  maintenance: number;
  /** what it does, as docs/rules.md designs it */
  effect: string;
}

/**
 * The spec's eight building types (document 1, section 3), in its order. Oil rigs use 3
 * acres: the buildings screen (where construction happens) says 3, the land screen 2; we keep
 * the buildings screen's figure so land used and land charged agree (docs/rules.md).
 */
export const BUILDING_DEFINITIONS: Readonly<Record<BuildingType, BuildingDefinition>> = {
  enterprise_zones: {
    id: "enterprise_zones",
    name: "Enterprise Zones",
    category: "Commercial",
    cost: 2500,
    land: 1,
    turns: 1,
    maintenance: 100,
    effect: `+${ENTERPRISE_ZONE_INCOME} dollars of business income per turn`,
  },
  residences: {
    id: "residences",
    name: "Residences",
    category: "Residential",
    cost: 2000,
    land: 1,
    turns: 1,
    maintenance: 75,
    effect: `Houses ${HOUSING_PER_RESIDENCE} more people`,
  },
  industrial_complexes: {
    id: "industrial_complexes",
    name: "Industrial Complexes",
    category: "Industrial",
    cost: 5000,
    land: 3,
    turns: 2,
    maintenance: 250,
    effect: "Produces military units: 25 units of capacity per turn, split by the production allocation",
  },
  military_bases: {
    id: "military_bases",
    name: "Military Bases",
    category: "Military",
    cost: 4000,
    land: 2,
    turns: 1,
    maintenance: 200,
    effect: "-4% military upkeep each, up to -40%",
  },
  research_labs: {
    id: "research_labs",
    name: "Research Labs",
    category: "Research",
    cost: 3000,
    land: 1,
    turns: 1,
    maintenance: 150,
    effect: "+100 research points per turn",
  },
  farms: {
    id: "farms",
    name: "Farms",
    category: "Food Production",
    cost: 1500,
    land: 2,
    turns: 1,
    maintenance: 50,
    effect: "+5.3 bushels of food per turn",
  },
  oil_rigs: {
    id: "oil_rigs",
    name: "Oil Rigs",
    category: "Infrastructure",
    cost: 8000,
    land: 3,
    turns: 2,
    maintenance: 300,
    effect: "+2 barrels of oil per turn",
  },
  construction_sites: {
    id: "construction_sites",
    name: "Construction Sites",
    category: "Infrastructure",
    cost: 1000,
    land: 1,
    turns: 1,
    maintenance: 25,
    effect: "Every 4 sites add 1 building per turn of construction capacity",
  },
};

/** Construction sites per extra building of capacity per turn. */
export const CONSTRUCTION_SITES_PER_CAPACITY = 4;
/** Most construction sites one construction action may build (spec: 'Max 1 Construction Site per turn'). */
export const MAX_CONSTRUCTION_SITES_PER_ACTION = 1;

/** Buildings per construction order, keyed by building type id (missing = 0). */
export type ConstructionOrder = Partial<Record<BuildingType, number>>;

/**
 * Regular (non-construction-site) buildings one action may build:
 * floor((1 + floor(constructionSites / 4)) x factor), factor 1.4 theocracy, 0.7 dictatorship,
 * 1 otherwise. A dictatorship with fewer than 4 sites therefore builds 0 regular buildings per
 * action (floor(0.7) = 0) and must start with construction sites, which the cap never counts.
 */
export function computeBuildingsPerTurn(constructionSites: number, governmentType: GovernmentType): number {
  const base = 1 + Math.floor(constructionSites / CONSTRUCTION_SITES_PER_CAPACITY);
  return Math.floor((base * GOVERNMENTS[governmentType].buildingsPerTurnPct) / 100);
}

/** Acres occupied by buildings. */
export function computeLandUsed(buildings: BuildingCounts): number {
  return BUILDING_TYPES.reduce((sum, type) => sum + buildings[type] * BUILDING_DEFINITIONS[type].land, 0);
}

/** Acres not occupied by buildings (never below 0). */
export function computeFreeLand(country: Pick<CountryState, "land" | "buildings">): number {
  return Math.max(0, country.land - computeLandUsed(country.buildings));
}

/**
 * Price of one building for a government, in dollars: the table's cost x constructionCostPct
 * (monarchy 80%, republic 90%, others 100%), rounded up.
 */
export function computeBuildingCost(type: BuildingType, governmentType: GovernmentType): number {
  return ceilPct(BUILDING_DEFINITIONS[type].cost, GOVERNMENTS[governmentType].constructionCostPct);
}

/**
 * Building maintenance per turn, in dollars: the sum of count x maintenance over the eight
 * types, x the government's maintenance percent, rounded up.
 */
export function computeBuildingMaintenance(buildings: BuildingCounts, governmentType: GovernmentType): number {
  const raw = BUILDING_TYPES.reduce((sum, type) => sum + buildings[type] * BUILDING_DEFINITIONS[type].maintenance, 0);
  return ceilPct(raw, GOVERNMENTS[governmentType].buildingMaintenancePct);
}

/**
 * Upkeep of one building per turn for a government, in dollars: the table's maintenance x the
 * government's maintenance percent, not rounded (the total is rounded once, by
 * computeBuildingMaintenance), so 75 x 90% shows as 67.5.
 */
export function computeBuildingUpkeep(type: BuildingType, governmentType: GovernmentType): number {
  return (BUILDING_DEFINITIONS[type].maintenance * GOVERNMENTS[governmentType].buildingMaintenancePct) / 100;
}

/** Total number of buildings owned. */
export function countBuildings(buildings: BuildingCounts): number {
  return BUILDING_TYPES.reduce((sum, type) => sum + buildings[type], 0);
}

/** A building type's price list row for a given country (GET /buildings/costs). */
export interface BuildingCostRow {
  id: BuildingType;
  name: string;
  category: BuildingCategory;
  /** dollars, after government bonus */
  cost: number;
  land: number;
  turns: number;
  /** dollars per turn per building, after government bonus (not rounded per building) */
  maintenance: number;
  owned: number;
}

/** The building price list as this country pays it, plus capacity and free land. */
export function computeBuildingCosts(country: Pick<CountryState, "governmentType" | "buildings" | "land">): {
  buildings: BuildingCostRow[];
  buildingsPerTurn: number;
  freeLand: number;
  landUsed: number;
} {
  return {
    buildings: BUILDING_TYPES.map((id) => {
      const def = BUILDING_DEFINITIONS[id];
      return {
        id,
        name: def.name,
        category: def.category,
        cost: computeBuildingCost(id, country.governmentType),
        land: def.land,
        turns: def.turns,
        maintenance: computeBuildingUpkeep(id, country.governmentType),
        owned: country.buildings[id],
      };
    }),
    buildingsPerTurn: computeBuildingsPerTurn(country.buildings.construction_sites, country.governmentType),
    freeLand: computeFreeLand(country),
    landUsed: computeLandUsed(country.buildings),
  };
}

/** What a construction order needs. */
export interface ConstructionQuote {
  /** dollars */
  cost: number;
  /** acres */
  land: number;
  /**
   * Turns the order takes: the longest construction time among the ordered types (an order
   * always fits one turn's capacity, and the types build side by side).
   */
  turns: number;
  /** non-construction-site buildings in the order */
  regularBuildings: number;
  constructionSites: number;
  /** regular buildings allowed per action */
  capacity: number;
}

function quantityOf(order: ConstructionOrder, type: BuildingType): number {
  return order[type] ?? 0;
}

/** Cost, land and turns of a construction order for this country (no validation). */
export function computeConstruction(country: Pick<CountryState, "governmentType" | "buildings">, order: ConstructionOrder): ConstructionQuote {
  let cost = 0;
  let land = 0;
  let turns = 0;
  let regularBuildings = 0;
  for (const type of BUILDING_TYPES) {
    const q = quantityOf(order, type);
    if (q <= 0) continue;
    const def = BUILDING_DEFINITIONS[type];
    cost += q * computeBuildingCost(type, country.governmentType);
    land += q * def.land;
    turns = Math.max(turns, def.turns);
    if (type !== "construction_sites") regularBuildings += q;
  }
  return {
    cost,
    land,
    turns,
    regularBuildings,
    constructionSites: quantityOf(order, "construction_sites"),
    capacity: computeBuildingsPerTurn(country.buildings.construction_sites, country.governmentType),
  };
}

/**
 * Whether the order may be built, in the spec's order of checks: known types, quantities
 * whole and never negative, something to build, at most 1 construction site ('Max 1
 * Construction Site per turn'), regular buildings within capacity ('Exceeds regular building
 * capacity'), then cost within cash, land within free land and turns within available turns
 * (each 'Insufficient resources', told apart by code).
 */
export function checkConstruction(country: Pick<CountryState, "governmentType" | "buildings" | "land" | "cash" | "turns">, order: Partial<Record<string, number>>): RuleRejection | null {
  for (const [type, quantity] of Object.entries(order)) {
    if (!(BUILDING_TYPES as readonly string[]).includes(type)) {
      return reject("buildings/unknown_type", `Unknown building type: ${type}`);
    }
    if (typeof quantity !== "number" || !Number.isSafeInteger(quantity)) {
      return reject("buildings/invalid_quantity", "Quantity must be a whole number");
    }
    if (quantity < 0) return reject("buildings/negative_quantity", "Quantity cannot be negative");
  }
  const typed = order as ConstructionOrder;
  const quote = computeConstruction(country, typed);
  if (quote.regularBuildings + quote.constructionSites === 0) {
    return reject("buildings/nothing_to_build", "Nothing to build");
  }
  if (quote.constructionSites > MAX_CONSTRUCTION_SITES_PER_ACTION) {
    return reject("buildings/max_construction_sites", "Max 1 Construction Site per turn");
  }
  if (quote.regularBuildings > quote.capacity) {
    return reject("buildings/exceeds_capacity", "Exceeds regular building capacity");
  }
  // the spec's 'Insufficient resources', then which resource and how much more is needed
  if (quote.cost > country.cash) {
    return reject("buildings/insufficient_cash", `Insufficient resources: cash. Need $${(quote.cost - country.cash).toLocaleString("en-US")} more.`);
  }
  const free = computeFreeLand(country);
  if (quote.land > free) {
    const more = quote.land - free;
    return reject("buildings/insufficient_land", `Insufficient resources: free land. Need ${more.toLocaleString("en-US")} more ${more === 1 ? "acre" : "acres"}.`);
  }
  if (quote.turns > country.turns) {
    return reject("buildings/insufficient_turns", `Insufficient resources: turns. Need ${quote.turns}, have ${country.turns}.`);
  }
  return null;
}

/**
 * The most buildings of `type` that still fit beside the rest of `order` (its other types'
 * positive whole quantities): capacity (MAX_CONSTRUCTION_SITES_PER_ACTION for construction
 * sites, the regular capacity left otherwise), cash, free land, and the type's own
 * construction turns. When the rest of the order is acceptable, setting `type` to this
 * keeps it acceptable to checkConstruction and one more is refused. The buildings screen's
 * "Max" button.
 */
export function computeMaxBuildable(country: Pick<CountryState, "governmentType" | "buildings" | "land" | "cash" | "turns">, order: Partial<Record<string, number>>, type: BuildingType): number {
  const others: ConstructionOrder = {};
  for (const t of BUILDING_TYPES) {
    const q = order[t];
    if (t !== type && typeof q === "number" && Number.isSafeInteger(q) && q > 0) others[t] = q;
  }
  const def = BUILDING_DEFINITIONS[type];
  const quote = computeConstruction(country, others);
  if (def.turns > country.turns) return 0;
  const byCash = Math.floor((country.cash - quote.cost) / computeBuildingCost(type, country.governmentType));
  const byLand = Math.floor((computeFreeLand(country) - quote.land) / def.land);
  const byCapacity = type === "construction_sites" ? MAX_CONSTRUCTION_SITES_PER_ACTION : quote.capacity - quote.regularBuildings;
  return Math.max(0, Math.min(byCash, byLand, byCapacity));
}

/**
 * Builds the order: pays the cost, spends the turns, adds the buildings (call
 * checkConstruction first). Does not run the economy; `performConstruction` (economy.ts) does
 * both, buildings first so they work during the turns spent.
 */
export function applyConstruction<T extends CountryState>(country: T, order: ConstructionOrder): { next: T; quote: ConstructionQuote } {
  const quote = computeConstruction(country, order);
  const buildings = { ...country.buildings };
  for (const type of BUILDING_TYPES) buildings[type] += Math.max(0, quantityOf(order, type));
  return {
    next: { ...country, buildings, cash: country.cash - quote.cost, turns: country.turns - quote.turns },
    quote,
  };
}
