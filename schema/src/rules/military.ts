import type { CountryState, RuleRejection, TechLevels, UnitAllocation, UnitType } from "./country.js";
import { DEFAULT_UNIT_ALLOCATION, UNIT_TYPES, reject } from "./country.js";
import { GOVERNMENTS } from "./governments.js";
import { computeTechEffects } from "./research.js";

/** Units an industrial complex can produce. */
export const PRODUCED_UNIT_TYPES = ["troops", "jets", "turrets", "tanks"] as const;
/** A unit type an industrial complex can produce (spies are trained elsewhere). */
export type ProducedUnitType = (typeof PRODUCED_UNIT_TYPES)[number];
/** Units produced in a turn. */
export type UnitCounts = Record<ProducedUnitType, number>;

/** A unit's base figures (spec, document 2 section 9). */
export interface UnitStats {
  /** strength points per unit */
  strength: number;
  /** dollars per unit per turn */
  upkeep: number;
}

/** Base strength / upkeep: troops 1/0.5, jets 3/2, turrets 1.5/1, tanks 2.5/3, spies 1/1. */
export const UNIT_STATS: Readonly<Record<UnitType, UnitStats>> = {
  troops: { strength: 1, upkeep: 0.5 },
  jets: { strength: 3, upkeep: 2 },
  turrets: { strength: 1.5, upkeep: 1 },
  tanks: { strength: 2.5, upkeep: 3 },
  spies: { strength: 1, upkeep: 1 },
};

/** Unit cost weights of the spec: troops 1, turrets 1.5, tanks 2.5, jets 3. */
export const UNIT_COST_WEIGHTS: Readonly<Record<ProducedUnitType, number>> = {
  troops: 1,
  jets: 3,
  turrets: 1.5,
  tanks: 2.5,
};

/**
 * Production complexity: the spec leaves it unshown; we use the cost weights, so a jet takes
 * three times the capacity of a troop.
 */
export const UNIT_COMPLEXITY: Readonly<Record<ProducedUnitType, number>> = UNIT_COST_WEIGHTS;

/** Production capacity of one industrial complex per turn (capacity units; the spec's "25"). */
export const UNIT_CAPACITY_PER_COMPLEX = 25;

/** The spec's production presets (percent troops / jets / turrets / tanks). */
export const PRODUCTION_PRESETS = {
  balanced: { troops: 25, jets: 25, turrets: 25, tanks: 25 },
  defensive: { troops: 20, jets: 10, turrets: 50, tanks: 20 },
  offensive: { troops: 30, jets: 30, turrets: 10, tanks: 30 },
  air_power: { troops: 15, jets: 55, turrets: 15, tanks: 15 },
  ground_force: { troops: 40, jets: 10, turrets: 20, tanks: 30 },
} as const satisfies Record<string, UnitAllocation>;
/** balanced, defensive, offensive, air_power, ground_force */
export type ProductionPresetId = keyof typeof PRODUCTION_PRESETS;
/** The preset ids in the spec's order. */
export const PRODUCTION_PRESET_IDS = Object.keys(PRODUCTION_PRESETS) as ProductionPresetId[];

/** Below this many complexes the production screen suggests building more. */
export const RECOMMENDED_MIN_COMPLEXES = 5;

/** Military upkeep cut per military base (percent). */
export const MILITARY_BASE_UPKEEP_REDUCTION_PCT = 4;
/** Largest upkeep cut from military bases (percent). */
export const MILITARY_BASE_MAX_UPKEEP_REDUCTION_PCT = 40;

/** Readiness below which the 'Low readiness' warning shows (readiness points). */
export const READINESS_LOW = 50;
/** Readiness below which the 'Critical readiness' warning shows (readiness points). */
export const READINESS_CRITICAL = 25;
/** The spec's warning below READINESS_LOW. */
export const READINESS_LOW_MESSAGE = "Low readiness level - consider increasing military funding";
/** The spec's warning below READINESS_CRITICAL. */
export const READINESS_CRITICAL_MESSAGE = "Critical readiness level - insufficient funds for military maintenance";

// Fixed-point copies (tenths) so integer arithmetic stays exact.
const STRENGTH_TENTHS: Record<UnitType, number> = { troops: 10, jets: 30, turrets: 15, tanks: 25, spies: 10 };
const UPKEEP_TENTHS: Record<UnitType, number> = { troops: 5, jets: 20, turrets: 10, tanks: 30, spies: 10 };
const COMPLEXITY_TENTHS: Record<ProducedUnitType, number> = { troops: 10, jets: 30, turrets: 15, tanks: 25 };

// ---------------------------------------------------------------------------------------
// Allocation

/**
 * Whether a production split may be applied: each percentage a whole number 0..100 and the
 * total exactly 100 ('Over-allocated! Reduce percentages.' above, '{n}% unused capacity.'
 * below).
 */
export function checkUnitAllocation(allocation: UnitAllocation): RuleRejection | null {
  for (const unit of PRODUCED_UNIT_TYPES) {
    const v = allocation[unit];
    if (typeof v !== "number" || !Number.isSafeInteger(v) || v < 0 || v > 100) {
      return reject("production/invalid_percentage", "Each percentage must be a whole number from 0 to 100");
    }
  }
  const total = PRODUCED_UNIT_TYPES.reduce((s, u) => s + allocation[u], 0);
  if (total > 100) return reject("production/over_allocated", "Over-allocated! Reduce percentages.");
  if (total < 100) return reject("production/unused_capacity", `${100 - total}% unused capacity.`);
  return null;
}

/** Sets the production split (call checkUnitAllocation first). */
export function applyUnitAllocation<T extends CountryState>(country: T, allocation: UnitAllocation): T {
  return {
    ...country,
    unitAllocation: { troops: allocation.troops, jets: allocation.jets, turrets: allocation.turrets, tanks: allocation.tanks },
  };
}

/** The allocation the economy uses: the stored one if valid, else the balanced default. */
export function effectiveAllocation(allocation: UnitAllocation): UnitAllocation {
  return checkUnitAllocation(allocation) === null ? allocation : DEFAULT_UNIT_ALLOCATION;
}

// ---------------------------------------------------------------------------------------
// Production

/**
 * Per-complex output of the spec's production screen, without bonuses:
 * floor(25 x allocation% / 100 / complexity). We read the spec's "per day" as per turn.
 */
export function computeOutputPerComplex(allocationPct: number, unit: ProducedUnitType): number {
  return Math.floor((UNIT_CAPACITY_PER_COMPLEX * allocationPct * 10) / (100 * COMPLEXITY_TENTHS[unit]));
}

/** The percent bonus on unit production: government x industrial tech, minus 100. */
export function computeProductionBonusPct(country: Pick<CountryState, "governmentType" | "tech">): number {
  const gov = GOVERNMENTS[country.governmentType].unitProductionPct;
  const tech = computeTechEffects(country.tech).unitProductionPct;
  return Math.floor((gov * tech) / 100) - 100;
}

/**
 * Units the industrial complexes produce in one turn:
 * floor(complexes x 25 x allocation% / 100 x government% x industrial-tech% / complexity).
 * With `fuel` false (no oil this turn) jets and tanks are not produced.
 */
export function computeUnitProduction(
  country: Pick<CountryState, "governmentType" | "tech" | "buildings" | "unitAllocation">,
  fuel = true,
): UnitCounts {
  const complexes = country.buildings.industrial_complexes;
  const alloc = effectiveAllocation(country.unitAllocation);
  const gov = GOVERNMENTS[country.governmentType].unitProductionPct;
  const tech = computeTechEffects(country.tech).unitProductionPct;
  const out = {} as UnitCounts;
  for (const unit of PRODUCED_UNIT_TYPES) {
    const needsFuel = unit === "jets" || unit === "tanks";
    out[unit] =
      needsFuel && !fuel
        ? 0
        : Math.floor(
            (complexes * UNIT_CAPACITY_PER_COMPLEX * alloc[unit] * gov * tech * 10) / (100 * 100 * 100 * COMPLEXITY_TENTHS[unit]),
          );
  }
  return out;
}

// ---------------------------------------------------------------------------------------
// Upkeep, strength, readiness

/** Military upkeep percent left after military bases (100 - 4 per base, at least 60). */
export function computeMilitaryBaseUpkeepPct(militaryBases: number): number {
  return 100 - Math.min(MILITARY_BASE_MAX_UPKEEP_REDUCTION_PCT, MILITARY_BASE_UPKEEP_REDUCTION_PCT * militaryBases);
}

/**
 * Military upkeep per turn, in dollars: sum of units x base upkeep, x the government's upkeep
 * percent, x the military-base percent, rounded up.
 */
export function computeMilitaryUpkeep(country: Pick<CountryState, UnitType | "governmentType" | "buildings">): number {
  const rawTenths = UNIT_TYPES.reduce((s, u) => s + country[u] * UPKEEP_TENTHS[u], 0);
  const gov = GOVERNMENTS[country.governmentType].militaryUpkeepPct;
  const bases = computeMilitaryBaseUpkeepPct(country.buildings.military_bases);
  return Math.ceil((rawTenths * gov * bases) / (10 * 100 * 100));
}

/**
 * The units warfare tech strengthens: the attacking units, those the spec's offensive
 * capability counts (troops, jets, tanks).
 */
export const OFFENSIVE_UNIT_TYPES: readonly UnitType[] = ["troops", "jets", "tanks"];

/**
 * A unit type's strength percent from tech (100 = base strength): + 2% per weapons level for
 * every unit, + 3% per warfare level for the offensive units. Combat reuses it per unit type.
 */
export function computeUnitStrengthPct(tech: TechLevels, unit: UnitType): number {
  const e = computeTechEffects(tech);
  const warfare = OFFENSIVE_UNIT_TYPES.includes(unit) ? e.warfareStrengthPct - 100 : 0;
  return e.weaponsStrengthPct + warfare;
}

/**
 * Total military strength: sum of units x base strength x their tech strength percent
 * (weapons, warfare), x the government strength multiplier (1.5 dictatorship, 1.8 tyranny,
 * 1.1 monarchy, else 1), x (1 + 0.5% per military tech level), x (1 + 2% per military
 * strategy level), floored. Computed in BigInt so the product of the five factors stays exact
 * for any army.
 */
export function computeMilitaryStrength(country: Pick<CountryState, UnitType | "governmentType" | "tech">): number {
  const weighted = UNIT_TYPES.reduce(
    (s, u) => s + BigInt(country[u]) * BigInt(STRENGTH_TENTHS[u] * computeUnitStrengthPct(country.tech, u)),
    0n,
  );
  const effects = computeTechEffects(country.tech);
  const gov = BigInt(GOVERNMENTS[country.governmentType].strengthPct);
  const military = BigInt(effects.strengthPermille);
  const strategy = BigInt(effects.strategyStrengthPct);
  // tenths x unit% x government% x military per mille x strategy%
  return Number((weighted * gov * military * strategy) / (10n * 100n * 100n * 1000n * 100n));
}

/** Turns of upkeep the readiness formula compares cash with (the spec's "24 x upkeep"). */
export const READINESS_UPKEEP_TURNS = 24;

/**
 * Readiness, percent: the spec's (cash - 24 x upkeep) / (24 x upkeep) read as a percentage
 * (x100), clipped to 0..100 and floored; 100 with no upkeep. So readiness is 100 once cash
 * covers twice 24 turns of upkeep, below 50 ('Low readiness') under 1.5 times and below 25
 * ('Critical ... insufficient funds') under 1.25 times. Read as a bare ratio, a fresh country
 * with 100,000 dollars would show 'Critical', which contradicts the warning's own words
 * (docs/rules.md, "Military").
 */
export function computeReadiness(cash: number, upkeepPerTurn: number): number {
  if (upkeepPerTurn <= 0) return 100;
  const reserve = READINESS_UPKEEP_TURNS * upkeepPerTurn;
  return Math.min(100, Math.max(0, Math.floor(((cash - reserve) * 100) / reserve)));
}

/** The readiness warning of the military screen, or null. */
export function readinessWarning(readiness: number): string | null {
  if (readiness < READINESS_CRITICAL) return READINESS_CRITICAL_MESSAGE;
  if (readiness < READINESS_LOW) return READINESS_LOW_MESSAGE;
  return null;
}

/** Offensive capability by the spec: (troops + jets + tanks) / 10000. */
export function computeOffensiveCapability(country: Pick<CountryState, "troops" | "jets" | "tanks">): number {
  return (country.troops + country.jets + country.tanks) / 10_000;
}

/** Defensive capability by the spec: (turrets + troops / 2) / 5000, capped at 100. */
export function computeDefensiveCapability(country: Pick<CountryState, "turrets" | "troops">): number {
  return Math.min(100, (country.turrets + country.troops / 2) / 5_000);
}

/** One unit card of the military screen. */
export interface UnitCard {
  unit: UnitType;
  count: number;
  /** base strength per unit */
  strength: number;
  /** base upkeep per unit per turn, dollars */
  upkeep: number;
}

/** The Military Command figures. */
export interface MilitaryStatus {
  totalStrength: number;
  /** dollars per turn */
  upkeep: number;
  readiness: number;
  offensiveCapability: number;
  defensiveCapability: number;
  warning: string | null;
  units: UnitCard[];
  /** the government's strength multiplier */
  strengthMultiplier: number;
}

/** Everything the Military Command screen shows for a country. */
export function computeMilitaryStatus(country: CountryState): MilitaryStatus {
  const upkeep = computeMilitaryUpkeep(country);
  const readiness = computeReadiness(country.cash, upkeep);
  return {
    totalStrength: computeMilitaryStrength(country),
    upkeep,
    readiness,
    offensiveCapability: computeOffensiveCapability(country),
    defensiveCapability: computeDefensiveCapability(country),
    warning: readinessWarning(readiness),
    units: UNIT_TYPES.map((unit) => ({ unit, count: country[unit], strength: UNIT_STATS[unit].strength, upkeep: UNIT_STATS[unit].upkeep })),
    strengthMultiplier: GOVERNMENTS[country.governmentType].strengthPct / 100,
  };
}
