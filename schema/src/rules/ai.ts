import type { BuildingType, CountryState, UnitType } from "./country.js";
import type { Rng } from "./rng.js";
import { computeAffordableExplorationTurns, checkExploration, computeExploration } from "./exploration.js";
import { checkConstruction, computeBuildingsPerTurn, computeFreeLand, computeMaxBuildable } from "./buildings.js";
import { ATTACK_TYPES, checkAttackTarget, checkAttackTurns, checkAttackUnits, computeDailyLandAllowance, computeMilitaryRatio, needsBrigade, threatLevel, type TargetFacts, type ThreatLevel } from "./combat.js";
import { computeMilitaryUpkeep, pickAttackBrigade, type BrigadeRecord } from "./military.js";
import { computeHousingCap, computeProductionPerTurn, performConstruction, performExploration, performProduction, runEconomyTurns, type EconomicEffects, type ProductionPerTurn } from "./economy.js";
import { MAX_TURNS, MAX_TURNS_PER_ACTION } from "./turns.js";
import { checkResearchAllocation, computeTechnologyCost, technologyState } from "./research.js";
import { GOVERNMENT_TYPES, TECHNOLOGY_IDS, type GovernmentType, type TechnologyId } from "./country.js";
import {
  MAX_OPEN_STANDING_ORDERS,
  STORE_ITEMS,
  checkBuyListing,
  checkStoreBuy,
  checkCreateListing,
  checkCreateStandingOrder,
  checkStoreSell,
  computePriceBounds,
  computeStorePrices,
  holdingOf,
  type MarketItemType,
  type OrderPriority,
} from "./market.js";
import { MISSION_TYPES, SPY_OPERATIONS, checkEspionageTarget, checkMission, checkSpyOperation, checkTraining, spyCapacity, trainingTurns, type DailyUsage, type MissionTypeId, type SpyOperationId } from "./espionage.js";
import { ALLIANCE_BONUSES, checkBonusPurchase, type BonusPurchase, ALLIANCE_FLAG_SYMBOLS, ALLIANCE_MAX_MEMBERS, checkAllianceCapacity, checkAlliancePermission, checkNotInAlliance, meetsRequirements } from "./alliance.js";
import type { AllianceRole } from "./chat.js";
import { checkAnswerProposal, checkProposal, findRelationType, relationPayers, type RelationType } from "./diplomacy.js";

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
  /** the army it keeps, in units per acre, bought from the Government Store when short */
  armyPerAcre: Partial<Record<AiArmyUnit, number>>;
  /** share of its spare cash (beyond what the next exploration costs) it spends on the army at once */
  armySpending: number;
  /** chance, per decision, of an espionage step (training spies or a mission); 0: never spies, not even to scout */
  spyAppetite: number;
  /** spies it trains up to (the capacity, 5% of land, caps it further) */
  spiesWanted: number;
  /** chance, per decision, of a player-market step (buy below the store, list surplus, a standing order) */
  marketAppetite: number;
  /** items it buys from other countries' listings when cheaper than its store (food is bought by all when short) */
  marketBuys: readonly MarketItemType[];
  /** items whose surplus it lists on the player market */
  marketSells: readonly MarketItemType[];
  /** the item of its standing order (a bid below the store), or null for none */
  standingOrderItem: MarketItemType | null;
  /** chance, per decision outside an alliance, of applying to one (or, rarely, founding one) */
  allianceAppetite: number;
  /** chance that an alliance step with nothing to join founds an alliance */
  foundAppetite: number;
  /** chance, per decision, of proposing its preferred relation */
  diplomacyAppetite: number;
  /** the relation it proposes */
  relation: RelationType;
  /** relation types it accepts when proposed to it */
  relationsAccepted: readonly RelationType[];
  /** relations it pays for at most (each costs dollars per day) */
  maxRelations: number;
}

/** Units an AI buys for its army. */
export type AiArmyUnit = "troops" | "turrets" | "tanks";

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
    armyPerAcre: { troops: 3, turrets: 2 },
    armySpending: 0.3,
    spyAppetite: 0,
    spiesWanted: 0,
    marketAppetite: 0.25,
    marketBuys: [],
    marketSells: ["food"],
    standingOrderItem: null,
    allianceAppetite: 0.05,
    foundAppetite: 0.05,
    diplomacyAppetite: 0.03,
    relation: "trade",
    relationsAccepted: ["trade", "defensive", "research", "intelligence"],
    maxRelations: 2,
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
    armyPerAcre: { troops: 3, turrets: 2 },
    armySpending: 0.3,
    spyAppetite: 0.08,
    spiesWanted: 10,
    marketAppetite: 0.5,
    marketBuys: [],
    marketSells: ["food", "oil"],
    standingOrderItem: "food",
    allianceAppetite: 0.08,
    foundAppetite: 0.1,
    diplomacyAppetite: 0.08,
    relation: "trade",
    relationsAccepted: ["trade", "defensive", "research", "intelligence"],
    maxRelations: 3,
  },
  raider: {
    id: "raider",
    name: "Raider",
    // Residences and enterprise zones pay for the army: with one residence in ten and three
    // complexes turning out units every turn, raiders went bankrupt by day 3 and sat at about
    // 300 acres all season (docs/balance.md).
    buildMix: { military_bases: 2, industrial_complexes: 1, farms: 2, residences: 3, enterprise_zones: 2 },
    attackAppetite: 0.35,
    attackCommitment: 0.6,
    exploreChunk: 3,
    turnReserve: 10,
    researchAppetite: 0.05,
    foodTurnsKept: 40,
    armyPerAcre: { troops: 12, tanks: 0.6, turrets: 1 },
    armySpending: 0.6,
    spyAppetite: 0.25,
    spiesWanted: 30,
    marketAppetite: 0.15,
    marketBuys: ["troops", "tanks"],
    marketSells: [],
    standingOrderItem: "troops",
    allianceAppetite: 0.06,
    foundAppetite: 0.1,
    diplomacyAppetite: 0.04,
    relation: "intelligence",
    relationsAccepted: ["intelligence", "offensive", "trade"],
    maxRelations: 2,
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
    armyPerAcre: { troops: 5, turrets: 6 },
    armySpending: 0.5,
    spyAppetite: 0.1,
    spiesWanted: 20,
    marketAppetite: 0.1,
    marketBuys: ["troops", "turrets"],
    marketSells: ["food"],
    standingOrderItem: null,
    allianceAppetite: 0.1,
    foundAppetite: 0.05,
    diplomacyAppetite: 0.06,
    relation: "defensive",
    relationsAccepted: ["defensive", "trade", "research", "intelligence"],
    maxRelations: 3,
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
    armyPerAcre: { troops: 3, turrets: 2 },
    armySpending: 0.3,
    spyAppetite: 0,
    spiesWanted: 0,
    marketAppetite: 0.1,
    marketBuys: [],
    marketSells: ["food"],
    standingOrderItem: null,
    allianceAppetite: 0.06,
    foundAppetite: 0.05,
    diplomacyAppetite: 0.05,
    relation: "research",
    relationsAccepted: ["research", "trade", "defensive", "intelligence"],
    maxRelations: 2,
  },
};

/** The personality a new AI country gets: drawn from the run's rng, evenly. */
export function pickAiPersonality(rng: Rng): AiPersonality {
  return AI_PERSONALITIES[rng.int(0, AI_PERSONALITIES.length - 1)]!;
}

/**
 * The government a new AI country picks on its first day (the free change): drawn evenly, so
 * every government is played by every personality and a simulated season can compare them.
 */
export function pickAiGovernment(rng: Rng): GovernmentType {
  return GOVERNMENT_TYPES[rng.int(0, GOVERNMENT_TYPES.length - 1)]!;
}

/**
 * Another country as an AI sees it: public facts only, with the land it lost in the last 24
 * hours (battles are public news; GET /military/target-analysis answers it too).
 */
export type AiTarget = TargetFacts & { landLostToday?: number };

/** Most targets an AI's view keeps. */
export const AI_TARGET_LIST_SIZE = 20;
/** The networth band of an AI's targets: countries with 40% to 120% of its own networth. */
export const AI_TARGET_BAND = { low: 0.4, high: 1.2 } as const;

/**
 * An AI's target list from the countries it sees (the whole world on the server, the pages
 * of GET /countries it read in the load tester): the others in its networth band (bounds
 * included), not eliminated, most land per networth first, ties by id, at most
 * AI_TARGET_LIST_SIZE. A country listed twice counts once.
 */
export function selectAiTargets(seen: Iterable<AiTarget>, self: Pick<TargetFacts, "id" | "networth">): AiTarget[] {
  const low = self.networth * AI_TARGET_BAND.low;
  const high = self.networth * AI_TARGET_BAND.high;
  const picked = new Map<number, AiTarget>();
  for (const t of seen) {
    if (t.id === self.id || t.isEliminated || t.networth < low || t.networth > high || picked.has(t.id)) continue;
    picked.set(t.id, t);
  }
  return [...picked.values()].sort((a, b) => b.land / Math.max(b.networth, 1) - a.land / Math.max(a.networth, 1) || a.id - b.id).slice(0, AI_TARGET_LIST_SIZE);
}

/** A target's forces as the AI's intelligence estimates them (a report's estimatedUnits). */
export type AiKnownForces = Pick<Record<UnitType, number>, "troops" | "jets" | "turrets" | "tanks">;

/** The cheapest open listing of an item by another country (public market). */
export interface AiListing {
  id: number;
  sellerId: number;
  item: MarketItemType;
  /** units still for sale */
  quantity: number;
  pricePerUnit: number;
}

/** Its espionage counters today, as the status call answers them. */
export interface AiEspionageView {
  /** operations today, both centres (the daily cap is DAILY_OPS_LIMIT) */
  used: number;
  /** operations today per kind */
  byKind: Readonly<Record<string, number>>;
  /** ms until each Intelligence Center type is ready again (0 or absent: ready) */
  cooldowns: Readonly<Partial<Record<MissionTypeId, number>>>;
}

/** Its own alliance. */
export interface AiAllianceView {
  id: number;
  role: AllianceRole;
  memberCount: number;
  /** pending applications to it (shown to leaders only; empty for members) */
  applications: ReadonlyArray<{ id: number; applicantId: number }>;
}

/** An alliance taking applications, as the alliance list shows it. */
export interface AiAllianceListing {
  id: number;
  memberCount: number;
  minNetworth: number;
  minLand: number;
}

/** Its diplomacy: active relations and pending proposals either way. */
export interface AiDiplomacyView {
  /** `pays`: it holds and pays this relation (both sides of a mutual one; the proposer of a trade agreement) */
  active: ReadonlyArray<{ partnerId: number; type: RelationType; pays: boolean }>;
  incoming: ReadonlyArray<{ id: number; fromCountryId: number; type: RelationType; expiresAt: number }>;
  outgoing: ReadonlyArray<{ toCountryId: number; type: RelationType }>;
}

/**
 * What an AI looks at before each action: only what its player could read over REST (the
 * comment on each field names the call), so a load tester builds the same view from the API.
 * The optional parts are fetched only for personalities that use them (absent: the strategy
 * skips that concern); `alliance` is null outside an alliance.
 */
export interface AiView {
  countryId: number;
  /** GET /countries/{id} (own country, private numbers included) */
  country: CountryState;
  /** its own protection and alliance facts (for the attack rules): GET /countries/{id} */
  self: TargetFacts;
  /** other countries' public facts (a target list, as a player's): GET /countries (networth, land, protection, alliance) */
  targets: readonly AiTarget[];
  /** active wars it declared, by target id: GET /war/declarations */
  atWarWith: ReadonlySet<number>;
  now: number;
  /** its brigades (a Standard Strike needs a ready one): GET /military/brigades/{countryId}; absent: not fetched, not checked */
  brigades?: readonly BrigadeRecord[];
  /**
   * the countries whose defence held against its own attacks in the last
   * AI_REPELLED_MEMORY_HOURS: GET /battle-reports?role=attacker&outcome=defeat (its own
   * reports, as a player reads them); absent: not fetched, not checked
   */
  repelledBy?: ReadonlySet<number>;
  /** GET /intelligence/status/{countryId}: operationsUsed, usedByKind, cooldowns */
  espionage?: AiEspionageView;
  /** countries it holds fresh military intelligence on: GET /intelligence/known (the keys; the AI counts its own reports) */
  scouted?: ReadonlySet<number>;
  /**
   * what that intelligence says of each one's forces (the estimated troops, jets, turrets and
   * tanks of its freshest report): GET /intelligence/known (estimatedUnits), as the attack
   * screen shows a player; a target without an entry is unknown
   */
  knownForces?: ReadonlyMap<number, AiKnownForces>;
  /** the cheapest listing by another country of each AI_MARKET_ITEMS item: GET /market/listings?itemType={item} (first row with isOwnListing false) */
  listings?: readonly AiListing[];
  /** its open listings: GET /market/listings (rows with isOwnListing true) */
  ownListings?: number;
  /** items of its open (pending, active, partial) standing orders: GET /market/standing-orders/{countryId} */
  orderItems?: readonly MarketItemType[];
  /** GET /alliance/status/{countryId} (alliance.id, alliance.memberCount, role) and GET /alliance/applications (received) */
  alliance?: AiAllianceView | null;
  /** alliances taking applications, outside an alliance only: GET /alliance/list */
  openAlliances?: readonly AiAllianceListing[];
  /** alliances it has a pending application to: GET /alliance/applications (mine) */
  appliedTo?: ReadonlySet<number>;
  /** GET /diplomatic-relations/{countryId} (active, incoming, outgoing) */
  diplomacy?: AiDiplomacyView;
  /** its open standing orders: GET /market/standing-orders/{countryId} (id, item, bid, cash held) */
  orders?: readonly AiStandingOrder[];
  /** its alliance's bonus points and bonus purchases: GET /alliance/bonuses */
  allianceBonuses?: { points: number; purchases: readonly BonusPurchase[] };
  /** units its Government Store has left today, by item: GET /market/store/{countryId} (each item's stock) */
  storeStock: Partial<Record<AiArmyUnit | "food", number>>;
  /** what its Government Store still buys from it today, by item: GET /market/store/{countryId} (each item's demand); absent: nothing */
  storeDemand: Partial<Record<AiArmyUnit | "food", number>>;
}

/** One of its open standing orders, as GET /market/standing-orders/{countryId} lists it. */
export interface AiStandingOrder {
  id: number;
  item: MarketItemType;
  maxPrice: number;
  /** the budget it holds in escrow */
  heldCash: number;
}

/** The flag of an alliance an AI founds (as POST /alliance/create takes it). */
export interface AiAllianceFlag {
  backgroundColor: string;
  symbol: (typeof ALLIANCE_FLAG_SYMBOLS)[number];
  symbolColor: string;
}

/**
 * The next action an AI takes, named as the service call it becomes. Plain JSON: each kind is
 * one REST call (docs/architecture.md "AI countries" lists them), so a load tester can replay it.
 */
export type AiIntent =
  | { kind: "explore"; turns: number }
  | { kind: "build"; order: Partial<Record<BuildingType, number>> }
  | { kind: "research_generate" }
  | { kind: "research_allocate"; allocations: Partial<Record<TechnologyId, number>> }
  | { kind: "produce"; turns: number }
  | { kind: "store_sell"; item: "food" | AiArmyUnit; quantity: number }
  | { kind: "store_buy"; item: AiArmyUnit | "food"; quantity: number }
  | { kind: "attack"; targetId: number; attackType: "standard_strike"; units: { troops: number; tanks: number } }
  | { kind: "spy_train"; quantity: number }
  | { kind: "spy_mission"; missionType: MissionTypeId; targetId: number; spiesUsed: number }
  | { kind: "spy_operation"; operationType: SpyOperationId; targetId: number; spiesUsed: number }
  | { kind: "market_list"; item: MarketItemType; quantity: number; pricePerUnit: number }
  | { kind: "market_buy"; listingId: number; quantity: number }
  | { kind: "market_order"; item: MarketItemType; quantity: number; maxPrice: number; priority: OrderPriority }
  | { kind: "market_cancel_order"; orderId: number }
  | { kind: "alliance_bonus"; bonusId: string }
  | { kind: "alliance_create"; name: string; tag: string; description: string; flag: AiAllianceFlag }
  | { kind: "alliance_apply"; allianceId: number; message: string }
  | { kind: "alliance_accept"; applicationId: number }
  | { kind: "alliance_reject"; applicationId: number }
  | { kind: "diplomacy_propose"; toCountryId: number; relationType: RelationType; message: string }
  | { kind: "diplomacy_accept"; proposalId: number }
  | { kind: "diplomacy_reject"; proposalId: number };

export type AiIntentKind = AiIntent["kind"];
export const AI_INTENT_KINDS: readonly AiIntentKind[] = [
  "explore",
  "build",
  "research_generate",
  "research_allocate",
  "produce",
  "store_sell",
  "store_buy",
  "attack",
  "spy_train",
  "spy_mission",
  "spy_operation",
  "market_list",
  "market_buy",
  "market_order",
  "market_cancel_order",
  "alliance_bonus",
  "alliance_create",
  "alliance_apply",
  "alliance_accept",
  "alliance_reject",
  "diplomacy_propose",
  "diplomacy_accept",
  "diplomacy_reject",
];

/**
 * How often an AI country sits down to play, as a person does: sessions a day, each of up to
 * AI_ACTIONS_PER_SESSION actions. The season simulator's default and the live world's
 * (AI_SESSIONS_PER_DAY in the server's config), so the simulated seasons judge the AI the
 * players meet (issue 27: a live AI that acted every minute outgrew every player sixfold).
 */
export const AI_SESSIONS_PER_DAY = 4;
export const AI_ACTIONS_PER_SESSION = 8;

/** Items whose cheapest listing an AI looks at (what any personality buys or undercuts). */
export const AI_MARKET_ITEMS: readonly MarketItemType[] = ["food", "oil", "troops", "tanks", "turrets"];
/** Open listings an AI keeps at most (the rules allow MAX_OPEN_LISTINGS; an AI is no market maker). */
export const AI_MAX_OPEN_LISTINGS = 3;
/** Share of its cash an AI spends on one market purchase or puts into one standing order, percent. */
export const AI_MARKET_CASH_PCT = 15;
/**
 * A standing order bids this share of the store's buy price, percent: well under the store
 * (or why wait) and under what an AI asks for a listing (AI_LIST_PRICE_PCT), so a trader's
 * bid and ask leave it a spread.
 */
export const AI_ORDER_PRICE_PCT = 40;
/** A listing with no cheaper competitor asks this share of the store's base buy price, percent. */
export const AI_LIST_PRICE_PCT = 45;
/** Spies an AI trains in one order at most (5 per turn: 5 turns). */
export const AI_MAX_SPY_TRAINING = 25;
/** Share of its cash an AI spends on spy training at most, percent. */
export const AI_SPY_CASH_PCT = 5;
/** Days of its relations' cost it keeps in cash before taking on another relation. */
export const AI_RELATION_DAYS_KEPT = 30;

/** Fewest bushels an AI sells to the store at once (a smaller surplus waits for the next session). */
export const AI_MIN_FOOD_SALE = 1_000;
/** Turns of food deficit an AI looks ahead at least before it counts itself as starving. */
export const AI_FOOD_HORIZON_TURNS = 20;
/** Most buildings an AI orders in one action (a person clicks in handfuls too). */
export const AI_MAX_BUILD_PER_ACTION = 25;
/**
 * Fewest buildings an AI orders when it has more free land than that: a person saves up for
 * a handful rather than clicking one building at a time as the cash trickles in.
 */
export const AI_MIN_BUILD_BATCH = 5;
/** Most turns of production an AI runs in one action when it has nothing better to do. */
export const AI_PRODUCE_CHUNK = 5;
/** Least share of a target's land still takeable today for an AI to bother attacking it. */
export const AI_MIN_TAKEABLE_SHARE = 0.02;
/** Troops an AI keeps home however eager it is. */
export const AI_MIN_HOME_TROOPS = 500;
/**
 * Threat levels at which an AI leaves a target alone: the target analysis rates the target's
 * known military over the units the AI would send (`computeMilitaryRatio`, `threatLevel`:
 * above 1.5 hard, above 2 impossible), as the attack screen rates it for a player. A person
 * who has looked at a target and sees its defence beat the force it would send does not send
 * it (docs/balance.md "Issue 27, fourth stop": failed attacks cost raiders 11-31 times the
 * troops of won ones).
 */
export const AI_AVOIDED_THREATS: readonly ThreatLevel[] = ["hard", "impossible"];
/**
 * Hours an AI leaves alone a country whose defence held against its attack. What it knows of
 * a target's forces leaves out what only the battle shows: the defender's alliance and treaty
 * bonuses and its allies' reinforcements. In the seasons of issue 27's fifth stop raiders
 * attacked the same allied country again and again at about 0.4 of its defence (with
 * "verified" intelligence) and lost 13-27 times the troops of their won attacks; a person who
 * has just been thrown back by a country does not send the same army at it again the same day.
 */
export const AI_REPELLED_MEMORY_HOURS = 24;

/**
 * The target analysis's rating of an attack with `units` on a target whose forces the AI
 * knows (null when it knows nothing of them: no report, no rating).
 */
export function aiAttackThreat(units: { troops: number; tanks: number }, known: AiKnownForces | undefined): ThreatLevel | null {
  if (!known) return null;
  return threatLevel(computeMilitaryRatio({ troops: units.troops, jets: 0, turrets: 0, tanks: units.tanks }, known));
}

/**
 * The next action for `view`, or null when the AI should stop for now (no turns beyond its
 * reserve, nothing it can afford). Pure: the same view, personality and rng state give the
 * same intent. Order of concern: not starving (farms, else food bought below the store);
 * answering what waits on it (applications to its alliance, proposals to it); by appetite,
 * joining or founding an alliance and proposing its relation; by appetite, attacking (scouting
 * the target first when it spies); by appetite, espionage; by appetite, the player market;
 * using free land; by appetite, researching; selling surplus food to the store; growing by
 * exploration; and when cash runs dry a turn of production.
 */
export function nextAiIntent(view: AiView, personality: AiPersonality, rng: Rng): AiIntent | null {
  const intent = chooseAiIntent(view, personality, rng);
  const turns = intent ? aiIntentTurns(view.country, intent) : null;
  // The solvency guard over every turn-spending kind (aiIntentTurns): each strategy below
  // previews its own, and this catches any that does not; waiting costs a country nothing
  // (the economy runs only on turns spent), bankruptcy a twentieth of its army a turn.
  if (turns && turns.bankruptTurns > 0) return null;
  // Famine during the action's own turns (people moving in as it explores eat more than the
  // farms grow): food first, from the cheaper of market and store, twice what the turns eat;
  // with no food to be had the action goes ahead (a stalled country never feeds itself).
  if (turns && turns.starvingTurns > 0) {
    const food = planFoodBuy(view, Math.max(1_000, 2 * turns.foodConsumed), 1);
    if (food) return food;
  }
  return intent;
}

function chooseAiIntent(view: AiView, personality: AiPersonality, rng: Rng): AiIntent | null {
  const profile = AI_PROFILES[personality];
  const c = view.country;
  if (c.turns <= profile.turnReserve) return null;
  const perTurn = computeProductionPerTurn(c);

  // 1. Food: a deficit that would starve it within 20 turns, or within the turns its next
  //    exploration or production may spend, means farms first, else food from the market.
  const horizon = Math.max(AI_FOOD_HORIZON_TURNS, aiTurnChunk(c.turns, Math.max(profile.exploreChunk, AI_PRODUCE_CHUNK)));
  const starving = perTurn.food < 0 && c.food + perTurn.food * horizon < 0;
  const freeLand = computeFreeLand(c);
  if (starving && freeLand > 0) {
    const most = Math.min(AI_MAX_BUILD_PER_ACTION, computeMaxBuildable(c, {}, "farms"));
    const farms = largestSolvent(most, (n) => performConstruction(c, { farms: n }));
    if (farms > 0 && !checkConstruction(c, { farms })) return { kind: "build", order: { farms } };
  }
  const foodKept = Math.max(0, -perTurn.food) * Math.max(profile.foodTurnsKept, horizon) + 1_000;
  if (starving) {
    const food = planFoodBuy(view, Math.max(1, foodKept - c.food), Math.max(0, -perTurn.food) * horizon - c.food);
    if (food) return food;
  }

  // 1b. Insolvent: upkeep above income with little cash left sells units back to the store
  //     (bankruptcy would make a twentieth of every unit desert each turn, for nothing).
  // Standing orders that no longer make sense are cancelled first: the escrow comes back
  // before any unit is sold to stay solvent.
  const stale = staleStandingOrder(view, profile);
  if (stale) return stale;
  const solvency = planSolvency(view, perTurn.cash);
  if (solvency) return solvency;

  // 2. What waits on it: a leader answers applications, anyone answers proposals it would hold.
  const waiting = answerWaiting(view, profile);
  if (waiting) return waiting;

  // 2b. An alliance owner spends the points its members earned on the bonus it can afford.
  const bonus = planAllianceBonus(view);
  if (bonus) return bonus;

  // 3. Company: by appetite, an alliance (apply, or rarely found one) and its preferred relation.
  if (view.alliance === null && profile.allianceAppetite > 0 && rng.next() < profile.allianceAppetite) {
    const alliance = planAlliance(view, profile, rng);
    if (alliance) return alliance;
  }
  if (view.diplomacy && profile.diplomacyAppetite > 0 && rng.next() < profile.diplomacyAppetite) {
    const proposal = planProposal(view, profile, rng);
    if (proposal) return proposal;
  }

  // 4. Attack, by appetite, the weakest fair target the rules allow; a spying personality scouts it first.
  if (profile.attackAppetite > 0 && rng.next() < profile.attackAppetite) {
    const attack = planAttack(view, profile);
    if (attack) {
      const scout = profile.spyAppetite > 0 && view.scouted && !view.scouted.has(attack.targetId) ? planScout(view, profile, attack.targetId) : null;
      return scout ?? attack;
    }
  }

  // 5. Espionage, by appetite: spies up to what it wants, then a look at someone. The roll comes
  //    before the look at `view.espionage` (as in 6 for `view.listings`): a driver that reads a
  //    concern only when the strategy asks for it (the load tester's) then reads it only when the
  //    roll passed. The server's view always has both for a personality with the appetite, so
  //    its draws, and its decisions, are the same in either order.
  if (profile.spyAppetite > 0 && rng.next() < profile.spyAppetite && view.espionage) {
    const spy = planEspionage(view, profile, rng);
    if (spy) return spy;
  }

  // 6. The player market, by appetite: buy below the store, list surplus, bid with a standing order.
  if (profile.marketAppetite > 0 && rng.next() < profile.marketAppetite && view.listings) {
    const trade = planMarket(view, profile, foodKept, perTurn.oil, rng);
    if (trade) return trade;
  }

  // 7. Free land: build by the personality's mix (one type per action, drawn by share), with a
  //    construction site alongside while it has fewer than its land warrants (sites raise how
  //    many buildings one action may raise; a dictatorship cannot build without them). A
  //    building that costs more to keep than it yields is ordered only as far as the income
  //    carries its maintenance, and no order may leave the treasury empty during its own turns.
  if (freeLand > 0) {
    const spareIncome = aiNetIncome(c, perTurn) - AI_MIN_NET_INCOME_PER_ACRE * c.land;
    // Sites are the gate to building at all (a dictatorship raises nothing below 4), so one is
    // added whatever the margin; its maintenance comes out of what the others may cost.
    const wantSite = c.buildings.construction_sites < aiConstructionSiteTarget(c.land) && computeMaxBuildable(c, {}, "construction_sites") > 0;
    const base: Partial<Record<BuildingType, number>> = wantSite ? { construction_sites: 1 } : {};
    const left = wantSite ? spareIncome + aiBuildingYield(c, "construction_sites") : spareIncome;
    const carried = carriedBuildMix(c, profile, perTurn.cash, left);
    let order = base;
    if (carried.size > 0) {
      const type = drawWeighted(Object.fromEntries([...carried].map(([t]) => [t, profile.buildMix[t]!])) as Partial<Record<BuildingType, number>>, rng);
      const most = Math.min(AI_MAX_BUILD_PER_ACTION, computeMaxBuildable(c, base, type), carried.get(type)!);
      const quantity = largestSolvent(most, (n) => performConstruction(c, { ...base, [type]: n }));
      const capacity = computeBuildingsPerTurn(c.buildings.construction_sites, c.governmentType);
      // A handful at once is worth a turn; one or two only while most of its land lies idle
      // (otherwise the turns explore, which grows land forty times faster early on).
      const worthIt = quantity >= Math.min(freeLand, AI_MIN_BUILD_BATCH) || (quantity >= capacity && freeLand > c.land * AI_IDLE_LAND_SHARE);
      if (quantity > 0 && worthIt) order = { ...base, [type]: quantity };
    }
    // largestSolvent previewed an order with buildings; a site alone is previewed here
    const solvent = order !== base || performConstruction(c, order).effects.bankruptTurns === 0;
    if (Object.keys(order).length > 0 && !checkConstruction(c, order) && solvent) return { kind: "build", order };
  }

  // 8. Army: spare cash buys the unit furthest below the personality's army.
  const army = planArmy(view, profile, perTurn.cash);
  if (army) return army;

  // 9. Research: spend points on the cheapest available technology, or make more.
  if (rng.next() < profile.researchAppetite && c.buildings.research_labs > 0) {
    const allocation = cheapestResearch(c);
    if (allocation) return { kind: "research_allocate", allocations: allocation };
    // a turn of research is a turn of production: only when the treasury pays its expenses
    if (c.turns - 1 > profile.turnReserve && performProduction(c, 1).effects.bankruptTurns === 0) return { kind: "research_generate" };
  }

  // 10. Surplus food sells to the government store for cash, as much as the store still buys
  //     from it today; beyond that a personality that sells food on the player market lists
  //     it there (its listing path: a price above the store's), and any other keeps it.
  const surplus = Math.floor((c.food - foodKept) / 2);
  if (surplus >= AI_MIN_FOOD_SALE) {
    const demand = view.storeDemand.food ?? 0;
    const quantity = Math.min(surplus, demand);
    if (quantity >= AI_MIN_FOOD_SALE && !checkStoreSell(c, { item: "food", quantity, demand })) return { kind: "store_sell", item: "food", quantity };
    if (surplus > demand && profile.marketSells.includes("food") && view.listings) {
      const listing = planListing(view, profile, ["food"], foodKept, perTurn.oil, rng);
      if (listing) return listing;
    }
  }

  // 11. Grow: explore what it can afford, in the personality's chunk, or in a bigger one when
  //     turns pile up toward the cap (a turn not spent is a turn of taxes and growth lost).
  const spendable = c.turns - profile.turnReserve;
  const chunk = aiTurnChunk(c.turns, profile.exploreChunk);
  const affordable = largestSolvent(Math.min(computeAffordableExplorationTurns(c), chunk, spendable), (turns) => performExploration(c, turns));
  if (affordable > 0 && !checkExploration(c, affordable)) return { kind: "explore", turns: affordable };

  // 12. Out of cash: a few turns of production earn taxes, as many as leave the treasury
  //     paying every turn's expenses (the economy runs only on turns spent, so a country whose
  //     expenses outrun its taxes with nothing in the bank loses nothing by waiting).
  const produce = largestSolvent(Math.min(Math.max(0, spendable), aiTurnChunk(c.turns, AI_PRODUCE_CHUNK)), (turns) => performProduction(c, turns));
  if (produce >= 1) return { kind: "produce", turns: produce };
  return null;
}

/**
 * The economy of the turns an intent spends, as its service runs them: exploration,
 * construction and production (research_generate is one turn of production) through their
 * perform* rules, an attack's turns through runEconomyTurns before the battle (as
 * services/combat.ts spends them). Null for an intent that runs no economy turns (trades,
 * espionage, alliances, diplomacy, research allocation). The solvency guard and its property
 * test read it, so every kind is listed here.
 */
export function aiIntentTurns(c: CountryState, intent: AiIntent): EconomicEffects | null {
  switch (intent.kind) {
    case "explore":
      return performExploration(c, intent.turns).effects;
    case "build":
      return performConstruction(c, intent.order).effects;
    case "produce":
      return performProduction(c, intent.turns).effects;
    case "research_generate":
      return performProduction(c, 1).effects;
    case "attack": {
      const cost = ATTACK_TYPES[intent.attackType].turnCost;
      return runEconomyTurns({ ...c, turns: c.turns - cost }, cost).effects;
    }
    case "research_allocate":
    case "store_sell":
    case "store_buy":
    case "spy_train":
    case "spy_mission":
    case "spy_operation":
    case "market_list":
    case "market_buy":
    case "market_order":
    case "market_cancel_order":
    case "alliance_bonus":
    case "alliance_create":
    case "alliance_apply":
    case "alliance_accept":
    case "alliance_reject":
    case "diplomacy_propose":
    case "diplomacy_accept":
    case "diplomacy_reject":
      return null;
    default: {
      const unknown: never = intent;
      throw new Error(`unknown AI intent ${JSON.stringify(unknown)}`);
    }
  }
}

/** Available turns above which an AI spends its surplus in one action (three-quarters of MAX_TURNS, 150). */
export const AI_TURN_SPILL = Math.floor((MAX_TURNS * 3) / 4);

/**
 * Turns for one exploration or production: the personality's chunk, plus everything above
 * AI_TURN_SPILL, at most MAX_TURNS_PER_ACTION. An AI plays a few sessions of a few actions a
 * day while a turn comes every tick; in chunks of 3-6 turns every personality but the raider
 * sat at the 150-turn cap from the first week, losing the taxes of the turns it never spent.
 */
export function aiTurnChunk(turns: number, chunk: number): number {
  return Math.min(MAX_TURNS_PER_ACTION, chunk + Math.max(0, turns - AI_TURN_SPILL));
}

/** Turns of upkeep deficit an AI's cash must cover before it sells units to stay solvent. */
export const AI_SOLVENCY_TURNS = 20;
/** Units sold, first to last: most upkeep per unit of strength first. */
const AI_SELL_ORDER: readonly AiArmyUnit[] = ["tanks", "turrets", "troops"];

/**
 * A country whose upkeep exceeds its income and whose cash covers fewer than
 * AI_SOLVENCY_TURNS of the deficit sells the units whose upkeep closes it (the dearest to keep
 * first) to the store. Complexes keep producing units every turn, so without this a country
 * creeps into bankruptcy and loses a twentieth of its army each turn to desertion.
 */
function planSolvency(view: AiView, netCashPerTurn: number): AiIntent | null {
  const c = view.country;
  if (netCashPerTurn >= 0 || c.cash >= -netCashPerTurn * AI_SOLVENCY_TURNS) return null;
  for (const item of AI_SELL_ORDER) {
    if (c[item] <= 0) continue;
    const upkeepPerUnit = (computeMilitaryUpkeep(c) - computeMilitaryUpkeep({ ...c, [item]: 0 })) / c[item];
    if (upkeepPerUnit <= 0) continue;
    // Close the deficit and leave a margin of the minimum net income, as far as the store
    // still buys this unit today (beyond that, the next unit in the order).
    const gap = -netCashPerTurn + AI_MIN_NET_INCOME_PER_ACRE * c.land;
    const demand = view.storeDemand[item] ?? 0;
    const quantity = Math.min(c[item], Math.ceil(gap / upkeepPerUnit), demand);
    if (!checkStoreSell(c, { item, quantity, demand })) return { kind: "store_sell", item, quantity };
  }
  return null;
}

/**
 * The types of the personality's building mix its income carries at least one more of, each
 * with how many it carries; industrial complexes only while its income carries more units
 * (complexes turn out units every turn, and every unit costs upkeep). Empty when nothing is.
 */
function carriedBuildMix(c: CountryState, profile: AiPersonalityProfile, netCashPerTurn: number, spareIncome: number): Map<BuildingType, number> {
  const complexesCarried = netCashPerTurn >= AI_MIN_NET_INCOME_PER_ACRE * c.land * 2;
  const carried = new Map<BuildingType, number>();
  for (const type of Object.keys(profile.buildMix) as BuildingType[]) {
    if (type === "industrial_complexes" && !complexesCarried) continue;
    const count = carriedBuildings(c, type, spareIncome);
    if (count > 0) carried.set(type, count);
  }
  return carried;
}

/**
 * How many more buildings of `type` an income `spareIncome` above the AI's margin carries:
 * unbounded for a type that yields at least its maintenance, else as many as the spare income
 * pays the loss of (a country that raised labs and oil rigs on a starting income paid twice
 * its taxes in maintenance and spent its first day bankrupt).
 */
function carriedBuildings(c: CountryState, type: BuildingType, spareIncome: number): number {
  const yieldPerTurn = aiBuildingYield(c, type);
  if (yieldPerTurn >= 0) return Number.MAX_SAFE_INTEGER;
  return Math.max(0, Math.floor(spareIncome / -yieldPerTurn));
}

/**
 * Dollars a turn one more building of `type` adds once people have moved into the housing it
 * adds: taxes, and food and oil at the store's selling price, less its maintenance. Enterprise
 * zones, residences and farms pay for themselves; labs, bases, complexes, oil rigs and sites
 * are kept from other income.
 */
export function aiBuildingYield(c: CountryState, type: BuildingType): number {
  const housed = (x: CountryState): CountryState => ({ ...x, population: Math.max(x.population, computeHousingCap(x)) });
  const withOne: CountryState = { ...c, buildings: { ...c.buildings, [type]: c.buildings[type] + 1 } };
  return aiNetIncome(housed(withOne), computeProductionPerTurn(housed(withOne))) - aiNetIncome(housed(c), computeProductionPerTurn(housed(c)));
}

/** A turn's net cash with its food and oil surplus (or deficit) valued at the store's selling price. */
export function aiNetIncome(c: CountryState, perTurn: ProductionPerTurn): number {
  return perTurn.cash + perTurn.food * computeStorePrices("food", c).sell + perTurn.oil * computeStorePrices("oil", c).sell;
}

/**
 * The largest count from 0 to `most` whose action `run` does not find the treasury empty during
 * its own turns (the price is paid first, then each turn's expenses). A country that explored
 * with its last dollars on a deficit lost a twentieth of its army to desertion every turn of it.
 * Fewer turns or buildings cost less and run fewer turns, so the search halves.
 */
function largestSolvent(most: number, run: (count: number) => { effects: { bankruptTurns: number } }): number {
  let lo = 0;
  let hi = most;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (run(mid).effects.bankruptTurns === 0) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Acres per construction site an AI keeps, and the most it keeps (100 sites: 26 buildings per action). */
export const AI_ACRES_PER_CONSTRUCTION_SITE = 10;
export const AI_MAX_CONSTRUCTION_SITES = 100;
/** Share of its land an AI lets lie idle before it builds one or two buildings at a time rather than explore. */
export const AI_IDLE_LAND_SHARE = 0.5;

export function aiConstructionSiteTarget(land: number): number {
  return Math.min(AI_MAX_CONSTRUCTION_SITES, Math.floor(land / AI_ACRES_PER_CONSTRUCTION_SITE));
}

/** Explorations' worth of cash an AI keeps idle before it grows its army past the floor. */
export const AI_IDLE_CASH_EXPLORATIONS = 3;
/** Net income per acre and turn an AI keeps after its army's upkeep (dollars). */
export const AI_MIN_NET_INCOME_PER_ACRE = 3;
/**
 * Turns over which cash piled beyond the idle threshold may carry more army upkeep: above the
 * threshold an AI keeps no margin of net income, and counts the pile spread over this many
 * turns as income, so food sales and taxes it cannot otherwise spend become an army whose
 * upkeep drains them (a person with a pile and nothing to build buys strength).
 */
export const AI_IDLE_CASH_DRAIN_TURNS = 144;
/** Fewest units an AI buys at once (smaller shortfalls wait for the next session). */
export const AI_MIN_ARMY_PURCHASE = 50;

/**
 * The army: first up to the personality's floor per acre with a share of the cash beyond the
 * next exploration; beyond the floor, cash piling up past a few explorations' worth keeps the
 * same proportions growing (a person turns idle cash into strength and networth). A unit the
 * store has run out of today gives way to the next furthest below its share (a farmer whose
 * turrets were sold out bought nothing at all and piled the cash).
 */
function planArmy(view: AiView, profile: AiPersonalityProfile, netCashPerTurn: number): AiIntent | null {
  const c = view.country;
  const reserve = computeExploration(c, Math.min(profile.exploreChunk, Math.max(1, c.turns))).totalCost;
  const fill = (item: AiArmyUnit, perAcre: number) => c[item] / Math.max(1, perAcre * c.land);
  // furthest below its share first; a unit the store is out of today gives way to the next
  const units = (Object.entries(profile.armyPerAcre) as Array<[AiArmyUnit, number]>).sort((a, b) => fill(a[0], a[1]) - fill(b[0], b[1]));
  const idlePile = c.cash - AI_IDLE_CASH_EXPLORATIONS * reserve;
  for (const [item, perAcre] of units) {
    const belowFloor = fill(item, perAcre) < 1;
    const spare = belowFloor ? c.cash - reserve : idlePile;
    const budget = Math.floor(Math.max(0, spare) * profile.armySpending);
    const price = computeStorePrices(item, c).buy;
    const wanted = belowFloor ? Math.ceil(perAcre * c.land) - c[item] : Number.MAX_SAFE_INTEGER;
    // Upkeep is paid every turn: never buy an army its income cannot carry (a raider that did
    // sat at 235 acres with no cash all season). A pile beyond the idle threshold carries upkeep
    // too, spread over AI_IDLE_CASH_DRAIN_TURNS.
    const upkeepPerUnit = Math.max(0, computeMilitaryUpkeep({ ...c, [item]: c[item] + 1_000 }) - computeMilitaryUpkeep(c)) / 1_000;
    const carried = idlePile > 0 ? netCashPerTurn + idlePile / AI_IDLE_CASH_DRAIN_TURNS : netCashPerTurn - AI_MIN_NET_INCOME_PER_ACRE * c.land;
    const affordableUpkeep = upkeepPerUnit > 0 ? Math.floor(carried / upkeepPerUnit) : Number.MAX_SAFE_INTEGER;
    const stock = view.storeStock[item] ?? 0;
    const quantity = Math.min(wanted, Math.floor(budget / price), STORE_ITEMS[item].maxPurchase ?? wanted, stock, affordableUpkeep);
    if (quantity >= AI_MIN_ARMY_PURCHASE && !checkStoreBuy(c, { item, quantity, stock })) return { kind: "store_buy", item, quantity };
    // below the floor of the unit it lacks most, it saves for that unit rather than buy others
    if (belowFloor && stock >= AI_MIN_ARMY_PURCHASE) return null;
  }
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

function planAttack(view: AiView, profile: AiPersonalityProfile): Extract<AiIntent, { kind: "attack" }> | null {
  const c = view.country;
  if (checkAttackTurns("standard_strike", c.turns - profile.turnReserve)) return null;
  const troops = Math.floor(Math.max(0, c.troops - AI_MIN_HOME_TROOPS) * profile.attackCommitment);
  const tanks = Math.floor(c.tanks * profile.attackCommitment);
  if (troops <= 0) return null;
  // every brigade deployed or recovering: the attack would be refused, so it does something else
  if (view.brigades && needsBrigade("standard_strike") && "code" in pickAttackBrigade(view.brigades, view.now)) return null;
  const units = { troops, tanks };
  if (checkAttackUnits("standard_strike", units, { troops: c.troops, jets: c.jets, tanks: c.tanks, turrets: c.turrets, spies: c.spies, missiles: c.missiles })) return null;
  // The weakest target the rules allow, preferring land: more land per networth is a softer
  // target; one its intelligence rates hard or impossible for these units is left alone.
  let best: { target: AiTarget; score: number } | null = null;
  for (const target of view.targets) {
    if (checkAttackTarget(view.self, target, { now: view.now, atWar: view.atWarWith.has(target.id) })) continue;
    if (target.networth > view.self.networth * 1.2) continue;
    // A target already at its daily land cap yields nothing but casualties: look elsewhere.
    if (computeDailyLandAllowance(target.land, target.landLostToday ?? 0) < target.land * AI_MIN_TAKEABLE_SHARE) continue;
    // It threw back one of its attacks in the last AI_REPELLED_MEMORY_HOURS: not again so soon.
    if (view.repelledBy?.has(target.id)) continue;
    // Its intelligence says the defence beats what it would send: a person would not send it.
    const threat = aiAttackThreat(units, view.knownForces?.get(target.id));
    if (threat !== null && AI_AVOIDED_THREATS.includes(threat)) continue;
    const score = target.land / Math.max(1, target.networth);
    if (!best || score > best.score || (score === best.score && target.id < best.target.id)) best = { target, score };
  }
  if (!best) return null;
  const attack: Extract<AiIntent, { kind: "attack" }> = { kind: "attack", targetId: best.target.id, attackType: "standard_strike", units };
  // the attack's turns run the economy before the battle: never with a treasury that cannot pay them
  return (aiIntentTurns(c, attack)?.bankruptTurns ?? 0) === 0 ? attack : null;
}

// ---------------------------------------------------------------------------------------
// Espionage

/**
 * The daily usage the espionage checks take, from the view's status numbers: a cooldown of
 * `r` ms left on a type of `h` hours means its latest mission was `h` hours minus `r` ago.
 */
export function aiSpyUsage(view: Pick<AiView, "espionage" | "now">): DailyUsage {
  const e = view.espionage ?? { used: 0, byKind: {}, cooldowns: {} };
  const lastAt: DailyUsage["lastAt"] = {};
  for (const [id, left] of Object.entries(e.cooldowns) as Array<[MissionTypeId, number]>) {
    if (left > 0) lastAt[id] = view.now + left - MISSION_TYPES[id].cooldownHours * 3_600_000;
  }
  return { used: e.used, byKind: { ...e.byKind }, lastAt };
}

/**
 * A look at a target's forces before an attack (or, for a turtle, at a threat): Military
 * Reconnaissance at the Spy Center when it has the spies (no cooldown), else an Intelligence
 * Center military mission with up to three times the spies it needs. Null when neither passes
 * its checks (too few spies, the daily cap, a cooldown): it then acts without the look.
 */
function planScout(view: AiView, profile: AiPersonalityProfile, targetId: number): AiIntent | null {
  const c = view.country;
  const target = view.targets.find((t) => t.id === targetId);
  if (!view.espionage || !target || c.turns - 1 < profile.turnReserve) return null;
  if (checkEspionageTarget({ id: view.countryId, allianceId: view.self.allianceId }, target, false, view.now)) return null;
  const usage = aiSpyUsage(view);
  const recon = SPY_OPERATIONS.military_reconnaissance;
  if (!checkSpyOperation(recon, c, recon.spyCost, usage)) return { kind: "spy_operation", operationType: recon.id, targetId, spiesUsed: recon.spyCost };
  const mission = MISSION_TYPES.military;
  const spiesUsed = Math.min(c.spies, 3 * mission.spiesRequired);
  if (!checkMission(mission, c, spiesUsed, usage, view.now)) return { kind: "spy_mission", missionType: mission.id, targetId, spiesUsed };
  return null;
}

/**
 * An espionage step: spies trained up to what the personality wants (at most 25, 5% of its
 * cash, turns above its reserve), else a look: a raider at its next attack target, a turtle
 * at the strongest country near its size (who could attack it), a trader at the market dealings of
 * the seller of the cheapest listing (or any country near its size).
 */
function planEspionage(view: AiView, profile: AiPersonalityProfile, rng: Rng): AiIntent | null {
  const c = view.country;
  const wanted = Math.min(profile.spiesWanted, spyCapacity(c.land)) - c.spies;
  const byTurns = (c.turns - profile.turnReserve) * 5;
  const byCash = Math.floor((c.cash * AI_SPY_CASH_PCT) / 100 / 100);
  const quantity = Math.min(wanted, AI_MAX_SPY_TRAINING, byTurns, byCash);
  if (quantity >= 1 && c.turns - trainingTurns(quantity) >= profile.turnReserve && !checkTraining(c, quantity)) return { kind: "spy_train", quantity };

  if (profile.id === "trader") {
    const seller = view.listings?.[0]?.sellerId;
    const candidates = view.targets.filter((t) => !t.isEliminated);
    const targetId = seller ?? (candidates.length > 0 ? candidates[rng.int(0, candidates.length - 1)]!.id : undefined);
    if (targetId === undefined || targetId === view.countryId || c.turns - 1 < profile.turnReserve) return null;
    const mission = MISSION_TYPES.market;
    const spiesUsed = Math.min(c.spies, 3 * mission.spiesRequired);
    if (checkMission(mission, c, spiesUsed, aiSpyUsage(view), view.now)) return null;
    return { kind: "spy_mission", missionType: mission.id, targetId, spiesUsed };
  }
  const attack = profile.attackAppetite > 0 ? planAttack(view, profile) : null;
  let targetId = attack?.targetId;
  if (targetId === undefined) {
    // the strongest country near its size it has not looked at yet
    let strongest: AiTarget | null = null;
    for (const t of view.targets) if (!t.isEliminated && !view.scouted?.has(t.id) && (!strongest || t.networth > strongest.networth)) strongest = t;
    targetId = strongest?.id;
  }
  if (targetId === undefined || view.scouted?.has(targetId)) return null;
  return planScout(view, profile, targetId);
}

// ---------------------------------------------------------------------------------------
// The player market

/** A purchase of up to `wanted` units of `item` from the cheapest listing, when it costs less than the store and `cashPct` (AI_MARKET_CASH_PCT) of cash. */
function planMarketBuy(view: AiView, item: MarketItemType, wanted: number, cashPct = AI_MARKET_CASH_PCT): AiIntent | null {
  const c = view.country;
  const listing = view.listings?.find((l) => l.item === item && l.sellerId !== view.countryId);
  if (!listing || listing.pricePerUnit >= computeStorePrices(item, c).buy) return null;
  const budget = Math.floor((c.cash * cashPct) / 100);
  const quantity = Math.min(listing.quantity, wanted, Math.floor(budget / listing.pricePerUnit));
  if (quantity < 1) return null;
  const refusal = checkBuyListing(c, view.countryId, { sellerId: listing.sellerId, item, quantity: listing.quantity, pricePerUnit: listing.pricePerUnit, status: "open" }, quantity);
  return refusal ? null : { kind: "market_buy", listingId: listing.id, quantity };
}

/** Share of its cash an AI spends on food when it is starving, percent (famine kills people and troops). */
export const AI_FOOD_CASH_PCT = 50;

/**
 * Food for a starving country from the cheaper of the player market's cheapest listing and
 * the Government Store (its stock today), up to `wanted` bushels and AI_FOOD_CASH_PCT of its
 * cash; the store is the fallback a person uses when nobody sells below it. A store purchase
 * smaller than `needed` (what keeps it fed over the horizon) is still worth making when it is
 * all the cash allows. Null when neither can sell any.
 */
function planFoodBuy(view: AiView, wanted: number, needed: number): AiIntent | null {
  const c = view.country;
  const storePrice = computeStorePrices("food", c).buy;
  const listing = view.listings?.find((l) => l.item === "food" && l.sellerId !== view.countryId);
  if (listing && listing.pricePerUnit < storePrice) {
    const market = planMarketBuy(view, "food", wanted, AI_FOOD_CASH_PCT);
    if (market) return market;
  }
  const stock = view.storeStock.food ?? 0;
  const budget = Math.floor((c.cash * AI_FOOD_CASH_PCT) / 100);
  const quantity = Math.min(wanted, Math.floor(budget / storePrice), STORE_ITEMS.food.maxPurchase ?? wanted, stock);
  if (quantity < 1 || (quantity < Math.min(needed, 100) && quantity < wanted)) return null;
  return checkStoreBuy(c, { item: "food", quantity, stock }) ? null : { kind: "store_buy", item: "food", quantity };
}

/**
 * The price an AI asks for `item`: a little under the cheapest other listing, or
 * AI_LIST_PRICE_PCT of the store's base buy price when there is none, within the listing
 * bounds. Under the store's buy price a listing is a bargain for buyers; above the store's
 * sell price it earns the seller more than the store would.
 */
export function aiListingPrice(item: MarketItemType, cheapest: number | null, rng: Rng): number {
  const bounds = computePriceBounds(item);
  const base = STORE_ITEMS[item].basePrice.buy;
  const ask = cheapest === null ? Math.floor((base * AI_LIST_PRICE_PCT) / 100) : cheapest - 1 - rng.int(0, Math.floor(cheapest / 50));
  return Math.min(bounds.max, Math.max(bounds.min, ask));
}

/**
 * A market step: buy what it buys below its store price; list surplus of what it sells (half
 * of what is beyond its needs, at most AI_MAX_OPEN_LISTINGS open listings, only when the price
 * beats the store's sell price); bid with a standing order for its item when none is open.
 */
function planMarket(view: AiView, profile: AiPersonalityProfile, foodKept: number, oilPerTurn: number, rng: Rng): AiIntent | null {
  const c = view.country;
  for (const item of profile.marketBuys) {
    const buy = planMarketBuy(view, item, Number.MAX_SAFE_INTEGER);
    if (buy) return buy;
  }
  if (c.food < foodKept) {
    const food = planMarketBuy(view, "food", foodKept - c.food);
    if (food) return food;
  }

  // a listing of its surplus and a standing order of its item are both worth doing: one, drawn
  const options: AiIntent[] = [];
  const list = planListing(view, profile, profile.marketSells, foodKept, oilPerTurn, rng);
  if (list) options.push(list);
  const order = planStandingOrder(view, profile);
  if (order) options.push(order);
  return options.length === 0 ? null : options[rng.int(0, options.length - 1)]!;
}

/** Half of what it holds beyond its needs of one of `items` (goods it sells), while it has fewer than AI_MAX_OPEN_LISTINGS open and the price beats the store's. */
function planListing(view: AiView, profile: AiPersonalityProfile, items: readonly MarketItemType[], foodKept: number, oilPerTurn: number, rng: Rng): AiIntent | null {
  const c = view.country;
  const open = view.ownListings ?? 0;
  if (open >= AI_MAX_OPEN_LISTINGS || items.length === 0) return null;
  // starting from a drawn item, so each of its goods gets its turn
  const start = rng.int(0, items.length - 1);
  for (let k = 0; k < items.length; k++) {
    const item = items[(start + k) % items.length]!;
    const kept = item === "food" ? foodKept : item === "oil" ? Math.max(0, -oilPerTurn) * profile.foodTurnsKept + 500 : 0;
    const quantity = Math.floor((holdingOf(c, item) - kept) / 2);
    if (quantity < (item === "food" ? 1_000 : 100)) continue;
    const cheapest = view.listings?.find((l) => l.item === item && l.sellerId !== view.countryId)?.pricePerUnit ?? null;
    const pricePerUnit = aiListingPrice(item, cheapest, rng);
    if (!STORE_ITEMS[item].expressOnly && pricePerUnit <= computeStorePrices(item, c).sell) continue;
    if (!checkCreateListing(c, { item, quantity, pricePerUnit, openListings: open })) return { kind: "market_list", item, quantity, pricePerUnit };
  }
  return null;
}

/** A bid for its item at AI_ORDER_PRICE_PCT of its store price with AI_MARKET_CASH_PCT of its cash, when it has no open order for it. */
function planStandingOrder(view: AiView, profile: AiPersonalityProfile): AiIntent | null {
  const c = view.country;
  const item = profile.standingOrderItem;
  const orders = view.orderItems;
  if (!item || !orders || orders.includes(item) || orders.length >= MAX_OPEN_STANDING_ORDERS) return null;
  const bounds = computePriceBounds(item);
  const maxPrice = Math.min(bounds.max, Math.max(bounds.min, Math.floor((computeStorePrices(item, c).buy * AI_ORDER_PRICE_PCT) / 100)));
  const quantity = Math.floor((c.cash * AI_MARKET_CASH_PCT) / 100 / maxPrice);
  const priority: OrderPriority = "medium";
  if (quantity < 100 || checkCreateStandingOrder(c, { item, quantity, maxPrice, priority, openOrders: orders.length })) return null;
  return { kind: "market_order", item, quantity, maxPrice, priority };
}

// ---------------------------------------------------------------------------------------
// Alliances and diplomacy

/**
 * An open standing order to cancel: one for an item it no longer bids on (not its personality's
 * order item), or any whose escrow it needs back (its cash below the next exploration's price
 * while the order holds at least that much). A person cancels an order that no longer serves
 * them rather than let it tie up cash. (A trader's food bid is trade, not need: a full
 * granary does not cancel it.)
 */
function staleStandingOrder(view: AiView, profile: AiPersonalityProfile): AiIntent | null {
  const c = view.country;
  const reserve = computeExploration(c, Math.min(profile.exploreChunk, Math.max(1, c.turns))).totalCost;
  for (const order of view.orders ?? []) {
    const unwanted = order.item !== profile.standingOrderItem;
    const cashTied = c.cash < reserve && order.heldCash >= reserve;
    if (unwanted || cashTied) return { kind: "market_cancel_order", orderId: order.id };
  }
  return null;
}

/**
 * The owner of an alliance buys the first bonus the rules let it buy with the points its
 * members earned (trades, battles, operations), permanent ones first (they last the season),
 * in the catalogue's order; temporary ones when nothing permanent is affordable.
 */
function planAllianceBonus(view: AiView): AiIntent | null {
  const a = view.alliance;
  const b = view.allianceBonuses;
  if (!a || !b || a.role !== "owner") return null;
  const ordered = [...ALLIANCE_BONUSES].sort((x, y) => Number(y.isPermanent) - Number(x.isPermanent));
  for (const bonus of ordered) {
    if (!checkBonusPurchase({ role: a.role, bonus, purchases: b.purchases, points: b.points, now: view.now })) return { kind: "alliance_bonus", bonusId: bonus.id };
  }
  return null;
}

/** Relations it pays for now, and their daily cost in dollars. */
function paidRelations(d: AiDiplomacyView): { count: number; dailyCost: number } {
  const paid = d.active.filter((r) => r.pays);
  return { count: paid.length, dailyCost: paid.reduce((sum, r) => sum + findRelationType(r.type)!.dailyCost, 0) };
}

/** Whether it can take on one more relation of `type` it would pay for: under its maximum, with AI_RELATION_DAYS_KEPT days of all their costs in cash. */
function canAffordRelation(view: AiView, profile: AiPersonalityProfile, d: AiDiplomacyView, type: RelationType): boolean {
  const { count, dailyCost } = paidRelations(d);
  return count < profile.maxRelations && view.country.cash >= (dailyCost + findRelationType(type)!.dailyCost) * AI_RELATION_DAYS_KEPT;
}

/** The pair's relations and pending proposals, as checkProposal takes them. */
function pairWith(view: AiView, d: AiDiplomacyView, partnerId: number) {
  return {
    activeBetween: d.active.filter((r) => r.partnerId === partnerId).map((r) => ({ type: r.type })),
    pendingBetween: [
      ...d.incoming.filter((p) => p.fromCountryId === partnerId && p.expiresAt > view.now).map((p) => ({ type: p.type, fromCountryId: partnerId })),
      ...d.outgoing.filter((p) => p.toCountryId === partnerId).map((p) => ({ type: p.type, fromCountryId: view.countryId })),
    ],
  };
}

/** A leader accepts the oldest pending application; anyone accepts a proposal of a type it takes and can afford. */
function answerWaiting(view: AiView, profile: AiPersonalityProfile): AiIntent | null {
  const a = view.alliance;
  if (a && a.applications.length > 0 && !checkAlliancePermission(a.role, "canManageApplications")) {
    // a full alliance tells the applicant now rather than letting the application expire
    const applicationId = a.applications[0]!.id;
    return checkAllianceCapacity(a.memberCount) ? { kind: "alliance_reject", applicationId } : { kind: "alliance_accept", applicationId };
  }
  const d = view.diplomacy;
  if (!d) return null;
  for (const p of d.incoming) {
    if (checkAnswerProposal({ status: "pending", isAddressee: true, expiresAt: p.expiresAt, now: view.now })) continue;
    // a relation it never holds, or one that conflicts with what the pair holds (the service
    // checks that again on accepting), is turned down; one it cannot afford yet waits
    const pair = pairWith(view, d, p.fromCountryId);
    const conflicts = checkProposal({ fromCountryId: p.fromCountryId, toCountryId: view.countryId, type: p.type, activeBetween: pair.activeBetween, pendingBetween: [], partnerHasPlayer: true });
    if (!profile.relationsAccepted.includes(p.type) || conflicts) return { kind: "diplomacy_reject", proposalId: p.id };
    if (canAffordRelation(view, profile, d, p.type)) return { kind: "diplomacy_accept", proposalId: p.id };
  }
  return null;
}

/**
 * Outside an alliance with no application pending: apply to an alliance taking applications
 * whose requirements it meets and which has a seat (the higher in the list, the likelier), or,
 * with nothing to join, by its found appetite found one.
 */
/**
 * Members an AI lets an alliance reach before it joins another or founds its own: a group of
 * players who know each other, not the world. The first simulated season with alliances put
 * all 100 AI countries in one alliance, where nobody could attack anybody.
 */
export const AI_ALLIANCE_SIZE = 12;

function planAlliance(view: AiView, profile: AiPersonalityProfile, rng: Rng): AiIntent | null {
  if (checkNotInAlliance(view.alliance?.id ?? null) || (view.appliedTo && view.appliedTo.size > 0)) return null;
  const open = (view.openAlliances ?? []).filter(
    (a) => a.memberCount < Math.min(ALLIANCE_MAX_MEMBERS, AI_ALLIANCE_SIZE) && meetsRequirements({ minNetworth: a.minNetworth, minLand: a.minLand, acceptApplications: true }, { networth: view.self.networth, land: view.country.land }),
  );
  if (open.length > 0) {
    const pick = open[Math.min(open.length - 1, Math.floor(open.length * rng.next() * rng.next()))]!;
    return { kind: "alliance_apply", allianceId: pick.id, message: "" };
  }
  if (rng.next() >= profile.foundAppetite) return null;
  return { kind: "alliance_create", ...aiAllianceFounding(rng) };
}

const ALLIANCE_WORDS_A = ["Iron", "Golden", "Silent", "Northern", "Crimson", "Free", "United", "Eternal", "Azure", "Obsidian", "Verdant", "Steel", "Southern", "Silver", "Ember", "Storm"];
const ALLIANCE_WORDS_B = ["Pact", "League", "Accord", "Covenant", "Union", "Compact", "Concord", "Circle", "Coalition", "Order", "Fellowship", "Assembly", "Council", "Guild", "Front", "Crown"];
const FLAG_COLOURS = ["#1f3a93", "#8e1b1b", "#1b6e3a", "#c9a227", "#4b2a7a", "#222222", "#e6e6e6", "#d35400", "#16a085", "#7f8c8d"];

/** The name, tag and flag of an alliance an AI founds, drawn from the rng ("Iron Pact 42", [IP42]). */
export function aiAllianceFounding(rng: Rng): { name: string; tag: string; description: string; flag: AiAllianceFlag } {
  const a = ALLIANCE_WORDS_A[rng.int(0, ALLIANCE_WORDS_A.length - 1)]!;
  const b = ALLIANCE_WORDS_B[rng.int(0, ALLIANCE_WORDS_B.length - 1)]!;
  const n = rng.int(10, 99);
  const background = rng.int(0, FLAG_COLOURS.length - 1);
  const symbolColour = (background + rng.int(1, FLAG_COLOURS.length - 1)) % FLAG_COLOURS.length;
  return {
    name: `${a} ${b} ${n}`,
    tag: `${a[0]}${b[0]}${n}`.toUpperCase(),
    description: "",
    flag: { backgroundColor: FLAG_COLOURS[background]!, symbol: ALLIANCE_FLAG_SYMBOLS[rng.int(0, ALLIANCE_FLAG_SYMBOLS.length - 1)]!, symbolColor: FLAG_COLOURS[symbolColour]! },
  };
}

/**
 * Its preferred relation proposed to a country near its size (never one it is at war with)
 * that the rules allow (none of that type held or pending, nothing conflicting), while it can
 * afford one more.
 */
function planProposal(view: AiView, profile: AiPersonalityProfile, rng: Rng): AiIntent | null {
  const d = view.diplomacy!;
  const type = profile.relation;
  if (!canAffordRelation(view, profile, d, type)) return null;
  const candidates = view.targets.filter((t) => {
    if (t.isEliminated || t.id === view.countryId || view.atWarWith.has(t.id)) return false;
    const pair = pairWith(view, d, t.id);
    return !checkProposal({ fromCountryId: view.countryId, toCountryId: t.id, type, ...pair, partnerHasPlayer: true });
  });
  if (candidates.length === 0) return null;
  const partner = candidates[rng.int(0, candidates.length - 1)]!;
  return { kind: "diplomacy_propose", toCountryId: partner.id, relationType: type, message: "" };
}

/** Who holds a relation once established (as the diplomacy view's `pays` says): re-exported for views built from rows. */
export function aiPaysRelation(type: RelationType, fromCountryId: number, toCountryId: number, countryId: number): boolean {
  return relationPayers(type, fromCountryId, toCountryId).includes(countryId);
}
