import type { CountryState, GovernmentType, RuleRejection, UnitType } from "./country.js";
import { reject } from "./country.js";
import { GOVERNMENTS } from "./governments.js";
import { CONFIDENCE_SPREAD, type IntelConfidence } from "./combat.js";
import type { Rng } from "./rng.js";
import { HOUR_MS } from "./military.js";
import { runEconomyTurns, type EconomicEffects } from "./economy.js";

/**
 * Espionage (spec document 2, "Spy Center", "Intelligence Center", "Intelligence Reports";
 * docs/rules.md, "Espionage"). Pure: time and the Rng are arguments.
 *
 * Two ways to send spies:
 * - the Spy Center's six operations (spy cost, base success), success = base x the clamped
 *   ratio of own to target spies per acre;
 * - the Intelligence Center's four mission types (spies required, difficulty, turns, cooldown,
 *   daily maximum), success = 0.5 + 0.1 x (force ratio - 1) - difficulty - spy defense,
 *   clamped 5-95%.
 * Both count against one daily cap of 30 operations per country (UTC day).
 */

// ---------------------------------------------------------------------------------------
// Definitions

/** The four kinds of intelligence a report can carry (the report type filter). */
export const INTEL_TYPES = ["general", "alliance", "market", "military"] as const;
export type IntelType = (typeof INTEL_TYPES)[number];

export const SPY_OPERATION_IDS = ["general_intelligence", "military_reconnaissance", "economic_intelligence", "technology_assessment", "alliance_intelligence", "sabotage"] as const;
export type SpyOperationId = (typeof SPY_OPERATION_IDS)[number];

/** A Spy Center operation (spec: id, name, description, spyCost, successBase, category). */
export interface SpyOperationDefinition {
  id: SpyOperationId;
  name: string;
  description: string;
  spyCost: number;
  /** percent */
  successBase: number;
  category: "intelligence" | "covert";
  /** what its report carries */
  intelType: IntelType;
  /** designed: turns one operation costs */
  turnCost: number;
  /** designed: operations of this kind a country may run per UTC day (null: only the daily cap) */
  maxDaily: number | null;
}

export const SPY_OPERATIONS: Readonly<Record<SpyOperationId, SpyOperationDefinition>> = {
  general_intelligence: {
    id: "general_intelligence",
    name: "General Intelligence",
    description: "Population, land, networth and the state of the economy",
    spyCost: 10,
    successBase: 75,
    category: "intelligence",
    intelType: "general",
    turnCost: 1,
    maxDaily: null,
  },
  military_reconnaissance: {
    id: "military_reconnaissance",
    name: "Military Reconnaissance",
    description: "Unit counts, readiness and defenses",
    spyCost: 25,
    successBase: 60,
    category: "intelligence",
    intelType: "military",
    turnCost: 1,
    maxDaily: null,
  },
  economic_intelligence: {
    id: "economic_intelligence",
    name: "Economic Intelligence",
    description: "Trading, cash flow, surpluses and needs",
    spyCost: 20,
    successBase: 65,
    category: "intelligence",
    intelType: "market",
    turnCost: 1,
    maxDaily: null,
  },
  technology_assessment: {
    id: "technology_assessment",
    name: "Technology Assessment",
    description: "Research levels and the military they support",
    spyCost: 30,
    successBase: 55,
    category: "intelligence",
    intelType: "military",
    turnCost: 1,
    maxDaily: null,
  },
  alliance_intelligence: {
    id: "alliance_intelligence",
    name: "Alliance Intelligence",
    description: "Alliance, members, relations, allies and enemies",
    spyCost: 35,
    successBase: 50,
    category: "intelligence",
    intelType: "alliance",
    turnCost: 1,
    maxDaily: null,
  },
  sabotage: { id: "sabotage", name: "Sabotage", description: "Destroy buildings and oil stores", spyCost: 50, successBase: 40, category: "covert", intelType: "military", turnCost: 2, maxDaily: 3 },
};

export const MISSION_TYPE_IDS = INTEL_TYPES;
export type MissionTypeId = IntelType;

/** An Intelligence Center type (spec: spiesRequired, difficulty, turnCost, cooldown, intelType, maxDaily). */
export interface MissionTypeDefinition {
  id: MissionTypeId;
  name: string;
  description: string;
  spiesRequired: number;
  /** percent */
  difficulty: number;
  turnCost: number;
  /** hours between two missions of this type */
  cooldownHours: number;
  intelType: IntelType;
  maxDaily: number;
}

export const MISSION_TYPES: Readonly<Record<MissionTypeId, MissionTypeDefinition>> = {
  general: { id: "general", name: "General Intelligence", description: "Population, land, networth and recent events", spiesRequired: 1, difficulty: 0, turnCost: 1, cooldownHours: 0, intelType: "general", maxDaily: 30 },
  alliance: { id: "alliance", name: "Alliance Intelligence", description: "Alliance, rank, relations, allies and enemies", spiesRequired: 2, difficulty: 10, turnCost: 1, cooldownHours: 2, intelType: "alliance", maxDaily: 15 },
  market: { id: "market", name: "Market Intelligence", description: "Purchases, sales, standing orders and cash flow", spiesRequired: 3, difficulty: 15, turnCost: 1, cooldownHours: 4, intelType: "market", maxDaily: 10 },
  military: { id: "military", name: "Military Intelligence", description: "Estimated units, readiness, defenses and tech", spiesRequired: 5, difficulty: 20, turnCost: 1, cooldownHours: 6, intelType: "military", maxDaily: 5 },
};

/** The spec's daily cap of operations per country (both centres together), reset at midnight UTC. */
export const DAILY_OPS_LIMIT = 30;
const DAY_MS = 86_400_000;

/** Spy capacity: at most 5% of land (spec). */
export const SPY_CAPACITY_PCT = 5;
/** Training rate shown: 5 spies per turn (spec). */
export const SPIES_PER_TURN = 5;
/** Designed: what training one spy costs (the store sells them at $144; training is cheaper but takes turns). */
export const SPY_TRAINING_COST = 100;
/** Largest training order. */
export const MAX_TRAINING_ORDER = 1_000;

/** Failure: up to 30% of the spies sent are lost (rounded up). */
export const FAILURE_LOSS_PCT = 30;
/** Alliance membership multiplies the Intelligence Center's force ratio (spec: x1.1). */
export const ALLIANCE_FORCE_FACTOR = 1.1;

/** UTC day number of a time: the counters' key. */
export function utcDay(now: number): number {
  return Math.floor(now / DAY_MS);
}

/** When the next reset is (the next midnight UTC), epoch ms. */
export function nextResetAt(now: number): number {
  return (utcDay(now) + 1) * DAY_MS;
}

// ---------------------------------------------------------------------------------------
// Success chances

/** Spy multiplier of a government (tyranny 1.5 ... democracy 0.8; unknown 1). */
export function governmentSpyMultiplier(government: GovernmentType | string): number {
  const g = (GOVERNMENTS as Record<string, { spyPct: number } | undefined>)[government];
  return (g?.spyPct ?? 100) / 100;
}

/** 'Government Bonus' shown: (multiplier - 1) x 100 percent. */
export function governmentSpyBonusPct(government: GovernmentType | string): number {
  return Math.round((governmentSpyMultiplier(government) - 1) * 100);
}

/** Spies per acre (land 0 counts as 1). */
export function spiesPerAcre(spies: number, land: number): number {
  return spies / Math.max(1, land);
}

/** The floor of the target's spies per acre in the Spy Center formula. */
export const TARGET_RATIO_FLOOR = 0.001;

/**
 * Spy Center success, percent: base x clamp(own spies per acre / max(target spies per acre,
 * 0.001), 0.5, 2), rounded (spec). May exceed 100 (a sure success).
 */
export function spyCenterChance(base: number, own: { spies: number; land: number }, target: { spies: number; land: number }): number {
  const ratio = spiesPerAcre(own.spies, own.land) / Math.max(spiesPerAcre(target.spies, target.land), TARGET_RATIO_FLOOR);
  return Math.round(base * Math.min(2, Math.max(0.5, ratio)));
}

/**
 * A target's spy defense (designed; the spec subtracts it over 1000): its spies per acre x
 * 1000, raised by its counter-intelligence allocation (100 + counterIntel/2 percent), at most
 * 300 (-30 points).
 */
export const MAX_SPY_DEFENSE = 300;
export function computeSpyDefense(target: { spies: number; land: number }, spyDefensePct = 100): number {
  return Math.min(MAX_SPY_DEFENSE, Math.round(spiesPerAcre(target.spies, target.land) * 1000 * (spyDefensePct / 100)));
}

/** Force ratio: spies x government x (1 + 1% per spy tech) x 1.1 in an alliance, over the target's land (at least 1). */
export function forceRatio(spiesSent: number, government: GovernmentType | string, spyTech: number, inAlliance: boolean, targetLand: number): number {
  return (spiesSent * governmentSpyMultiplier(government) * (1 + 0.01 * spyTech) * (inAlliance ? ALLIANCE_FORCE_FACTOR : 1)) / Math.max(1, targetLand);
}

/** Intelligence Center success, 0.05..0.95: 0.5 + 0.1 x (force ratio - 1) - difficulty/100 - spy defense/1000. */
export function missionChance(ratio: number, difficulty: number, spyDefense: number): number {
  return Math.min(0.95, Math.max(0.05, 0.5 + 0.1 * (ratio - 1) - difficulty / 100 - spyDefense / 1000));
}

/** The alliance and treaty modifier (spy success + percent of itself), applied after the formula; the clamp holds. */
export function withSpyBonus(chance: number, spySuccessPct: number, max = 0.95): number {
  if (spySuccessPct <= 0) return chance;
  return Math.min(max, chance * (1 + spySuccessPct / 100));
}

/** What a success chance is computed against: the target's spies and land (real, from a report, or by parity). */
export interface SpyTargetEstimate {
  spies: number;
  land: number;
}

/**
 * The target as a success preview may see it: its spies from the observer's latest military
 * report, else by parity (as many spies per acre as the observer holds, rounded), never its live
 * private count. docs/rules.md, "Who sees a report".
 */
export function estimateSpyTarget(observer: { spies: number; land: number }, targetLand: number, reportedSpies: number | null): SpyTargetEstimate & { basis: "intelligence" | "estimate" } {
  if (reportedSpies !== null) return { spies: reportedSpies, land: targetLand, basis: "intelligence" };
  return { spies: Math.round(spiesPerAcre(observer.spies, observer.land) * targetLand), land: targetLand, basis: "estimate" };
}

/** The spy's side of a success chance. */
export interface SpyForce {
  spies: number;
  land: number;
  governmentType: GovernmentType | string;
  /** spy tech level */
  spyTech: number;
  inAlliance: boolean;
  /** alliance Intelligence Network and intelligence treaty, percent of the chance */
  bonusPct: number;
}

/**
 * An Intelligence Center mission's success (0..1): the force ratio of the spies sent against
 * the target's land, its spy defense (raised by its counter-intelligence allocation,
 * `spyDefensePct`), the type's difficulty, then the alliance and treaty bonus. The server
 * calls it with the target's real numbers; the preview and the screen with the estimate.
 */
export function missionSuccess(type: MissionTypeDefinition, spy: SpyForce, spiesSent: number, target: SpyTargetEstimate, spyDefensePct: number): number {
  const ratio = forceRatio(spiesSent, spy.governmentType, spy.spyTech, spy.inAlliance, target.land);
  return withSpyBonus(missionChance(ratio, type.difficulty, computeSpyDefense(target, spyDefensePct)), spy.bonusPct);
}

/** A Spy Center operation's success (0..; above 1 is sure): the spec's formula, then the bonus, uncapped. */
export function operationSuccess(op: SpyOperationDefinition, spy: SpyForce, target: SpyTargetEstimate): number {
  return withSpyBonus(spyCenterChance(op.successBase, spy, target) / 100, spy.bonusPct, Infinity);
}

/** A chance (0..1, or above for a sure operation) as the screens show it: whole percent, at most 100. */
export function shownChancePct(chance: number): number {
  return Math.min(100, Math.round(chance * 100));
}

/** Spies a mission may send: the type's requirement up to min(available, 3 x requirement). */
export function missionSpyRange(type: MissionTypeDefinition, available: number): { min: number; max: number } {
  return { min: type.spiesRequired, max: Math.min(available, 3 * type.spiesRequired) };
}

/** The spec's input clamp: invalid falls back to the minimum. */
export function clampSpiesToSend(type: MissionTypeDefinition, available: number, value: number): number {
  const { min, max } = missionSpyRange(type, available);
  if (!Number.isFinite(value)) return min;
  return Math.max(min, Math.min(max, Math.round(value)));
}

/** Colour band of a shown chance (percent): green 70+, yellow 40+, red below. */
export function chanceBand(pct: number): "good" | "fair" | "poor" {
  return pct >= 70 ? "good" : pct >= 40 ? "fair" : "poor";
}

// ---------------------------------------------------------------------------------------
// Limits

export const ESPIONAGE_MESSAGES = {
  insufficientSpies: "Insufficient spies",
  dailyLimit: "Daily limit reached",
  success: "Mission Successful",
  failure: "Mission Failed",
  detected: "Operation detected by enemy intelligence",
  operationFailed: "Operation Failed: The spy operation was unsuccessful",
  counterIntel: "Enemy counter-intelligence detected our operatives.",
  expired: "Intelligence expired",
  noData: "No intelligence data available",
  ownCountry: "You cannot spy on your own country",
  notEnoughTurns: "Not enough turns",
  cooldown: "This operation is on cooldown",
  tooManySpies: "Too many spies for this mission",
  capacity: "Spy capacity reached",
  funds: "Insufficient funds to train spies",
} as const;

/** "Spies lost: N" (spec). */
export function spiesLostText(n: number): string {
  return `Spies lost: ${n}`;
}

/** "We lost N spies in the operation." (spec). */
export function weLostText(n: number): string {
  return `We lost ${n} spies in the operation.`;
}

/** What a country has done today (per UTC day) and when it last ran each kind. */
export interface DailyUsage {
  /** operations today, both centres */
  used: number;
  /** operations today per kind (mission type id or Spy Center operation id) */
  byKind: Partial<Record<string, number>>;
  /** epoch ms of the latest mission of each Intelligence Center type */
  lastAt: Partial<Record<MissionTypeId, number>>;
}

/** Remaining cooldown of a type, ms (0 when ready). */
export function cooldownRemaining(type: MissionTypeDefinition, lastAt: number | undefined, now: number): number {
  if (lastAt === undefined || type.cooldownHours === 0) return 0;
  return Math.max(0, lastAt + type.cooldownHours * HOUR_MS - now);
}

/** Whether another operation of `kind` fits today's cap and the kind's own maximum. */
export function checkDailyLimit(usage: DailyUsage, kind: string, maxDaily: number | null): RuleRejection | null {
  if (usage.used >= DAILY_OPS_LIMIT) return reject("espionage/daily_limit", ESPIONAGE_MESSAGES.dailyLimit);
  if (maxDaily !== null && (usage.byKind[kind] ?? 0) >= maxDaily) return reject("espionage/daily_limit", ESPIONAGE_MESSAGES.dailyLimit);
  return null;
}

/** Everything an Intelligence Center mission needs before the dice. */
export function checkMission(type: MissionTypeDefinition, spy: Pick<CountryState, "spies" | "turns">, spiesSent: number, usage: DailyUsage, now: number): RuleRejection | null {
  if (spy.spies < type.spiesRequired || spiesSent < type.spiesRequired || spiesSent > spy.spies) return reject("espionage/insufficient_spies", ESPIONAGE_MESSAGES.insufficientSpies);
  if (spiesSent > 3 * type.spiesRequired) return reject("espionage/too_many_spies", `${ESPIONAGE_MESSAGES.tooManySpies}: at most ${3 * type.spiesRequired}`);
  const limit = checkDailyLimit(usage, type.id, type.maxDaily);
  if (limit) return limit;
  const wait = cooldownRemaining(type, usage.lastAt[type.id], now);
  if (wait > 0) return reject("espionage/cooldown", `${ESPIONAGE_MESSAGES.cooldown}: ready in ${formatWait(wait)}`);
  if (spy.turns < type.turnCost) return reject("espionage/not_enough_turns", ESPIONAGE_MESSAGES.notEnoughTurns);
  return null;
}

/** Everything a Spy Center operation needs before the dice. */
export function checkSpyOperation(op: SpyOperationDefinition, spy: Pick<CountryState, "spies" | "turns">, spiesUsed: number, usage: DailyUsage): RuleRejection | null {
  if (spy.spies < op.spyCost || spiesUsed < op.spyCost || spiesUsed > spy.spies) return reject("espionage/insufficient_spies", ESPIONAGE_MESSAGES.insufficientSpies);
  const limit = checkDailyLimit(usage, op.id, op.maxDaily);
  if (limit) return limit;
  if (spy.turns < op.turnCost) return reject("espionage/not_enough_turns", ESPIONAGE_MESSAGES.notEnoughTurns);
  return null;
}

/**
 * Who can be the target (designed): anyone but oneself can be spied on, protected or allied
 * (intelligence does no harm), except an eliminated country; sabotage does harm, so it
 * follows the attack rules' protections: not during new-player protection, not against a
 * member of one's own alliance.
 */
export function checkEspionageTarget(spy: { id: number; allianceId: number | null }, target: { id: number; allianceId: number | null; protectedUntil: number; isEliminated: boolean }, sabotage: boolean, now: number): RuleRejection | null {
  if (spy.id === target.id) return reject("espionage/own_country", ESPIONAGE_MESSAGES.ownCountry);
  if (target.isEliminated) return reject("espionage/target_eliminated", "That country has been eliminated");
  if (!sabotage) return null;
  if (target.protectedUntil > now) return reject("espionage/target_protected", "Target is under new player protection");
  if (spy.allianceId !== null && spy.allianceId === target.allianceId) return reject("espionage/same_alliance", "You cannot sabotage a member of your own alliance");
  return null;
}

/** "1h 05m" */
export function formatWait(ms: number): string {
  const minutes = Math.ceil(ms / 60_000);
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return h > 0 ? `${h}h ${String(m).padStart(2, "0")}m` : `${m}m`;
}

// ---------------------------------------------------------------------------------------
// The outcome

/** Designed detection of a successful operation: 5% + a quarter of the failure chance, +15 points for sabotage, at most 40%. */
export const DETECTION_BASE = 0.05;
export const DETECTION_FAILURE_SHARE = 0.25;
export const SABOTAGE_DETECTION_EXTRA = 0.15;
export const MAX_DETECTION = 0.4;

export function detectionChance(successChance: number, sabotage: boolean): number {
  const p = Math.min(1, Math.max(0, successChance));
  return Math.min(MAX_DETECTION, DETECTION_BASE + DETECTION_FAILURE_SHARE * (1 - p) + (sabotage ? SABOTAGE_DETECTION_EXTRA : 0));
}

/**
 * Confidence from the success margin (chance - roll, percentage points): 50+ verified, 30+
 * high, 10+ medium, else low.
 */
export function confidenceFromMargin(marginPts: number): IntelConfidence {
  if (marginPts >= 50) return "verified";
  if (marginPts >= 30) return "high";
  if (marginPts >= 10) return "medium";
  return "low";
}

/** The spec's confidence sort order: verified 4, high 3, medium 2, low 1. */
export const CONFIDENCE_ORDER: Readonly<Record<IntelConfidence, number>> = { verified: 4, high: 3, medium: 2, low: 1 };

/** What the dice decided. */
export interface SpyOutcome {
  success: boolean;
  detected: boolean;
  spiesLost: number;
  /** percentage points: chance - roll (negative on failure) */
  margin: number;
  confidence: IntelConfidence | null;
}

/**
 * Rolls an operation: success against `chance` (0..1, above 1 is sure); a failure loses 1 to
 * ceil(30% of the spies sent) (never more than owned) and is always detected; a success is
 * detected with detectionChance.
 */
export function rollOperation(rng: Rng, chance: number, spiesSent: number, spiesOwned: number, sabotage: boolean): SpyOutcome {
  const roll = rng.next();
  const p = Math.min(1, Math.max(0, chance));
  const margin = Math.round((p - roll) * 1000) / 10;
  if (roll < p) {
    const detected = rng.chance(detectionChance(p, sabotage));
    return { success: true, detected, spiesLost: 0, margin, confidence: confidenceFromMargin(margin) };
  }
  const most = Math.min(spiesOwned, Math.ceil((spiesSent * FAILURE_LOSS_PCT) / 100));
  const spiesLost = most <= 0 ? 0 : rng.int(1, most);
  return { success: false, detected: true, spiesLost, margin, confidence: null };
}

/** Spies after losses: never negative. */
export function applySpyLosses(spies: number, lost: number): number {
  return Math.max(0, spies - Math.max(0, lost));
}

// ---------------------------------------------------------------------------------------
// Sabotage (designed; bounded like attacks)

/** Share of the target's buildings one sabotage destroys, percent (from its largest kind). */
export const SABOTAGE_BUILDING_PCT = 2;
export const SABOTAGE_MAX_BUILDINGS = 50;
/** Share of the target's oil one sabotage burns, percent, at most 5,000 barrels. */
export const SABOTAGE_OIL_PCT = 5;
export const SABOTAGE_MAX_OIL = 5_000;
/** Successful sabotages a target can suffer in 24 hours (any saboteurs); later ones find it on alert and do nothing. */
export const SABOTAGE_DAILY_TARGET_LIMIT = 3;

export interface SabotageDamage {
  building: keyof CountryState["buildings"] | null;
  buildingsDestroyed: number;
  oilDestroyed: number;
}

/** The damage of one successful sabotage against the target now (recentHits: its successful sabotages in the last 24 h). */
export function computeSabotage(target: Pick<CountryState, "buildings" | "oil">, recentHits: number): SabotageDamage {
  if (recentHits >= SABOTAGE_DAILY_TARGET_LIMIT) return { building: null, buildingsDestroyed: 0, oilDestroyed: 0 };
  const entries = Object.entries(target.buildings) as Array<[keyof CountryState["buildings"], number]>;
  const total = entries.reduce((s, [, n]) => s + n, 0);
  let building: SabotageDamage["building"] = null;
  let most = 0;
  for (const [k, n] of entries) if (n > most) [building, most] = [k, n];
  const buildingsDestroyed = building === null ? 0 : Math.min(most, SABOTAGE_MAX_BUILDINGS, Math.max(1, Math.floor((total * SABOTAGE_BUILDING_PCT) / 100)));
  const oilDestroyed = Math.min(SABOTAGE_MAX_OIL, Math.floor((target.oil * SABOTAGE_OIL_PCT) / 100));
  return { building: buildingsDestroyed > 0 ? building : null, buildingsDestroyed, oilDestroyed };
}

/** The target's state after sabotage. */
export function applySabotage<S extends Pick<CountryState, "buildings" | "oil">>(target: S, damage: SabotageDamage): S {
  const buildings = { ...target.buildings };
  if (damage.building) buildings[damage.building] = Math.max(0, buildings[damage.building] - damage.buildingsDestroyed);
  return { ...target, buildings, oil: Math.max(0, target.oil - damage.oilDestroyed) };
}

// ---------------------------------------------------------------------------------------
// Training

/** Spy capacity: floor(5% of land). */
export function spyCapacity(land: number): number {
  return Math.floor((land * SPY_CAPACITY_PCT) / 100);
}

export function trainingTurns(quantity: number): number {
  return Math.ceil(quantity / SPIES_PER_TURN);
}

/**
 * Whether a country may hold `added` more spies: at most SPY_CAPACITY_PCT of its land. Every way
 * of gaining spies (training, the government store, a market purchase) applies it with this message.
 */
export function checkSpyCapacity(country: Pick<CountryState, "spies" | "land">, added: number): RuleRejection | null {
  const cap = spyCapacity(country.land);
  if (country.spies + added > cap) return reject("espionage/capacity", `${ESPIONAGE_MESSAGES.capacity}: at most ${cap} spies (${SPY_CAPACITY_PCT}% of land)`);
  return null;
}

export function checkTraining(country: Pick<CountryState, "spies" | "land" | "turns" | "cash">, quantity: number): RuleRejection | null {
  if (!Number.isSafeInteger(quantity) || quantity < 1 || quantity > MAX_TRAINING_ORDER) return reject("espionage/invalid_quantity", `Quantity must be a whole number from 1 to ${MAX_TRAINING_ORDER}`);
  const capacity = checkSpyCapacity(country, quantity);
  if (capacity) return capacity;
  if (country.turns < trainingTurns(quantity)) return reject("espionage/not_enough_turns", ESPIONAGE_MESSAGES.notEnoughTurns);
  if (country.cash < quantity * SPY_TRAINING_COST) return reject("espionage/insufficient_funds", ESPIONAGE_MESSAGES.funds);
  return null;
}

export function applyTraining<S extends Pick<CountryState, "spies" | "turns" | "cash">>(country: S, quantity: number): S {
  return { ...country, spies: country.spies + quantity, turns: country.turns - trainingTurns(quantity), cash: country.cash - quantity * SPY_TRAINING_COST };
}

/**
 * Spy training as an action: the spies bought, then the economy runs once per turn spent, as
 * every action that spends turns does (issue 30: training spent turns with money, food and
 * research unchanged).
 */
export function performTraining<S extends CountryState>(country: S, quantity: number): { next: S; effects: EconomicEffects } {
  return runEconomyTurns(applyTraining(country, quantity), trainingTurns(quantity));
}

/**
 * The turns an operation or mission costs, spent with the economy run once per turn (as
 * exploring and attacking do); the spies it loses are taken after.
 */
export function spendOperationTurns<S extends CountryState>(country: S, turnCost: number, spiesLost: number): { next: S; effects: EconomicEffects } {
  const run = runEconomyTurns({ ...country, turns: country.turns - turnCost }, turnCost);
  return { next: { ...run.next, spies: applySpyLosses(run.next.spies, spiesLost) }, effects: run.effects };
}

// ---------------------------------------------------------------------------------------
// Reports

/** How long a report of each type stays fresh (designed: how fast that part of a country changes). */
export const REPORT_LIFETIME_HOURS: Readonly<Record<IntelType, number>> = { general: 24, alliance: 72, market: 12, military: 12 };

export function reportExpiresAt(type: IntelType, gatheredAt: number): number {
  return gatheredAt + REPORT_LIFETIME_HOURS[type] * HOUR_MS;
}

export function isExpired(expiresAt: number, now: number): boolean {
  return now > expiresAt;
}

/** An estimate of a true number at a confidence: within +-spread of it (verified: exact). */
export function estimate(rng: Rng, value: number, confidence: IntelConfidence): number {
  const spread = CONFIDENCE_SPREAD[confidence];
  if (spread === 0 || value === 0) return value;
  return Math.max(0, Math.round(value * (1 + rng.between(-spread, spread))));
}

/** What the server knows of the target at the moment of the operation (its real state). */
export interface TargetSnapshot {
  id: number;
  name: string;
  state: CountryState;
  networth: number;
  lastActive: number;
  /** the target's own recent headlines (battles, wars), newest first */
  recentEvents: string[];
  alliance: { name: string; tag: string; rank: number | null; memberCount: number; reputation: number; recentActivity: string[] } | null;
  relations: Array<{ type: string; partner: string }>;
  allies: string[];
  enemies: string[];
  market: { purchases: number; purchaseValue: number; sales: number; saleValue: number; standingOrders: number; topItems: string[] };
  military: { alertLevel: string; readiness: number; recentBattles: number; upkeep: number; income: number };
}

export interface GeneralIntel {
  population: number;
  happiness: number;
  governmentStability: number;
  landAcres: number;
  estimatedNetworth: number;
  recentEvents: string[];
  economicStatus: "prosperous" | "stable" | "struggling";
  lastActive: number;
}
export interface AllianceIntel {
  allianceName: string | null;
  allianceTag: string | null;
  allianceRank: number | null;
  memberCount: number;
  diplomaticRelations: Array<{ type: string; partner: string }>;
  recentAllianceActivity: string[];
  allianceReputation: number;
  knownAllies: string[];
  knownEnemies: string[];
}
export interface MarketIntel {
  recentPurchases: number;
  recentSales: number;
  standingOrders: number;
  marketActivity: "high" | "moderate" | "low" | "none";
  tradingPatterns: string[];
  cashFlow: number;
  resourceSurplus: string[];
  resourceNeeds: string[];
}
export interface MilitaryIntel {
  estimatedUnits: Record<UnitType, number>;
  militaryReadiness: number;
  recentCombat: number;
  defenseStatus: string;
  militaryTech: number;
  warCapability: "high" | "moderate" | "low";
  vulnerabilities: string[];
  strengths: string[];
  /** technology assessment only: estimated research levels */
  technology?: Record<string, number>;
}
export interface SabotageIntel {
  sabotage: SabotageDamage;
}
export type Intelligence = { general: GeneralIntel } | { alliance: AllianceIntel } | { market: MarketIntel } | { military: MilitaryIntel } | SabotageIntel;

const food = (s: CountryState) => s.food;

/** Happiness (designed estimate, 0..100): fed people are content; 100 when food covers a turn of the population, less when short. */
export function happinessOf(s: CountryState): number {
  if (s.population <= 0) return 100;
  return Math.max(0, Math.min(100, Math.round((food(s) / s.population) * 100)));
}

/** Government stability (designed estimate): lower with unpaid upkeep (readiness) and recent battles. */
export function stabilityOf(readiness: number, recentBattles: number): number {
  return Math.max(0, Math.min(100, Math.round(readiness - recentBattles * 5)));
}

/** The intelligence payload of a type from the target's real state, each number estimated at the confidence. */
export function buildIntelligence(type: IntelType, t: TargetSnapshot, confidence: IntelConfidence, rng: Rng, withTechnology = false): Intelligence {
  const s = t.state;
  const e = (v: number) => estimate(rng, v, confidence);
  // a percentage estimated stays a percentage (a report once estimated readiness at 112%)
  const ePct = (v: number) => Math.min(100, e(v));
  switch (type) {
    case "general": {
      const net = t.military.income - t.military.upkeep;
      return {
        general: {
          population: e(s.population),
          happiness: ePct(happinessOf(s)),
          governmentStability: ePct(stabilityOf(t.military.readiness, t.military.recentBattles)),
          landAcres: e(s.land),
          estimatedNetworth: e(t.networth),
          recentEvents: t.recentEvents.slice(0, 5),
          economicStatus: net > 0 && s.cash > t.military.upkeep * 10 ? "prosperous" : net >= 0 ? "stable" : "struggling",
          lastActive: t.lastActive,
        },
      };
    }
    case "alliance":
      return {
        alliance: {
          allianceName: t.alliance?.name ?? null,
          allianceTag: t.alliance?.tag ?? null,
          allianceRank: t.alliance?.rank ?? null,
          memberCount: t.alliance ? e(t.alliance.memberCount) : 0,
          diplomaticRelations: t.relations,
          recentAllianceActivity: t.alliance?.recentActivity.slice(0, 5) ?? [],
          allianceReputation: t.alliance ? e(t.alliance.reputation) : 0,
          knownAllies: t.allies,
          knownEnemies: t.enemies,
        },
      };
    case "market": {
      const m = t.market;
      const trades = m.purchases + m.sales;
      const surplus: string[] = [];
      const needs: string[] = [];
      if (s.food > s.population * 5) surplus.push("food");
      else if (s.food < s.population) needs.push("food");
      if (s.oil > 10_000) surplus.push("oil");
      else if (s.oil < 100) needs.push("oil");
      if (s.cash < t.military.upkeep * 5) needs.push("cash");
      return {
        market: {
          recentPurchases: e(m.purchaseValue),
          recentSales: e(m.saleValue),
          standingOrders: m.standingOrders,
          marketActivity: trades >= 20 ? "high" : trades >= 5 ? "moderate" : trades > 0 ? "low" : "none",
          tradingPatterns: m.topItems,
          cashFlow: Math.round(e(Math.abs(t.military.income - t.military.upkeep)) * Math.sign(t.military.income - t.military.upkeep)),
          resourceSurplus: surplus,
          resourceNeeds: needs,
        },
      };
    }
    case "military": {
      const units = { troops: e(s.troops), jets: e(s.jets), turrets: e(s.turrets), tanks: e(s.tanks), spies: e(s.spies) };
      const vulnerabilities: string[] = [];
      const strengths: string[] = [];
      if (s.turrets < s.troops / 10) vulnerabilities.push("few turrets for its army");
      if (s.jets === 0) vulnerabilities.push("no air force");
      if (t.military.readiness < 70) vulnerabilities.push("low readiness");
      if (s.spies < s.land / 100) vulnerabilities.push("weak counter-intelligence");
      if (s.jets > s.troops / 5) strengths.push("strong air force");
      if (s.tanks > s.troops / 10) strengths.push("armoured divisions");
      if (s.turrets >= s.troops / 5) strengths.push("fortified");
      if (t.military.readiness >= 90) strengths.push("high readiness");
      const power = s.troops + s.jets * 3 + s.turrets * 1.5 + s.tanks * 2.5;
      const out: MilitaryIntel = {
        estimatedUnits: units,
        militaryReadiness: ePct(t.military.readiness),
        recentCombat: t.military.recentBattles,
        defenseStatus: `alert ${t.military.alertLevel}`,
        militaryTech: e(s.tech.military),
        warCapability: power >= s.land * 20 ? "high" : power >= s.land * 5 ? "moderate" : "low",
        vulnerabilities,
        strengths,
      };
      if (withTechnology) out.technology = Object.fromEntries(Object.entries(s.tech).map(([k, v]) => [k, e(v)]));
      return { military: out };
    }
  }
}
