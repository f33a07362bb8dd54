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
export function computeUnitProduction(country: Pick<CountryState, "governmentType" | "tech" | "buildings" | "unitAllocation">, fuel = true): UnitCounts {
  const complexes = country.buildings.industrial_complexes;
  const alloc = effectiveAllocation(country.unitAllocation);
  const gov = GOVERNMENTS[country.governmentType].unitProductionPct;
  const tech = computeTechEffects(country.tech).unitProductionPct;
  const out = {} as UnitCounts;
  for (const unit of PRODUCED_UNIT_TYPES) {
    const needsFuel = unit === "jets" || unit === "tanks";
    out[unit] = needsFuel && !fuel ? 0 : Math.floor((complexes * UNIT_CAPACITY_PER_COMPLEX * alloc[unit] * gov * tech * 10) / (100 * 100 * 100 * COMPLEXITY_TENTHS[unit]));
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
  const weighted = UNIT_TYPES.reduce((s, u) => s + BigInt(country[u]) * BigInt(STRENGTH_TENTHS[u] * computeUnitStrengthPct(country.tech, u)), 0n);
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

// ---------------------------------------------------------------------------------------
// Time units of the military rules (milliseconds)

/** One hour in milliseconds. */
export const HOUR_MS = 3_600_000;

// ---------------------------------------------------------------------------------------
// Brigades (designed: docs/rules.md, "Brigades and readiness")

/** Brigades every country has (the spec shows 5). */
export const BRIGADE_COUNT = 5;
/** Their names, slot 1 to 5 (the spec's formations Alpha to Delta, and Echo). */
export const BRIGADE_NAMES = ["Alpha", "Bravo", "Charlie", "Delta", "Echo"] as const;
/** Readiness points a brigade recovers per hour (time-based, no tick needed). */
export const BRIGADE_RECOVERY_PER_HOUR = 10;
/** A brigade leads an attack only at this readiness or more (readiness points). */
export const BRIGADE_MIN_ATTACK_READINESS = 40;
/** Readiness an attack costs the brigade that leads it (readiness points). */
export const BRIGADE_ATTACK_FATIGUE = 30;
/** Readiness a planned strike costs its brigade (readiness points). */
export const BRIGADE_PLANNED_FATIGUE = 50;
/** Readiness defensive duty costs at once (readiness points). */
export const BRIGADE_DUTY_FATIGUE = 20;
/** How long defensive duty lasts (ms). */
export const BRIGADE_DUTY_MS = 12 * HOUR_MS;
/** Defence bonus per brigade on defensive duty (percent). */
export const BRIGADE_DUTY_DEFENSE_PCT = 5;
/** Turns of upkeep that restoring a brigade from 0 to 100 readiness costs (the spec's 24). */
export const BRIGADE_RECOVERY_UPKEEP_TURNS = READINESS_UPKEEP_TURNS;
/** Smallest upkeep the recovery price is based on (dollars per turn), so it is never free. */
export const BRIGADE_RECOVERY_MIN_UPKEEP = 100;

/** A brigade's status: the spec's formation statuses ready, deployed and recovering. */
export type BrigadeStatus = "ready" | "deployed" | "recovering";

/**
 * One brigade as stored: readiness as of `readinessAt` (it recovers with time), defensive
 * duty until `deployedUntil`, rehabilitation after a planned strike until `rehabUntil`.
 * Times are epoch milliseconds; null means none.
 */
export interface BrigadeRecord {
  /** 1..BRIGADE_COUNT */
  slot: number;
  /** readiness points 0..100 at readinessAt */
  readiness: number;
  readinessAt: number;
  deployedUntil: number | null;
  rehabUntil: number | null;
  lastDeployed: number | null;
}

/** A brigade that has never been used: full readiness. */
export function defaultBrigade(slot: number): BrigadeRecord {
  return { slot, readiness: 100, readinessAt: 0, deployedUntil: null, rehabUntil: null, lastDeployed: null };
}

/** The five brigades of a country from the stored ones (missing slots are fresh). */
export function completeBrigades(stored: readonly BrigadeRecord[]): BrigadeRecord[] {
  return Array.from({ length: BRIGADE_COUNT }, (_, i) => stored.find((b) => b.slot === i + 1) ?? defaultBrigade(i + 1));
}

/** A brigade's name ("Alpha" for slot 1). */
export function brigadeName(slot: number): string {
  return BRIGADE_NAMES[slot - 1] ?? `Brigade ${slot}`;
}

/** Readiness now: the stored value plus 10 points per full hour since, at most 100. */
export function computeBrigadeReadiness(brigade: BrigadeRecord, now: number): number {
  const hours = Math.max(0, Math.floor((now - brigade.readinessAt) / HOUR_MS));
  return Math.min(100, brigade.readiness + hours * BRIGADE_RECOVERY_PER_HOUR);
}

/** deployed while on defensive duty; recovering in rehabilitation or below the attack threshold; else ready. */
export function brigadeStatus(brigade: BrigadeRecord, now: number): BrigadeStatus {
  if (brigade.deployedUntil !== null && brigade.deployedUntil > now) return "deployed";
  if ((brigade.rehabUntil !== null && brigade.rehabUntil > now) || computeBrigadeReadiness(brigade, now) < BRIGADE_MIN_ATTACK_READINESS) return "recovering";
  return "ready";
}

/** Brigades on defensive duty now. */
export function countDeployedBrigades(brigades: readonly BrigadeRecord[], now: number): number {
  return brigades.filter((b) => brigadeStatus(b, now) === "deployed").length;
}

/** Brigades that could lead an attack now. */
export function countReadyBrigades(brigades: readonly BrigadeRecord[], now: number): number {
  return brigades.filter((b) => brigadeStatus(b, now) === "ready").length;
}

/**
 * A brigade's readiness as combat sees it: its own, but never above the country's military
 * readiness (cash against 24 turns of upkeep, the spec's formula), so an army that cannot be
 * paid is not ready however rested it is.
 */
export function computeEffectiveReadiness(brigadeReadiness: number, countryReadiness: number): number {
  return Math.min(brigadeReadiness, countryReadiness);
}

function findBrigade(brigades: readonly BrigadeRecord[], slot: number): BrigadeRecord | RuleRejection {
  if (!Number.isSafeInteger(slot) || slot < 1 || slot > BRIGADE_COUNT) return reject("brigade/unknown", `Brigade must be between 1 and ${BRIGADE_COUNT}`);
  return brigades.find((b) => b.slot === slot) ?? defaultBrigade(slot);
}

function isRejection(value: unknown): value is RuleRejection {
  return typeof value === "object" && value !== null && "code" in value && "message" in value;
}

/**
 * The brigade that leads an attack: the one asked for, or the readiest ready one.
 * @returns the brigade, or the refusal ('No brigade ready: ...')
 */
export function pickAttackBrigade(brigades: readonly BrigadeRecord[], now: number, slot?: number | null): BrigadeRecord | RuleRejection {
  const all = completeBrigades(brigades);
  if (slot !== undefined && slot !== null) {
    const b = findBrigade(all, slot);
    if (isRejection(b)) return b;
    const status = brigadeStatus(b, now);
    if (status === "deployed") return reject("brigade/deployed", `Brigade ${brigadeName(b.slot)} is on defensive duty`);
    if (status === "recovering") return reject("brigade/recovering", `Brigade ${brigadeName(b.slot)} is recovering`);
    return b;
  }
  const ready = all.filter((b) => brigadeStatus(b, now) === "ready");
  if (ready.length === 0) return reject("brigade/none_ready", "No brigade ready: every brigade is deployed or recovering");
  return ready.reduce((best, b) => (computeBrigadeReadiness(b, now) > computeBrigadeReadiness(best, now) ? b : best));
}

/** The brigade after leading an attack: tired (more after a planned strike, and in rehabilitation). */
export function applyAttackFatigue(brigade: BrigadeRecord, now: number, planned: boolean): BrigadeRecord {
  const fatigue = planned ? BRIGADE_PLANNED_FATIGUE : BRIGADE_ATTACK_FATIGUE;
  return {
    ...brigade,
    readiness: Math.max(0, computeBrigadeReadiness(brigade, now) - fatigue),
    readinessAt: now,
    lastDeployed: now,
    rehabUntil: planned ? now + PLANNED_STRIKE_REHAB_MS : brigade.rehabUntil,
  };
}

/** use-brigade: whether the brigade can go on defensive duty now. */
export function checkUseBrigade(brigades: readonly BrigadeRecord[], slot: number, now: number): RuleRejection | null {
  const b = findBrigade(completeBrigades(brigades), slot);
  if (isRejection(b)) return b;
  if (brigadeStatus(b, now) === "deployed") return reject("brigade/already_deployed", `Brigade ${brigadeName(slot)} is already deployed`);
  if (computeBrigadeReadiness(b, now) < BRIGADE_DUTY_FATIGUE) return reject("brigade/exhausted", `Brigade ${brigadeName(slot)} is too exhausted to deploy`);
  return null;
}

/** use-brigade: defensive duty for 12 hours, at a cost of 20 readiness. */
export function applyUseBrigade(brigades: readonly BrigadeRecord[], slot: number, now: number): BrigadeRecord {
  const b = completeBrigades(brigades).find((x) => x.slot === slot)!;
  return {
    ...b,
    readiness: computeBrigadeReadiness(b, now) - BRIGADE_DUTY_FATIGUE,
    readinessAt: now,
    deployedUntil: now + BRIGADE_DUTY_MS,
    lastDeployed: now,
  };
}

/** reduce-readiness: whether the brigade is on duty (only a deployed brigade can stand down). */
export function checkReduceReadiness(brigades: readonly BrigadeRecord[], slot: number, now: number): RuleRejection | null {
  const b = findBrigade(completeBrigades(brigades), slot);
  if (isRejection(b)) return b;
  if (brigadeStatus(b, now) !== "deployed") return reject("brigade/not_deployed", `Brigade ${brigadeName(slot)} is not deployed`);
  return null;
}

/** reduce-readiness: the brigade leaves defensive duty now (the country's defence drops by its bonus). */
export function applyReduceReadiness(brigades: readonly BrigadeRecord[], slot: number, now: number): BrigadeRecord {
  const b = completeBrigades(brigades).find((x) => x.slot === slot)!;
  return { ...b, readiness: computeBrigadeReadiness(b, now), readinessAt: now, deployedUntil: null };
}

/**
 * recover-readiness: dollars to bring a brigade to 100 now. Restoring all 100 points costs
 * 24 turns of military upkeep (the spec's readiness reserve), at least 100 dollars a turn:
 * ceil(missing points x 24 x max(upkeep, 100) / 100).
 */
export function computeRecoveryCost(brigade: BrigadeRecord, now: number, upkeepPerTurn: number): number {
  const missing = 100 - computeBrigadeReadiness(brigade, now);
  return Math.ceil((missing * BRIGADE_RECOVERY_UPKEEP_TURNS * Math.max(upkeepPerTurn, BRIGADE_RECOVERY_MIN_UPKEEP)) / 100);
}

/** recover-readiness: refuses a brigade at full readiness and a price the cash cannot pay. */
export function checkRecoverReadiness(brigades: readonly BrigadeRecord[], slot: number, now: number, cash: number, upkeepPerTurn: number): RuleRejection | null {
  const b = findBrigade(completeBrigades(brigades), slot);
  if (isRejection(b)) return b;
  if (computeBrigadeReadiness(b, now) >= 100) return reject("brigade/full_readiness", `Brigade ${brigadeName(slot)} is already at full readiness`);
  const cost = computeRecoveryCost(b, now, upkeepPerTurn);
  if (cost > cash) return reject("brigade/insufficient_funds", `Insufficient funds. Need $${(cost - cash).toLocaleString("en-US")} more.`);
  return null;
}

/** recover-readiness: the brigade at 100 and what it cost. Rehabilitation still runs its course. */
export function applyRecoverReadiness(brigades: readonly BrigadeRecord[], slot: number, now: number, upkeepPerTurn: number): { brigade: BrigadeRecord; cost: number } {
  const b = completeBrigades(brigades).find((x) => x.slot === slot)!;
  return { brigade: { ...b, readiness: 100, readinessAt: now }, cost: computeRecoveryCost(b, now, upkeepPerTurn) };
}

// ---------------------------------------------------------------------------------------
// Planned strikes and rehabilitation

/** A planned strike prepares this long before it executes (ms). */
export const PLANNED_STRIKE_PREP_MS = 12 * HOUR_MS;
/** Units back from a planned strike are in rehabilitation this long (ms). */
export const PLANNED_STRIKE_REHAB_MS = 12 * HOUR_MS;
/** Latest a scheduled attack may be set, from now (ms). */
export const MAX_SCHEDULE_AHEAD_MS = 7 * 24 * HOUR_MS;

/** Units that can attack: troops, jets and tanks. */
export const ATTACKING_UNIT_TYPES = ["troops", "jets", "tanks"] as const;
/** Units in rehabilitation (they defend, but cannot be sent on an attack). */
export type RehabUnits = Record<(typeof ATTACKING_UNIT_TYPES)[number], number>;

/** No units in rehabilitation. */
export function emptyRehab(): RehabUnits {
  return { troops: 0, jets: 0, tanks: 0 };
}

/** Units a country may send on an attack: what it owns, less those in rehabilitation. */
export function availableForAttack(country: Pick<CountryState, UnitType | "missiles">, rehab: RehabUnits): Record<UnitType | "missiles", number> {
  return {
    troops: Math.max(0, country.troops - rehab.troops),
    jets: Math.max(0, country.jets - rehab.jets),
    tanks: Math.max(0, country.tanks - rehab.tanks),
    turrets: country.turrets,
    spies: country.spies,
    missiles: country.missiles,
  };
}

// ---------------------------------------------------------------------------------------
// Force deployment, defense allocation, alert level

/** Force deployment percentages (Military Strategy). */
export interface Deployment {
  garrison: number;
  patrol: number;
  reserve: number;
  expedition: number;
}
/** The spec's defaults: garrison 40, patrol 30, reserve 20, expedition 10. */
export const DEFAULT_DEPLOYMENT: Readonly<Deployment> = { garrison: 40, patrol: 30, reserve: 20, expedition: 10 };
export const DEPLOYMENT_KEYS = ["garrison", "patrol", "reserve", "expedition"] as const;

/** Defense force allocation percentages (Defense Configuration). */
export interface DefenseAllocation {
  garrison: number;
  perimeter: number;
  airDefense: number;
  counterIntel: number;
}
/** The spec's defaults: garrison 40, perimeter 30, airDefense 20, counterIntel 10. */
export const DEFAULT_DEFENSE_ALLOCATION: Readonly<DefenseAllocation> = { garrison: 40, perimeter: 30, airDefense: 20, counterIntel: 10 };
export const DEFENSE_ALLOCATION_KEYS = ["garrison", "perimeter", "airDefense", "counterIntel"] as const;

/** Alert levels of Defense Configuration. */
export const ALERT_LEVELS = ["low", "medium", "high", "critical"] as const;
export type AlertLevel = (typeof ALERT_LEVELS)[number];
export const DEFAULT_ALERT_LEVEL: AlertLevel = "medium";

/**
 * What the alert level does in combat (percent): a higher alert holds forces at home, so the
 * country defends better and attacks worse. Medium is neutral.
 */
export const ALERT_EFFECTS: Readonly<Record<AlertLevel, { defensePct: number; attackPct: number }>> = {
  low: { defensePct: 90, attackPct: 110 },
  medium: { defensePct: 100, attackPct: 100 },
  high: { defensePct: 110, attackPct: 90 },
  critical: { defensePct: 120, attackPct: 75 },
};

/**
 * Percent points of effect per allocated percent: each deployment or defense share gives a
 * quarter of itself as a combat bonus (40% garrison = +10% defence). Counter-intelligence
 * gives half (it guards against the cheaper spy raids).
 */
export const ALLOCATION_EFFECT_DIVISOR = 4;
/** Counter-intelligence's divisor: half of itself as spy defence (10% = +5%). */
export const COUNTER_INTEL_EFFECT_DIVISOR = 2;

/** The total a deployment or allocation may reach (the spec: capped at 100). */
export const MAX_ALLOCATION_TOTAL = 100;

/** Whether a split of whole percentages is valid: each 0..100, total at most 100. */
export function checkAllocationSplit<K extends string>(split: Record<K, number>, keys: readonly K[], what: string): RuleRejection | null {
  for (const key of keys) {
    const v = split[key];
    if (typeof v !== "number" || !Number.isSafeInteger(v) || v < 0 || v > 100) return reject(`military/invalid_${what}`, `Each ${what} percentage must be a whole number from 0 to 100`);
  }
  const total = keys.reduce((s, k) => s + split[k], 0);
  if (total > MAX_ALLOCATION_TOTAL) return reject(`military/${what}_over_total`, `${what === "deployment" ? "Deployment" : "Defense allocation"} cannot exceed 100% (now ${total}%)`);
  return null;
}

/** Whether a force deployment is valid (each 0..100, total at most 100). */
export function checkDeployment(d: Deployment): RuleRejection | null {
  return checkAllocationSplit(d, DEPLOYMENT_KEYS, "deployment");
}

/** Whether a defense allocation is valid (each 0..100, total at most 100). */
export function checkDefenseAllocation(a: DefenseAllocation): RuleRejection | null {
  return checkAllocationSplit(a, DEFENSE_ALLOCATION_KEYS, "defense");
}

/**
 * A slider change as the spec's screens apply it: a change that would push the total above
 * 100 is ignored (the split is returned unchanged); values are clamped to 0..100.
 */
export function applySliderChange<T extends { [K in keyof T]: number }>(split: T, key: keyof T, value: number): T {
  const clamped = Math.max(0, Math.min(100, Math.round(Number.isFinite(value) ? value : 0)));
  const total = (Object.values(split) as number[]).reduce((s, v) => s + v, 0) - split[key] + clamped;
  if (total > MAX_ALLOCATION_TOTAL) return split;
  return { ...split, [key]: clamped };
}

/** Unit counts per deployment group (floor of units x share), for the strategy screen. */
export function computeDeploymentGroups(country: Pick<CountryState, "troops" | "jets" | "turrets" | "tanks">, d: Deployment): Record<keyof Deployment, UnitCounts> {
  const group = (pct: number): UnitCounts => ({
    troops: Math.floor((country.troops * pct) / 100),
    jets: Math.floor((country.jets * pct) / 100),
    turrets: Math.floor((country.turrets * pct) / 100),
    tanks: Math.floor((country.tanks * pct) / 100),
  });
  return { garrison: group(d.garrison), patrol: group(d.patrol), reserve: group(d.reserve), expedition: group(d.expedition) };
}

/** The combat modifiers (percent) a country's settings give; docs/rules.md "Deployment and defense". */
export interface PostureEffects {
  /** defence power, from deployment garrison, alert level */
  defensePct: number;
  /** attack power, from deployment expedition, alert level */
  attackPct: number;
  /** land and buildings lost when defeated, from deployment patrol */
  landLossPct: number;
  /** own casualties attacking or defending, from deployment reserve */
  casualtiesPct: number;
  /** own casualties when defending, from the defense garrison (fortified positions) */
  defendingCasualtiesPct: number;
  /** defence against ground attacks, from the perimeter */
  groundDefensePct: number;
  /** defence against air attacks, from air defense */
  airDefensePct: number;
  /** defence against spy attacks, from counter-intelligence */
  spyDefensePct: number;
  /** extra chance (percent points) to intercept each missile, from air defense */
  missileInterceptPct: number;
}

/** The combat modifiers of a deployment, a defense allocation and an alert level. */
export function computePostureEffects(d: Deployment, a: DefenseAllocation, alert: AlertLevel): PostureEffects {
  const q = (v: number) => v / ALLOCATION_EFFECT_DIVISOR;
  return {
    defensePct: ((100 + q(d.garrison)) * ALERT_EFFECTS[alert].defensePct) / 100,
    attackPct: ((100 + q(d.expedition)) * ALERT_EFFECTS[alert].attackPct) / 100,
    landLossPct: 100 - q(d.patrol),
    casualtiesPct: 100 - q(d.reserve),
    defendingCasualtiesPct: 100 - q(a.garrison),
    groundDefensePct: 100 + q(a.perimeter),
    airDefensePct: 100 + q(a.airDefense),
    spyDefensePct: 100 + a.counterIntel / COUNTER_INTEL_EFFECT_DIVISOR,
    missileInterceptPct: q(a.airDefense),
  };
}

// ---------------------------------------------------------------------------------------
// Missiles (designed: bought, stored at military bases, warheads gated by weapons research)

/** Price of one missile, dollars. */
export const MISSILE_PRICE = 20_000;
/** Missiles one military base can store. */
export const MISSILES_PER_BASE = 2;
/** Largest purchase in one order. */
export const MAX_MISSILES_PER_PURCHASE = 50;

/** Missile storage: 2 per military base. */
export function computeMissileCapacity(country: Pick<CountryState, "buildings">): number {
  return country.buildings.military_bases * MISSILES_PER_BASE;
}

/** Whether `quantity` missiles can be bought: a whole number 1..50, room at the bases, and the cash. */
export function checkBuyMissiles(country: Pick<CountryState, "cash" | "missiles" | "buildings">, quantity: number): RuleRejection | null {
  if (!Number.isSafeInteger(quantity) || quantity < 1 || quantity > MAX_MISSILES_PER_PURCHASE) {
    return reject("missiles/invalid_quantity", `Quantity must be between 1 and ${MAX_MISSILES_PER_PURCHASE}`);
  }
  const capacity = computeMissileCapacity(country);
  if (capacity === 0) return reject("missiles/no_bases", "Missiles are stored at military bases: build one first");
  if (country.missiles + quantity > capacity) {
    return reject("missiles/over_capacity", `Your military bases store ${capacity} missiles: room for ${Math.max(0, capacity - country.missiles)} more`);
  }
  const cost = quantity * MISSILE_PRICE;
  if (cost > country.cash) return reject("missiles/insufficient_funds", `Insufficient funds. Need $${(cost - country.cash).toLocaleString("en-US")} more.`);
  return null;
}

/** Buys missiles: cash spent, stock raised. */
export function applyBuyMissiles<T extends CountryState>(country: T, quantity: number): T {
  return { ...country, cash: country.cash - quantity * MISSILE_PRICE, missiles: country.missiles + quantity };
}

// ---------------------------------------------------------------------------------------
// Protection: new players and the GDI

/** Default hours of new-player protection (the server's NEW_PLAYER_PROTECTION_HOURS). */
export const DEFAULT_NEW_PLAYER_PROTECTION_HOURS = 72;
/** GDI membership fee, dollars per acre (at least GDI_MIN_FEE). */
export const GDI_FEE_PER_ACRE = 100;
export const GDI_MIN_FEE = 5_000;
/** A member cannot leave before this much membership (ms). */
export const GDI_MIN_MEMBERSHIP_MS = 24 * HOUR_MS;
/** After leaving, joining again waits this long (ms): the price of leaving. */
export const GDI_REJOIN_COOLDOWN_MS = 24 * HOUR_MS;

/** What the GDI rules read of a country's membership. Times are epoch ms. */
export interface GdiFacts {
  member: boolean;
  joinedAt: number | null;
  leftAt: number | null;
}

/** The GDI fee: 100 dollars per acre, at least 5,000. */
export function computeGdiFee(land: number): number {
  return Math.max(GDI_MIN_FEE, land * GDI_FEE_PER_ACRE);
}

/** Whether the country may join the GDI now. */
export function checkJoinGdi(country: Pick<CountryState, "cash" | "land">, gdi: GdiFacts, now: number): RuleRejection | null {
  if (gdi.member) return reject("gdi/already_member", "You are already a member of the GDI");
  if (gdi.leftAt !== null && now - gdi.leftAt < GDI_REJOIN_COOLDOWN_MS) {
    const hours = Math.ceil((GDI_REJOIN_COOLDOWN_MS - (now - gdi.leftAt)) / HOUR_MS);
    return reject("gdi/rejoin_cooldown", `You left the GDI recently: you can join again in ${hours} hour(s)`);
  }
  const fee = computeGdiFee(country.land);
  if (fee > country.cash) return reject("gdi/insufficient_funds", `Insufficient funds. Need $${(fee - country.cash).toLocaleString("en-US")} more.`);
  return null;
}

/** Whether the country may leave the GDI now. */
export function checkLeaveGdi(gdi: GdiFacts, now: number): RuleRejection | null {
  if (!gdi.member) return reject("gdi/not_member", "You are not a member of the GDI");
  if (gdi.joinedAt !== null && now - gdi.joinedAt < GDI_MIN_MEMBERSHIP_MS) {
    const hours = Math.ceil((GDI_MIN_MEMBERSHIP_MS - (now - gdi.joinedAt)) / HOUR_MS);
    return reject("gdi/min_membership", `GDI membership lasts at least 24 hours: ${hours} hour(s) left`);
  }
  return null;
}
