import type { CountryState, GovernmentType, RuleRejection, TechLevels, TechnologyId } from "./country.js";
import { TECHNOLOGY_IDS, reject } from "./country.js";
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
  /** what each level does, as the player reads it */
  effects: readonly string[];
}

// ---------------------------------------------------------------------------------------
// Per-level effects (designed; docs/rules.md, "Research")

/** Military strength per military level (per mille): the spec's "efficiency of half its level in percent". */
export const MILITARY_STRENGTH_PERMILLE_PER_LEVEL = 5;
/** Government store price change per military level (percent): spec, "1% price change per point". */
export const MILITARY_STORE_PRICE_PCT_PER_LEVEL = 1;
/** Population growth toward the housing cap per medical level (percent; growth only, not decline). */
export const MEDICAL_GROWTH_PCT_PER_LEVEL = 5;
/** Tax income per business level (percent). */
export const BUSINESS_TAX_PCT_PER_LEVEL = 2;
/** Housing capacity (acres and residences) per residential level (percent). */
export const RESIDENTIAL_HOUSING_PCT_PER_LEVEL = 2;
/** Farm food output per agricultural level (percent). */
export const AGRICULTURAL_FOOD_PCT_PER_LEVEL = 2;
/** Strength of the offensive units (troops, jets, tanks) per warfare level (percent). */
export const WARFARE_OFFENSIVE_STRENGTH_PCT_PER_LEVEL = 3;
/** Strength of the whole force per military strategy level (percent). */
export const MILITARY_STRATEGY_STRENGTH_PCT_PER_LEVEL = 2;
/** Strength of every unit per weapons level (percent). */
export const WEAPONS_STRENGTH_PCT_PER_LEVEL = 2;
/** Military unit production per industrial level (percent). */
export const INDUSTRIAL_PRODUCTION_PCT_PER_LEVEL = 2;
/** Spy operation force per spy level (percent): spec, "1 + 0.01 per spy tech level". */
export const SPY_FORCE_PCT_PER_LEVEL = 1;
/** Share of incoming missile damage intercepted per SDI level (percent; 50 at level 10). */
export const SDI_MISSILE_DEFENSE_PCT_PER_LEVEL = 5;

/**
 * The spec's eleven research categories (document 3, section 9). Base costs, maximum levels,
 * prerequisites and effects are designed (docs/rules.md, "Research"). Every category is stored
 * on the country (`TechLevels`) and can be researched once its prerequisites are at level 1.
 */
export const TECHNOLOGIES: Readonly<Record<TechnologyId, TechnologyDefinition>> = {
  military: {
    id: "military",
    name: "Military",
    baseCost: 1000,
    maxLevel: 20,
    prerequisites: [],
    effects: ["+0.5% military strength per level", "Government store: -1% buy price and +1% sell price per level"],
  },
  medical: {
    id: "medical",
    name: "Medical",
    baseCost: 800,
    maxLevel: 10,
    prerequisites: [],
    effects: ["+5% population growth per level"],
  },
  business: {
    id: "business",
    name: "Business",
    baseCost: 1000,
    maxLevel: 20,
    prerequisites: [],
    effects: ["+2% tax income per level"],
  },
  residential: {
    id: "residential",
    name: "Residential",
    baseCost: 800,
    maxLevel: 10,
    prerequisites: ["medical"],
    effects: ["+2% housing capacity per level"],
  },
  agricultural: {
    id: "agricultural",
    name: "Agricultural",
    baseCost: 800,
    maxLevel: 20,
    prerequisites: [],
    effects: ["+2% farm food production per level"],
  },
  warfare: {
    id: "warfare",
    name: "Warfare",
    baseCost: 1500,
    maxLevel: 10,
    prerequisites: ["military"],
    effects: ["+3% strength of troops, jets and tanks per level"],
  },
  military_strategy: {
    id: "military_strategy",
    name: "Military Strategy",
    baseCost: 1500,
    maxLevel: 10,
    prerequisites: ["military", "warfare"],
    effects: ["+2% total military strength per level"],
  },
  weapons: {
    id: "weapons",
    name: "Weapons",
    baseCost: 2000,
    maxLevel: 15,
    prerequisites: ["military", "industrial"],
    effects: ["+2% strength of every unit per level"],
  },
  industrial: {
    id: "industrial",
    name: "Industrial",
    baseCost: 1200,
    maxLevel: 20,
    prerequisites: ["business"],
    effects: ["+2% military unit production per level"],
  },
  spy: {
    id: "spy",
    name: "Spy",
    baseCost: 1000,
    maxLevel: 20,
    prerequisites: [],
    effects: ["+1% spy operation force per level"],
  },
  sdi: {
    id: "sdi",
    name: "SDI",
    baseCost: 3000,
    maxLevel: 10,
    prerequisites: ["weapons", "military_strategy"],
    effects: ["Missile defense: intercepts 5% of missile damage per level"],
  },
};

/** The categories in the spec's order. */
export const TECHNOLOGY_LIST: readonly TechnologyDefinition[] = TECHNOLOGY_IDS.map((id) => TECHNOLOGIES[id]);

/** True when `value` is one of the eleven technology ids. */
export function isTechnologyId(value: unknown): value is TechnologyId {
  return typeof value === "string" && (TECHNOLOGY_IDS as readonly string[]).includes(value);
}

/**
 * What the country's tech levels do, as multipliers in integer percent or per mille. Where
 * each is applied: foodProductionPct, taxPct, housingPct, populationGrowthPct in economy.ts;
 * unitProductionPct and the four strength fields in military.ts; storePricePct in the
 * government store; spyPct in spy operations; missileDefensePct in combat (not built yet).
 */
export interface TechEffects {
  /** farm output, percent (100 = none) — agricultural */
  foodProductionPct: number;
  /** tax income, percent — business */
  taxPct: number;
  /** housing capacity of acres and residences, percent — residential */
  housingPct: number;
  /** population growth toward the housing cap (not decline), percent — medical */
  populationGrowthPct: number;
  /** military unit production, percent — industrial */
  unitProductionPct: number;
  /** military strength, per mille (1000 = none) — military */
  strengthPermille: number;
  /** strength of every unit, percent — weapons */
  weaponsStrengthPct: number;
  /** extra strength of the offensive units (troops, jets, tanks), percent — warfare */
  warfareStrengthPct: number;
  /** strength of the whole force, percent — military strategy */
  strategyStrengthPct: number;
  /** store buy discount and sell bonus, percent — military */
  storePricePct: number;
  /** spy force, percent — spy */
  spyPct: number;
  /**
   * Share of incoming missile damage intercepted, percent (0 = none, 50 at SDI 10) — sdi.
   * Combat applies it when missiles strike: damage x (100 - missileDefensePct) / 100.
   */
  missileDefensePct: number;
}

/** The effects of a country's tech levels. */
export function computeTechEffects(tech: TechLevels): TechEffects {
  return {
    foodProductionPct: 100 + AGRICULTURAL_FOOD_PCT_PER_LEVEL * tech.agricultural,
    taxPct: 100 + BUSINESS_TAX_PCT_PER_LEVEL * tech.business,
    housingPct: 100 + RESIDENTIAL_HOUSING_PCT_PER_LEVEL * tech.residential,
    populationGrowthPct: 100 + MEDICAL_GROWTH_PCT_PER_LEVEL * tech.medical,
    unitProductionPct: 100 + INDUSTRIAL_PRODUCTION_PCT_PER_LEVEL * tech.industrial,
    strengthPermille: 1000 + MILITARY_STRENGTH_PERMILLE_PER_LEVEL * tech.military,
    weaponsStrengthPct: 100 + WEAPONS_STRENGTH_PCT_PER_LEVEL * tech.weapons,
    warfareStrengthPct: 100 + WARFARE_OFFENSIVE_STRENGTH_PCT_PER_LEVEL * tech.warfare,
    strategyStrengthPct: 100 + MILITARY_STRATEGY_STRENGTH_PCT_PER_LEVEL * tech.military_strategy,
    storePricePct: MILITARY_STORE_PRICE_PCT_PER_LEVEL * tech.military,
    spyPct: 100 + SPY_FORCE_PCT_PER_LEVEL * tech.spy,
    missileDefensePct: SDI_MISSILE_DEFENSE_PCT_PER_LEVEL * tech.sdi,
  };
}

/**
 * The research status's productionBonuses: each category's bonus as a fraction (agricultural
 * 0.02 per level on food, business on tax, residential on housing, industrial on units,
 * weapons on every unit's strength, military_strategy on the whole force; medical 0.05 on
 * growth, warfare 0.03 on offensive units, military 0.005 on strength, spy 0.01 on spy force,
 * sdi 0.05 of missile damage intercepted).
 */
export function computeProductionBonuses(tech: TechLevels): Record<TechnologyId, number> {
  return {
    military: (MILITARY_STRENGTH_PERMILLE_PER_LEVEL * tech.military) / 1000,
    medical: (MEDICAL_GROWTH_PCT_PER_LEVEL * tech.medical) / 100,
    business: (BUSINESS_TAX_PCT_PER_LEVEL * tech.business) / 100,
    residential: (RESIDENTIAL_HOUSING_PCT_PER_LEVEL * tech.residential) / 100,
    agricultural: (AGRICULTURAL_FOOD_PCT_PER_LEVEL * tech.agricultural) / 100,
    warfare: (WARFARE_OFFENSIVE_STRENGTH_PCT_PER_LEVEL * tech.warfare) / 100,
    military_strategy: (MILITARY_STRATEGY_STRENGTH_PCT_PER_LEVEL * tech.military_strategy) / 100,
    weapons: (WEAPONS_STRENGTH_PCT_PER_LEVEL * tech.weapons) / 100,
    industrial: (INDUSTRIAL_PRODUCTION_PCT_PER_LEVEL * tech.industrial) / 100,
    spy: (SPY_FORCE_PCT_PER_LEVEL * tech.spy) / 100,
    sdi: (SDI_MISSILE_DEFENSE_PCT_PER_LEVEL * tech.sdi) / 100,
  };
}

// ---------------------------------------------------------------------------------------
// Points, costs, turns

/**
 * Research points per turn: research labs x 100, x the government's research bonus (floored),
 * x the outside research bonus in force (alliance, diplomacy), floored again.
 */
export function computeResearchPointsPerTurn(country: Pick<CountryState, "buildings" | "governmentType" | "bonuses">): number {
  const points = floorPct(country.buildings.research_labs * RESEARCH_POINTS_PER_LAB, GOVERNMENTS[country.governmentType].researchPct);
  const bonus = country.bonuses?.researchPct ?? 0;
  return bonus > 0 ? floorPct(points, 100 + bonus) : points;
}

/** A technology's current level on the country. */
export function getTechLevel(tech: TechLevels, id: TechnologyId): number {
  return tech[id];
}

/** Whether every prerequisite of `id` is at level 1 or more. */
export function prerequisitesMet(tech: TechLevels, id: TechnologyId): boolean {
  return TECHNOLOGIES[id].prerequisites.every((p) => tech[p] >= 1);
}

/**
 * Points to raise `id` from `level` to `level + 1`: base x (level + 1) / the government's
 * category multiplier, rounded up.
 */
export function computeTechnologyCost(id: TechnologyId, level: number, governmentType: GovernmentType): number {
  // base x (level+1) x 1000 / multiplier-in-thousandths keeps 1.845 exact
  return Math.ceil((TECHNOLOGIES[id].baseCost * (level + 1) * 1000) / techBonusMilli(governmentType, id));
}

/**
 * Turns of lab output still needed for `cost` points with `inHand` points already unspent:
 * ceil((cost - inHand) / pointsPerTurn), 0 when the points are in hand (issue 30: "5 turns"
 * was shown for a level already paid for), null when more are needed and no lab produces any.
 */
export function computeResearchTurns(cost: number, pointsPerTurn: number, inHand = 0): number | null {
  const missing = Math.max(0, cost - Math.max(0, inHand));
  if (missing === 0) return 0;
  if (pointsPerTurn <= 0) return null;
  return Math.ceil(missing / pointsPerTurn);
}

/** The card state of the research screen. */
export type TechnologyState = "maxed" | "available" | "locked";

/** Whether a technology is maxed (level at or above its maximum), available or locked (prerequisites unmet). */
export function technologyState(tech: TechLevels, id: TechnologyId): TechnologyState {
  if (tech[id] >= TECHNOLOGIES[id].maxLevel) return "maxed";
  return prerequisitesMet(tech, id) ? "available" : "locked";
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
  /** every category's level */
  technologyLevels: TechLevels;
  /** every category's bonus as a fraction (computeProductionBonuses) */
  productionBonuses: Record<TechnologyId, number>;
  /** the government's research multiplier for every category */
  researchEfficiency: Record<TechnologyId, number>;
  technologies: TechnologyStatus[];
}

/** The research status of a country. */
export function computeResearchStatus(country: Pick<CountryState, "buildings" | "governmentType" | "tech" | "researchPoints" | "bonuses">): ResearchStatus {
  const pointsPerTurn = computeResearchPointsPerTurn(country);
  const gov = GOVERNMENTS[country.governmentType];
  const researchEfficiency = Object.fromEntries(TECHNOLOGY_IDS.map((id) => [id, gov.techBonuses[id]])) as Record<TechnologyId, number>;
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
        turns: cost === null ? null : computeResearchTurns(cost, pointsPerTurn, country.researchPoints),
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
 * known, not maxed, with its prerequisites met and
 * given at least the cost of its next level (points buy whole levels; what is left stays in
 * the pool, which is how progress carries over). The total must not exceed the unspent
 * points, and the country needs at least one research lab (spec: research starts only with
 * labs above zero).
 */
export function checkResearchAllocation(country: Pick<CountryState, "buildings" | "governmentType" | "tech" | "researchPoints">, allocations: ResearchAllocation): RuleRejection | null {
  if (country.buildings.research_labs <= 0) {
    return reject("research/no_labs", "Research requires at least one research lab");
  }
  let total = 0;
  for (const [id, points] of Object.entries(allocations)) {
    if (!isTechnologyId(id)) return reject("research/unknown_technology", `Unknown technology: ${id}`);
    if (typeof points !== "number" || !Number.isSafeInteger(points) || points < 0) {
      return reject("research/invalid_points", "Research points must be a whole number, not negative");
    }
    if (points === 0) continue;
    const techId = id;
    const def = TECHNOLOGIES[techId];
    const level = country.tech[techId];
    if (level >= def.maxLevel) return reject("research/max_level", `${def.name} is at its maximum level`);
    if (!prerequisitesMet(country.tech, techId)) {
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
    if (points <= 0) continue;
    const previousLevel = tech[id];
    let left = points;
    let level = previousLevel;
    while (level < def.maxLevel) {
      const cost = computeTechnologyCost(id, level, country.governmentType);
      if (left < cost) break;
      left -= cost;
      level += 1;
    }
    tech[id] = level;
    const spent = points - left;
    pool -= spent;
    results.push({ researchType: id, pointsGained: spent, previousLevel, currentLevel: level, levelUp: level > previousLevel, progressPercent: 0, description: "" });
  }
  // progress toward the next level counts the whole unspent pool, which is what carries over
  for (const r of results) {
    const def = TECHNOLOGIES[r.researchType];
    const nextCost = r.currentLevel >= def.maxLevel ? null : computeTechnologyCost(r.researchType, r.currentLevel, country.governmentType);
    r.progressPercent = nextCost === null ? 100 : Math.min(100, Math.floor((pool * 100) / nextCost));
    r.description = r.levelUp ? `${def.name} research advanced to level ${r.currentLevel}.` : `${def.name} research progressing (level ${r.currentLevel}).`;
  }
  return { next: { ...country, tech, researchPoints: pool }, results };
}
