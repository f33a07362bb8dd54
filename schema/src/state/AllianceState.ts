import { schema, t, type SchemaType } from "@colyseus/schema";
import { ChatMessageState } from "./ChatMessageState.js";

/**
 * The state of an "alliance" room: one room per alliance, members only. Everything here is for
 * the alliance's members; the leadership part (the intelligence and leadership channels, the
 * pending applications and invitations) is behind LEADERSHIP_VIEW_TAG, added to the views of
 * the owner and managers only and removed the moment one is demoted. Times are epoch ms.
 */

/** View tag of the leadership part (custom view tags are powers of two). */
export const LEADERSHIP_VIEW_TAG = 1;

/** The spec's alliance header: flag, tag, name, rank, members, totals. */
export const AllianceHeaderState = schema(
  {
    id: t.number().default(0),
    name: t.string().default(""),
    tag: t.string().default(""),
    description: t.string().default(""),
    /** #rrggbb @default "" */
    flagBackground: t.string().default(""),
    flagSymbol: t.string().default(""),
    /** #rrggbb @default "" */
    flagSymbolColor: t.string().default(""),
    /** by total networth, 1 first; 0 until ranked @default 0 */
    rank: t.number().default(0),
    memberCount: t.number().default(0),
    maxMembers: t.number().default(0),
    totalNetworth: t.number().default(0),
    averageNetworth: t.number().default(0),
    bonusPoints: t.number().default(0),
    /** acres @default 0 */
    totalLand: t.number().default(0),
    /** troops, jets, tanks and turrets of every member @default 0 */
    totalMilitary: t.number().default(0),
    warsWon: t.number().default(0),
    warsLost: t.number().default(0),
    activeWars: t.number().default(0),
  },
  "AllianceHeaderState",
);
export type AllianceHeaderState = SchemaType<typeof AllianceHeaderState>;

/** A member with online status (public numbers only: networth and land, never cash or units). */
export const AllianceMemberState = schema(
  {
    countryId: t.number().default(0),
    countryName: t.string().default(""),
    playerName: t.string().default(""),
    governmentType: t.string().default(""),
    /** owner, manager or member @default "member" */
    role: t.string().default("member"),
    networth: t.number().default(0),
    landAcres: t.number().default(0),
    joinedAt: t.number().default(0),
    lastActive: t.number().default(0),
    isOnline: t.boolean().default(false),
    contributionPoints: t.number().default(0),
    militarySupport: t.number().default(0),
    resourcesShared: t.number().default(0),
  },
  "AllianceMemberState",
);
export type AllianceMemberState = SchemaType<typeof AllianceMemberState>;

/**
 * A participant, without its name and role: the client reads those from `members` (the state
 * stays bounded: 10 open operations can each invite all 200 members).
 */
export const OperationParticipantState = schema(
  {
    countryId: t.number().default(0),
    /** invited, confirmed or declined @default "invited" */
    status: t.string().default("invited"),
    /** 0 until the participant answered @default 0 */
    joinedAt: t.number().default(0),
    troops: t.number().default(0),
    jets: t.number().default(0),
    tanks: t.number().default(0),
    turrets: t.number().default(0),
    totalForce: t.number().default(0),
    isCommander: t.boolean().default(false),
  },
  "OperationParticipantState",
);
export type OperationParticipantState = SchemaType<typeof OperationParticipantState>;

/** The spec's warfare operation with participants and readiness. */
export const OperationState = schema(
  {
    id: t.number().default(0),
    name: t.string().default(""),
    description: t.string().default(""),
    operationType: t.string().default("coordinated_attack"),
    /** 0 when the target country no longer exists @default 0 */
    targetId: t.number().default(0),
    targetName: t.string().default(""),
    targetAlliance: t.string().default(""),
    initiatorId: t.number().default(0),
    initiatorName: t.string().default(""),
    /** planning, active, completed or cancelled @default "planning" */
    status: t.string().default("planning"),
    scheduledFor: t.number().default(0),
    createdAt: t.number().default(0),
    minParticipants: t.number().default(0),
    maxParticipants: t.number().default(0),
    minTotalForce: t.number().default(0),
    rewardBonusPoints: t.number().default(0),
    rewardMilitarySupport: t.number().default(0),
    rewardExperience: t.number().default(0),
    /** 'Ready to Launch' or 'Awaiting Requirements' @default "" */
    readiness: t.string().default(""),
    confirmedCount: t.number().default(0),
    totalForce: t.number().default(0),
    outcomeSummary: t.string().default(""),
    outcomeLines: t.array("string"),
    /** open operations only: a closed one keeps its counts and outcome */
    participants: t.array(OperationParticipantState),
  },
  "OperationState",
);
export type OperationState = SchemaType<typeof OperationState>;

/** A response, without the responder's name (read from `members`). */
export const DefenseResponseState = schema(
  {
    responderId: t.number().default(0),
    /** military_support, intelligence or declined @default "declined" */
    responseType: t.string().default("declined"),
    responseAt: t.number().default(0),
    troops: t.number().default(0),
    jets: t.number().default(0),
    tanks: t.number().default(0),
    /** 0 unless military support @default 0 */
    commitmentExpiresAt: t.number().default(0),
  },
  "DefenseResponseState",
);
export type DefenseResponseState = SchemaType<typeof DefenseResponseState>;

export const DefenseRequestState = schema(
  {
    id: t.number().default(0),
    requesterId: t.number().default(0),
    requesterName: t.string().default(""),
    attackerId: t.number().default(0),
    attackerName: t.string().default(""),
    attackType: t.string().default(""),
    requestedAt: t.number().default(0),
    expiresAt: t.number().default(0),
    /** critical, high, medium or low @default "medium" */
    urgency: t.string().default("medium"),
    needMilitary: t.boolean().default(false),
    needIntelligence: t.boolean().default(false),
    needResources: t.boolean().default(false),
    message: t.string().default(""),
    responses: t.array(DefenseResponseState),
  },
  "DefenseRequestState",
);
export type DefenseRequestState = SchemaType<typeof DefenseRequestState>;

/** A bonus in force or cooling down. */
export const AllianceBonusState = schema(
  {
    bonusId: t.string().default(""),
    level: t.number().default(0),
    /** a running temporary bonus's end; 0 for permanent ones @default 0 */
    expiresAt: t.number().default(0),
    /** when a temporary bonus may be bought again; 0 when it may now @default 0 */
    cooldownUntil: t.number().default(0),
  },
  "AllianceBonusState",
);
export type AllianceBonusState = SchemaType<typeof AllianceBonusState>;

/** An alliance chat channel with its recent messages, oldest first. */
export const AllianceChannelState = schema(
  {
    id: t.string().default(""),
    name: t.string().default(""),
    description: t.string().default(""),
    /** all, manager or owner @default "all" */
    accessLevel: t.string().default("all"),
    isPrivate: t.boolean().default(false),
    messages: t.array(ChatMessageState),
  },
  "AllianceChannelState",
);
export type AllianceChannelState = SchemaType<typeof AllianceChannelState>;

/** What only the owner and managers see. */
export const LeadershipState = schema(
  {
    /** the intelligence and leadership channels */
    channels: t.map(AllianceChannelState),
    pendingApplications: t.number().default(0),
    pendingInvitations: t.number().default(0),
  },
  "LeadershipState",
);
export type LeadershipState = SchemaType<typeof LeadershipState>;

export const AllianceState = schema(
  {
    header: AllianceHeaderState,
    /** keyed by country id (string) */
    members: t.map(AllianceMemberState),
    /** open operations and the latest closed ones, keyed by id (string) */
    operations: t.map(OperationState),
    /** open defense requests and those expired within a day, keyed by id (string) */
    defenseRequests: t.map(DefenseRequestState),
    /** bonuses in force or cooling down, keyed by bonus id */
    bonuses: t.map(AllianceBonusState),
    /** the channels every member reads (general, military) */
    channels: t.map(AllianceChannelState),
    /** leaders only: behind LEADERSHIP_VIEW_TAG */
    leadership: t.ref(LeadershipState).view(LEADERSHIP_VIEW_TAG),
  },
  "AllianceState",
);
export type AllianceState = SchemaType<typeof AllianceState>;
