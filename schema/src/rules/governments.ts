import type { GovernmentType, TechnologyId } from "./country.js";
import { GOVERNMENT_TYPES } from "./country.js";

/**
 * The eight governments and every bonus the spec lists (document 1 section 9, document 2
 * section 9, document 3 section 9).
 *
 * Multipliers are stored as integer percents (100 = no change) so that rules can compute
 * `Math.floor(value * pct / 100)` on integers without floating-point drift (1.15 is not exact
 * in binary). The research-cost multipliers (`techBonuses`) are kept in the spec's own form
 * (1.845, 0.7, ...) because the API returns them as multipliers; rules convert them to
 * thousandths with `techBonusMilli`.
 *
 * Readings chosen where the spec gives two (docs/rules.md, "Governments"):
 * - Republic: tax +12% (country-management table) rather than "income +10%" (older list).
 * - "Construction +X%": theocracy (+40%) and dictatorship (-30%) are the buildings-per-turn
 *   factor of the spec's formula (1.4 / 0.7). The formula says "otherwise 1", so monarchy's
 *   +20% and republic's +10% are applied as a construction cost discount (x0.8, x0.9).
 * - Republic exploration +20% acres is already inside the republic land-size table (54 = 45 x
 *   1.2); `explorationAcresPct` records it and is not applied a second time.
 * - Theocracy "-20% military costs" lowers the price of military units bought from the
 *   government store (`militaryPurchaseCostPct`); its "+5% upkeep" raises unit upkeep.
 */
export interface GovernmentDefinition {
  id: GovernmentType;
  name: string;
  description: string;
  /** tax income, percent. @default 100 */
  taxPct: number;
  /** research points gained per turn, percent. @default 100 */
  researchPct: number;
  /** population growth toward the housing cap, percent (growth only, not decline). @default 100 */
  populationGrowthPct: number;
  /** military unit upkeep, percent. @default 100 */
  militaryUpkeepPct: number;
  /** building maintenance, percent. @default 100 */
  buildingMaintenancePct: number;
  /** military unit production from industrial complexes, percent. @default 100 */
  unitProductionPct: number;
  /** farm food output, percent. @default 100 */
  foodProductionPct: number;
  /** oil rig output, percent. @default 100 */
  oilProductionPct: number;
  /** buildings-per-turn factor of the construction formula, percent. @default 100 */
  buildingsPerTurnPct: number;
  /** building purchase price, percent. @default 100 */
  constructionCostPct: number;
  /** acres explored per turn, percent; informative, already inside the republic table. @default 100 */
  explorationAcresPct: number;
  /** exploration cost per acre, percent. @default 100 */
  explorationCostPct: number;
  /** spy operation force multiplier, percent (spec: tyranny 1.5 ... democracy 0.8, unknown 1). @default 100 */
  spyPct: number;
  /** military strength multiplier, percent (spec: 1 + 0.5 dictatorship, 0.8 tyranny, 0.1 monarchy). @default 100 */
  strengthPct: number;
  /** price of military units bought from the government store, percent. @default 100 */
  militaryPurchaseCostPct: number;
  /**
   * Research category multipliers: a technology's cost is divided by these (greater is
   * cheaper). Monarchy's table is the spec's; democracy, theocracy and republic keep the
   * spec's agricultural values (2.3, 2.43, 1.845) and the rest is designed; the other four
   * governments have none in the spec and use 1.
   */
  techBonuses: Record<TechnologyId, number>;
  /** the bonuses as the player reads them */
  bonusText: readonly string[];
}

const NEUTRAL_TECH_BONUSES: Record<TechnologyId, number> = {
  military: 1,
  medical: 1,
  business: 1,
  residential: 1,
  agricultural: 1,
  warfare: 1,
  military_strategy: 1,
  weapons: 1,
  industrial: 1,
  spy: 1,
  sdi: 1,
};

const NEUTRAL = {
  taxPct: 100,
  researchPct: 100,
  populationGrowthPct: 100,
  militaryUpkeepPct: 100,
  buildingMaintenancePct: 100,
  unitProductionPct: 100,
  foodProductionPct: 100,
  oilProductionPct: 100,
  buildingsPerTurnPct: 100,
  constructionCostPct: 100,
  explorationAcresPct: 100,
  explorationCostPct: 100,
  spyPct: 100,
  strengthPct: 100,
  militaryPurchaseCostPct: 100,
} as const;

/** Every government, keyed by id. */
export const GOVERNMENTS: Readonly<Record<GovernmentType, GovernmentDefinition>> = {
  democracy: {
    ...NEUTRAL,
    id: "democracy",
    name: "Democracy",
    description: "Free citizens: faster research and growth, but an army that costs more to keep.",
    researchPct: 115, // research +15%
    populationGrowthPct: 110, // population growth +10%
    militaryUpkeepPct: 110, // military upkeep +10%
    spyPct: 80, // spy multiplier 0.8
    // agricultural 2.3 is the spec's; the rest is designed: a civilian, trading society
    techBonuses: {
      military: 0.9,
      medical: 1.8,
      business: 2,
      residential: 1.8,
      agricultural: 2.3,
      warfare: 0.7,
      military_strategy: 0.9,
      weapons: 0.8,
      industrial: 1.5,
      spy: 0.8,
      sdi: 1.2,
    },
    bonusText: ["Research +15%", "Population growth +10%", "Military upkeep +10%", "Spy operations x0.8"],
  },
  republic: {
    ...NEUTRAL,
    id: "republic",
    name: "Republic",
    description: "Explorers and traders: more acres, cheaper land, higher taxes.",
    taxPct: 112, // tax +12% (chosen over the older "income +10%")
    constructionCostPct: 90, // construction +10% read as a 10% cheaper building
    explorationAcresPct: 120, // +20% acres, already inside the republic table
    explorationCostPct: 90, // exploration cost -10%
    militaryUpkeepPct: 105, // upkeep +5%
    spyPct: 90, // spy multiplier 0.9
    // agricultural 1.845 is the spec's; the rest is designed: balanced, mildly civilian
    techBonuses: {
      military: 1,
      medical: 1.4,
      business: 1.8,
      residential: 1.5,
      agricultural: 1.845,
      warfare: 0.9,
      military_strategy: 1,
      weapons: 1,
      industrial: 1.6,
      spy: 1,
      sdi: 1.1,
    },
    bonusText: ["Tax +12%", "Construction cost -10%", "Exploration +20% acres", "Exploration cost -10%", "Military upkeep +5%", "Spy operations x0.9"],
  },
  monarchy: {
    ...NEUTRAL,
    id: "monarchy",
    name: "Monarchy",
    description: "A crown that builds: cheaper construction, cheaper army, strong agriculture research.",
    constructionCostPct: 80, // construction +20% read as a 20% cheaper building
    militaryUpkeepPct: 90, // military upkeep -10%
    strengthPct: 110, // strength 1 + 0.1
    spyPct: 100, // spy multiplier 1
    // the spec's table, word for word
    techBonuses: {
      military: 1.1,
      medical: 0.7,
      business: 1.2,
      residential: 1.4,
      agricultural: 1.6,
      warfare: 0.1,
      military_strategy: 1.5,
      weapons: 2,
      industrial: 1.3,
      spy: 1.2,
      sdi: 0.8,
    },
    bonusText: ["Construction cost -20%", "Military upkeep -10%", "Military strength +10%"],
  },
  dictatorship: {
    ...NEUTRAL,
    id: "dictatorship",
    name: "Dictatorship",
    description: "Iron rule: strong cheap armies, slow construction.",
    unitProductionPct: 115, // military production +15%
    militaryUpkeepPct: 90, // upkeep -10%
    buildingsPerTurnPct: 70, // construction -30% = buildings-per-turn factor 0.7
    buildingMaintenancePct: 105, // maintenance +5%
    strengthPct: 150, // strength 1 + 0.5
    spyPct: 130, // spy multiplier 1.3
    techBonuses: NEUTRAL_TECH_BONUSES,
    bonusText: ["Military production +15%", "Military upkeep -10%", "Construction -30% (buildings per turn x0.7)", "Building maintenance +5%", "Military strength +50%", "Spy operations x1.3"],
  },
  tyranny: {
    ...NEUTRAL,
    id: "tyranny",
    name: "Tyranny",
    description: "Fear and factories: the strongest army and spies.",
    unitProductionPct: 120, // military production +20%
    militaryUpkeepPct: 85, // upkeep -15%
    buildingMaintenancePct: 90, // maintenance -10%
    strengthPct: 180, // strength 1 + 0.8
    spyPct: 150, // spy multiplier 1.5
    techBonuses: NEUTRAL_TECH_BONUSES,
    bonusText: ["Military production +20%", "Military upkeep -15%", "Building maintenance -10%", "Military strength +80%", "Spy operations x1.5"],
  },
  fascism: {
    ...NEUTRAL,
    id: "fascism",
    name: "Fascism",
    description: "A war economy: far more oil, more food, a cheaper army.",
    oilProductionPct: 175, // oil +75%
    foodProductionPct: 115, // food +15%
    militaryUpkeepPct: 80, // upkeep -20%
    spyPct: 100, // not listed: unknown governments use 1
    techBonuses: NEUTRAL_TECH_BONUSES,
    bonusText: ["Oil production +75%", "Food production +15%", "Military upkeep -20%"],
  },
  theocracy: {
    ...NEUTRAL,
    id: "theocracy",
    name: "Theocracy",
    description: "Faith builds fast and studies hard; its soldiers are cheap to buy.",
    buildingsPerTurnPct: 140, // construction +40% = buildings-per-turn factor 1.4
    researchPct: 112, // research +12%
    buildingMaintenancePct: 85, // maintenance -15%
    militaryUpkeepPct: 105, // upkeep +5%
    militaryPurchaseCostPct: 80, // military costs -20%
    spyPct: 110, // spy multiplier 1.1
    // agricultural 2.43 is the spec's; the rest is designed: scholarly, medical, vigilant
    techBonuses: {
      military: 1.1,
      medical: 2,
      business: 1.1,
      residential: 1.6,
      agricultural: 2.43,
      warfare: 1,
      military_strategy: 1.2,
      weapons: 1,
      industrial: 1,
      spy: 1.3,
      sdi: 1,
    },
    bonusText: ["Construction +40% (buildings per turn x1.4)", "Research +12%", "Building maintenance -15%", "Military upkeep +5%", "Military unit purchases -20%", "Spy operations x1.1"],
  },
  communism: {
    ...NEUTRAL,
    id: "communism",
    name: "Communism",
    description: "The state plans: industrial military output, research and growth.",
    unitProductionPct: 135, // industrial military production +35%
    researchPct: 120, // research +20%
    populationGrowthPct: 108, // population +8%
    militaryUpkeepPct: 88, // upkeep -12%
    spyPct: 100, // not listed: unknown governments use 1
    techBonuses: NEUTRAL_TECH_BONUSES,
    bonusText: ["Military production +35%", "Research +20%", "Population growth +8%", "Military upkeep -12%"],
  },
};

/** The governments in the spec's order, for lists and selectors. */
export const GOVERNMENT_LIST: readonly GovernmentDefinition[] = GOVERNMENT_TYPES.map((id) => GOVERNMENTS[id]);

/** The definition of a government. */
export function getGovernment(type: GovernmentType): GovernmentDefinition {
  return GOVERNMENTS[type];
}

/** A government's research multiplier for a category, in thousandths (1.845 -> 1845). */
export function techBonusMilli(type: GovernmentType, tech: TechnologyId): number {
  return Math.round(GOVERNMENTS[type].techBonuses[tech] * 1000);
}

/**
 * `value x pct / 100`, floored. For integer `value` and `pct` the product is exact, so the
 * result never suffers from floating-point drift.
 */
export function floorPct(value: number, pct: number): number {
  return Math.floor((value * pct) / 100);
}

/** `value x pct / 100`, rounded up (expenses: the country never gains from rounding). */
export function ceilPct(value: number, pct: number): number {
  return Math.ceil((value * pct) / 100);
}
