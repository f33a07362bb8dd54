/**
 * Alliance rules (document 3: Alliance screen, Management, Bonuses, Chat, Warfare; sections 3,
 * 5, 6 and 9). Pure: the server checks these before writing, the client calls the same
 * functions to hide a button or say why it is disabled. Times are epoch milliseconds passed in.
 */
import { reject, type RuleRejection } from "./country.js";
import type { AllianceRole } from "./chat.js";

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** Managers per alliance, at most (spec section 6). */
export const ALLIANCE_MAX_MANAGERS = 4;
/** Members per alliance in all, the owner and managers included (spec section 6). */
export const ALLIANCE_MAX_MEMBERS = 200;
/** How long an invitation stays pending (spec: 3 days). */
export const ALLIANCE_INVITATION_LIFETIME_MS = 3 * DAY_MS;
/** How long an application stays pending (designed: as long as an invitation). */
export const ALLIANCE_APPLICATION_LIFETIME_MS = 3 * DAY_MS;
/** Longest invitation or application message (characters; spec: 200 with a counter). */
export const ALLIANCE_MESSAGE_MAX_LENGTH = 200;
/** Share of each active ally's forces that joins a battle (percent; spec section 9); combat applies it (ALLY_SUPPORT_PCT). */
export const ALLIED_FORCE_CONTRIBUTION_PCT = 25;

/** Alliance name length (characters, trimmed). Designed. */
export const ALLIANCE_NAME_MIN_LENGTH = 3;
export const ALLIANCE_NAME_MAX_LENGTH = 40;
/** Tag: 2 to 5 capital letters or digits, shown as [TAG]. Designed. */
export const ALLIANCE_TAG_PATTERN = /^[A-Z0-9]{2,5}$/;
export const ALLIANCE_DESCRIPTION_MAX_LENGTH = 500;
/** Symbols a flag may carry (the spec's flag: background colour, symbol, symbol colour). */
export const ALLIANCE_FLAG_SYMBOLS = ["⚔", "🛡", "⚑", "★", "♛", "☠", "⚓", "✠", "☀", "☾", "♞", "⚡", "🦅", "🐺", "🔥", "❄"] as const;
/** A flag colour: #rrggbb. */
export const ALLIANCE_COLOR_PATTERN = /^#[0-9a-fA-F]{6}$/;
/** GET /alliance/list page size: default and ceiling (spec: page 1, limit 20). */
export const ALLIANCE_LIST_DEFAULT_LIMIT = 20;
export const ALLIANCE_LIST_MAX_LIMIT = 100;

/** The roles of the spec, highest first. */
export const ALLIANCE_ROLES = ["owner", "manager", "member"] as const satisfies readonly AllianceRole[];

/** The user-visible texts of the alliance screens and the server's refusals. */
export const ALLIANCE_MESSAGES = {
  insufficientPoints: "Insufficient points",
  ownerOnly: "Owner only",
  notMember: "You are not in an alliance",
  alreadyMember: "You are already in an alliance",
  leadersOnly: "Only the alliance owner and managers can do this",
  kickSelf: "You cannot kick yourself",
  kickOwner: "The alliance owner cannot be kicked",
  kickConfirm: "Are you sure you want to kick this member?",
  leaveConfirm: "Are you sure you want to leave this alliance?",
  notInAlliance: "That country is not in your alliance",
  managersFull: `An alliance has at most ${ALLIANCE_MAX_MANAGERS} managers`,
  alreadyManager: "That member is already a manager",
  notManager: "That member is not a manager",
  allianceFull: `This alliance is full (${ALLIANCE_MAX_MEMBERS} members)`,
  maxLevel: "Maximum level reached",
  requirementsNotMet: "Requirements not met",
  noPendingInvitations: "No pending invitations",
  noPendingApplications: "No pending applications",
  closedApplications: "This alliance does not accept applications",
  unknownBonus: "Unknown bonus",
} as const;

/** What a role may do (spec section 6), as the member's `permissions` and the server's checks. */
export interface AlliancePermissions {
  canInvite: boolean;
  canKick: boolean;
  /** buy bonuses: the owner only */
  canManageBonuses: boolean;
  canViewFinances: boolean;
  /** accept or reject applications */
  canManageApplications: boolean;
  canCancelInvitations: boolean;
  /** promote and demote: the owner only */
  canPromote: boolean;
  /** plan, launch and cancel operations (the spec's leadership flag) */
  canCoordinateWarfare: boolean;
  /** description, flag, requirements */
  canEditSettings: boolean;
  /** intelligence and leadership chat channels */
  canUsePrivateChannels: boolean;
}
export type AlliancePermission = keyof AlliancePermissions;

const NO_PERMISSIONS: AlliancePermissions = {
  canInvite: false,
  canKick: false,
  canManageBonuses: false,
  canViewFinances: false,
  canManageApplications: false,
  canCancelInvitations: false,
  canPromote: false,
  canCoordinateWarfare: false,
  canEditSettings: false,
  canUsePrivateChannels: false,
};

/**
 * The permission matrix of the spec: the owner may do everything; a manager everything but
 * promote, demote and buy bonuses; a member none of these.
 */
export function alliancePermissions(role: AllianceRole | null): AlliancePermissions {
  if (role === "owner") return { ...mapAll(true) };
  if (role === "manager") return { ...mapAll(true), canManageBonuses: false, canPromote: false };
  return { ...NO_PERMISSIONS };
}

function mapAll(value: boolean): AlliancePermissions {
  return Object.fromEntries(Object.keys(NO_PERMISSIONS).map((k) => [k, value])) as unknown as AlliancePermissions;
}

/** True for the owner and managers: the spec's leadership flag. */
export function isLeaderRole(role: AllianceRole | null): boolean {
  return role === "owner" || role === "manager";
}

/**
 * Whether `role` may do `permission`: not in an alliance, 'Owner only' for the owner's
 * powers, otherwise the leaders-only refusal.
 */
export function checkAlliancePermission(role: AllianceRole | null, permission: AlliancePermission): RuleRejection | null {
  if (role === null) return reject("alliance/not_member", ALLIANCE_MESSAGES.notMember);
  if (alliancePermissions(role)[permission]) return null;
  if (permission === "canManageBonuses" || permission === "canPromote") return reject("alliance/owner_only", ALLIANCE_MESSAGES.ownerOnly);
  return reject("alliance/forbidden", ALLIANCE_MESSAGES.leadersOnly);
}

/** Founding or joining needs the country to be in no alliance. */
export function checkNotInAlliance(allianceId: number | null): RuleRejection | null {
  return allianceId === null ? null : reject("alliance/already_member", ALLIANCE_MESSAGES.alreadyMember);
}

/** A new member needs a free seat (200 in all). */
export function checkAllianceCapacity(memberCount: number): RuleRejection | null {
  return memberCount >= ALLIANCE_MAX_MEMBERS ? reject("alliance/full", ALLIANCE_MESSAGES.allianceFull) : null;
}

/**
 * Kick (spec section 5): owner or manager; never oneself, never the owner. A manager may
 * kick another manager (the spec forbids only oneself and the owner).
 */
export function checkKick(input: { actorRole: AllianceRole | null; actorCountryId: number; targetCountryId: number; targetRole: AllianceRole | null }): RuleRejection | null {
  const permission = checkAlliancePermission(input.actorRole, "canKick");
  if (permission) return permission;
  if (input.targetCountryId === input.actorCountryId) return reject("alliance/kick_self", ALLIANCE_MESSAGES.kickSelf);
  if (input.targetRole === null) return reject("alliance/not_in_alliance", ALLIANCE_MESSAGES.notInAlliance);
  if (input.targetRole === "owner") return reject("alliance/kick_owner", ALLIANCE_MESSAGES.kickOwner);
  return null;
}

/** Promote a member to manager: the owner only, at most four managers. */
export function checkPromote(input: { actorRole: AllianceRole | null; targetRole: AllianceRole | null; managerCount: number }): RuleRejection | null {
  const permission = checkAlliancePermission(input.actorRole, "canPromote");
  if (permission) return permission;
  if (input.targetRole === null) return reject("alliance/not_in_alliance", ALLIANCE_MESSAGES.notInAlliance);
  if (input.targetRole !== "member") return reject("alliance/already_manager", ALLIANCE_MESSAGES.alreadyManager);
  if (input.managerCount >= ALLIANCE_MAX_MANAGERS) return reject("alliance/managers_full", ALLIANCE_MESSAGES.managersFull);
  return null;
}

/** Demote a manager to member: the owner only. */
export function checkDemote(input: { actorRole: AllianceRole | null; targetRole: AllianceRole | null }): RuleRejection | null {
  const permission = checkAlliancePermission(input.actorRole, "canPromote");
  if (permission) return permission;
  if (input.targetRole === null) return reject("alliance/not_in_alliance", ALLIANCE_MESSAGES.notInAlliance);
  if (input.targetRole !== "manager") return reject("alliance/not_manager", ALLIANCE_MESSAGES.notManager);
  return null;
}

/** A member as succession sees it. */
export interface SuccessionCandidate {
  countryId: number;
  role: AllianceRole;
  /** epoch ms */
  joinedAt: number;
}

/**
 * Who becomes owner when the owner leaves (designed): the longest-serving manager, else the
 * longest-serving member (ties by country id); null when nobody is left, and the alliance is
 * disbanded.
 */
export function computeSuccessor(members: readonly SuccessionCandidate[], leavingCountryId: number): number | null {
  const rest = members.filter((m) => m.countryId !== leavingCountryId && m.role !== "owner");
  const byTenure = (a: SuccessionCandidate, b: SuccessionCandidate) => a.joinedAt - b.joinedAt || a.countryId - b.countryId;
  const managers = rest.filter((m) => m.role === "manager").sort(byTenure);
  if (managers.length) return managers[0]!.countryId;
  const others = [...rest].sort(byTenure);
  return others.length ? others[0]!.countryId : null;
}

/** What an alliance asks of applicants (designed: the spec shows only meetRequirements). */
export interface AllianceRequirements {
  /** networth at least this (0: none) */
  minNetworth: number;
  /** land at least this many acres (0: none) */
  minLand: number;
  /** whether applications are accepted at all */
  acceptApplications: boolean;
}

export const DEFAULT_ALLIANCE_REQUIREMENTS: AllianceRequirements = { minNetworth: 0, minLand: 0, acceptApplications: true };

/**
 * Whether an applicant meets the alliance's requirements. Spec: an application that does not
 * shows 'Requirements not met' and may still be accepted.
 */
export function meetsRequirements(requirements: AllianceRequirements, applicant: { networth: number; land: number }): boolean {
  return applicant.networth >= requirements.minNetworth && applicant.land >= requirements.minLand;
}

// --- bonuses -----------------------------------------------------------------------------

export const ALLIANCE_BONUS_CATEGORIES = ["military", "economic", "research", "defensive"] as const;
export type AllianceBonusCategory = (typeof ALLIANCE_BONUS_CATEGORIES)[number];

/**
 * What a bonus does to every member, as integer percents. Each effect is read by the rule it
 * changes: attack and defence by combat, the market fee by the market, research by research,
 * spy success by espionage, income by the economy turn.
 */
export interface AllianceEffects {
  /** attack power + percent */
  attackPct: number;
  /** defence power + percent */
  defensePct: number;
  /** the market fee is cut by this percent of itself */
  marketFeeReductionPct: number;
  /** research points + percent */
  researchPct: number;
  /** spy success chance + percent of itself */
  spySuccessPct: number;
  /** tax income + percent */
  incomePct: number;
}

export const NO_ALLIANCE_EFFECTS: AllianceEffects = { attackPct: 0, defensePct: 0, marketFeeReductionPct: 0, researchPct: 0, spySuccessPct: 0, incomePct: 0 };

/** A bonus of the spec's catalogue. */
export interface AllianceBonusDefinition {
  id: string;
  name: string;
  description: string;
  category: AllianceBonusCategory;
  /** bonus points for level 1 */
  baseCost: number;
  maxLevel: number;
  /** cost increase per level, percent (spec: "+25%") */
  costIncreasePct: number;
  /** effect of each level (designed; the spec names the bonuses, not their effects) */
  effectsPerLevel: Partial<AllianceEffects>;
  isPermanent: boolean;
  /** temporary bonuses: how long one purchase lasts (hours); 0 for permanent ones */
  durationHours: number;
  /** temporary bonuses: time from a purchase until the next may be bought (hours) */
  cooldownHours: number;
}

/**
 * The eight bonuses (spec section 9: cost, levels and increase; durations and cooldowns).
 * Effects per level are designed (docs/rules.md, "Alliances"): a permanent bonus at its top
 * level is worth about what one diplomatic relation of the same kind gives, so points buy
 * what cash buys elsewhere, slowly.
 */
export const ALLIANCE_BONUSES: readonly AllianceBonusDefinition[] = [
  {
    id: "military_support",
    name: "Military Support",
    description: "Allied drill and logistics: every member attacks and defends harder",
    category: "military",
    baseCost: 500,
    maxLevel: 5,
    costIncreasePct: 25,
    effectsPerLevel: { attackPct: 3, defensePct: 3 },
    isPermanent: true,
    durationHours: 0,
    cooldownHours: 0,
  },
  {
    id: "market_discount",
    name: "Market Discount",
    description: "Members pay a smaller market fee",
    category: "economic",
    baseCost: 300,
    maxLevel: 3,
    costIncreasePct: 30,
    effectsPerLevel: { marketFeeReductionPct: 10 },
    isPermanent: true,
    durationHours: 0,
    cooldownHours: 0,
  },
  {
    id: "collaborative_research",
    name: "Collaborative Research",
    description: "Shared laboratories: more research points for every member",
    category: "research",
    baseCost: 800,
    maxLevel: 4,
    costIncreasePct: 20,
    effectsPerLevel: { researchPct: 5 },
    isPermanent: true,
    durationHours: 0,
    cooldownHours: 0,
  },
  {
    id: "intelligence_network",
    name: "Intelligence Network",
    description: "Shared informants: spy operations succeed more often",
    category: "military",
    baseCost: 600,
    maxLevel: 3,
    costIncreasePct: 35,
    effectsPerLevel: { spySuccessPct: 5 },
    isPermanent: true,
    durationHours: 0,
    cooldownHours: 0,
  },
  {
    id: "war_preparations",
    name: "War Preparations",
    description: "Every member attacks harder for a day",
    category: "military",
    baseCost: 200,
    maxLevel: 1,
    costIncreasePct: 0,
    effectsPerLevel: { attackPct: 10 },
    isPermanent: false,
    durationHours: 24,
    cooldownHours: 48,
  },
  {
    id: "economic_surge",
    name: "Economic Surge",
    description: "Every member collects more taxes for half a day",
    category: "economic",
    baseCost: 150,
    maxLevel: 1,
    costIncreasePct: 0,
    effectsPerLevel: { incomePct: 10 },
    isPermanent: false,
    durationHours: 12,
    cooldownHours: 24,
  },
  {
    id: "research_sprint",
    name: "Research Sprint",
    description: "Every member's laboratories work harder for six hours",
    category: "research",
    baseCost: 250,
    maxLevel: 1,
    costIncreasePct: 0,
    effectsPerLevel: { researchPct: 25 },
    isPermanent: false,
    durationHours: 6,
    cooldownHours: 18,
  },
  {
    id: "fortress_defense",
    name: "Fortress Defense",
    description: "Every member defends harder while it lasts",
    category: "defensive",
    baseCost: 180,
    maxLevel: 1,
    costIncreasePct: 0,
    effectsPerLevel: { defensePct: 15 },
    isPermanent: false,
    durationHours: 18,
    cooldownHours: 36,
  },
];

export const ALLIANCE_BONUS_IDS = ALLIANCE_BONUSES.map((b) => b.id);

export function findAllianceBonus(id: string): AllianceBonusDefinition | undefined {
  return ALLIANCE_BONUSES.find((b) => b.id === id);
}

/**
 * Cost of `level` in bonus points (spec): floor(base x (1 + increase%) ^ (level - 1)),
 * computed on integers so no rounding drifts: base x (100 + inc)^(n) / 100^(n).
 */
export function computeBonusCost(bonus: Pick<AllianceBonusDefinition, "baseCost" | "costIncreasePct">, level: number): number {
  const n = Math.max(0, level - 1);
  return Math.floor((bonus.baseCost * (100 + bonus.costIncreasePct) ** n) / 100 ** n);
}

/** A purchase as the rules see it. */
export interface BonusPurchase {
  bonusId: string;
  level: number;
  /** epoch ms */
  purchasedAt: number;
  /** epoch ms; null for permanent bonuses */
  expiresAt: number | null;
}

/** The level in force now: the highest permanent level bought, or 1 while a temporary one runs. */
export function currentBonusLevel(bonus: AllianceBonusDefinition, purchases: readonly BonusPurchase[], now: number): number {
  let level = 0;
  for (const p of purchases) {
    if (p.bonusId !== bonus.id) continue;
    if (bonus.isPermanent) level = Math.max(level, p.level);
    else if (p.expiresAt !== null && p.expiresAt > now) level = Math.max(level, 1);
  }
  return level;
}

/** When a temporary bonus may be bought again (epoch ms; 0 when it may now or it is permanent). */
export function bonusCooldownUntil(bonus: AllianceBonusDefinition, purchases: readonly BonusPurchase[]): number {
  if (bonus.isPermanent) return 0;
  const last = Math.max(0, ...purchases.filter((p) => p.bonusId === bonus.id).map((p) => p.purchasedAt));
  return last === 0 ? 0 : last + bonus.cooldownHours * HOUR_MS;
}

/** The next purchase of a bonus: its level, cost and end (null for permanent bonuses). */
export function computeNextPurchase(bonus: AllianceBonusDefinition, purchases: readonly BonusPurchase[], now: number): { level: number; cost: number; expiresAt: number | null } {
  const level = bonus.isPermanent ? currentBonusLevel(bonus, purchases, now) + 1 : 1;
  return { level, cost: computeBonusCost(bonus, level), expiresAt: bonus.isPermanent ? null : now + bonus.durationHours * HOUR_MS };
}

/**
 * Whether the alliance may buy a bonus now (spec section 5): only the owner ('Owner only'),
 * below the maximum level, for temporary bonuses after the cooldown since the last purchase,
 * and with enough points ('Insufficient points').
 */
export function checkBonusPurchase(input: { role: AllianceRole | null; bonus: AllianceBonusDefinition | undefined; purchases: readonly BonusPurchase[]; points: number; now: number }): RuleRejection | null {
  const permission = checkAlliancePermission(input.role, "canManageBonuses");
  if (permission) return permission;
  const { bonus, purchases, now } = input;
  if (!bonus) return reject("alliance/unknown_bonus", ALLIANCE_MESSAGES.unknownBonus);
  if (bonus.isPermanent && currentBonusLevel(bonus, purchases, now) >= bonus.maxLevel) return reject("alliance/max_level", ALLIANCE_MESSAGES.maxLevel);
  const cooldownUntil = bonusCooldownUntil(bonus, purchases);
  if (cooldownUntil > now) return reject("alliance/bonus_cooldown", `On cooldown until ${formatUtc(cooldownUntil)}`);
  if (input.points < computeNextPurchase(bonus, purchases, now).cost) return reject("alliance/insufficient_points", ALLIANCE_MESSAGES.insufficientPoints);
  return null;
}

/** The sum of every bonus in force now: permanent ones at their level, temporary ones while they last. */
export function computeAllianceEffects(purchases: readonly BonusPurchase[], now: number): AllianceEffects {
  const total: AllianceEffects = { ...NO_ALLIANCE_EFFECTS };
  for (const bonus of ALLIANCE_BONUSES) {
    const level = currentBonusLevel(bonus, purchases, now);
    if (level === 0) continue;
    for (const [key, value] of Object.entries(bonus.effectsPerLevel) as Array<[keyof AllianceEffects, number]>) total[key] += value * level;
  }
  return total;
}

/** "2026-05-03 14:00 UTC": dates in refusals read the same on every server and client. */
export function formatUtc(ms: number): string {
  const iso = new Date(ms).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

// --- bonus points ------------------------------------------------------------------------

/**
 * How bonus points are earned (spec's hints, section 9), as the Bonuses tab lists them. Each
 * source is real activity, credited once (the ledger's source and reference are unique).
 */
export const ALLIANCE_POINT_SOURCES = [
  { id: "daily_activity", label: "Daily member activity", points: "5-15 per active member per day" },
  { id: "operation", label: "Alliance military operations", points: "50-200 per completed operation" },
  { id: "research", label: "Research milestones", points: "25-100 per technology level reached" },
  { id: "trade", label: "Trading", points: "1 point per $10,000 traded" },
  { id: "war", label: "Alliance wars", points: "500-1500 per war won" },
  { id: "defense", label: "Defending allies", points: "200-800 per defence fought" },
] as const;
export type AlliancePointSource = (typeof ALLIANCE_POINT_SOURCES)[number]["id"];

/**
 * Points a member earns the alliance for a day: nothing when idle, 5 for the first action of
 * the day and 1 more per further action, at most 15 (spec: 5-15 per member).
 */
export function computeDailyActivityPoints(actionsThatDay: number): number {
  if (actionsThatDay <= 0) return 0;
  return Math.min(15, 4 + actionsThatDay);
}

/** Points for reaching a technology level: 20 + 5 per level, within 25-100 (spec: 25-100). */
export function computeResearchMilestonePoints(levelReached: number): number {
  return Math.max(25, Math.min(100, 20 + 5 * levelReached));
}

/** Points for trading (spec): 1 per $10,000 of the trade's value, floored. */
export const TRADE_DOLLARS_PER_POINT = 10_000;
export function computeTradePoints(dollars: number): number {
  return Math.floor(Math.max(0, dollars) / TRADE_DOLLARS_PER_POINT);
}

/**
 * Points for a completed operation (spec: 50-200): 50, plus 25 per confirmed participant beyond
 * the first, plus 5 per 5,000 units committed, at most 200.
 */
export function computeOperationRewardPoints(confirmedParticipants: number, totalForce: number): number {
  const points = 50 + 25 * Math.max(0, confirmedParticipants - 1) + 5 * Math.floor(Math.max(0, totalForce) / 5_000);
  return Math.min(200, points);
}

/**
 * Points for defending an ally whose attacker was repelled (spec: 200-800): 200 plus 1 per 50
 * units the allies committed, at most 800.
 */
export function computeDefensePoints(committedUnits: number): number {
  return Math.min(800, 200 + Math.floor(Math.max(0, committedUnits) / 50));
}

/**
 * Points for a war won (spec: 500-1500): 500 plus 100 per day it lasted, at most 1500.
 */
export function computeWarPoints(daysAtWar: number): number {
  return Math.min(1500, 500 + 100 * Math.max(0, Math.floor(daysAtWar)));
}

// --- warfare: operations -------------------------------------------------------------------

export const OPERATION_TYPES = ["coordinated_attack", "defensive_support", "reconnaissance", "blockade"] as const;
export type OperationType = (typeof OPERATION_TYPES)[number];
export const OPERATION_TYPE_LABELS: Record<OperationType, string> = {
  coordinated_attack: "Coordinated Attack",
  defensive_support: "Defensive Support",
  reconnaissance: "Reconnaissance",
  blockade: "Blockade",
};

/** planning: gathering participants; active: requirements met, ready to launch; then completed or cancelled. */
export const OPERATION_STATUSES = ["planning", "active", "completed", "cancelled"] as const;
export type OperationStatus = (typeof OPERATION_STATUSES)[number];
export const PARTICIPANT_STATUSES = ["invited", "confirmed", "declined"] as const;
export type ParticipantStatus = (typeof PARTICIPANT_STATUSES)[number];

/** Readiness labels of the spec. */
export const OPERATION_READINESS = { ready: "Ready to Launch", awaiting: "Awaiting Requirements" } as const;

/** Limits of a plan (designed around the spec's samples: 2-3 minimum, 4-8 maximum, 8,000-25,000 force). */
export const OPERATION_LIMITS = {
  nameMaxLength: 60,
  descriptionMaxLength: 500,
  maxParticipants: 20,
  minTotalForceMax: 100_000_000,
  /** how far ahead an operation may be scheduled (ms) */
  scheduleAheadMs: 7 * DAY_MS,
  /** an operation not launched this long after its scheduled time is cancelled by the tick (ms) */
  staleAfterMs: DAY_MS,
  /** open (planning or active) operations an alliance may have at once: the room's state stays bounded */
  maxOpen: 10,
} as const;

/** Closed operations the alliance room keeps showing (War History); older ones over REST. */
export const ALLIANCE_ROOM_CLOSED_OPERATIONS = 5;
/** Defense requests the alliance room shows: the newest, open or expired within a day. */
export const ALLIANCE_ROOM_DEFENSE_REQUESTS = 10;
/** Recent messages per alliance channel in the room's state (the world room keeps 50 per open channel). */
export const ALLIANCE_CHAT_RECENT_MESSAGES = 20;

/** Units a participant commits. Turrets defend in place: they can support a defence, not an attack. */
export interface OperationContribution {
  troops: number;
  jets: number;
  tanks: number;
  turrets: number;
}

export const OPERATION_MESSAGES = {
  closed: "This operation is no longer open",
  notInvited: "You are not invited to this operation",
  full: "This operation has all the participants it can take",
  noUnits: "Commit at least one unit",
  turretsInAttack: "Turrets cannot be used for a coordinated attack",
  notReady: "Operation requirements are not met",
  minAboveMax: "The minimum participants cannot exceed the maximum",
  scheduleRange: "Schedule the operation within the next 7 days",
  targetIsAlly: "The target must not be a member of your alliance",
  targetNotAlly: "Defensive support must target a member of your alliance",
  noActiveOperations: "No active military operations",
  tooMany: `Your alliance has ${OPERATION_LIMITS.maxOpen} open operations: launch or cancel one first`,
} as const;

/** Units a contribution commits in all: the spec's totalForce. */
export function computeTotalForce(c: OperationContribution): number {
  return c.troops + c.jets + c.tanks + c.turrets;
}

export interface OperationRequirements {
  minParticipants: number;
  maxParticipants: number;
  minTotalForce: number;
}

export interface ParticipantForReadiness {
  status: ParticipantStatus;
  totalForce: number;
}

/**
 * Readiness (spec): 'Ready to Launch' when the confirmed participants are at least the minimum
 * and their total force is at least the minimum total force; else 'Awaiting Requirements'.
 */
export function computeOperationReadiness(participants: readonly ParticipantForReadiness[], requirements: OperationRequirements): { confirmed: number; totalForce: number; ready: boolean; label: string } {
  const confirmed = participants.filter((p) => p.status === "confirmed");
  const totalForce = confirmed.reduce((sum, p) => sum + p.totalForce, 0);
  const ready = confirmed.length >= requirements.minParticipants && totalForce >= requirements.minTotalForce;
  return { confirmed: confirmed.length, totalForce, ready, label: ready ? OPERATION_READINESS.ready : OPERATION_READINESS.awaiting };
}

/** The status an open operation shows for its readiness: active when it could launch now. */
export function openOperationStatus(ready: boolean): OperationStatus {
  return ready ? "active" : "planning";
}

export function isOperationOpen(status: OperationStatus): boolean {
  return status === "planning" || status === "active";
}

/** A plan's own consistency, beside the planner's permission. */
export function checkPlanOperation(input: {
  role: AllianceRole | null;
  operationType: OperationType;
  requirements: OperationRequirements;
  scheduledFor: number;
  now: number;
  targetIsMember: boolean;
  /** the alliance's open operations now */
  openOperations: number;
}): RuleRejection | null {
  const permission = checkAlliancePermission(input.role, "canCoordinateWarfare");
  if (permission) return permission;
  if (input.openOperations >= OPERATION_LIMITS.maxOpen) return reject("operation/too_many", OPERATION_MESSAGES.tooMany);
  if (input.requirements.minParticipants > input.requirements.maxParticipants) return reject("operation/min_above_max", OPERATION_MESSAGES.minAboveMax);
  // A minute of slack: a form filled in "now" arrives a moment later.
  if (input.scheduledFor < input.now - 60_000 || input.scheduledFor > input.now + OPERATION_LIMITS.scheduleAheadMs) {
    return reject("operation/schedule_range", OPERATION_MESSAGES.scheduleRange);
  }
  if (input.operationType === "defensive_support" && !input.targetIsMember) return reject("operation/target_not_ally", OPERATION_MESSAGES.targetNotAlly);
  if (input.operationType !== "defensive_support" && input.targetIsMember) return reject("operation/target_is_ally", OPERATION_MESSAGES.targetIsAlly);
  return null;
}

/** Units a country holds, for contribution checks. */
export interface AvailableUnits {
  troops: number;
  jets: number;
  tanks: number;
  turrets: number;
}

/** The first unit a contribution asks more of than the country holds, as the combat screen words it. */
export function checkUnitsAvailable(contribution: OperationContribution, available: AvailableUnits): RuleRejection | null {
  for (const unit of ["troops", "jets", "tanks", "turrets"] as const) {
    if (contribution[unit] > available[unit]) {
      return reject("operation/insufficient_units", `Insufficient ${unit}: have ${available[unit]}, need ${contribution[unit]}`);
    }
  }
  return null;
}

/**
 * Joining (with a contribution) or declining an operation: open, invited, a free seat,
 * at least one unit, turrets only for defensive support, and no more than the country holds.
 */
export function checkRespondOperation(input: {
  status: OperationStatus;
  operationType: OperationType;
  participantStatus: ParticipantStatus | null;
  response: "join" | "decline";
  /** confirmed participants other than the responder */
  confirmedOthers: number;
  maxParticipants: number;
  contribution: OperationContribution;
  available: AvailableUnits;
}): RuleRejection | null {
  if (!isOperationOpen(input.status)) return reject("operation/closed", OPERATION_MESSAGES.closed);
  if (input.participantStatus === null) return reject("operation/not_invited", OPERATION_MESSAGES.notInvited);
  if (input.response === "decline") return null;
  if (input.confirmedOthers >= input.maxParticipants) return reject("operation/full", OPERATION_MESSAGES.full);
  if (computeTotalForce(input.contribution) <= 0) return reject("operation/no_units", OPERATION_MESSAGES.noUnits);
  if (input.operationType !== "defensive_support" && input.contribution.turrets > 0) return reject("operation/turrets_in_attack", OPERATION_MESSAGES.turretsInAttack);
  return checkUnitsAvailable(input.contribution, input.available);
}

/** Launching: a leader, an open operation whose requirements are met. */
export function checkLaunchOperation(input: { role: AllianceRole | null; status: OperationStatus; ready: boolean }): RuleRejection | null {
  const permission = checkAlliancePermission(input.role, "canCoordinateWarfare");
  if (permission) return permission;
  if (!isOperationOpen(input.status)) return reject("operation/closed", OPERATION_MESSAGES.closed);
  if (!input.ready) return reject("operation/not_ready", OPERATION_MESSAGES.notReady);
  return null;
}

/** Cancelling: a leader, an open operation. */
export function checkCancelOperation(input: { role: AllianceRole | null; status: OperationStatus }): RuleRejection | null {
  const permission = checkAlliancePermission(input.role, "canCoordinateWarfare");
  if (permission) return permission;
  if (!isOperationOpen(input.status)) return reject("operation/closed", OPERATION_MESSAGES.closed);
  return null;
}

/**
 * What completing an operation earns (designed; spec: rewards {bonusPoints, militarySupport,
 * experienceGain}): the alliance's bonus points, the units credited to the participants'
 * military support, and the contribution points each participant is credited with.
 */
export function computeOperationRewards(confirmedParticipants: number, totalForce: number): { bonusPoints: number; militarySupport: number; experienceGain: number } {
  const bonusPoints = computeOperationRewardPoints(confirmedParticipants, totalForce);
  return {
    bonusPoints,
    militarySupport: totalForce,
    experienceGain: confirmedParticipants > 0 ? Math.floor(bonusPoints / confirmedParticipants) : 0,
  };
}

// --- warfare: defense requests -------------------------------------------------------------

export const DEFENSE_URGENCIES = ["critical", "high", "medium", "low"] as const;
export type DefenseUrgency = (typeof DEFENSE_URGENCIES)[number];
export const DEFENSE_RESPONSE_TYPES = ["military_support", "intelligence", "declined"] as const;
export type DefenseResponseType = (typeof DEFENSE_RESPONSE_TYPES)[number];

/** A defense request stays open this long (spec sample: 4 hours). */
export const DEFENSE_REQUEST_LIFETIME_MS = 4 * HOUR_MS;
/**
 * Units sent as military support defend the requester this long from the response (designed:
 * long enough to cover the next attacks of an ongoing assault, short enough that an ally's army
 * is not tied up for a day).
 */
export const DEFENSE_COMMITMENT_MS = 8 * HOUR_MS;
/** Open requests one member may have at once (designed: stops a member flooding the list). */
export const DEFENSE_MAX_OPEN_REQUESTS = 1;

export const DEFENSE_MESSAGES = {
  responded: "You have responded to this defense request",
  expired: "This defense request has expired",
  ownRequest: "You cannot respond to your own defense request",
  militaryNotNeeded: "Military support was not requested",
  intelligenceNotNeeded: "Intelligence was not requested",
  noUnits: "Commit at least one unit",
  openRequest: "You already have an open defense request",
  noActiveRequests: "No active defense requests",
  nothingNeeded: "Ask for at least one kind of support",
} as const;

/**
 * Urgency of an automatic request (designed): the attacker broke through and took a tenth or more
 * of the land: critical; broke through: high; repelled but the attacker came close (power at
 * least 80% of the defence): medium; otherwise low.
 */
export function computeDefenseUrgency(input: { attackerWon: boolean; landLostPct: number; powerRatioPct: number }): DefenseUrgency {
  if (input.attackerWon && input.landLostPct >= 10) return "critical";
  if (input.attackerWon) return "high";
  if (input.powerRatioPct >= 80) return "medium";
  return "low";
}

export function checkRequestDefense(input: { role: AllianceRole | null; openRequests: number; supportNeeded: { military: boolean; intelligence: boolean; resources: boolean } }): RuleRejection | null {
  if (input.role === null) return reject("alliance/not_member", ALLIANCE_MESSAGES.notMember);
  const { military, intelligence, resources } = input.supportNeeded;
  if (!military && !intelligence && !resources) return reject("defense/nothing_needed", DEFENSE_MESSAGES.nothingNeeded);
  if (input.openRequests >= DEFENSE_MAX_OPEN_REQUESTS) return reject("defense/open_request", DEFENSE_MESSAGES.openRequest);
  return null;
}

/**
 * A response (spec section 4): once per member, before the request expires, never to one's
 * own request; military support only if military was asked for (with at least one unit the
 * responder holds), intelligence only if intelligence was.
 */
export function checkRespondDefense(input: {
  responderId: number;
  requesterId: number;
  expiresAt: number;
  now: number;
  alreadyResponded: boolean;
  responseType: DefenseResponseType;
  supportNeeded: { military: boolean; intelligence: boolean };
  commitment: { troops: number; jets: number; tanks: number };
  available: { troops: number; jets: number; tanks: number };
}): RuleRejection | null {
  if (input.responderId === input.requesterId) return reject("defense/own_request", DEFENSE_MESSAGES.ownRequest);
  if (input.alreadyResponded) return reject("defense/responded", DEFENSE_MESSAGES.responded);
  if (input.expiresAt <= input.now) return reject("defense/expired", DEFENSE_MESSAGES.expired);
  if (input.responseType === "military_support") {
    if (!input.supportNeeded.military) return reject("defense/military_not_needed", DEFENSE_MESSAGES.militaryNotNeeded);
    const { troops, jets, tanks } = input.commitment;
    if (troops + jets + tanks <= 0) return reject("defense/no_units", DEFENSE_MESSAGES.noUnits);
    return checkUnitsAvailable({ troops, jets, tanks, turrets: 0 }, { ...input.available, turrets: 0 });
  }
  if (input.responseType === "intelligence" && !input.supportNeeded.intelligence) return reject("defense/intelligence_not_needed", DEFENSE_MESSAGES.intelligenceNotNeeded);
  return null;
}

// --- chat --------------------------------------------------------------------------------

/** Who may read a channel: every member, managers and the owner, or the owner alone (spec). */
export const ALLIANCE_CHANNEL_ACCESS = ["all", "manager", "owner"] as const;
export type AllianceChannelAccess = (typeof ALLIANCE_CHANNEL_ACCESS)[number];

export interface AllianceChannelDefinition {
  id: string;
  name: string;
  description: string;
  accessLevel: AllianceChannelAccess;
  isPrivate: boolean;
  /**
   * The chat_messages channel it is stored under (scoped to the alliance): general and
   * leadership are the global chat's `alliance` and `leadership` channels, so a message sent in
   * either place shows in both.
   */
  storedAs: string;
}

/** The alliance room's channels (spec: general and military for all; intelligence and leadership for managers and owner). */
export const ALLIANCE_CHAT_CHANNELS: readonly AllianceChannelDefinition[] = [
  { id: "general", name: "General", description: "Every member of the alliance", accessLevel: "all", isPrivate: false, storedAs: "alliance" },
  { id: "military", name: "Military", description: "Operations, attacks and defence", accessLevel: "all", isPrivate: false, storedAs: "alliance_military" },
  { id: "intelligence", name: "Intelligence", description: "Reports and enemy movements, leaders only", accessLevel: "manager", isPrivate: true, storedAs: "alliance_intelligence" },
  { id: "leadership", name: "Leadership", description: "The owner and managers", accessLevel: "manager", isPrivate: true, storedAs: "leadership" },
];
export const ALLIANCE_CHANNEL_IDS = ALLIANCE_CHAT_CHANNELS.map((c) => c.id);

/** Message types of the spec's alliance chat: members send messages, leaders may announce; the rest are the game's. */
export const ALLIANCE_CHAT_MESSAGE_TYPES = ["message", "announcement", "system", "achievement", "war_alert"] as const;
export type AllianceChatMessageType = (typeof ALLIANCE_CHAT_MESSAGE_TYPES)[number];
/** How long "X is typing..." shows after the last keystroke (spec: 3 seconds). */
export const ALLIANCE_TYPING_INDICATOR_MS = 3_000;

export function findAllianceChannel(id: string): AllianceChannelDefinition | undefined {
  return ALLIANCE_CHAT_CHANNELS.find((c) => c.id === id);
}

/** The alliance channel stored under a chat_messages channel, if any. */
export function allianceChannelStoredAs(stored: string): AllianceChannelDefinition | undefined {
  return ALLIANCE_CHAT_CHANNELS.find((c) => c.storedAs === stored);
}

export function canAccessAllianceChannel(channel: Pick<AllianceChannelDefinition, "accessLevel">, role: AllianceRole | null): boolean {
  if (role === null) return false;
  if (channel.accessLevel === "all") return true;
  if (channel.accessLevel === "manager") return role === "owner" || role === "manager";
  return role === "owner";
}

/** A post to an alliance channel: access and, for announcements, leadership. */
export function checkAllianceChat(input: { channelId: string; role: AllianceRole | null; announcement: boolean }): RuleRejection | null {
  const channel = findAllianceChannel(input.channelId);
  if (!channel) return reject("chat/unknown_channel", "Unknown chat channel");
  if (!canAccessAllianceChannel(channel, input.role)) return reject("chat/no_access", "You do not have access to this channel");
  if (input.announcement && !isLeaderRole(input.role)) return reject("alliance/forbidden", ALLIANCE_MESSAGES.leadersOnly);
  return null;
}
