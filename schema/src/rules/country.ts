/**
 * The country as the pure rules see it: plain integers, no IO. The server maps its
 * Postgres row to this shape (server/src/db/countries.ts) and back.
 */

/** The eight government types of the spec (fascism is kept; later shell screens list seven). */
export const GOVERNMENT_TYPES = ["democracy", "republic", "monarchy", "dictatorship", "tyranny", "fascism", "theocracy", "communism"] as const;
export type GovernmentType = (typeof GOVERNMENT_TYPES)[number];

/** Building type ids of the spec's building table, in the table's order. */
export const BUILDING_TYPES = ["enterprise_zones", "residences", "industrial_complexes", "military_bases", "research_labs", "farms", "oil_rigs", "construction_sites"] as const;
export type BuildingType = (typeof BUILDING_TYPES)[number];

/** Owned buildings, keyed by building type id. */
export type BuildingCounts = Record<BuildingType, number>;

/**
 * The eleven research categories of the spec (document 3, section 9), as ids, in the spec's
 * order. The country stores a level for each (column `<id>_tech`); see research.ts.
 */
export const TECHNOLOGY_IDS = ["military", "medical", "business", "residential", "agricultural", "warfare", "military_strategy", "weapons", "industrial", "spy", "sdi"] as const;
export type TechnologyId = (typeof TECHNOLOGY_IDS)[number];

/** The country's technology levels, one per research category (0 = not researched). */
export type TechLevels = Record<TechnologyId, number>;

/** Every technology at level 0 (a new country's levels). */
export function emptyTechLevels(): TechLevels {
  return {
    military: 0,
    medical: 0,
    business: 0,
    residential: 0,
    agricultural: 0,
    warfare: 0,
    military_strategy: 0,
    weapons: 0,
    industrial: 0,
    spy: 0,
    sdi: 0,
  };
}

/** Military units a country holds. Missiles are counted separately (they are not produced). */
export const UNIT_TYPES = ["troops", "jets", "turrets", "tanks", "spies"] as const;
export type UnitType = (typeof UNIT_TYPES)[number];

/** Unit production split, percent per produced unit type; must total exactly 100. */
export interface UnitAllocation {
  troops: number;
  jets: number;
  turrets: number;
  tanks: number;
}

/** Everything the economy rules read and write. Every number is an integer >= 0. */
export interface CountryState {
  governmentType: GovernmentType;
  /** dollars */
  cash: number;
  /** bushels */
  food: number;
  /** barrels */
  oil: number;
  /** acres */
  land: number;
  /** people */
  population: number;
  troops: number;
  jets: number;
  turrets: number;
  tanks: number;
  spies: number;
  missiles: number;
  /** available turns, 0..MAX_TURNS */
  turns: number;
  /** stored turns, 0..MAX_STORED_TURNS */
  storedTurns: number;
  buildings: BuildingCounts;
  tech: TechLevels;
  /** unspent research points */
  researchPoints: number;
  unitAllocation: UnitAllocation;
  /**
   * Bonuses from outside the country in force for this action (alliance bonuses, diplomatic
   * relations). Not stored: the economy service sets them before an action; absent: none.
   */
  bonuses?: EconomyBonuses;
}

/** Outside bonuses the economy turn applies, integer percents (docs/rules.md, "Alliances"). */
export interface EconomyBonuses {
  /** research points + percent */
  researchPct: number;
  /** tax income + percent */
  incomePct: number;
}

/** The fixed starting country of the spec's registration payload. */
export const STARTING_RESOURCES = {
  cash: 100_000,
  food: 10_000,
  oil: 100,
  land: 100,
  population: 1_000,
  troops: 100,
  jets: 0,
  turrets: 100,
  tanks: 10,
  spies: 0,
  turns: 100,
} as const;

/** Government at registration: the spec's registration screen shows Monarchy, fixed. */
export const STARTING_GOVERNMENT: GovernmentType = "monarchy";

export const DEFAULT_UNIT_ALLOCATION: UnitAllocation = { troops: 25, jets: 25, turrets: 25, tanks: 25 };

export function emptyBuildings(): BuildingCounts {
  return {
    enterprise_zones: 0,
    residences: 0,
    industrial_complexes: 0,
    military_bases: 0,
    research_labs: 0,
    farms: 0,
    oil_rigs: 0,
    construction_sites: 0,
  };
}

/** The country a new player starts with. */
export function startingCountry(): CountryState {
  return {
    governmentType: STARTING_GOVERNMENT,
    ...STARTING_RESOURCES,
    missiles: 0,
    storedTurns: 0,
    buildings: emptyBuildings(),
    tech: emptyTechLevels(),
    researchPoints: 0,
    unitAllocation: { ...DEFAULT_UNIT_ALLOCATION },
  };
}

/**
 * A rule's refusal: a namespaced code for programs and the spec's message for people.
 * Every `check*` function returns this or null.
 */
export interface RuleRejection {
  /** "namespace/code", e.g. "exploration/insufficient_funds" */
  code: string;
  /** the user-visible message, word for word from the spec where it gives one */
  message: string;
}

/** Builds a RuleRejection. */
export function reject(code: string, message: string): RuleRejection {
  return { code, message };
}

/** True when `value` is a whole number >= 0 (what every count in the rules must be). */
export function isNonNegativeInteger(value: unknown): value is number {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0;
}

/** True when `value` is one of the eight government type ids. */
export function isGovernmentType(value: unknown): value is GovernmentType {
  return typeof value === "string" && (GOVERNMENT_TYPES as readonly string[]).includes(value);
}
