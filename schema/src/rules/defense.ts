import type { CountryState } from "./country.js";
import { computeTechEffects } from "./research.js";
import { computeInterceptChance, type CombatPosture } from "./combat.js";
import { computeMilitaryBaseUpkeepPct, computeMilitaryUpkeep, computePostureEffects, computeReadiness, READINESS_LOW, RECOMMENDED_MIN_COMPLEXES } from "./military.js";

/**
 * What the Military Command, Military Strategy and Defense Configuration screens show beyond
 * the raw numbers: defense readiness, coverage, threats, defense systems, strengths,
 * vulnerabilities, recommendations and strategic objectives, all computed from the country's
 * real state (the spec's screens used fixed samples). docs/rules.md "Defense and strategy".
 */

/** Acres assumed when a country has none (spec: land defaults to 1000). */
export const DEFENSE_DEFAULT_LAND = 1000;

/** Defense readiness (spec): turrets per acre x 1000 + spies per acre x 2000, capped at 100. */
export function computeDefenseReadiness(country: Pick<CountryState, "turrets" | "spies" | "land">): number {
  const land = country.land > 0 ? country.land : DEFENSE_DEFAULT_LAND;
  return Math.min(100, Math.round(((country.turrets / land) * 1000 + (country.spies / land) * 2000) * 10) / 10);
}

/** Threat by category, 0..100 (real: from the attacks the country suffered in the last 7 days). */
export interface ThreatAssessment {
  missile: number;
  air: number;
  ground: number;
  spy: number;
}

/** Each attack of a category in the last 7 days adds 25 points to its threat, at most 100. */
export const THREAT_PER_RECENT_ATTACK = 25;

/** Threats from counts of recent attacks by category. */
export function computeThreats(recent: Partial<ThreatAssessment>): ThreatAssessment {
  const t = (n: number | undefined) => Math.min(100, (n ?? 0) * THREAT_PER_RECENT_ATTACK);
  return { missile: t(recent.missile), air: t(recent.air), ground: t(recent.ground), spy: t(recent.spy) };
}

/** One of the four defense systems (spec entity), derived from research, buildings and units. */
export interface DefenseSystem {
  id: "sdi" | "air_defense" | "counter_intel" | "fortification";
  name: string;
  type: "missile_defense" | "air_defense" | "counter_intelligence" | "fortification";
  level: number;
  maxLevel: number;
  /** percent */
  effectiveness: number;
  /** percent of the country covered */
  coverage: number;
  /** dollars per turn this system's units or buildings cost */
  upkeep: number;
  description: string;
  /** what raises its level */
  requiredTech: string;
}

/**
 * The four systems with the spec's maxima (sdi 10, air defense 8, counter-intelligence 12,
 * fortification 15): SDI is the SDI research level; air defense one level per half turret per
 * acre; counter-intelligence one level per 0.01 spies per acre plus spy research / 5;
 * fortification one level per military base.
 */
export function computeDefenseSystems(country: CountryState, posture: CombatPosture): DefenseSystem[] {
  const land = country.land > 0 ? country.land : DEFENSE_DEFAULT_LAND;
  const effects = computePostureEffects(posture.deployment, posture.defense, posture.alertLevel);
  const intercept = Math.round(computeInterceptChance(country, posture) * 100);
  const airLevel = Math.min(8, Math.floor((country.turrets / land) * 2));
  const ciLevel = Math.min(12, Math.floor((country.spies / land) * 100) + Math.floor(country.tech.spy / 5));
  const fortLevel = Math.min(15, country.buildings.military_bases);
  return [
    {
      id: "sdi",
      name: "Strategic Defense Initiative",
      type: "missile_defense",
      level: country.tech.sdi,
      maxLevel: 10,
      effectiveness: intercept,
      coverage: Math.min(100, computeTechEffects(country.tech).missileDefensePct * 2),
      upkeep: 0,
      description: "Intercepts incoming missiles; with air defense and turrets, at most 75% per missile.",
      requiredTech: "SDI research",
    },
    {
      id: "air_defense",
      name: "Air Defense Network",
      type: "air_defense",
      level: airLevel,
      maxLevel: 8,
      effectiveness: Math.round(effects.airDefensePct - 100 + airLevel * 5),
      coverage: Math.min(100, Math.round((country.turrets / land) * 50)),
      upkeep: country.turrets,
      description: "Turrets fight bombing runs; the air defense allocation strengthens them.",
      requiredTech: "Turrets per acre",
    },
    {
      id: "counter_intel",
      name: "Counter-Intelligence",
      type: "counter_intelligence",
      level: ciLevel,
      maxLevel: 12,
      effectiveness: Math.round(effects.spyDefensePct - 100 + ciLevel * 4),
      coverage: Math.min(100, Math.round((country.spies / land) * 2000)),
      upkeep: country.spies,
      description: "Spies defend against spy raids; the counter-intelligence allocation strengthens them.",
      requiredTech: "Spies and Spy research",
    },
    {
      id: "fortification",
      name: "Fortifications",
      type: "fortification",
      level: fortLevel,
      maxLevel: 15,
      effectiveness: Math.round(100 - effects.defendingCasualtiesPct + (100 - computeMilitaryBaseUpkeepPct(country.buildings.military_bases))),
      coverage: Math.min(100, Math.round((country.buildings.military_bases * 2 * 100) / land)),
      upkeep: country.buildings.military_bases * 200,
      description: "Military bases cut upkeep and store missiles; the garrison allocation cuts losses when defending.",
      requiredTech: "Military Bases",
    },
  ];
}

/** Average coverage of the four systems, percent. */
export function averageCoverage(systems: readonly DefenseSystem[]): number {
  return systems.length ? Math.round(systems.reduce((s, x) => s + x.coverage, 0) / systems.length) : 0;
}

/** Strengths, vulnerabilities and recommendations of the defense screen. */
export interface DefenseReview {
  strengths: string[];
  vulnerabilities: string[];
  recommendations: string[];
}

/** Reads the country's defence and says what holds and what does not. */
export function reviewDefense(country: CountryState, posture: CombatPosture, threats: ThreatAssessment): DefenseReview {
  const land = country.land > 0 ? country.land : DEFENSE_DEFAULT_LAND;
  const strengths: string[] = [];
  const vulnerabilities: string[] = [];
  const recommendations: string[] = [];
  const turretsPerAcre = country.turrets / land;
  const readiness = computeReadiness(country.cash, computeMilitaryUpkeep(country));
  if (turretsPerAcre >= 1) strengths.push(`${turretsPerAcre.toFixed(1)} turrets per acre hold off bombing runs`);
  else vulnerabilities.push("Few turrets per acre: bombing runs and missiles meet little resistance");
  if (country.troops >= country.land * 2) strengths.push("A large standing army of troops");
  else vulnerabilities.push("Thin troop cover for the land held");
  if (country.tech.sdi > 0) strengths.push(`SDI level ${country.tech.sdi} intercepts missiles`);
  else if (threats.missile > 0) vulnerabilities.push("No missile defense research against recent missile strikes");
  if (readiness < READINESS_LOW) vulnerabilities.push("Low readiness: the army fights below strength");
  if (posture.alertLevel === "high" || posture.alertLevel === "critical") strengths.push(`Alert level ${posture.alertLevel}: stronger defence, weaker attacks`);
  if (turretsPerAcre < 1) recommendations.push("Shift production toward turrets (the defensive preset)");
  if (threats.ground >= 50) recommendations.push("Raise the alert level or send a brigade on defensive duty");
  if (threats.missile >= 25 && country.tech.sdi < 5) recommendations.push("Research SDI to intercept missiles");
  if (country.spies === 0) recommendations.push("Train spies for counter-intelligence");
  if (readiness < READINESS_LOW) recommendations.push("Keep more cash in reserve: readiness needs 1.5x 24 turns of upkeep");
  if (recommendations.length === 0) recommendations.push("Your defence is in order; keep production balanced");
  return { strengths, vulnerabilities, recommendations };
}

/** Strategic recommendations of Military Command. */
export function militaryRecommendations(country: CountryState): string[] {
  const out: string[] = [];
  const readiness = computeReadiness(country.cash, computeMilitaryUpkeep(country));
  if (readiness < READINESS_LOW) out.push("Increase your cash reserve or reduce your army: readiness is low");
  if (country.buildings.industrial_complexes < RECOMMENDED_MIN_COMPLEXES) out.push("Build more industrial complexes to raise unit production");
  if (country.buildings.military_bases === 0) out.push("Build military bases: they cut upkeep and store missiles");
  if (country.turrets < country.land) out.push("Add turrets: fewer than one per acre leaves you open to bombing runs");
  if (country.troops + country.tanks + country.jets < country.land) out.push("Grow your offensive forces before attacking");
  if (out.length === 0) out.push("Your forces are balanced: look for targets in range");
  return out;
}

/** A strategic objective computed from the country's situation (spec entity, real data). */
export interface StrategicObjective {
  id: string;
  name: string;
  type: "defense" | "offense" | "reconnaissance" | "support";
  priority: "high" | "medium" | "low";
  /** percent 0..100 */
  progress: number;
  /** epoch ms, optional */
  deadline: number | null;
  requiredForces: { troops: number; jets: number; turrets: number; tanks: number };
}

/** Days under which an objective's deadline warns (spec: 7). */
export const OBJECTIVE_DEADLINE_WARNING_DAYS = 7;
/** The spec's deadline warning. */
export const OBJECTIVE_DEADLINE_WARNING = "Deadline approaching - prioritize resources";

/**
 * Objectives from the country's situation: turret cover of one per acre (defense), readiness
 * of at least 50 (support), an offensive force of twice the acres held (offense), and, when
 * the country has an active war, taking land from the enemy before the war's minimum length
 * runs out (offense, with that deadline).
 */
export function computeStrategicObjectives(country: CountryState, context: { warMinEndsAt: number | null; landCapturedInWar: number }): StrategicObjective[] {
  const readiness = computeReadiness(country.cash, computeMilitaryUpkeep(country));
  const offensive = country.troops + country.tanks + country.jets;
  const pct = (have: number, want: number) => (want <= 0 ? 100 : Math.min(100, Math.floor((have * 100) / want)));
  const objectives: StrategicObjective[] = [
    {
      id: "turret-cover",
      name: "Turret cover of one per acre",
      type: "defense",
      priority: country.turrets < country.land ? "high" : "low",
      progress: pct(country.turrets, country.land),
      deadline: null,
      requiredForces: { troops: 0, jets: 0, turrets: country.land, tanks: 0 },
    },
    {
      id: "readiness",
      name: "Military readiness of 50 or more",
      type: "support",
      priority: readiness < READINESS_LOW ? "high" : "low",
      progress: pct(readiness, READINESS_LOW),
      deadline: null,
      requiredForces: { troops: 0, jets: 0, turrets: 0, tanks: 0 },
    },
    {
      id: "strike-force",
      name: "Offensive force of two units per acre",
      type: "offense",
      priority: "medium",
      progress: pct(offensive, country.land * 2),
      deadline: null,
      requiredForces: { troops: Math.ceil(country.land * 1.4), jets: Math.ceil(country.land * 0.2), turrets: 0, tanks: Math.ceil(country.land * 0.4) },
    },
  ];
  if (context.warMinEndsAt !== null) {
    objectives.push({
      id: "war-gains",
      name: "Take land from the enemy while at war",
      type: "offense",
      priority: "high",
      progress: pct(context.landCapturedInWar, Math.max(1, Math.ceil(country.land * 0.05))),
      deadline: context.warMinEndsAt,
      requiredForces: { troops: country.troops, jets: country.jets, turrets: 0, tanks: country.tanks },
    });
  }
  return objectives;
}

/** Whether an objective shows the deadline warning (under 7 days left). */
export function objectiveDeadlineWarning(objective: Pick<StrategicObjective, "deadline">, now: number): string | null {
  if (objective.deadline === null) return null;
  const left = objective.deadline - now;
  return left > 0 && left < OBJECTIVE_DEADLINE_WARNING_DAYS * 86_400_000 ? OBJECTIVE_DEADLINE_WARNING : null;
}
