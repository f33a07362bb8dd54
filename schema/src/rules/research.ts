import type { CountryState, CountryTechField, GovernmentType, RuleRejection, TechLevels, TechnologyId } from "./country.js";
import { COUNTRY_TECH_FIELDS, TECHNOLOGY_IDS, reject } from "./country.js";
import { GOVERNMENTS, floorPct, techBonusMilli } from "./governments.js";

/** Research points each research lab yields per turn (points). */
export const RESEARCH_POINTS_PER_LAB = 100;

/** One research category. */
export interface TechnologyDefinition {
  id: TechnologyId;
  name: string;
  /** points for level 1, before the government multiplier; level n+1 costs base x (n + 1) */
  baseCost: number;
  maxLevel: number;
  /** technology ids that must be at level 1 or more first */
  prerequisites: readonly TechnologyId[];
  /** the country column holding the level, or null when the country stores no level for it */
  countryField: CountryTechField | null;
  /** what each level does, as the player reads it */
  effects: readonly string[];
}

/**
 * The spec's eleven research categories (document 3, section 9). Base costs, maximum levels,
 * prerequisites and effects are designed (docs/rules.md, "Research"). Only the five categories
 * with a country column (agricultural, business, military, industrial, spy) can be researched
 * and have effects in the rules; the other six are listed, locked, so the screen shows the
 * full tree and a later change can store their levels without reshaping this table.
 */
export const TECHNOLOGIES: Readonly<Record<TechnologyId, TechnologyDefinition>> = {
  military: {
    id: "military",
    name: "Military",
    baseCost: 1000,
    maxLevel: 20,
    prerequisites: [],
    countryField: "military",
    effects: ["+0.5% military strength per level", "Government store: -1% buy price and +1% sell price per level"],
  },
  medical: {
    id: "medical",
    name: "Medical",
    baseCost: 800,
    maxLevel: 10,
    prerequisites: [],
    countryField: null,
    effects: ["Healthier population (not yet stored on the country)"],
  },
  business: {
    id: "business",
    name: "Business",
    baseCost: 1000,
    maxLevel: 20,
    prerequisites: [],
    countryField: "business",
    effects: ["+2% tax income per level"],
  },
  residential: {
    id: "residential",
    name: "Residential",
    baseCost: 800,
    maxLevel: 10,
    prerequisites: ["medical"],
    countryField: null,
    effects: ["Denser housing (not yet stored on the country)"],
  },
  agricultural: {
    id: "agricultural",
    name: "Agricultural",
    baseCost: 800,
    maxLevel: 20,
    prerequisites: [],
    countryField: "agricultural",
    effects: ["+2% farm food production per level"],
  },
  warfare: {
    id: "warfare",
    name: "Warfare",
    baseCost: 1500,
    maxLevel: 10,
    prerequisites: ["military"],
    countryField: null,
    effects: ["Better attack doctrine (not yet stored on the country)"],
  },
  military_strategy: {
    id: "military_strategy",
    name: "Military Strategy",
    baseCost: 1500,
    maxLevel: 10,
    prerequisites: ["military", "warfare"],
    countryField: null,
    effects: ["Better planned strikes (not yet stored on the country)"],
  },
  weapons: {
    id: "weapons",
    name: "Weapons",
    baseCost: 2000,
    maxLevel: 15,
    prerequisites: ["military", "industrial"],
    countryField: null,
    effects: ["Stronger missiles (not yet stored on the country)"],
  },
  industrial: {
    id: "industrial",
    name: "Industrial",
    baseCost: 1200,
    maxLevel: 20,
    prerequisites: ["business"],
    countryField: "industrial",
    effects: ["+2% military unit production per level"],
  },
  spy: {
    id: "spy",
    name: "Spy",
    baseCost: 1000,
    maxLevel: 20,
    prerequisites: [],
    countryField: "spy",
    effects: ["+1% spy operation force per level"],
  },
  sdi: {
    id: "sdi",
    name: "SDI",
    baseCost: 3000,
    maxLevel: 10,
    prerequisites: ["weapons", "military_strategy"],
    countryField: null,
    effects: ["Missile defense (not yet stored on the country)"],
  },
};

/** The categories in the spec's order. */
export const TECHNOLOGY_LIST: readonly TechnologyDefinition[] = TECHNOLOGY_IDS.map((id) => TECHNOLOGIES[id]);

// ---------------------------------------------------------------------------------------
// Per-level effects of the five stored tech levels

/** Farm food output per agricultural level (percent). */
export const AGRICULTURAL_FOOD_PCT_PER_LEVEL = 2;
/** Tax income per business level (percent). */
export const BUSINESS_TAX_PCT_PER_LEVEL = 2;
/** Military unit production per industrial level (percent). */
export const INDUSTRIAL_PRODUCTION_PCT_PER_LEVEL = 2;
/** Military strength per military level (per mille): the spec's "efficiency of half its level in percent". */
export const MILITARY_STRENGTH_PERMILLE_PER_LEVEL = 5;
/** Government store price change per military level (percent): spec, "1% price change per point". */
export const MILITARY_STORE_PRICE_PCT_PER_LEVEL = 1;
/** Spy operation force per spy level (percent): spec, "1 + 0.01 per spy tech level". */
export const SPY_FORCE_PCT_PER_LEVEL = 1;

/** What the country's tech levels do, as multipliers in integer percent or per mille. */
export interface TechEffects {
  /** farm output, percent (100 = none) */
  foodProductionPct: number;
  /** tax income, percent */
  taxPct: number;
  /** military unit production, percent */
  unitProductionPct: number;
  /** military strength, per mille (1000 = none) */
  strengthPermille: number;
  /** store buy discount and sell bonus, percent */
  storePricePct: number;
  /** spy force, percent */
  spyPct: number;
}

/** The effects of a country's five tech levels. */
export function computeTechEffects(tech: TechLevels): TechEffects {
  return {
    foodProductionPct: 100 + AGRICULTURAL_FOOD_PCT_PER_LEVEL * tech.agricultural,
    taxPct: 100 + BUSINESS_TAX_PCT_PER_LEVEL * tech.business,
    unitProductionPct: 100 + INDUSTRIAL_PRODUCTION_PCT_PER_LEVEL * tech.industrial,
    strengthPermille: 1000 + MILITARY_STRENGTH_PERMILLE_PER_LEVEL * tech.military,
    storePricePct: MILITARY_STORE_PRICE_PCT_PER_LEVEL * tech.military,
    spyPct: 100 + SPY_FORCE_PCT_PER_LEVEL * tech.spy,
  };
}

/**
 * The research status's productionBonuses: each stored level's bonus as a fraction
 * (agricultural 0.02 per level on food, business on tax, industrial on units, military on
 * strength, spy on spy force).
 */
export function computeProductionBonuses(tech: TechLevels): Record<CountryTechField, number> {
  return {
    agricultural: (AGRICULTURAL_FOOD_PCT_PER_LEVEL * tech.agricultural) / 100,
    business: (BUSINESS_TAX_PCT_PER_LEVEL * tech.business) / 100,
    military: (MILITARY_STRENGTH_PERMILLE_PER_LEVEL * tech.military) / 1000,
    industrial: (INDUSTRIAL_PRODUCTION_PCT_PER_LEVEL * tech.industrial) / 100,
    spy: (SPY_FORCE_PCT_PER_LEVEL * tech.spy) / 100,
  };
}

// ---------------------------------------------------------------------------------------
// Points, costs, turns

/** Research points per turn: research labs x 100, x the government's research bonus (floored). */
export function computeResearchPointsPerTurn(country: Pick<CountryState, "buildings" | "governmentType">): number {
  return floorPct(country.buildings.research_labs * RESEARCH_POINTS_PER_LAB, GOVERNMENTS[country.governmentType].researchPct);
}

/** A technology's current level on the country (0 for categories the country does not store). */
export function getTechLevel(tech: TechLevels, id: TechnologyId): number {
  const field = TECHNOLOGIES[id].countryField;
  return field ? tech[field] : 0;
}

/**
 * Points to raise `id` from `level` to `level + 1`: base x (level + 1) / the government's
 * category multiplier, rounded up.
 */
export function computeTechnologyCost(id: TechnologyId, level: number, governmentType: GovernmentType): number {
  // base x (level+1) x 1000 / multiplier-in-thousandths keeps 1.845 exact
  return Math.ceil((TECHNOLOGIES[id].baseCost * (level + 1) * 1000) / techBonusMilli(governmentType, id));
}

/** Turns of research for `cost` points: ceil(cost / pointsPerTurn); null with no points per turn. */
export function computeResearchTurns(cost: number, pointsPerTurn: number): number | null {
  if (pointsPerTurn <= 0) return null;
  return Math.ceil(cost / pointsPerTurn);
}

/** The card state of the research screen. */
export type TechnologyState = "maxed" | "available" | "locked";

/** Whether a technology is maxed, available or locked (prerequisites unmet, or not stored). */
export function technologyState(tech: TechLevels, id: TechnologyId): TechnologyState {
  const def = TECHNOLOGIES[id];
  if (def.countryField && tech[def.countryField] >= def.maxLevel) return "maxed";
  if (!def.countryField) return "locked";
  return def.prerequisites.every((p) => getTechLevel(tech, p) >= 1) ? "available" : "locked";
}

/** One technology row of the research status. */
export interface TechnologyStatus {
  id: TechnologyId;
  name: string;
  level: number;
  maxLevel: number;
  state: TechnologyState;
  prerequisites: readonly TechnologyId[];
  effects: readonly string[];
  /** points for the next level (null at max level) */
  cost: number | null;
  /** turns of lab output for the next level (null at max level or without labs) */
  turns: number | null;
  /** the government's category multiplier */
  governmentMultiplier: number;
}

/** GET /research/status: the spec's dashboard fields plus the technology cards. */
export interface ResearchStatus {
  currentResearchPoints: number;
  pointsPerTurn: number;
  researchLabs: number;
  technologyLevels: TechLevels;
  productionBonuses: Record<CountryTechField, number>;
  /** the government's research multiplier for each stored category */
  researchEfficiency: Record<CountryTechField, number>;
  technologies: TechnologyStatus[];
}

/** The research status of a country. */
export function computeResearchStatus(country: Pick<CountryState, "buildings" | "governmentType" | "tech" | "researchPoints">): ResearchStatus {
  const pointsPerTurn = computeResearchPointsPerTurn(country);
  const gov = GOVERNMENTS[country.governmentType];
  const researchEfficiency = Object.fromEntries(
    COUNTRY_TECH_FIELDS.map((f) => [f, gov.techBonuses[f]]),
  ) as Record<CountryTechField, number>;
  return {
    currentResearchPoints: country.researchPoints,
    pointsPerTurn,
    researchLabs: country.buildings.research_labs,
    technologyLevels: { ...country.tech },
    productionBonuses: computeProductionBonuses(country.tech),
    researchEfficiency,
    technologies: TECHNOLOGY_LIST.map((def) => {
      const level = getTechLevel(country.tech, def.id);
      const cost = level >= def.maxLevel ? null : computeTechnologyCost(def.id, level, country.governmentType);
      return {
        id: def.id,
        name: def.name,
        level,
        maxLevel: def.maxLevel,
        state: technologyState(country.tech, def.id),
        prerequisites: def.prerequisites,
        effects: def.effects,
        cost,
        turns: cost === null ? null : computeResearchTurns(cost, pointsPerTurn),
        governmentMultiplier: gov.techBonuses[def.id],
      };
    }),
  };
}

// ---------------------------------------------------------------------------------------
// Allocation

/** POST /research/allocate's allocations: technology id -> points. */
export type ResearchAllocation = Partial<Record<string, number>>;

/**
 * Whether the unspent research points may be allocated so. Each allocated technology must be
 * known, researchable (stored on the country), not maxed, with its prerequisites met and
 * given at least the cost of its next level (points buy whole levels; what is left stays in
 * the pool, which is how progress carries over). The total must not exceed the unspent
 * points, and the country needs at least one research lab (spec: research starts only with
 * labs above zero).
 */
export function checkResearchAllocation(
  country: Pick<CountryState, "buildings" | "governmentType" | "tech" | "researchPoints">,
  allocations: ResearchAllocation,
): RuleRejection | null {
  if (country.buildings.research_labs <= 0) {
    return reject("research/no_labs", "Research requires at least one research lab");
  }
  let total = 0;
  for (const [id, points] of Object.entries(allocations)) {
    if (!(TECHNOLOGY_IDS as readonly string[]).includes(id)) return reject("research/unknown_technology", `Unknown technology: ${id}`);
    if (typeof points !== "number" || !Number.isSafeInteger(points) || points < 0) {
      return reject("research/invalid_points", "Research points must be a whole number, not negative");
    }
    if (points === 0) continue;
    const techId = id as TechnologyId;
    const def = TECHNOLOGIES[techId];
    if (!def.countryField) return reject("research/not_available", `${def.name} research is not available yet`);
    const level = country.tech[def.countryField];
    if (level >= def.maxLevel) return reject("research/max_level", `${def.name} is at its maximum level`);
    if (!def.prerequisites.every((p) => getTechLevel(country.tech, p) >= 1)) {
      const names = def.prerequisites.map((p) => TECHNOLOGIES[p].name).join(", ");
      return reject("research/prerequisites_unmet", `${def.name} requires ${names}`);
    }
    const cost = computeTechnologyCost(techId, level, country.governmentType);
    if (points < cost) return reject("research/insufficient_points", `${def.name} needs ${cost} points for the next level`);
    total += points;
  }
  if (total === 0) return reject("research/nothing_allocated", "No research points allocated");
  if (total > country.researchPoints) {
    return reject("research/insufficient_points", `Not enough research points: have ${country.researchPoints}, need ${total}`);
  }
  return null;
}

/** What one allocation did (the turn result's research result). */
export interface ResearchResult {
  researchType: TechnologyId;
  /** points spent on whole levels */
  pointsGained: number;
  previousLevel: number;
  currentLevel: number;
  levelUp: boolean;
  /** unspent points left toward the next level, percent of its cost (100 at max level) */
  progressPercent: number;
  description: string;
}

/**
 * Spends the allocated points (call checkResearchAllocation first): each technology rises a
 * level while its allocation covers the next level's cost and it is below its maximum; points
 * not spent on a whole level return to the unspent pool.
 */
export function applyResearchAllocation<T extends CountryState>(country: T, allocations: ResearchAllocation): { next: T; results: ResearchResult[] } {
  const tech = { ...country.tech };
  let pool = country.researchPoints;
  const results: ResearchResult[] = [];
  for (const id of TECHNOLOGY_IDS) {
    const points = allocations[id] ?? 0;
    const def = TECHNOLOGIES[id];
    if (points <= 0 || !def.countryField) continue;
    const previousLevel = tech[def.countryField];
    let left = points;
    let level = previousLevel;
    while (level < def.maxLevel) {
      const cost = computeTechnologyCost(id, level, country.governmentType);
      if (left < cost) break;
      left -= cost;
      level += 1;
    }
    tech[def.countryField] = level;
    const spent = points - left;
    pool -= spent;
    results.push({ researchType: id, pointsGained: spent, previousLevel, currentLevel: level, levelUp: level > previousLevel, progressPercent: 0, description: "" });
  }
  // progress toward the next level counts the whole unspent pool, which is what carries over
  for (const r of results) {
    const def = TECHNOLOGIES[r.researchType];
    const nextCost = r.currentLevel >= def.maxLevel ? null : computeTechnologyCost(r.researchType, r.currentLevel, country.governmentType);
    r.progressPercent = nextCost === null ? 100 : Math.min(100, Math.floor((pool * 100) / nextCost));
    r.description = r.levelUp
      ? `${def.name} research advanced to level ${r.currentLevel}.`
      : `${def.name} research progressing (level ${r.currentLevel}).`;
  }
  return { next: { ...country, tech, researchPoints: pool }, results };
}
