import type { BuildingCounts, BuildingType, CountryState, GovernmentType, RuleRejection, TechLevels, UnitType } from "./country.js";
import { BUILDING_TYPES, UNIT_TYPES, emptyBuildings, reject } from "./country.js";
import { BUILDING_DEFINITIONS } from "./buildings.js";
import { GOVERNMENTS } from "./governments.js";
import { computeNetworth } from "./networth.js";
import { computeTechEffects } from "./research.js";
import type { Rng } from "./rng.js";
import {
  ALERT_EFFECTS,
  BRIGADE_DUTY_DEFENSE_PCT,
  DEFAULT_ALERT_LEVEL,
  DEFAULT_DEFENSE_ALLOCATION,
  DEFAULT_DEPLOYMENT,
  UNIT_STATS,
  computeMilitaryUpkeep,
  computePostureEffects,
  computeReadiness,
  computeUnitStrengthPct,
  type AlertLevel,
  type DefenseAllocation,
  type Deployment,
} from "./military.js";

/**
 * Combat: the nine attack types of the spec, the launch validation with the spec's messages,
 * attack and defence power, battle resolution (designed from QM Promisance, OpenDominion and
 * Earth Empires; docs/rules.md "Combat"), the attack preview on what the attacker may know,
 * target analysis, war-room power bands and alliance support. Pure: the battle's dice are an
 * Rng argument, so a stored seed replays a battle exactly.
 */

// ---------------------------------------------------------------------------------------
// Attack types

export const ATTACK_TYPE_IDS = ["standard_strike", "planned_strike", "guerrilla_strike", "bombing_run", "artillery_barrage", "missile", "nuclear_missile", "chemical_missile", "spy"] as const;
export type AttackTypeId = (typeof ATTACK_TYPE_IDS)[number];
/** The spec's attack categories. */
export type AttackCategory = "ground" | "air" | "special" | "missile";

/** One attack type (the spec's entity plus what the battle rules read). */
export interface AttackTypeDefinition {
  id: AttackTypeId;
  name: string;
  description: string;
  /** units that may be sent (none for missiles) */
  allowedUnits: readonly UnitType[];
  /** the defender's units that fight back */
  countersFrom: readonly UnitType[];
  turnCost: number;
  category: AttackCategory;
  /** fewest units (non-missile) or missiles that may be sent */
  minUnits: number;
  /** most missiles per launch (missile types), null otherwise */
  maxUnits: number | null;
  /** share of the standard land grab this type takes (percent; 0 = takes no land) */
  landFactorPct: number;
  /** share of the captured buildings' keep rate the attacker keeps (percent; 0 = all razed) */
  keepFactorPct: number;
  /** extra buildings destroyed on land not taken, per mille of each type */
  extraDestroyPermille: number;
  /** whether a victory plunders cash, food and oil */
  plunders: boolean;
  /** weapons research level the launch needs (missile warheads) */
  weaponsRequired: number;
}

const GROUND_ALLOWED: readonly UnitType[] = ["troops", "tanks", "jets"];
const STANDARD_COUNTERS: readonly UnitType[] = ["troops", "tanks", "jets", "turrets"];

/** The spec's attack-type table (turns, units used, countered by, missile maxima), with the designed battle factors. */
export const ATTACK_TYPES: Readonly<Record<AttackTypeId, AttackTypeDefinition>> = {
  standard_strike: {
    id: "standard_strike",
    name: "Standard Strike",
    description: "Troops, tanks and jets against the whole defence: takes land with some buildings intact.",
    allowedUnits: GROUND_ALLOWED,
    countersFrom: STANDARD_COUNTERS,
    turnCost: 2,
    category: "ground",
    minUnits: 10,
    maxUnits: null,
    landFactorPct: 100,
    keepFactorPct: 100,
    extraDestroyPermille: 0,
    plunders: true,
    weaponsRequired: 0,
  },
  planned_strike: {
    id: "planned_strike",
    name: "Planned Strike",
    description: "A standard strike prepared for 12 hours: +50% strength; its units rest 12 hours after.",
    allowedUnits: GROUND_ALLOWED,
    countersFrom: STANDARD_COUNTERS,
    turnCost: 2,
    category: "special",
    minUnits: 10,
    maxUnits: null,
    landFactorPct: 100,
    keepFactorPct: 100,
    extraDestroyPermille: 0,
    plunders: true,
    weaponsRequired: 0,
  },
  guerrilla_strike: {
    id: "guerrilla_strike",
    name: "Guerrilla Strike",
    description: "Troops only, against troops only: takes less land and razes the buildings on it.",
    allowedUnits: ["troops"],
    countersFrom: ["troops"],
    turnCost: 2,
    category: "ground",
    minUnits: 10,
    maxUnits: null,
    landFactorPct: 60,
    keepFactorPct: 0,
    extraDestroyPermille: 0,
    plunders: true,
    weaponsRequired: 0,
  },
  bombing_run: {
    id: "bombing_run",
    name: "Bombing Run",
    description: "Jets against turrets: destroys buildings beyond the land it takes, keeps fewer.",
    allowedUnits: ["jets"],
    countersFrom: ["turrets"],
    turnCost: 2,
    category: "air",
    minUnits: 1,
    maxUnits: null,
    landFactorPct: 50,
    keepFactorPct: 72,
    extraDestroyPermille: 10,
    plunders: false,
    weaponsRequired: 0,
  },
  artillery_barrage: {
    id: "artillery_barrage",
    name: "Artillery Barrage",
    description: "Tanks against tanks: takes land and shells the buildings around it.",
    allowedUnits: ["tanks"],
    countersFrom: ["tanks"],
    turnCost: 2,
    category: "ground",
    minUnits: 1,
    maxUnits: null,
    landFactorPct: 80,
    keepFactorPct: 90,
    extraDestroyPermille: 5,
    plunders: true,
    weaponsRequired: 0,
  },
  missile: {
    id: "missile",
    name: "Cruise Missile",
    description: "Conventional warheads: destroy land with its buildings and kill people. Turrets and SDI intercept.",
    allowedUnits: [],
    countersFrom: ["turrets"],
    turnCost: 3,
    category: "missile",
    minUnits: 1,
    maxUnits: 10,
    landFactorPct: 0,
    keepFactorPct: 0,
    extraDestroyPermille: 0,
    plunders: false,
    weaponsRequired: 0,
  },
  nuclear_missile: {
    id: "nuclear_missile",
    name: "Nuclear Missile",
    description: "Destroys land, buildings, people and units. Needs Weapons research level 5.",
    allowedUnits: [],
    countersFrom: ["turrets"],
    turnCost: 3,
    category: "missile",
    minUnits: 1,
    maxUnits: 5,
    landFactorPct: 0,
    keepFactorPct: 0,
    extraDestroyPermille: 0,
    plunders: false,
    weaponsRequired: 5,
  },
  chemical_missile: {
    id: "chemical_missile",
    name: "Chemical Missile",
    description: "Kills people, troops and spies; leaves land and buildings. Needs Weapons research level 2.",
    allowedUnits: [],
    countersFrom: ["turrets"],
    turnCost: 3,
    category: "missile",
    minUnits: 1,
    maxUnits: 8,
    landFactorPct: 0,
    keepFactorPct: 0,
    extraDestroyPermille: 0,
    plunders: false,
    weaponsRequired: 2,
  },
  spy: {
    id: "spy",
    name: "Spy Raid",
    description: "Spies against spies: kills enemy agents, takes nothing.",
    allowedUnits: ["spies"],
    countersFrom: ["spies"],
    turnCost: 1,
    category: "special",
    minUnits: 1,
    maxUnits: null,
    landFactorPct: 0,
    keepFactorPct: 0,
    extraDestroyPermille: 0,
    plunders: false,
    weaponsRequired: 0,
  },
};

/** True for one of the nine attack type ids. */
export function isAttackTypeId(value: unknown): value is AttackTypeId {
  return typeof value === "string" && (ATTACK_TYPE_IDS as readonly string[]).includes(value);
}

/** Missile types spend missiles, not units. */
export function isMissileAttack(type: AttackTypeId): boolean {
  return ATTACK_TYPES[type].category === "missile";
}

/** Attacks that need a brigade to lead them (every unit attack but the spy raid). */
export function needsBrigade(type: AttackTypeId): boolean {
  return !isMissileAttack(type) && type !== "spy";
}

/** The War Log's attack-type filter (spec: All, Guerrilla, Bombing, Artillery, Chemical, Cruise, Nuclear, Spy), plus Standard and Planned. */
export const WAR_LOG_FILTERS: readonly { label: string; attackType: AttackTypeId | null }[] = [
  { label: "All", attackType: null },
  { label: "Guerrilla", attackType: "guerrilla_strike" },
  { label: "Bombing", attackType: "bombing_run" },
  { label: "Artillery", attackType: "artillery_barrage" },
  { label: "Chemical", attackType: "chemical_missile" },
  { label: "Cruise", attackType: "missile" },
  { label: "Nuclear", attackType: "nuclear_missile" },
  { label: "Spy", attackType: "spy" },
  { label: "Standard", attackType: "standard_strike" },
  { label: "Planned", attackType: "planned_strike" },
];

/** Unit labels as the spec's messages use them. */
export const UNIT_LABELS: Readonly<Record<UnitType | "missiles", string>> = {
  troops: "Troops",
  jets: "Jets",
  turrets: "Turrets",
  tanks: "Tanks",
  spies: "Spies",
  missiles: "Missiles",
};

// ---------------------------------------------------------------------------------------
// Orders and their validation (the spec's combat messages)

/** Units (and missiles) sent on an attack. Absent means 0. */
export type AttackUnits = Partial<Record<UnitType | "missiles", number>>;

/** What the player chose on the combat screens. */
export interface AttackOrder {
  attackType: AttackTypeId | null;
  targetCountryId: number | null;
  units: AttackUnits;
}

/** The units of an order as whole numbers, 0 where absent. */
export function orderUnits(units: AttackUnits): Record<UnitType | "missiles", number> {
  return {
    troops: units.troops ?? 0,
    jets: units.jets ?? 0,
    turrets: units.turrets ?? 0,
    tanks: units.tanks ?? 0,
    spies: units.spies ?? 0,
    missiles: units.missiles ?? 0,
  };
}

/**
 * The combat screen's validation, in the spec's order, with its messages:
 * 'No attack type selected'; 'Spies can only be used for spy operations'; '{unit} cannot be
 * used for {attack name}'; 'Insufficient {unit}: have {n}, need {m}'; 'No units allocated for
 * attack' (not for missiles); 'Minimum {n} units required for {name}' (non-missile);
 * 'Maximum {n} missiles allowed for {name}' (missiles). `available` is what may be sent
 * (owned, less units in rehabilitation). The spec's client counted missiles in the troops
 * field; here they travel as `units.missiles`.
 */
export function checkAttackUnits(attackType: AttackTypeId | null, units: AttackUnits, available: Record<UnitType | "missiles", number>): RuleRejection | null {
  if (!attackType) return reject("combat/no_attack_type", "No attack type selected");
  const type = ATTACK_TYPES[attackType];
  const u = orderUnits(units);
  for (const key of [...UNIT_TYPES, "missiles"] as const) {
    const v = u[key];
    if (!Number.isSafeInteger(v) || v < 0) return reject("combat/invalid_units", `${UNIT_LABELS[key]} must be a whole number of 0 or more`);
  }
  if (attackType !== "spy" && u.spies > 0) return reject("combat/spies_not_allowed", "Spies can only be used for spy operations");
  for (const unit of UNIT_TYPES) {
    if (u[unit] > 0 && !type.allowedUnits.includes(unit)) return reject("combat/unit_not_allowed", `${UNIT_LABELS[unit]} cannot be used for ${type.name}`);
  }
  if (!isMissileAttack(attackType) && u.missiles > 0) return reject("combat/unit_not_allowed", `${UNIT_LABELS.missiles} cannot be used for ${type.name}`);
  for (const key of [...type.allowedUnits, ...(isMissileAttack(attackType) ? (["missiles"] as const) : [])]) {
    if (u[key] > available[key]) return reject("combat/insufficient_units", `Insufficient ${key}: have ${available[key]}, need ${u[key]}`);
  }
  if (isMissileAttack(attackType)) {
    if (u.missiles < type.minUnits) return reject("combat/min_missiles", `Minimum ${type.minUnits} missiles required for ${type.name}`);
    if (type.maxUnits !== null && u.missiles > type.maxUnits) return reject("combat/max_missiles", `Maximum ${type.maxUnits} missiles allowed for ${type.name}`);
    return null;
  }
  const sent = type.allowedUnits.reduce((s, unit) => s + u[unit], 0);
  if (sent === 0) return reject("combat/no_units", "No units allocated for attack");
  if (sent < type.minUnits) return reject("combat/min_units", `Minimum ${type.minUnits} units required for ${type.name}`);
  return null;
}

/** 'Insufficient turns: need {n}, have {m}' (the spec's attack preparation message). */
export function checkAttackTurns(attackType: AttackTypeId, turns: number): RuleRejection | null {
  const need = ATTACK_TYPES[attackType].turnCost;
  if (turns < need) return reject("combat/insufficient_turns", `Insufficient turns: need ${need}, have ${turns}`);
  return null;
}

/** Missile warheads gated by weapons research ('Nuclear Missile requires Weapons research level 5'). */
export function checkAttackTech(attackType: AttackTypeId, tech: TechLevels): RuleRejection | null {
  const need = ATTACK_TYPES[attackType].weaponsRequired;
  if (tech.weapons < need) return reject("combat/research_required", `${ATTACK_TYPES[attackType].name} requires Weapons research level ${need}`);
  return null;
}

/** Whether an attack type card can be chosen: a missile type always; else some allowed unit owned ('Insufficient units'). */
export function attackTypeSelectable(attackType: AttackTypeId, available: Record<UnitType | "missiles", number>): { selectable: boolean; reason: string | null } {
  if (isMissileAttack(attackType)) return { selectable: true, reason: null };
  const owned = ATTACK_TYPES[attackType].allowedUnits.some((u) => available[u] > 0);
  return owned ? { selectable: true, reason: null } : { selectable: false, reason: "Insufficient units" };
}

/** The spec's clamp of a unit input: a whole number between 0 and the units owned. */
export function clampUnitInput(value: number, owned: number): number {
  if (!Number.isFinite(value)) return 0;
  return Math.max(0, Math.min(owned, Math.floor(value)));
}

/** The 50% button: half of every allowed unit (floor), or half the missiles up to the type's maximum. */
export function halfForces(attackType: AttackTypeId, available: Record<UnitType | "missiles", number>): AttackUnits {
  const type = ATTACK_TYPES[attackType];
  if (isMissileAttack(attackType)) return { missiles: Math.min(type.maxUnits ?? Infinity, Math.floor(available.missiles / 2)) };
  const units: AttackUnits = {};
  for (const unit of type.allowedUnits) units[unit] = Math.floor(available[unit] / 2);
  return units;
}

// ---------------------------------------------------------------------------------------
// Targeting: protection, the GDI band, the attack band

/** Smallest target an attacker may hit: 40% of its own networth (stops the strong farming the tiny). */
export const ATTACK_BAND_MIN_PCT = 40;
/** GDI band: a GDI member can be attacked only by countries whose networth is within 2/3 to 3/2 of its own. */
export const GDI_BAND_LOW_PCT = 67;
export const GDI_BAND_HIGH_PCT = 150;

/** Protection status as target lists show it (underscore read as a space). */
export type CombatProtectionStatus = "unprotected" | "gdi_protected" | "new_player_protection";

/** The public facts the targeting rules read. Times are epoch ms. */
export interface TargetFacts {
  id: number;
  networth: number;
  land: number;
  /** end of new-player protection (ms), 0 when none */
  protectedUntil: number;
  gdiMember: boolean;
  isEliminated: boolean;
  allianceId: number | null;
}

/** The public protection status of a country at `now`. */
export function computeProtectionStatus(facts: Pick<TargetFacts, "protectedUntil" | "gdiMember">, now: number): CombatProtectionStatus {
  if (facts.protectedUntil > now) return "new_player_protection";
  if (facts.gdiMember) return "gdi_protected";
  return "unprotected";
}

/** Whether `networth` lies in the GDI band of `targetNetworth`. */
export function inGdiBand(networth: number, targetNetworth: number): boolean {
  return networth * 100 >= targetNetworth * GDI_BAND_LOW_PCT && networth * 100 <= targetNetworth * GDI_BAND_HIGH_PCT;
}

/**
 * Whether `attacker` may attack `target` now. In order: own country, eliminated target, own
 * alliance, new-player protection, the attack band (the target must have at least 40% of the
 * attacker's networth), the GDI (a member is out of reach of countries outside the band, and a
 * member attacks only inside it), unless the attacker has declared war on the target: a war
 * declaration bypasses the GDI, nothing else.
 */
export function checkAttackTarget(attacker: TargetFacts, target: TargetFacts, context: { now: number; atWar: boolean }): RuleRejection | null {
  if (attacker.id === target.id) return reject("combat/own_country", "You cannot attack your own country");
  if (target.isEliminated) return reject("combat/target_eliminated", "That country has been eliminated");
  if (attacker.allianceId !== null && attacker.allianceId === target.allianceId) return reject("combat/same_alliance", "You cannot attack a member of your own alliance");
  if (target.protectedUntil > context.now) return reject("combat/target_protected", "Target is under new player protection");
  if (target.networth * 100 < attacker.networth * ATTACK_BAND_MIN_PCT) {
    return reject("combat/target_too_small", `Target is too small to attack: its networth is under ${ATTACK_BAND_MIN_PCT}% of yours`);
  }
  if (!context.atWar) {
    if (target.gdiMember && !inGdiBand(attacker.networth, target.networth)) return reject("combat/gdi_protected", "Target is protected by the GDI: your networth is out of its range");
    if (attacker.gdiMember && !inGdiBand(attacker.networth, target.networth)) {
      return reject("combat/gdi_member_out_of_range", "GDI members may only attack countries within the GDI networth range");
    }
  }
  return null;
}

// ---------------------------------------------------------------------------------------
// Power

/** A country's forces and what strengthens them. */
export interface ForceOwner {
  governmentType: GovernmentType;
  tech: TechLevels;
}

/**
 * Strength of some units of one owner: sum of units x base strength x unit% (weapons,
 * warfare) x government strength x military tech (0.5% per level) x military strategy. Spies
 * fight with the spy multipliers instead (spy tech, the government's spy multiplier).
 */
export function computeForcePower(owner: ForceOwner, units: Partial<Record<UnitType, number>>): number {
  const e = computeTechEffects(owner.tech);
  const gov = GOVERNMENTS[owner.governmentType];
  let military = 0;
  for (const unit of UNIT_TYPES) {
    if (unit === "spies") continue;
    const n = units[unit] ?? 0;
    if (n > 0) military += n * UNIT_STATS[unit].strength * (computeUnitStrengthPct(owner.tech, unit) / 100);
  }
  const spies = (units.spies ?? 0) * UNIT_STATS.spies.strength * (e.spyPct / 100) * (gov.spyPct / 100);
  return military * (gov.strengthPct / 100) * (e.strengthPermille / 1000) * (e.strategyStrengthPct / 100) + spies;
}

/** Percent bonus the owner's research gives its units (the report's tech bonus): military x strategy x weapons/warfare on these units. */
export function computeTechBonusPct(owner: ForceOwner, units: Partial<Record<UnitType, number>>): number {
  const base = computeForcePower({ governmentType: "democracy", tech: zeroTech() }, units);
  if (base <= 0) return 0;
  const withTech = computeForcePower({ governmentType: "democracy", tech: owner.tech }, units);
  return Math.round((withTech / base - 1) * 1000) / 10;
}

function zeroTech(): TechLevels {
  return { military: 0, medical: 0, business: 0, residential: 0, agricultural: 0, warfare: 0, military_strategy: 0, weapons: 0, industrial: 0, spy: 0, sdi: 0 };
}

/** Combat factor of readiness: (50 + readiness / 2) percent, so an unready force fights at half strength. */
export function readinessFactor(readiness: number): number {
  return (50 + Math.max(0, Math.min(100, readiness)) / 2) / 100;
}

/** War declaration: +10% attack against the declared target (spec). */
export const WAR_ATTACK_BONUS_PCT = 10;
/** Planned strike: +50% strength (spec). */
export const PLANNED_STRIKE_BONUS_PCT = 50;
/** The attacker wins when attack power exceeds defence x 1.05 (QM Promisance). */
export const VICTORY_THRESHOLD = 1.05;
/** Attack-day luck: attack power x a uniform draw in [0.9, 1.1). */
export const ATTACK_LUCK_MIN = 0.9;
export const ATTACK_LUCK_MAX = 1.1;
/** People defend their homes: 1 defence point per 100 people (so no country has zero defence). */
export const MILITIA_PER_PERSON = 0.01;

// ---------------------------------------------------------------------------------------
// Alliance support

/** An ally's share of each relevant unit type it lends (spec: 25%, floor-rounded). */
export const ALLY_SUPPORT_PCT = 25;
/** An ally counts as active if it acted within this many hours. */
export const ACTIVE_ALLY_HOURS = 72;
/** The spec's message for an ally that cannot help. */
export const ALLY_UNAVAILABLE_MESSAGE = "Alliance support unavailable (out of range or engaged)";

/** An alliance member as the support rules read it (its private numbers stay on the server). */
export interface AllyFacts extends ForceOwner {
  id: number;
  name: string;
  units: Record<UnitType, number>;
  networth: number;
  /** epoch ms of its last action */
  lastActive: number;
  protectedUntil: number;
  isEliminated: boolean;
  /** brigades it could lead an attack with now (0: engaged) */
  readyBrigades: number;
}

/** Why an ally can or cannot help now. */
export function allyAvailability(ally: AllyFacts, opponentNetworth: number, now: number): { available: boolean; reason: string | null } {
  if (ally.isEliminated || ally.protectedUntil > now) return { available: false, reason: ALLY_UNAVAILABLE_MESSAGE };
  if (now - ally.lastActive > ACTIVE_ALLY_HOURS * 3_600_000) return { available: false, reason: ALLY_UNAVAILABLE_MESSAGE };
  // out of range: the opponent is outside the band the ally could attack itself
  if (opponentNetworth * 100 < ally.networth * ATTACK_BAND_MIN_PCT) return { available: false, reason: ALLY_UNAVAILABLE_MESSAGE };
  // engaged: every brigade of the ally is deployed or recovering
  if (ally.readyBrigades === 0) return { available: false, reason: ALLY_UNAVAILABLE_MESSAGE };
  return { available: true, reason: null };
}

/** One ally's contribution to a battle. */
export interface AllyContribution {
  countryId: number;
  name: string;
  units: Partial<Record<UnitType, number>>;
  /** its share of power after the cap */
  power: number;
}

/**
 * Alliance support: each available ally lends 25% (floor) of each unit type the battle uses;
 * the lent power together never exceeds `cap` (the side's own force: allies can at most
 * double it), scaled down evenly when it would.
 */
export function computeAllySupport(allies: readonly AllyFacts[], unitTypes: readonly UnitType[], cap: number): { contributions: AllyContribution[]; power: number } {
  const raw = allies.map((ally) => {
    const units: Partial<Record<UnitType, number>> = {};
    for (const u of unitTypes) {
      const n = Math.floor((ally.units[u] * ALLY_SUPPORT_PCT) / 100);
      if (n > 0) units[u] = n;
    }
    return { countryId: ally.id, name: ally.name, units, power: computeForcePower(ally, units) };
  });
  const total = raw.reduce((s, c) => s + c.power, 0);
  const scale = total > cap && total > 0 ? cap / total : 1;
  const contributions = raw.filter((c) => c.power > 0).map((c) => ({ ...c, power: c.power * scale }));
  return { contributions, power: Math.min(total, Math.max(0, cap)) };
}

// ---------------------------------------------------------------------------------------
// Battle resolution

/** Base casualty rates (OpenDominion): 8.5% of the attacking units, 3.6% of the defending ones. */
export const ATTACKER_CASUALTY_RATE = 0.085;
export const DEFENDER_CASUALTY_RATE = 0.036;
/** A failed attack costs more; an overwhelmed one (power ratio under 0.6) costs twice. */
export const FAILED_ATTACK_CASUALTY_FACTOR = 1.25;
export const OVERWHELMED_RATIO = 0.6;
/** However overwhelming a victory, at least this share of the units sent takes part (and can die). */
export const MIN_ENGAGED_SHARE = 0.1;
/** Turrets are dug in: they are lost at half the rate. */
export const TURRET_CASUALTY_FACTOR = 0.5;
/**
 * Land taken by a full land grab: 4% of the target's land at half the attacker's size, up to
 * 10% at 1.5x. It was Earth Empires' 3-8%; issue 27's seasons showed the raider 15-18% below
 * the median and the farmer, the softest target (most land per networth, least army), 40%
 * above it, so the share rose a quarter (docs/balance.md "Rule changes"). The daily cap (15%)
 * is unchanged.
 */
export const LAND_GRAB_MIN_PCT = 4;
export const LAND_GRAB_MAX_PCT = 10;
/** Diminishing returns: the k-th land-taking hit on a target within 24 hours yields 0.75^k, at least 0.1. */
export const REPEAT_HIT_FACTOR = 0.75;
export const REPEAT_HIT_FLOOR = 0.1;
/** No country loses more than 15% of its land (as it was before the day's hits) within 24 hours. */
export const DAILY_LAND_LOSS_CAP_PCT = 15;
/** Share of a lost building type the attacker keeps standing (QM Promisance's gain rates). */
export const BUILDING_KEEP_PCT: Readonly<Record<BuildingType, number>> = {
  enterprise_zones: 70,
  residences: 70,
  industrial_complexes: 50,
  military_bases: 50,
  research_labs: 60,
  farms: 30,
  oil_rigs: 50,
  construction_sites: 70,
};
/** Plunder: a victory carries off half the land share of the target's cash, food and oil, at most 5%. */
export const PLUNDER_MAX_PCT = 5;

/** Missile warheads: what one hit does (fractions of the target's holdings). */
export const WARHEADS: Readonly<Record<"missile" | "nuclear_missile" | "chemical_missile", { landPct: number; populationPct: number; unitPct: number; unitTypes: readonly UnitType[]; power: number }>> = {
  missile: { landPct: 1, populationPct: 1, unitPct: 0, unitTypes: [], power: 1_000 },
  chemical_missile: { landPct: 0, populationPct: 3, unitPct: 2, unitTypes: ["troops", "spies"], power: 2_000 },
  nuclear_missile: { landPct: 2, populationPct: 5, unitPct: 2, unitTypes: ["troops", "jets", "turrets", "tanks"], power: 5_000 },
};
/** Interception never exceeds 75% per missile. */
export const MAX_INTERCEPT_PCT = 75;
/** Turrets per acre intercept 5 percent points each, at most 25. */
export const TURRET_INTERCEPT_PCT_PER_ACRE = 5;
export const MAX_TURRET_INTERCEPT_PCT = 25;

/** A side's settings as combat reads them (absent: the spec's defaults). */
export interface CombatPosture {
  deployment: Deployment;
  defense: DefenseAllocation;
  alertLevel: AlertLevel;
}

/** The spec's default posture. */
export function defaultPosture(): CombatPosture {
  return { deployment: { ...DEFAULT_DEPLOYMENT }, defense: { ...DEFAULT_DEFENSE_ALLOCATION }, alertLevel: DEFAULT_ALERT_LEVEL };
}

/** The attacker as resolveBattle reads it. */
export interface AttackerInput {
  id: number;
  name: string;
  /** the country after the attack's turns were spent and run */
  state: CountryState;
  posture: CombatPosture;
  /** readiness of the leading brigade (null for missiles and spy raids) */
  brigadeReadiness: number | null;
  /** whether the attacker has an active war declaration on the defender */
  atWar: boolean;
  /** allies lending support (already checked available) */
  allies: readonly AllyFacts[];
  /** attack bonus from outside the country, percent: alliance bonuses and diplomatic relations (alliance work) @default 0 */
  bonusPct?: number;
  /** units deserted during the attack's economy turns (the treasury ran dry): the log says so first @default false */
  desertedBeforeBattle?: boolean;
}

/** Everything resolveBattle was given for one battle: stored with the battle, so its seed replays it (issue 30). */
export interface BattleReplayInput {
  attacker: AttackerInput;
  defender: DefenderInput;
  order: { attackType: AttackTypeId; units: AttackUnits };
}

/** The first log line of a battle whose attacker lost units while preparing it. */
export const DESERTION_LINE = "Units deserted while the attack was prepared (the treasury ran dry).";

/**
 * Units an ally committed to this defence by answering a defense request (alliance work): they
 * count in full, not at the 25% of alliance support, and together at most as much as the
 * defender's own force; like alliance support they lend strength and lose nothing.
 */
export interface CommittedSupport extends ForceOwner {
  id: number;
  name: string;
  units: Partial<Record<UnitType, number>>;
}

/** The defender as resolveBattle reads it. */
export interface DefenderInput {
  id: number;
  name: string;
  state: CountryState;
  posture: CombatPosture;
  /** its brigades on defensive duty now */
  deployedBrigades: number;
  allies: readonly AllyFacts[];
  /** acres it lost to attacks and missiles within the last 24 hours */
  landLostToday: number;
  /** hits that took land from it within the last 24 hours */
  hitsToday: number;
  /** defence bonus from outside the country, percent: alliance bonuses and diplomatic relations (alliance work) @default 0 */
  bonusPct?: number;
  /** allies' units committed to this defence (alliance defense requests) @default [] */
  committed?: readonly CommittedSupport[];
}

/** Power of the committed units of the types that counter an attack, at most `cap` (the defender's own). */
export function computeCommittedPower(committed: readonly CommittedSupport[], unitTypes: readonly UnitType[], cap: number): number {
  let total = 0;
  for (const c of committed) {
    const units: Partial<Record<UnitType, number>> = {};
    for (const u of unitTypes) if ((c.units[u] ?? 0) > 0) units[u] = c.units[u];
    total += computeForcePower(c, units);
  }
  return Math.min(total, Math.max(0, cap));
}

/** Unit counts of the five types. */
export type UnitTally = Record<UnitType, number>;
/** Cash, food and oil. */
export interface ResourceTally {
  cash: number;
  food: number;
  oil: number;
}

/** Every field of the spec's battle report the battle decides (identity fields are the server's). */
export interface BattleResult {
  attackType: AttackTypeId;
  outcome: "attacker_victory" | "defender_victory";
  attackerForces: UnitTally;
  defenderForces: UnitTally;
  attackerCasualties: UnitTally;
  defenderCasualties: UnitTally;
  /** acres the attacker took */
  landCaptured: number;
  /** acres missiles destroyed */
  landDestroyed: number;
  resourcesGained: ResourceTally;
  resourcesLost: ResourceTally;
  /** defender buildings destroyed (razed, not kept) */
  buildingsDestroyed: number;
  /** buildings the attacker took over, by type */
  buildingsCaptured: BuildingCounts;
  /** buildings the defender lost, by type (captured or destroyed) */
  buildingsLost: BuildingCounts;
  populationKilled: number;
  /** people who came with the captured land */
  populationCaptured: number;
  attackPower: number;
  defensePower: number;
  powerRatio: number;
  /** share of the strength destroyed that was the enemy's, percent (attacker's view) */
  efficiencyRating: number;
  /** what the gains are worth to the attacker, 0..100 */
  strategicValue: number;
  attackerTechBonus: number;
  defenderTechBonus: number;
  /** attack: the weapons research percent of the sent units; missiles: percent not intercepted */
  weaponsEffectiveness: number;
  allianceSupport: { attackerAllies: AllyContribution[]; defenderAllies: AllyContribution[] };
  missilesLaunched: number;
  missilesIntercepted: number;
  combatLog: string[];
}

/** What resolveBattle returns: the report, both next states, and the units lost to rehabilitation bookkeeping. */
export interface BattleOutcome {
  result: BattleResult;
  attacker: CountryState;
  defender: CountryState;
  /** attacking units that came home (for a planned strike's rehabilitation) */
  survivors: UnitTally;
  /** the resolution step by step (the replay); their lines are result.combatLog */
  phases: BattlePhase[];
}

const fmt = (n: number) => Math.round(n).toLocaleString("en-US");

function emptyTally(): UnitTally {
  return { troops: 0, jets: 0, turrets: 0, tanks: 0, spies: 0 };
}

const UNIT_SINGULAR: Readonly<Record<UnitType, string>> = { troops: "troop", jets: "jet", turrets: "turret", tanks: "tank", spies: "spy" };

/** Units as the combat log writes them ("1,200 troops, 1 jet"; "no units"). */
export function unitList(t: Partial<Record<UnitType, number>>): string {
  const parts = UNIT_TYPES.filter((u) => (t[u] ?? 0) > 0).map((u) => `${fmt(t[u]!)} ${t[u] === 1 ? UNIT_SINGULAR[u] : u}`);
  return parts.length ? parts.join(", ") : "no units";
}

/** Rounds x down and adds 1 with probability equal to its fraction (so expected totals are exact). */
function randomRound(x: number, rng: Rng): number {
  const base = Math.floor(x);
  return base + (rng.chance(x - base) ? 1 : 0);
}

/** The land share a full land grab takes, percent of the target's land: LAND_GRAB_MIN_PCT at half the attacker's size, rising to LAND_GRAB_MAX_PCT at 1.5x. */
export function computeLandGrabPct(attackerLand: number, defenderLand: number): number {
  if (attackerLand <= 0 || defenderLand <= 0) return LAND_GRAB_MIN_PCT;
  const range = defenderLand / attackerLand;
  return Math.max(LAND_GRAB_MIN_PCT, Math.min(LAND_GRAB_MAX_PCT, LAND_GRAB_MIN_PCT + (LAND_GRAB_MAX_PCT - LAND_GRAB_MIN_PCT) * (range - 0.5)));
}

/** Diminishing returns of the k-th land-taking hit within 24 hours (k = hits already taken). */
export function repeatHitFactor(hitsToday: number): number {
  return Math.max(REPEAT_HIT_FLOOR, REPEAT_HIT_FACTOR ** Math.max(0, hitsToday));
}

/** Acres still takeable from a target today: 15% of its land before today's losses, less those losses. */
export function computeDailyLandAllowance(land: number, landLostToday: number): number {
  return Math.max(0, Math.floor(((land + landLostToday) * DAILY_LAND_LOSS_CAP_PCT) / 100) - landLostToday);
}

/** Land used by buildings. */
function landUsed(b: BuildingCounts): number {
  return BUILDING_TYPES.reduce((s, t) => s + b[t] * BUILDING_DEFINITIONS[t].land, 0);
}

/**
 * Which buildings go with `acres` acres taken from a country: barren land first in proportion
 * (barren share of the land), then buildings in proportion to the land they use, then more
 * barren land or whole buildings (one-acre types first) until the acres are covered. The
 * result never leaves the country with buildings on more land than it has; it may take up to
 * 2 acres more than asked when only a 2- or 3-acre building is left to take.
 */
export function selectLandLoss(land: number, buildings: BuildingCounts, acres: number, rng: Rng): { acres: number; lost: BuildingCounts } {
  const lost = emptyBuildings();
  acres = Math.max(0, Math.min(acres, land));
  if (acres === 0) return { acres: 0, lost };
  const used = landUsed(buildings);
  const free = Math.max(0, land - used);
  const barren = Math.min(free, randomRound((acres * free) / land, rng));
  const needed = acres - barren;
  if (needed > 0 && used > 0) {
    for (const t of BUILDING_TYPES) {
      lost[t] = Math.min(buildings[t], Math.floor((buildings[t] * needed) / used));
    }
  }
  let covered = barren + landUsed(lost);
  // more barren land, as far as there is some
  if (covered < acres) covered += Math.min(free - barren, acres - covered);
  // Whole buildings until the acres are covered: smallest footprint first, then largest count.
  const order = [...BUILDING_TYPES].sort((a, b) => BUILDING_DEFINITIONS[a].land - BUILDING_DEFINITIONS[b].land || buildings[b] - buildings[a]);
  while (covered < acres) {
    const t = order.find((type) => buildings[type] - lost[type] > 0);
    if (!t) break;
    lost[t] += 1;
    covered += BUILDING_DEFINITIONS[t].land;
  }
  return { acres: Math.min(covered, land), lost };
}

/** Destroys `permille` of each building type in place (no land changes hands). */
function extraDestruction(buildings: BuildingCounts, permille: number, rng: Rng): BuildingCounts {
  const out = emptyBuildings();
  if (permille <= 0) return out;
  for (const t of BUILDING_TYPES) out[t] = Math.min(buildings[t], randomRound((buildings[t] * permille) / 1000, rng));
  return out;
}

function subtractBuildings(a: BuildingCounts, b: BuildingCounts): BuildingCounts {
  const out = { ...a };
  for (const t of BUILDING_TYPES) out[t] = a[t] - b[t];
  return out;
}

function addBuildings(a: BuildingCounts, b: BuildingCounts): BuildingCounts {
  const out = { ...a };
  for (const t of BUILDING_TYPES) out[t] = a[t] + b[t];
  return out;
}

function sumBuildings(b: BuildingCounts): number {
  return BUILDING_TYPES.reduce((s, t) => s + b[t], 0);
}

/** Strength of a unit tally for efficiency (base strengths, no multipliers). */
function tallyStrength(t: UnitTally): number {
  return UNIT_TYPES.reduce((s, u) => s + t[u] * UNIT_STATS[u].strength, 0);
}

/** One step of a battle's resolution, as the replay shows it. */
export type BattlePhaseKind = "forces" | "attack" | "defense" | "clash" | "casualties" | "outcome" | "land" | "plunder" | "destruction" | "launch" | "interception" | "impact" | "damage";

/**
 * What one step of the resolution did (the battle replay, issue 30): the combat log lines it
 * wrote and the running totals after it. Everything in it is in the report too (the report's
 * log is these lines in order), so a replay shows either side nothing its report does not.
 */
export interface BattlePhase {
  kind: BattlePhaseKind;
  title: string;
  /** the combat log lines this step wrote (possibly none) */
  lines: string[];
  /** attack power once the attack is counted, else null */
  attackPower: number | null;
  /** defence power once the defence is counted, else null */
  defensePower: number | null;
  /** the attacker's units lost so far */
  attackerLosses: UnitTally;
  /** the defender's units lost so far */
  defenderLosses: UnitTally;
  /** acres captured or destroyed so far */
  landTaken: number;
  /** the defender's buildings lost so far (captured, razed or destroyed) */
  buildingsLost: number;
  populationKilled: number;
  /** cash, food and oil carried off so far */
  plunder: ResourceTally;
  /** missiles that got through so far (missile strikes) */
  missilesHit: number;
  missilesIntercepted: number;
}

/** The running totals of a battle, from which each phase is a snapshot. */
type PhaseTotals = Omit<BattlePhase, "kind" | "title" | "lines">;

/** Collects the phases of one battle; the combat log is their lines in order. */
class PhaseLog {
  readonly phases: BattlePhase[] = [];
  readonly totals: PhaseTotals = {
    attackPower: null,
    defensePower: null,
    attackerLosses: emptyTally(),
    defenderLosses: emptyTally(),
    landTaken: 0,
    buildingsLost: 0,
    populationKilled: 0,
    plunder: { cash: 0, food: 0, oil: 0 },
    missilesHit: 0,
    missilesIntercepted: 0,
  };
  add(kind: BattlePhaseKind, title: string, lines: string[]): void {
    const t = this.totals;
    this.phases.push({ kind, title, lines, ...t, attackerLosses: { ...t.attackerLosses }, defenderLosses: { ...t.defenderLosses }, plunder: { ...t.plunder } });
  }
  get combatLog(): string[] {
    return this.phases.flatMap((p) => p.lines);
  }
}

/**
 * Resolves a battle: a pure function of (attacker, defender, order, rng); docs/rules.md
 * "Combat" gives every step and its anchor. `order.units` must already have passed
 * checkAttackUnits against the attacker's available units, and the target checkAttackTarget.
 * The same inputs and the same seed give the same outcome, phases included: the server replays
 * a stored battle by calling it again (services/combat.ts battleReplayFor).
 */
export function resolveBattle(attacker: AttackerInput, defender: DefenderInput, order: { attackType: AttackTypeId; units: AttackUnits }, rng: Rng): BattleOutcome {
  return isMissileAttack(order.attackType) ? resolveMissileStrike(attacker, defender, order, rng) : resolveUnitBattle(attacker, defender, order, rng);
}

type PostureEffects = ReturnType<typeof computePostureEffects>;

/** The attack's strength: the units sent, allies, readiness, posture, war, planning, bonuses and luck (one draw). */
function attackStrength(attacker: AttackerInput, order: { attackType: AttackTypeId; units: AttackUnits }, ap: PostureEffects, rng: Rng) {
  const type = ATTACK_TYPES[order.attackType];
  const lines: string[] = [];
  const sent = orderUnits(order.units);
  const committed = emptyTally();
  for (const u of type.allowedUnits) committed[u] = sent[u];
  const a = attacker.state;
  const ownPower = computeForcePower(a, committed);
  const allies = computeAllySupport(attacker.allies, type.allowedUnits, ownPower);
  const countryReadiness = computeReadiness(a.cash, computeMilitaryUpkeep(a));
  const readiness = attacker.brigadeReadiness === null ? countryReadiness : Math.min(attacker.brigadeReadiness, countryReadiness);
  let power = (ownPower + allies.power) * readinessFactor(readiness) * (ap.attackPct / 100);
  if (attacker.brigadeReadiness !== null) lines.push(`The leading brigade fights at ${readiness}% readiness.`);
  if (allies.contributions.length > 0) lines.push(`${allies.contributions.length} allied ${allies.contributions.length === 1 ? "country lends" : "countries lend"} ${fmt(allies.power)} strength.`);
  if (attacker.atWar) {
    power *= 1 + WAR_ATTACK_BONUS_PCT / 100;
    lines.push(`War declaration in force: +${WAR_ATTACK_BONUS_PCT}% attack strength.`);
  }
  if (order.attackType === "planned_strike") {
    power *= 1 + PLANNED_STRIKE_BONUS_PCT / 100;
    lines.push(`Twelve hours of planning: +${PLANNED_STRIKE_BONUS_PCT}% attack strength.`);
  }
  if ((attacker.bonusPct ?? 0) > 0) {
    power *= 1 + attacker.bonusPct! / 100;
    lines.push(`Alliance and treaty bonuses: +${attacker.bonusPct}% attack strength.`);
  }
  power *= rng.between(ATTACK_LUCK_MIN, ATTACK_LUCK_MAX);
  return { committed, allies, power, lines };
}

/** The defence's strength against an attack type: the units that counter it, allies, committed help, readiness, posture, brigades on duty, bonuses, militia. */
function defenseStrength(defender: DefenderInput, attackType: AttackTypeId, dp: PostureEffects) {
  const type = ATTACK_TYPES[attackType];
  const lines: string[] = [];
  const d = defender.state;
  const defending = emptyTally();
  for (const u of type.countersFrom) defending[u] = d[u];
  const ownDefense = computeForcePower(d, defending);
  const allies = computeAllySupport(defender.allies, type.countersFrom, ownDefense);
  const committedPower = computeCommittedPower(defender.committed ?? [], type.countersFrom, ownDefense);
  const defenseBonus = 1 + (defender.bonusPct ?? 0) / 100;
  const readiness = computeReadiness(d.cash, computeMilitaryUpkeep(d));
  const categoryPct = attackType === "spy" ? dp.spyDefensePct : type.category === "air" ? dp.airDefensePct : dp.groundDefensePct;
  const power =
    (ownDefense + allies.power + committedPower) * readinessFactor(readiness) * (dp.defensePct / 100) * (categoryPct / 100) * (1 + (BRIGADE_DUTY_DEFENSE_PCT * defender.deployedBrigades) / 100) * defenseBonus +
    (attackType === "spy" ? 0 : d.population * MILITIA_PER_PERSON);
  if (committedPower > 0) lines.push(`Allied units answering the call for help add ${fmt(committedPower)} strength to the defence.`);
  if ((defender.bonusPct ?? 0) > 0) lines.push(`Alliance and treaty bonuses: +${defender.bonusPct}% defence strength.`);
  if (allies.contributions.length > 0) lines.push(`${allies.contributions.length} allied ${allies.contributions.length === 1 ? "country reinforces" : "countries reinforce"} the defence with ${fmt(allies.power)} strength.`);
  if (defender.deployedBrigades > 0) lines.push(`${defender.deployedBrigades} defending brigade(s) on duty: +${BRIGADE_DUTY_DEFENSE_PCT * defender.deployedBrigades}% defence.`);
  return { defending, allies, power: Math.max(power, 1), lines };
}

/**
 * Units lost on both sides. A victory costs the share of the force needed to break the defence
 * (OpenDominion's overkill reduction: 1.05 / ratio of the units sent fight); a defeat grows
 * with the square root of defence over attack (QM Promisance), more when overwhelmed.
 */
function battleCasualties(committed: UnitTally, defending: UnitTally, attackPower: number, defensePower: number, won: boolean, ap: PostureEffects, dp: PostureEffects, rng: Rng) {
  const ratio = attackPower / defensePower;
  const attackerLossScale =
    (won ? Math.max(MIN_ENGAGED_SHARE, Math.min(1, VICTORY_THRESHOLD / ratio)) : Math.min(2, Math.max(1, Math.sqrt(defensePower / attackPower))) * FAILED_ATTACK_CASUALTY_FACTOR) *
    (ratio < OVERWHELMED_RATIO ? 2 : 1) *
    (ap.casualtiesPct / 100);
  const defenderLossScale = Math.min(2, Math.max(0.5, Math.sqrt(ratio))) * (won ? 1 : 0.75) * (dp.casualtiesPct / 100) * (dp.defendingCasualtiesPct / 100);
  const attacker = emptyTally();
  const defender = emptyTally();
  for (const u of UNIT_TYPES) {
    if (committed[u] > 0) {
      const rate = Math.min(0.5, ATTACKER_CASUALTY_RATE * attackerLossScale * rng.between(0.8, 1.2));
      attacker[u] = Math.min(committed[u], randomRound(committed[u] * rate, rng));
    }
  }
  const attackersSent = UNIT_TYPES.reduce((s, u) => s + committed[u], 0);
  for (const u of UNIT_TYPES) {
    if (defending[u] > 0) {
      const rate = Math.min(0.5, DEFENDER_CASUALTY_RATE * defenderLossScale * (u === "turrets" ? TURRET_CASUALTY_FACTOR : 1) * rng.between(0.8, 1.2));
      // QM Promisance: the defender never loses more units than 90-110% of the units sent
      const maxKill = Math.round(attackersSent * rng.between(0.9, 1.1));
      defender[u] = Math.min(defending[u], maxKill, randomRound(defending[u] * rate, rng));
    }
  }
  return { attacker, defender };
}

/** What a victory takes: land with its buildings (some kept), the people on it, plunder. */
function victorySpoils(attacker: AttackerInput, defender: DefenderInput, type: AttackTypeDefinition, dp: PostureEffects, rng: Rng) {
  const a = attacker.state;
  const d = defender.state;
  const landLines: string[] = [];
  const plunderLines: string[] = [];
  const buildingsCaptured = emptyBuildings();
  const plunder: ResourceTally = { cash: 0, food: 0, oil: 0 };
  const grabPct = computeLandGrabPct(a.land, d.land);
  const dr = repeatHitFactor(defender.hitsToday);
  const wanted = Math.floor((d.land * grabPct * type.landFactorPct * dp.landLossPct * dr * rng.between(0.9, 1.1)) / (100 * 100 * 100));
  const allowance = computeDailyLandAllowance(d.land, defender.landLostToday);
  const target = Math.min(Math.max(1, wanted), allowance);
  if (defender.hitsToday > 0) landLines.push(`${defender.name} has been hit ${defender.hitsToday === 1 ? "once" : `${defender.hitsToday} times`} today: land taken x${dr.toFixed(2)}.`);
  if (target < Math.max(1, wanted)) landLines.push(`${defender.name} has lost ${fmt(defender.landLostToday)} acres in 24 hours: no more than ${DAILY_LAND_LOSS_CAP_PCT}% can be taken in a day.`);
  const loss = selectLandLoss(d.land, d.buildings, target, rng);
  for (const t of BUILDING_TYPES) {
    buildingsCaptured[t] = Math.min(loss.lost[t], randomRound((loss.lost[t] * BUILDING_KEEP_PCT[t] * type.keepFactorPct) / (100 * 100), rng));
  }
  const share = d.land > 0 ? loss.acres / d.land : 0;
  const displaced = Math.floor(d.population * share);
  const populationKilled = Math.floor(displaced / 2);
  const populationCaptured = displaced - populationKilled;
  if (type.plunders) {
    const plunderShare = Math.min(PLUNDER_MAX_PCT / 100, share / 2);
    plunder.cash = Math.floor(d.cash * plunderShare);
    plunder.food = Math.floor(d.food * plunderShare);
    plunder.oil = Math.floor(d.oil * plunderShare);
  }
  landLines.push(`Captured ${fmt(loss.acres)} acres with ${fmt(sumBuildings(buildingsCaptured))} buildings standing; ${fmt(sumBuildings(loss.lost) - sumBuildings(buildingsCaptured))} buildings razed.`);
  if (populationKilled > 0) landLines.push(`${fmt(populationKilled)} people died; ${fmt(populationCaptured)} now live under ${attacker.name}.`);
  if (plunder.cash + plunder.food + plunder.oil > 0) plunderLines.push(`Plundered $${fmt(plunder.cash)}, ${fmt(plunder.food)} bushels and ${fmt(plunder.oil)} barrels.`);
  return { landCaptured: loss.acres, buildingsLost: loss.lost, buildingsCaptured, populationKilled, populationCaptured, plunder, landLines, plunderLines };
}

/** Nothing taken (a defeat, or a type that takes no land). */
function noSpoils() {
  return { landCaptured: 0, buildingsLost: emptyBuildings(), buildingsCaptured: emptyBuildings(), populationKilled: 0, populationCaptured: 0, plunder: { cash: 0, food: 0, oil: 0 }, landLines: [] as string[], plunderLines: [] as string[] };
}

/** Both countries after a unit battle: units lost, buildings and land moved, people and plunder carried off. */
function unitBattleStates(a: CountryState, d: CountryState, casualties: { attacker: UnitTally; defender: UnitTally }, spoils: ReturnType<typeof noSpoils>, defenderBuildingsLost: BuildingCounts) {
  const attacker: CountryState = { ...a, buildings: addBuildings(a.buildings, spoils.buildingsCaptured) };
  const defender: CountryState = { ...d, buildings: subtractBuildings(d.buildings, defenderBuildingsLost) };
  for (const u of UNIT_TYPES) {
    attacker[u] = a[u] - casualties.attacker[u];
    defender[u] = d[u] - casualties.defender[u];
  }
  attacker.land = a.land + spoils.landCaptured;
  defender.land = d.land - spoils.landCaptured;
  defender.population = d.population - spoils.populationKilled - spoils.populationCaptured;
  attacker.population = a.population + spoils.populationCaptured;
  attacker.cash = a.cash + spoils.plunder.cash;
  attacker.food = a.food + spoils.plunder.food;
  attacker.oil = a.oil + spoils.plunder.oil;
  defender.cash = d.cash - spoils.plunder.cash;
  defender.food = d.food - spoils.plunder.food;
  defender.oil = d.oil - spoils.plunder.oil;
  return { attacker, defender };
}

function resolveUnitBattle(attacker: AttackerInput, defender: DefenderInput, order: { attackType: AttackTypeId; units: AttackUnits }, rng: Rng): BattleOutcome {
  const type = ATTACK_TYPES[order.attackType];
  const log = new PhaseLog();
  const a = attacker.state;
  const d = defender.state;
  const ap = computePostureEffects(attacker.posture.deployment, attacker.posture.defense, attacker.posture.alertLevel);
  const dp = computePostureEffects(defender.posture.deployment, defender.posture.defense, defender.posture.alertLevel);

  const attack = attackStrength(attacker, order, ap, rng);
  const committed = attack.committed;
  log.add("forces", "Forces", [...(attacker.desertedBeforeBattle ? [DESERTION_LINE] : []), `${type.name}: ${attacker.name} sends ${unitList(committed)} against ${defender.name}.`]);
  log.totals.attackPower = Math.round(attack.power);
  log.add("attack", "Attack strength", attack.lines);

  const defense = defenseStrength(defender, order.attackType, dp);
  const defending = defense.defending;
  log.totals.defensePower = Math.round(defense.power);
  log.add("defense", "Defence strength", defense.lines);

  const ratio = attack.power / defense.power;
  const won = attack.power > defense.power * VICTORY_THRESHOLD;
  log.add("clash", "The clash", [`Attack power ${fmt(attack.power)} against defence power ${fmt(defense.power)} (ratio ${ratio.toFixed(2)}; victory needs more than ${VICTORY_THRESHOLD.toFixed(2)}).`]);

  const casualties = battleCasualties(committed, defending, attack.power, defense.power, won, ap, dp, rng);
  log.totals.attackerLosses = casualties.attacker;
  log.totals.defenderLosses = casualties.defender;
  log.add("casualties", "Casualties", [`${attacker.name} lost ${unitList(casualties.attacker)}.`, `${defender.name} lost ${unitList(casualties.defender)}.`]);

  log.add("outcome", won ? "Victory" : "Defeat", [won ? `Victory: ${attacker.name} broke through the defence of ${defender.name}.` : `Defeat: the defence of ${defender.name} held.`]);
  const spoils = won && type.landFactorPct > 0 ? victorySpoils(attacker, defender, type, dp, rng) : noSpoils();
  if (spoils.landLines.length > 0) {
    log.totals.landTaken = spoils.landCaptured;
    log.totals.buildingsLost = sumBuildings(spoils.buildingsLost);
    log.totals.populationKilled = spoils.populationKilled;
    log.add("land", "Land taken", spoils.landLines);
  }
  if (spoils.plunderLines.length > 0) {
    log.totals.plunder = { ...spoils.plunder };
    log.add("plunder", "Plunder", spoils.plunderLines);
  }

  // Buildings destroyed beyond the land taken (bombing, artillery), only on a victory.
  const remaining = subtractBuildings(d.buildings, spoils.buildingsLost);
  const razedInPlace = won ? extraDestruction(remaining, type.extraDestroyPermille, rng) : emptyBuildings();
  const defenderBuildingsLost = addBuildings(spoils.buildingsLost, razedInPlace);
  if (sumBuildings(razedInPlace) > 0) {
    log.totals.buildingsLost = sumBuildings(defenderBuildingsLost);
    log.add("destruction", "Destruction", [`${fmt(sumBuildings(razedInPlace))} more buildings destroyed on land ${defender.name} keeps.`]);
  }
  const buildingsDestroyed = sumBuildings(defenderBuildingsLost) - sumBuildings(spoils.buildingsCaptured);

  const next = unitBattleStates(a, d, casualties, spoils, defenderBuildingsLost);
  const survivors = emptyTally();
  for (const u of UNIT_TYPES) survivors[u] = committed[u] - casualties.attacker[u];

  const enemyLoss = tallyStrength(casualties.defender);
  const ownLoss = tallyStrength(casualties.attacker);
  const efficiency = enemyLoss + ownLoss > 0 ? Math.round((100 * enemyLoss) / (enemyLoss + ownLoss)) : won ? 100 : 0;
  return {
    result: {
      attackType: order.attackType,
      outcome: won ? "attacker_victory" : "defender_victory",
      attackerForces: committed,
      defenderForces: defending,
      attackerCasualties: casualties.attacker,
      defenderCasualties: casualties.defender,
      landCaptured: spoils.landCaptured,
      landDestroyed: 0,
      resourcesGained: { ...spoils.plunder },
      resourcesLost: { ...spoils.plunder },
      buildingsDestroyed,
      buildingsCaptured: spoils.buildingsCaptured,
      buildingsLost: defenderBuildingsLost,
      populationKilled: spoils.populationKilled,
      populationCaptured: spoils.populationCaptured,
      attackPower: Math.round(attack.power),
      defensePower: Math.round(defense.power),
      powerRatio: Math.round(ratio * 100) / 100,
      efficiencyRating: efficiency,
      strategicValue: computeStrategicGain(a.land, spoils.landCaptured, sumBuildings(spoils.buildingsCaptured)),
      attackerTechBonus: computeTechBonusPct(a, committed),
      defenderTechBonus: computeTechBonusPct(d, defending),
      weaponsEffectiveness: weaponsEffectivenessPct(a, committed),
      allianceSupport: { attackerAllies: attack.allies.contributions.map(roundContribution), defenderAllies: defense.allies.contributions.map(roundContribution) },
      missilesLaunched: 0,
      missilesIntercepted: 0,
      combatLog: log.combatLog,
    },
    attacker: next.attacker,
    defender: next.defender,
    survivors,
    phases: log.phases,
  };
}

function roundContribution(c: AllyContribution): AllyContribution {
  return { ...c, power: Math.round(c.power) };
}

/** The weapons research percent of a force: strength of the units with weapons and warfare over their base strength. */
function weaponsEffectivenessPct(owner: ForceOwner, units: UnitTally): number {
  let base = 0;
  let withTech = 0;
  for (const u of UNIT_TYPES) {
    base += units[u] * UNIT_STATS[u].strength;
    withTech += units[u] * UNIT_STATS[u].strength * (computeUnitStrengthPct(owner.tech, u) / 100);
  }
  return base > 0 ? Math.round((withTech / base) * 100) : 100;
}

/** What a battle's gains are worth: land and standing buildings against the attacker's size, 0..100. */
export function computeStrategicGain(attackerLand: number, landGained: number, buildingsGained: number): number {
  if (attackerLand <= 0) return landGained > 0 ? 100 : 0;
  return Math.min(100, Math.round((1000 * (landGained + buildingsGained / 2)) / attackerLand));
}

/** Chance (0..1) that one missile is intercepted: SDI research, air defense allocation, turrets per acre; at most 75%. */
export function computeInterceptChance(defender: Pick<CountryState, "tech" | "turrets" | "land">, posture: CombatPosture): number {
  const sdi = computeTechEffects(defender.tech).missileDefensePct;
  const air = computePostureEffects(posture.deployment, posture.defense, posture.alertLevel).missileInterceptPct;
  const turrets = defender.land > 0 ? Math.min(MAX_TURRET_INTERCEPT_PCT, (defender.turrets / defender.land) * TURRET_INTERCEPT_PCT_PER_ACRE) : 0;
  return Math.min(MAX_INTERCEPT_PCT, sdi + air + turrets) / 100;
}

function resolveMissileStrike(attacker: AttackerInput, defender: DefenderInput, order: { attackType: AttackTypeId; units: AttackUnits }, rng: Rng): BattleOutcome {
  const type = ATTACK_TYPES[order.attackType];
  const warhead = WARHEADS[order.attackType as keyof typeof WARHEADS];
  const log = new PhaseLog();
  const launched = orderUnits(order.units).missiles;
  const d = defender.state;
  const intercept = computeInterceptChance(d, defender.posture);
  const attackPower = launched * warhead.power;
  log.totals.attackPower = attackPower;
  log.add("launch", "Launch", [
    ...(attacker.desertedBeforeBattle ? [DESERTION_LINE] : []),
    `${type.name}: ${attacker.name} launches ${launched} missile(s) at ${defender.name}.`,
    `Interception chance per missile: ${Math.round(intercept * 100)}% (SDI research, air defense, turrets).`,
  ]);
  const dp = computePostureEffects(defender.posture.deployment, defender.posture.defense, defender.posture.alertLevel);

  let hits = 0;
  for (let i = 0; i < launched; i++) if (!rng.chance(intercept)) hits++;
  const intercepted = launched - hits;
  const defensePower = intercepted * warhead.power;
  log.totals.defensePower = defensePower;
  log.totals.missilesHit = hits;
  log.totals.missilesIntercepted = intercepted;
  log.add("interception", "Interception", [`${intercepted} intercepted, ${hits} hit${hits === 1 ? "" : "s"}.`]);

  let land = d.land;
  let buildings = { ...d.buildings };
  let population = d.population;
  const units = { troops: d.troops, jets: d.jets, turrets: d.turrets, tanks: d.tanks, spies: d.spies };
  const casualties = emptyTally();
  let landDestroyed = 0;
  let populationKilled = 0;
  const lostBuildings = emptyBuildings();
  let allowance = computeDailyLandAllowance(d.land, defender.landLostToday);
  const dr = repeatHitFactor(defender.hitsToday);
  for (let h = 0; h < hits; h++) {
    let acres = 0;
    if (warhead.landPct > 0 && allowance > 0) {
      const want = Math.max(1, Math.floor((land * warhead.landPct * dp.landLossPct * dr) / (100 * 100)));
      const loss = selectLandLoss(land, buildings, Math.min(want, allowance), rng);
      acres = loss.acres;
      land -= loss.acres;
      landDestroyed += loss.acres;
      allowance -= loss.acres;
      buildings = subtractBuildings(buildings, loss.lost);
      for (const t of BUILDING_TYPES) lostBuildings[t] += loss.lost[t];
    }
    const killed = Math.floor((population * warhead.populationPct) / 100);
    population -= killed;
    populationKilled += killed;
    for (const u of warhead.unitTypes) {
      const k = Math.floor((units[u] * warhead.unitPct * dp.defendingCasualtiesPct) / (100 * 100));
      units[u] -= k;
      casualties[u] += k;
    }
    // one step per missile that got through (no log line: the damage is summed below)
    log.totals.landTaken = landDestroyed;
    log.totals.buildingsLost = sumBuildings(lostBuildings);
    log.totals.populationKilled = populationKilled;
    log.totals.defenderLosses = { ...casualties };
    log.add("impact", `Missile ${h + 1} of ${hits} strikes: ${fmt(acres)} acres, ${fmt(killed)} people`, []);
  }
  const damage: string[] = [];
  if (landDestroyed > 0) damage.push(`${fmt(landDestroyed)} acres destroyed with ${fmt(sumBuildings(lostBuildings))} buildings.`);
  if (warhead.landPct > 0 && hits > 0 && allowance === 0) damage.push(`${defender.name} has lost ${DAILY_LAND_LOSS_CAP_PCT}% of its land in 24 hours: no more land can be destroyed today.`);
  if (populationKilled > 0) damage.push(`${fmt(populationKilled)} people killed.`);
  if (UNIT_TYPES.some((u) => casualties[u] > 0)) damage.push(`${defender.name} lost ${unitList(casualties)}.`);
  if (damage.length > 0) log.add("damage", "Damage", damage);
  const won = hits > 0;
  log.add("outcome", won ? "Strike hit" : "All intercepted", [won ? `The strike hit ${defender.name}.` : `Every missile was intercepted.`]);

  const nextAttacker: CountryState = { ...attacker.state, missiles: attacker.state.missiles - launched };
  const nextDefender: CountryState = { ...d, land, buildings, population, ...units };
  return {
    result: {
      attackType: order.attackType,
      outcome: won ? "attacker_victory" : "defender_victory",
      attackerForces: emptyTally(),
      defenderForces: { ...emptyTally(), turrets: d.turrets },
      attackerCasualties: emptyTally(),
      defenderCasualties: casualties,
      landCaptured: 0,
      landDestroyed,
      resourcesGained: { cash: 0, food: 0, oil: 0 },
      resourcesLost: { cash: 0, food: 0, oil: 0 },
      buildingsDestroyed: sumBuildings(lostBuildings),
      buildingsCaptured: emptyBuildings(),
      buildingsLost: lostBuildings,
      populationKilled,
      populationCaptured: 0,
      attackPower,
      defensePower,
      powerRatio: defensePower > 0 ? Math.round((attackPower / defensePower) * 100) / 100 : launched > 0 ? launched : 0,
      efficiencyRating: launched > 0 ? Math.round((100 * hits) / launched) : 0,
      strategicValue: computeStrategicGain(attacker.state.land, landDestroyed, 0),
      attackerTechBonus: 0,
      defenderTechBonus: Math.round(computeTechEffects(d.tech).missileDefensePct),
      weaponsEffectiveness: launched > 0 ? Math.round((100 * hits) / launched) : 0,
      allianceSupport: { attackerAllies: [], defenderAllies: [] },
      missilesLaunched: launched,
      missilesIntercepted: intercepted,
      combatLog: log.combatLog,
    },
    attacker: nextAttacker,
    defender: nextDefender,
    survivors: emptyTally(),
    phases: log.phases,
  };
}

// ---------------------------------------------------------------------------------------
// Record, efficiency

/** Row counters a battle changes (victories, defeats, total_battles, total_land_captured, combat_efficiency). */
export interface CombatRecord {
  victories: number;
  defeats: number;
  totalBattles: number;
  totalLandCaptured: number;
  /** running mean of the battles' efficiency from this side, percent */
  combatEfficiency: number;
}

/** A side's record after a battle; `efficiency` is the battle's efficiency from this side. */
export function applyBattleToRecord(record: CombatRecord, won: boolean, landCaptured: number, efficiency: number): CombatRecord {
  const totalBattles = record.totalBattles + 1;
  return {
    victories: record.victories + (won ? 1 : 0),
    defeats: record.defeats + (won ? 0 : 1),
    totalBattles,
    totalLandCaptured: record.totalLandCaptured + landCaptured,
    combatEfficiency: Math.round((record.combatEfficiency * record.totalBattles + efficiency) / totalBattles),
  };
}

// ---------------------------------------------------------------------------------------
// What the attacker may know: target analysis and the attack preview

/** Confidence of an intelligence report (spec: verified, high, medium, low). */
export type IntelConfidence = "verified" | "high" | "medium" | "low";
/** How far off an estimate of each confidence may be (fraction either way). */
export const CONFIDENCE_SPREAD: Readonly<Record<IntelConfidence, number>> = { verified: 0, high: 0.1, medium: 0.25, low: 0.5 };

/**
 * What the attacker knows of a target's forces from its own unexpired intelligence (the
 * espionage work supplies the freshest report; null means nothing is known).
 */
export interface KnownIntelligence {
  estimatedUnits: Record<UnitType, number>;
  confidence: IntelConfidence;
  /** epoch ms the report was gathered */
  gatheredAt: number;
  /** estimated military tech level, if the report has it */
  militaryTech?: number;
}

/** A target's public face: what GET /countries shows everyone. */
export interface PublicTarget {
  id: number;
  name: string;
  governmentType: GovernmentType;
  networth: number;
  land: number;
  victories: number;
  defeats: number;
}

/** Threat difficulty (spec: easy, medium, hard, impossible). */
export type ThreatLevel = "easy" | "medium" | "hard" | "impossible";
/** Size class by land ratio. */
export type SizeClass = "much_larger" | "larger" | "similar" | "smaller" | "much_smaller";
/** The spec's success chance per threat level (percent). */
export const THREAT_SUCCESS: Readonly<Record<ThreatLevel, number>> = { impossible: 5, hard: 25, medium: 60, easy: 85 };

/** The spec's bands: a ratio above 2 impossible, above 1.5 hard, above 1.2 medium, else easy. */
export function threatLevel(ratio: number): ThreatLevel {
  if (ratio > 2) return "impossible";
  if (ratio > 1.5) return "hard";
  if (ratio > 1.2) return "medium";
  return "easy";
}

/** The spec's size classes by land ratio (target / own): above 2, above 1.2, below 0.5, below 0.8, else similar. */
export function sizeClass(landRatio: number): SizeClass {
  if (landRatio > 2) return "much_larger";
  if (landRatio > 1.2) return "larger";
  if (landRatio < 0.5) return "much_smaller";
  if (landRatio < 0.8) return "smaller";
  return "similar";
}

/** A force's plain size: the sum of troops, jets, turrets and tanks (the spec's target power). */
export function plainMilitary(units: Pick<Record<UnitType, number>, "troops" | "jets" | "turrets" | "tanks">): number {
  return units.troops + units.jets + units.turrets + units.tanks;
}

/** The spec's war-room power weights: power points per unit (troops 1, jets 10, tanks 5, turrets 8). */
export const WAR_ROOM_POWER_WEIGHTS = { troops: 1, jets: 10, tanks: 5, turrets: 8 } as const;

/** The spec's war-room player power: troops + jets x 10 + tanks x 5 + turrets x 8 (WAR_ROOM_POWER_WEIGHTS). */
export function warRoomPower(units: Pick<Record<UnitType, number>, "troops" | "jets" | "turrets" | "tanks">): number {
  const w = WAR_ROOM_POWER_WEIGHTS;
  return units.troops * w.troops + units.jets * w.jets + units.tanks * w.tanks + units.turrets * w.turrets;
}

/** War-room power ratio bands (spec). */
export type PowerBand = "OVERWHELMING" | "SUPERIOR" | "FAVORABLE" | "EVEN" | "CHALLENGING" | "DANGEROUS";

/**
 * The spec's power ratio bands, strongest first: a ratio at or above `minRatio` is in the band;
 * below the last threshold, DANGEROUS. `powerBand` and the war room's table read this one list.
 */
export const POWER_BANDS: readonly { band: PowerBand; minRatio: number }[] = [
  { band: "OVERWHELMING", minRatio: 2 },
  { band: "SUPERIOR", minRatio: 1.5 },
  { band: "FAVORABLE", minRatio: 1.2 },
  { band: "EVEN", minRatio: 0.8 },
  { band: "CHALLENGING", minRatio: 0.5 },
];
/** The band below every POWER_BANDS threshold. */
export const LOWEST_POWER_BAND: PowerBand = "DANGEROUS";

/** At least 2 OVERWHELMING; 1.5 SUPERIOR; 1.2 FAVORABLE; 0.8 EVEN; 0.5 CHALLENGING; below DANGEROUS (POWER_BANDS). */
export function powerBand(ratio: number): PowerBand {
  return POWER_BANDS.find((b) => ratio >= b.minRatio)?.band ?? LOWEST_POWER_BAND;
}

/**
 * The spec's military ratio: the target's plain military (troops + jets + turrets + tanks) over
 * one's own (Infinity with no units of one's own). The target analysis and the attack preview
 * rate it by `threatLevel` (above 1.5 hard, above 2 impossible); the AI reads the same ratio of
 * the units it would send against its intelligence on a target before it attacks (rules/ai.ts).
 */
export function computeMilitaryRatio(own: Pick<Record<UnitType, number>, "troops" | "jets" | "turrets" | "tanks">, target: Pick<Record<UnitType, number>, "troops" | "jets" | "turrets" | "tanks">): number {
  const ownMilitary = plainMilitary(own);
  return ownMilitary > 0 ? plainMilitary(target) / ownMilitary : Infinity;
}

/** Target analysis of the spec, from public fields and (if any) the attacker's intelligence. */
export interface TargetAnalysis {
  targetId: number;
  networthRatio: number;
  /** target military / own military: null without intelligence */
  militaryRatio: number | null;
  threat: ThreatLevel;
  /** the spec's success chance of the threat level, percent */
  successChance: number;
  landRatio: number;
  sizeClass: SizeClass;
  /** 0..100 */
  strategicValue: number;
  /** 1.2 x the target's military (intelligence only), null otherwise */
  recommendedUnits: number | null;
  /** war-room power band, with intelligence only */
  powerBand: PowerBand | null;
  basis: "intelligence" | "public";
  confidence: IntelConfidence | null;
}

/** Recommended force: 1.2 times the target's military (spec). */
export const RECOMMENDED_FORCE_FACTOR = 1.2;

/**
 * Analyses a target: networth ratio (public), military ratio (only from intelligence: never
 * the target's live private numbers), threat and success chance by the spec's bands on the
 * larger of the two ratios, size class, strategic value (land it holds against our own,
 * capped 100; +20 when at war), recommended units.
 */
export function analyzeTarget(own: { networth: number; land: number; units: Pick<Record<UnitType, number>, "troops" | "jets" | "turrets" | "tanks"> }, target: PublicTarget, intel: KnownIntelligence | null, atWar = false): TargetAnalysis {
  const networthRatio = own.networth > 0 ? target.networth / own.networth : Infinity;
  const targetMilitary = intel ? plainMilitary(intel.estimatedUnits) : null;
  const militaryRatio = intel ? computeMilitaryRatio(own.units, intel.estimatedUnits) : null;
  const threat = threatLevel(Math.max(networthRatio, militaryRatio ?? 0));
  const landRatio = own.land > 0 ? target.land / own.land : Infinity;
  return {
    targetId: target.id,
    networthRatio: round2(networthRatio),
    militaryRatio: militaryRatio === null ? null : round2(militaryRatio),
    threat,
    successChance: THREAT_SUCCESS[threat],
    landRatio: round2(landRatio),
    sizeClass: sizeClass(landRatio),
    strategicValue: Math.min(100, Math.round(50 * Math.min(2, landRatio)) + (atWar ? 20 : 0)),
    recommendedUnits: targetMilitary === null ? null : Math.ceil(targetMilitary * RECOMMENDED_FORCE_FACTOR),
    powerBand: intel ? powerBand(warRoomPower(own.units) / Math.max(1, plainMilitary(intel.estimatedUnits))) : null,
    basis: intel ? "intelligence" : "public",
    confidence: intel?.confidence ?? null,
  };
}

function round2(x: number): number {
  return Number.isFinite(x) ? Math.round(x * 100) / 100 : x;
}

/** Chance (0..1) the attack beats `defense` given attack power before luck: luck U(0.9, 1.1) must exceed 1.05 x defence / power. */
export function winProbability(attackPower: number, defense: number): number {
  if (attackPower <= 0) return 0;
  const need = (VICTORY_THRESHOLD * defense) / attackPower;
  return Math.max(0, Math.min(1, (ATTACK_LUCK_MAX - need) / (ATTACK_LUCK_MAX - ATTACK_LUCK_MIN)));
}

/** The preview's clamp of a shown success chance (spec: 5-95%). */
export function clampChancePct(p: number): number {
  return Math.max(5, Math.min(95, Math.round(p * 100)));
}

/** What the attacker needs for a preview: its own full state and posture. */
export interface PreviewAttacker {
  state: CountryState;
  posture: CombatPosture;
  brigadeReadiness: number | null;
  atWar: boolean;
  /** power the available allies would lend (computeAllySupport of the available ones) */
  allyPower: number;
  /** the attacker's own alliance and treaty attack bonus in force, percent (as the battle applies it) */
  bonusPct?: number;
}

/** The attack preview. */
export interface AttackPreview {
  attackType: AttackTypeId;
  turnCost: number;
  /** the attacker's power before luck (exact: its own numbers) */
  attackPower: number;
  /** estimated defence: null without intelligence */
  defensePower: { low: number; expected: number; high: number } | null;
  /** percent 5..95 with intelligence; the public band's chance otherwise */
  successChance: number;
  /** where the chance comes from */
  basis: "intelligence" | "public";
  analysis: TargetAnalysis;
  /** expected acres if the attack wins (land takers only) */
  expectedLand: number;
  /** acres the target may still lose today (the 15% daily cap) */
  landAllowance: number;
  /** missiles: chance each is intercepted is not known without intelligence */
  notes: string[];
}

/** The notice a preview without intelligence carries. */
export const PUBLIC_PREVIEW_NOTE = "No intelligence on this target: estimate from public data only (networth, land, record).";

/**
 * The attack preview, from the attacker's own numbers and only what it may know of the
 * target: public fields, the public day's land losses, and its own intelligence. Without
 * intelligence the defence is not estimated and the success chance is the public threat band's.
 */
export function previewAttack(attacker: PreviewAttacker, target: PublicTarget & { landLostToday: number; hitsToday: number }, order: { attackType: AttackTypeId; units: AttackUnits }, intel: KnownIntelligence | null): AttackPreview {
  const type = ATTACK_TYPES[order.attackType];
  const notes: string[] = [];
  const analysis = analyzeTarget({ networth: computeNetworth(attacker.state), land: attacker.state.land, units: attacker.state }, target, intel, attacker.atWar);
  const landAllowance = computeDailyLandAllowance(target.land, target.landLostToday);
  const sent = orderUnits(order.units);
  let attackPower: number;
  let defensePower: AttackPreview["defensePower"] = null;
  let chance = analysis.successChance;
  if (isMissileAttack(order.attackType)) {
    const warhead = WARHEADS[order.attackType as keyof typeof WARHEADS];
    attackPower = sent.missiles * warhead.power;
    notes.push("Missiles cannot be stopped by armies; SDI research, air defense and turrets intercept some.");
  } else {
    const committed = emptyTally();
    for (const u of type.allowedUnits) committed[u] = sent[u];
    const ap = computePostureEffects(attacker.posture.deployment, attacker.posture.defense, attacker.posture.alertLevel);
    const readiness = computeReadiness(attacker.state.cash, computeMilitaryUpkeep(attacker.state));
    const effective = attacker.brigadeReadiness === null ? readiness : Math.min(readiness, attacker.brigadeReadiness);
    const own = computeForcePower(attacker.state, committed);
    attackPower = (own + Math.min(own, attacker.allyPower)) * readinessFactor(effective) * (ap.attackPct / 100);
    if (attacker.atWar) attackPower *= 1 + WAR_ATTACK_BONUS_PCT / 100;
    if (order.attackType === "planned_strike") attackPower *= 1 + PLANNED_STRIKE_BONUS_PCT / 100;
    if ((attacker.bonusPct ?? 0) > 0) {
      attackPower *= 1 + attacker.bonusPct! / 100;
      notes.push(`Alliance and treaty bonuses: +${attacker.bonusPct}% attack strength.`);
    }
    if (intel) {
      const defending = emptyTally();
      for (const u of type.countersFrom) defending[u] = intel.estimatedUnits[u];
      const techGuess = { ...zeroTech(), military: intel.militaryTech ?? 0 };
      const expected = computeForcePower({ governmentType: target.governmentType, tech: techGuess }, defending) * (ALERT_EFFECTS.medium.defensePct / 100);
      const spread = CONFIDENCE_SPREAD[intel.confidence];
      defensePower = { low: Math.round(expected * (1 - spread)), expected: Math.round(expected), high: Math.round(expected * (1 + spread)) };
      // average the win probability over the estimate's range
      let sum = 0;
      const steps = 20;
      for (let i = 0; i <= steps; i++) sum += winProbability(attackPower, expected * (1 - spread + (2 * spread * i) / steps));
      chance = clampChancePct(sum / (steps + 1));
      notes.push(`Based on a ${intel.confidence}-confidence intelligence report.`);
    } else {
      notes.push(PUBLIC_PREVIEW_NOTE);
    }
  }
  let expectedLand = 0;
  if (type.landFactorPct > 0 && chance > 50) {
    const wanted = Math.floor((target.land * computeLandGrabPct(attacker.state.land, target.land) * type.landFactorPct * repeatHitFactor(target.hitsToday)) / (100 * 100));
    expectedLand = Math.min(Math.max(1, wanted), landAllowance);
  } else if (isMissileAttack(order.attackType)) {
    const warhead = WARHEADS[order.attackType as keyof typeof WARHEADS];
    expectedLand = 0;
    if (warhead.landPct > 0) notes.push(`Each hit destroys about ${warhead.landPct}% of the target's land.`);
  }
  if (landAllowance === 0 && type.landFactorPct + (isMissileAttack(order.attackType) ? 1 : 0) > 0) notes.push(`The target has lost ${DAILY_LAND_LOSS_CAP_PCT}% of its land today: no more land can be taken before tomorrow.`);
  return {
    attackType: order.attackType,
    turnCost: type.turnCost,
    attackPower: Math.round(attackPower),
    defensePower,
    successChance: chance,
    basis: intel && !isMissileAttack(order.attackType) ? "intelligence" : "public",
    analysis,
    expectedLand,
    landAllowance,
    notes,
  };
}
