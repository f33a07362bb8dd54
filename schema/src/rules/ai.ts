import type { BuildingType, CountryState } from "./country.js";
import type { Rng } from "./rng.js";
import { computeAffordableExplorationTurns, checkExploration } from "./exploration.js";
import { checkConstruction, computeFreeLand, computeMaxBuildable } from "./buildings.js";
import { checkAttackTarget, checkAttackTurns, checkAttackUnits, type TargetFacts } from "./combat.js";
import { computeProductionPerTurn } from "./economy.js";
import { checkResearchAllocation, computeTechnologyCost, technologyState } from "./research.js";
import { TECHNOLOGY_IDS, type TechnologyId } from "./country.js";
import { checkStoreSell } from "./market.js";

/**
 * AI countries: ordinary countries whose owner is a strategy instead of a person. A strategy
 * never writes: it looks at what a player would see (its own numbers, other countries'
 * public facts) and names the next action a player would take, which the server then runs
 * through the same service function a player's request reaches. Every intent it names has
 * passed the same check the service will run, so a refusal means the world changed between
 * the look and the act (another player moved first), as it can for a person.
 *
 * Personalities weigh the same choices differently; the dice come from a seeded Rng, so a
 * run replays exactly from its seed and the same starting world.
 */

export const AI_PERSONALITIES = ["farmer", "trader", "raider", "turtle", "researcher"] as const;
export type AiPersonality = (typeof AI_PERSONALITIES)[number];

export interface AiPersonalityProfile {
  id: AiPersonality;
  name: string;
  /** what it builds on free land, by share */
  buildMix: Partial<Record<BuildingType, number>>;
  /** chance, per decision, of attacking when a fair target exists */
  attackAppetite: number;
  /** share of its troops and tanks it commits to an attack */
  attackCommitment: number;
  /** turns it spends on one exploration at most */
  exploreChunk: number;
  /** turns it keeps unspent (a reserve for defence and opportunities) */
  turnReserve: number;
  /** chance, per decision, of researching when it has labs */
  researchAppetite: number;
  /** turns of food it keeps before selling the rest to the store */
  foodTurnsKept: number;
}

export const AI_PROFILES: Record<AiPersonality, AiPersonalityProfile> = {
  farmer: {
    id: "farmer",
    name: "Farmer",
    buildMix: { farms: 4, residences: 3, enterprise_zones: 2, oil_rigs: 1 },
    attackAppetite: 0.02,
    attackCommitment: 0.3,
    exploreChunk: 6,
    turnReserve: 5,
    researchAppetite: 0.1,
    foodTurnsKept: 60,
  },
  trader: {
    id: "trader",
    name: "Trader",
    buildMix: { enterprise_zones: 4, farms: 3, oil_rigs: 2, residences: 1 },
    attackAppetite: 0.03,
    attackCommitment: 0.3,
    exploreChunk: 5,
    turnReserve: 5,
    researchAppetite: 0.15,
    foodTurnsKept: 20,
  },
  raider: {
    id: "raider",
    name: "Raider",
    buildMix: { military_bases: 3, industrial_complexes: 3, farms: 2, residences: 1, oil_rigs: 1 },
    attackAppetite: 0.35,
    attackCommitment: 0.6,
    exploreChunk: 3,
    turnReserve: 10,
    researchAppetite: 0.05,
    foodTurnsKept: 40,
  },
  turtle: {
    id: "turtle",
    name: "Turtle",
    buildMix: { military_bases: 2, farms: 3, residences: 3, enterprise_zones: 2 },
    attackAppetite: 0,
    attackCommitment: 0,
    exploreChunk: 4,
    turnReserve: 20,
    researchAppetite: 0.1,
    foodTurnsKept: 80,
  },
  researcher: {
    id: "researcher",
    name: "Researcher",
    buildMix: { research_labs: 4, residences: 2, enterprise_zones: 2, farms: 2 },
    attackAppetite: 0.01,
    attackCommitment: 0.3,
    exploreChunk: 5,
    turnReserve: 5,
    researchAppetite: 0.6,
    foodTurnsKept: 40,
  },
};

/** The personality a new AI country gets: drawn from the run's rng, evenly. */
export function pickAiPersonality(rng: Rng): AiPersonality {
  return AI_PERSONALITIES[rng.int(0, AI_PERSONALITIES.length - 1)]!;
}

/** Another country as an AI sees it: public facts only. */
export type AiTarget = TargetFacts;

/** What an AI looks at before each action. */
export interface AiView {
  countryId: number;
  country: CountryState;
  /** its own protection and alliance facts (for the attack rules) */
  self: TargetFacts;
  /** other countries' public facts (a target list, as a player's) */
  targets: readonly AiTarget[];
  /** active wars it declared, by target id */
  atWarWith: ReadonlySet<number>;
  now: number;
}

/** The next action an AI takes, named as the service call it becomes. */
export type AiIntent =
  | { kind: "explore"; turns: number }
  | { kind: "build"; order: Partial<Record<BuildingType, number>> }
  | { kind: "research_generate" }
  | { kind: "research_allocate"; allocations: Partial<Record<TechnologyId, number>> }
  | { kind: "produce"; turns: number }
  | { kind: "store_sell"; item: "food"; quantity: number }
  | { kind: "attack"; targetId: number; attackType: "standard_strike"; units: { troops: number; tanks: number } };

export type AiIntentKind = AiIntent["kind"];
export const AI_INTENT_KINDS: readonly AiIntentKind[] = ["explore", "build", "research_generate", "research_allocate", "produce", "store_sell", "attack"];

/** Most buildings an AI orders in one action (a person clicks in handfuls too). */
export const AI_MAX_BUILD_PER_ACTION = 25;
/** Troops an AI keeps home however eager it is. */
export const AI_MIN_HOME_TROOPS = 500;

/**
 * The next action for `view`, or null when the AI should stop for now (no turns beyond its
 * reserve, nothing it can afford). Pure: the same view, personality and rng state give the
 * same intent. Order of concern: not starving, then (by appetite) attacking, then using free
 * land, then (by appetite) researching, then selling surplus food, then growing by exploration, and
 * when cash runs dry a turn of production.
 */
export function nextAiIntent(view: AiView, personality: AiPersonality, rng: Rng): AiIntent | null {
  const profile = AI_PROFILES[personality];
  const c = view.country;
  if (c.turns <= profile.turnReserve) return null;
  const perTurn = computeProductionPerTurn(c);

  // 1. Food: a deficit that would starve it within 20 turns means farms first.
  const starving = perTurn.food < 0 && c.food + perTurn.food * 20 < 0;
  const freeLand = computeFreeLand(c);
  if (starving && freeLand > 0) {
    const farms = Math.min(AI_MAX_BUILD_PER_ACTION, computeMaxBuildable(c, {}, "farms"));
    if (farms > 0 && !checkConstruction(c, { farms })) return { kind: "build", order: { farms } };
  }

  // 2. Attack, by appetite, the weakest fair target the rules allow.
  if (profile.attackAppetite > 0 && rng.next() < profile.attackAppetite) {
    const attack = planAttack(view, profile);
    if (attack) return attack;
  }

  // 3. Free land: build by the personality's mix (one type per action, drawn by share).
  if (freeLand > 0) {
    const type = drawWeighted(profile.buildMix, rng);
    const quantity = Math.min(AI_MAX_BUILD_PER_ACTION, computeMaxBuildable(c, {}, type));
    if (quantity > 0 && !checkConstruction(c, { [type]: quantity })) return { kind: "build", order: { [type]: quantity } };
  }

  // 4. Research: spend points on the cheapest available technology, or make more.
  if (rng.next() < profile.researchAppetite && c.buildings.research_labs > 0) {
    const allocation = cheapestResearch(c);
    if (allocation) return { kind: "research_allocate", allocations: allocation };
    if (c.turns - 1 > profile.turnReserve) return { kind: "research_generate" };
  }

  // 5. Surplus food sells to the government store for cash.
  const foodNeeded = Math.max(0, -perTurn.food) * profile.foodTurnsKept + 1_000;
  const surplus = Math.floor((c.food - foodNeeded) / 2);
  if (surplus >= 1_000 && !checkStoreSell(c, "food", surplus)) return { kind: "store_sell", item: "food", quantity: surplus };

  // 6. Grow: explore what it can afford, in the personality's chunk.
  const spendable = c.turns - profile.turnReserve;
  const affordable = Math.min(computeAffordableExplorationTurns(c), profile.exploreChunk, spendable);
  if (affordable > 0 && !checkExploration(c, affordable)) return { kind: "explore", turns: affordable };

  // 7. Out of cash: a turn of production earns taxes.
  if (spendable >= 1) return { kind: "produce", turns: 1 };
  return null;
}

function drawWeighted<K extends string>(weights: Partial<Record<K, number>>, rng: Rng): K {
  const entries = Object.entries(weights) as Array<[K, number]>;
  const total = entries.reduce((sum, [, w]) => sum + w, 0);
  let roll = rng.next() * total;
  for (const [key, w] of entries) {
    roll -= w;
    if (roll < 0) return key;
  }
  return entries[entries.length - 1]![0];
}

function cheapestResearch(c: CountryState): Partial<Record<TechnologyId, number>> | null {
  let best: { id: TechnologyId; cost: number } | null = null;
  for (const id of TECHNOLOGY_IDS) {
    if (technologyState(c.tech, id) !== "available") continue;
    const cost = computeTechnologyCost(id, c.tech[id], c.governmentType);
    if (cost <= c.researchPoints && (!best || cost < best.cost)) best = { id, cost };
  }
  if (!best) return null;
  const allocation = { [best.id]: best.cost } as Partial<Record<TechnologyId, number>>;
  return checkResearchAllocation(c, allocation) ? null : allocation;
}

function planAttack(view: AiView, profile: AiPersonalityProfile): AiIntent | null {
  const c = view.country;
  if (checkAttackTurns("standard_strike", c.turns - profile.turnReserve)) return null;
  const troops = Math.floor(Math.max(0, c.troops - AI_MIN_HOME_TROOPS) * profile.attackCommitment);
  const tanks = Math.floor(c.tanks * profile.attackCommitment);
  if (troops <= 0) return null;
  const units = { troops, tanks };
  if (checkAttackUnits("standard_strike", units, { troops: c.troops, jets: c.jets, tanks: c.tanks, turrets: c.turrets, spies: c.spies, missiles: c.missiles })) return null;
  // The weakest target the rules allow, preferring land: more land per networth is a softer target.
  let best: { target: AiTarget; score: number } | null = null;
  for (const target of view.targets) {
    if (checkAttackTarget(view.self, target, { now: view.now, atWar: view.atWarWith.has(target.id) })) continue;
    if (target.networth > view.self.networth * 1.2) continue;
    const score = target.land / Math.max(1, target.networth);
    if (!best || score > best.score || (score === best.score && target.id < best.target.id)) best = { target, score };
  }
  return best ? { kind: "attack", targetId: best.target.id, attackType: "standard_strike", units } : null;
}
