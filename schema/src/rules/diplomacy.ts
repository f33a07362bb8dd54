/**
 * Diplomatic relations between countries (document 3: Diplomatic Relations; sections 3, 4, 5
 * and 9). Pure: time is an argument. The server checks these before writing; the client calls
 * them to show 'Cancellation locked until {date}' and to disable a proposal it would refuse.
 */
import { reject, type RuleRejection, type TechLevels, type TechnologyId } from "./country.js";
import { formatUtc } from "./alliance.js";

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

export const RELATION_TYPES = ["defensive", "offensive", "intelligence", "research", "trade"] as const;
export type RelationType = (typeof RELATION_TYPES)[number];

/** active, pending (a proposal), cancelled (by a party), expired (its cost could not be paid). */
export const RELATION_STATUSES = ["active", "pending", "cancelled", "expired"] as const;
export type RelationStatus = (typeof RELATION_STATUSES)[number];
export const PROPOSAL_STATUSES = ["pending", "accepted", "rejected", "cancelled", "expired"] as const;
export type ProposalStatus = (typeof PROPOSAL_STATUSES)[number];

/** What a relation does, as integer percents read by the rule it changes. */
export interface DiplomaticEffects {
  /** defence power + percent */
  defensePct: number;
  /** attack power + percent */
  attackPct: number;
  /** spy success + percent of itself */
  spySuccessPct: number;
  /** research points + percent */
  researchPct: number;
  /** percent of the points a partner spends on a level this country lacks that flow to it (technology transfer) */
  techTransferPct: number;
  /** market fee - percentage points on trades between the partners */
  marketFeeReductionPts: number;
  /** market quantity limits + percent on trades between the partners */
  tradeVolumePct: number;
}

export const NO_DIPLOMATIC_EFFECTS: DiplomaticEffects = {
  defensePct: 0,
  attackPct: 0,
  spySuccessPct: 0,
  researchPct: 0,
  techTransferPct: 0,
  marketFeeReductionPts: 0,
  tradeVolumePct: 0,
};

/** A relation type of the spec. */
export interface RelationTypeDefinition {
  id: RelationType;
  name: string;
  description: string;
  benefits: string[];
  drawbacks: string[];
  /** dollars per day, paid by each party that holds it */
  dailyCost: number;
  /** all five are permanent: they last until cancelled or unpaid */
  duration: "permanent";
  /** hours after it is established before it may be cancelled */
  cooldownHours: number;
  /** true: the partner must accept; false: it is established at once and only the proposer holds and pays it */
  requiresMutual: boolean;
  conflictsWith: RelationType[];
  effects: Partial<DiplomaticEffects>;
}

/** The five relation types (spec section 9: daily cost, cooldown, mutual flag, conflicts, effect). */
export const DIPLOMATIC_RELATION_TYPES: readonly RelationTypeDefinition[] = [
  {
    id: "defensive",
    name: "Defensive Pact",
    description: "Stand together when attacked",
    benefits: ["+25% defensive combat bonus"],
    drawbacks: ["$100 per day", "Cannot hold an offensive alliance with the same partner"],
    dailyCost: 100,
    duration: "permanent",
    cooldownHours: 24,
    requiresMutual: true,
    conflictsWith: ["offensive"],
    effects: { defensePct: 25 },
  },
  {
    id: "offensive",
    name: "Offensive Alliance",
    description: "Strike together",
    benefits: ["+15% attack bonus"],
    drawbacks: ["$150 per day", "Cannot hold a defensive pact with the same partner"],
    dailyCost: 150,
    duration: "permanent",
    cooldownHours: 48,
    requiresMutual: true,
    conflictsWith: ["defensive"],
    effects: { attackPct: 15 },
  },
  {
    id: "intelligence",
    name: "Intelligence Sharing",
    description: "Share informants and methods",
    benefits: ["+10% spy success"],
    drawbacks: ["$75 per day"],
    dailyCost: 75,
    duration: "permanent",
    cooldownHours: 12,
    requiresMutual: true,
    conflictsWith: [],
    effects: { spySuccessPct: 10 },
  },
  {
    id: "research",
    name: "Research Cooperation",
    description: "Joint laboratories and shared findings",
    benefits: ["+20% research", "Technology transfer at 10%"],
    drawbacks: ["$200 per day"],
    dailyCost: 200,
    duration: "permanent",
    cooldownHours: 72,
    requiresMutual: true,
    conflictsWith: [],
    effects: { researchPct: 20, techTransferPct: 10 },
  },
  {
    id: "trade",
    name: "Trade Agreement",
    description: "Preferential terms for trade with the partner",
    // the spec's "+10% trade volume" has nothing to act on (docs/rules.md, "Diplomacy"): not advertised
    benefits: ["-2% market fee"],
    drawbacks: ["$50 per day"],
    dailyCost: 50,
    duration: "permanent",
    cooldownHours: 6,
    requiresMutual: false,
    conflictsWith: [],
    effects: { marketFeeReductionPts: 2, tradeVolumePct: 10 },
  },
];

export function findRelationType(id: string): RelationTypeDefinition | undefined {
  return DIPLOMATIC_RELATION_TYPES.find((t) => t.id === id);
}

/** A proposal stays pending this long (spec: 3 days). */
export const PROPOSAL_LIFETIME_MS = 3 * DAY_MS;
/** Longest proposal message (characters; spec: 200). */
export const PROPOSAL_MESSAGE_MAX_LENGTH = 200;

export const DIPLOMACY_MESSAGES = {
  self: "You cannot propose a relation to your own country",
  exists: "You already have this relation with that country",
  pending: "A proposal of this type is already pending with that country",
  locked: "Cancellation locked until {date}",
  notActive: "This relation is not active",
  notParty: "This relation is not yours",
  notHolder: "Only the country that holds this agreement can cancel it",
  notPending: "This proposal is no longer pending",
  cancelConfirm: "Are you sure you want to cancel this diplomatic relation?",
  noRelations: "No active diplomatic relations",
  noProposals: "No pending proposals",
  unknownType: "Unknown relation type",
  noOwner: "That country has no player to answer a proposal",
} as const;

/** A relation between the proposer and the partner, as checks see it. */
export interface PairRelation {
  type: RelationType;
}

/**
 * A proposal (or, for a type that needs no consent, the relation itself): not to oneself,
 * not a type the pair already holds, nothing pending of that type between them, and nothing
 * the pair holds that conflicts with it ("Conflicts with your Defensive Pact with them").
 */
export function checkProposal(input: {
  fromCountryId: number;
  toCountryId: number;
  type: RelationType;
  /** active relations between the two countries, either direction */
  activeBetween: readonly PairRelation[];
  /** pending proposals between the two, either direction */
  pendingBetween: ReadonlyArray<PairRelation & { fromCountryId: number }>;
  partnerHasPlayer: boolean;
}): RuleRejection | null {
  const def = findRelationType(input.type);
  if (!def) return reject("diplomacy/unknown_type", DIPLOMACY_MESSAGES.unknownType);
  if (input.fromCountryId === input.toCountryId) return reject("diplomacy/self", DIPLOMACY_MESSAGES.self);
  if (input.activeBetween.some((r) => r.type === input.type)) return reject("diplomacy/exists", DIPLOMACY_MESSAGES.exists);
  const conflict = input.activeBetween.find((r) => def.conflictsWith.includes(r.type));
  if (conflict) return reject("diplomacy/conflict", `Conflicts with your ${findRelationType(conflict.type)!.name} with that country`);
  // A proposal the partner made of the same type is answered, not duplicated (see isMutualAnswer).
  if (input.pendingBetween.some((p) => p.type === input.type && p.fromCountryId === input.fromCountryId)) return reject("diplomacy/pending", DIPLOMACY_MESSAGES.pending);
  if (def.requiresMutual && !input.partnerHasPlayer && !input.pendingBetween.some((p) => p.type === input.type)) {
    return reject("diplomacy/no_owner", DIPLOMACY_MESSAGES.noOwner);
  }
  return null;
}

/**
 * Mutual proposals (designed): when the partner already proposed the same type to the
 * proposer, proposing it back accepts theirs: both asked, so the relation is established.
 */
export function isMutualAnswer(input: { fromCountryId: number; type: RelationType; pendingBetween: ReadonlyArray<PairRelation & { fromCountryId: number }> }): boolean {
  return input.pendingBetween.some((p) => p.type === input.type && p.fromCountryId !== input.fromCountryId);
}

/** When an established relation may be cancelled: established + cooldown hours. */
export function computeCanCancelAfter(type: RelationType, establishedAt: number): number {
  return establishedAt + findRelationType(type)!.cooldownHours * HOUR_MS;
}

/**
 * Cancelling (spec section 4): only an active relation, only by a party (for an agreement only
 * one side holds, by that side), and only after canCancelAfter: before that 'Cancellation
 * locked until {date}'.
 */
/**
 * Cancelling a relation: any party may end an active one (issue 30: a player could not cancel a
 * trade pact another country signed with it without asking). The holder, who chose it and pays
 * for it, is bound until canCancelAfter; a party that never agreed to it (the partner of a
 * one-sided agreement, `isHolder` false) may end it at once.
 */
export function checkCancelRelation(input: { status: RelationStatus; isParty: boolean; isHolder: boolean; canCancelAfter: number; now: number }): RuleRejection | null {
  if (!input.isParty) return reject("diplomacy/not_party", DIPLOMACY_MESSAGES.notParty);
  if (input.status !== "active") return reject("diplomacy/not_active", DIPLOMACY_MESSAGES.notActive);
  if (input.isHolder && input.now < input.canCancelAfter) return reject("diplomacy/cancel_locked", DIPLOMACY_MESSAGES.locked.replace("{date}", formatUtc(input.canCancelAfter)));
  return null;
}

/** Answering a proposal: only the addressee, only while pending and unexpired. */
export function checkAnswerProposal(input: { status: ProposalStatus; isAddressee: boolean; expiresAt: number; now: number }): RuleRejection | null {
  if (!input.isAddressee) return reject("diplomacy/not_party", DIPLOMACY_MESSAGES.notParty);
  if (input.status !== "pending" || input.expiresAt <= input.now) return reject("diplomacy/not_pending", DIPLOMACY_MESSAGES.notPending);
  return null;
}

/**
 * Who pays a relation's daily cost: both parties for a mutual type (each holds it), the
 * proposer alone for one that needs no consent.
 */
export function relationPayers(type: RelationType, fromCountryId: number, toCountryId: number): number[] {
  return findRelationType(type)!.requiresMutual ? [fromCountryId, toCountryId] : [fromCountryId];
}

/** The daily diplomatic cost of a country (spec): the sum of the daily costs of the active relations it pays for. */
export function computeDailyDiplomacyCost(relations: ReadonlyArray<{ type: RelationType; pays: boolean }>): number {
  return relations.reduce((sum, r) => sum + (r.pays ? findRelationType(r.type)!.dailyCost : 0), 0);
}

/**
 * What a country's relations give it (designed: the spec gives each type's effect, not how
 * several combine). Effects of one type do not stack: two defensive pacts still give +25%;
 * the partner-scoped trade effects are read per trade with that partner.
 */
export function computeDiplomaticEffects(activeTypes: readonly RelationType[]): DiplomaticEffects {
  const total: DiplomaticEffects = { ...NO_DIPLOMATIC_EFFECTS };
  for (const type of new Set(activeTypes)) {
    for (const [key, value] of Object.entries(findRelationType(type)!.effects) as Array<[keyof DiplomaticEffects, number]>) total[key] += value;
  }
  return total;
}

/** What one level-up of a research partner means for this country: its technology and the level reached. */
export interface PartnerBreakthrough {
  technology: TechnologyId;
  /** the level the partner reached */
  level: number;
  /** points the partner spent on the levels it gained */
  pointsSpent: number;
}

/**
 * Technology transfer (the research relation's "technology transfer at 10% rate"): when a
 * research partner raises a technology to a level this country does not hold yet, this
 * country gains `transferPct` percent of the points the partner spent on it (floored) as
 * research points. Catching up is cheaper; what both already know transfers nothing.
 */
export function computeTechTransfer(breakthroughs: readonly PartnerBreakthrough[], ownTech: TechLevels, transferPct: number): number {
  let points = 0;
  for (const b of breakthroughs) {
    if (ownTech[b.technology] < b.level) points += Math.floor((b.pointsSpent * transferPct) / 100);
  }
  return points;
}

/** The spec's benefits of an active relation, as the Active Relations list shows them. */
export function relationBenefits(type: RelationType): { combatBonus: number; marketFeeReduction: number; spyBonus: number; tradeBonus: number; techSharing: number } {
  const e = { ...NO_DIPLOMATIC_EFFECTS, ...findRelationType(type)!.effects };
  return {
    combatBonus: Math.max(e.defensePct, e.attackPct),
    marketFeeReduction: e.marketFeeReductionPts,
    spyBonus: e.spySuccessPct,
    tradeBonus: e.tradeVolumePct,
    techSharing: e.techTransferPct,
  };
}

/**
 * A partner candidate's trust rating, 0-100 (designed: the spec shows a rating and its colours
 * only). Starts at 50; +1 per 2 days the country has existed (at most +15); +5 per relation it
 * keeps active (at most +20); +15 when in the viewer's alliance; -15 per relation it let lapse
 * unpaid in the last 30 days; -10 per relation it cancelled in the last 30 days.
 */
export function computeTrustRating(input: { ageDays: number; activeRelations: number; sameAlliance: boolean; lapsedRecently: number; cancelledRecently: number }): number {
  const score = 50 + Math.min(15, Math.floor(Math.max(0, input.ageDays) / 2)) + Math.min(20, 5 * input.activeRelations) + (input.sameAlliance ? 15 : 0) - 15 * input.lapsedRecently - 10 * input.cancelledRecently;
  return Math.max(0, Math.min(100, score));
}

/** The spec's trust colours: 80+ green, 60+ yellow, 40+ orange, else red. */
export function trustRatingColor(rating: number): "green" | "yellow" | "orange" | "red" {
  if (rating >= 80) return "green";
  if (rating >= 60) return "yellow";
  if (rating >= 40) return "orange";
  return "red";
}

/**
 * Distance in sectors (designed: countries have no map): how far apart two countries sit in
 * the networth ranking, in bands of 10 ranks.
 */
export function computeSectorDistance(rankA: number, rankB: number): number {
  return Math.floor(Math.abs(rankA - rankB) / 10);
}

/**
 * Which relations a day's cost ends (spec: a relation ends when its cost cannot be paid).
 * Each payer pays its relations oldest first while its cash lasts; a relation ends when any of
 * its payers cannot pay it, and then none of them pays it. Ending one relation frees its other
 * payer's cash, so relations end one at a time, the oldest unpayable first, and the day is
 * settled again until every remaining relation is paid.
 * @returns the ids that end and each country's charge for the day
 */
export function settleDailyCosts(relations: ReadonlyArray<{ id: number; type: RelationType; payers: readonly number[]; establishedAt: number }>, cash: ReadonlyMap<number, number>): { ended: Set<number>; charges: Map<number, number> } {
  const ended = new Set<number>();
  const ordered = [...relations].sort((a, b) => a.establishedAt - b.establishedAt || a.id - b.id);
  const firstUnpayable = (): number | null => {
    const left = new Map(cash);
    for (const r of ordered) {
      if (ended.has(r.id)) continue;
      const cost = findRelationType(r.type)!.dailyCost;
      if (r.payers.some((payer) => (left.get(payer) ?? 0) < cost)) return r.id;
      for (const payer of r.payers) left.set(payer, left.get(payer)! - cost);
    }
    return null;
  };
  for (let id = firstUnpayable(); id !== null; id = firstUnpayable()) ended.add(id);
  const charges = new Map<number, number>();
  for (const r of ordered) {
    if (ended.has(r.id)) continue;
    const cost = findRelationType(r.type)!.dailyCost;
    for (const payer of r.payers) charges.set(payer, (charges.get(payer) ?? 0) + cost);
  }
  return { ended, charges };
}
