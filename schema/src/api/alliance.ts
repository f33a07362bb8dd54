import { z } from "zod";
import {
  ALLIANCE_COLOR_PATTERN,
  ALLIANCE_DESCRIPTION_MAX_LENGTH,
  ALLIANCE_FLAG_SYMBOLS,
  ALLIANCE_LIST_DEFAULT_LIMIT,
  ALLIANCE_LIST_MAX_LIMIT,
  ALLIANCE_MESSAGE_MAX_LENGTH,
  ALLIANCE_NAME_MAX_LENGTH,
  ALLIANCE_NAME_MIN_LENGTH,
  ALLIANCE_TAG_PATTERN,
  type AllianceBonusCategory,
  type AllianceEffects,
  type AlliancePermissions,
  type AllianceRequirements,
  type DefenseResponseType,
  type DefenseUrgency,
  type OperationStatus,
  type OperationType,
  type ParticipantStatus,
} from "../rules/alliance.js";
import type { AllianceRole } from "../rules/chat.js";
import { RANKINGS_DEFAULT_LIMIT, RANKINGS_MAX_LIMIT } from "../rules/ranking.js";
import { idParamSchema, idSchema, limitSchema, pageSchema } from "./common.js";
import { lineText, nameText, plainText } from "./text.js";

/*
 * The alliance REST contract (spec document 3, section 7, plus the calls the sample-data
 * screens needed): request validators and the answers' shapes. Paths are under /api.
 */

const messageSchema = plainText(z.string({ error: "Message must be text" }), "Message")
  .trim()
  .max(ALLIANCE_MESSAGE_MAX_LENGTH, `Message must be at most ${ALLIANCE_MESSAGE_MAX_LENGTH} characters`)
  .default("");

/** An alliance's flag (spec: background colour, symbol, symbol colour). */
export const allianceFlagSchema = z.object({
  backgroundColor: z.string().regex(ALLIANCE_COLOR_PATTERN, "Flag colours are #rrggbb"),
  symbol: z.enum(ALLIANCE_FLAG_SYMBOLS, { error: "Choose one of the flag symbols" }),
  symbolColor: z.string().regex(ALLIANCE_COLOR_PATTERN, "Flag colours are #rrggbb"),
});
export type AllianceFlagJson = z.infer<typeof allianceFlagSchema>;

export const allianceRequirementsSchema = z.object({
  minNetworth: z.number().int("Whole numbers only").min(0).max(1e12).default(0),
  minLand: z.number().int("Whole numbers only").min(0).max(1e9).default(0),
  acceptApplications: z.boolean().default(true),
});

/** POST /alliance/create {name, tag, description, flag, requirements?} */
export const createAllianceSchema = z.object({
  name: nameText(z.string({ error: "Alliance name is required" }), "Alliance name")
    .min(ALLIANCE_NAME_MIN_LENGTH, `Alliance name must be at least ${ALLIANCE_NAME_MIN_LENGTH} characters`)
    .max(ALLIANCE_NAME_MAX_LENGTH, `Alliance name must be at most ${ALLIANCE_NAME_MAX_LENGTH} characters`),
  tag: lineText(z.string({ error: "Alliance tag is required" }), "Tag")
    .trim()
    .transform((t) => t.toUpperCase())
    .pipe(z.string().regex(ALLIANCE_TAG_PATTERN, "Tag must be 2 to 5 letters or digits")),
  description: plainText(z.string(), "Description").trim().max(ALLIANCE_DESCRIPTION_MAX_LENGTH, `Description must be at most ${ALLIANCE_DESCRIPTION_MAX_LENGTH} characters`).default(""),
  flag: allianceFlagSchema,
  requirements: allianceRequirementsSchema.optional(),
});
export type CreateAllianceRequest = z.input<typeof createAllianceSchema>;
export type CreateAllianceInput = z.output<typeof createAllianceSchema>;

/** POST /alliance/settings {description?, flag?, requirements?} (owner and managers) */
export const allianceSettingsSchema = z
  .object({
    description: plainText(z.string(), "Description").trim().max(ALLIANCE_DESCRIPTION_MAX_LENGTH, `Description must be at most ${ALLIANCE_DESCRIPTION_MAX_LENGTH} characters`).optional(),
    flag: allianceFlagSchema.optional(),
    requirements: allianceRequirementsSchema.optional(),
  })
  .refine((b) => b.description !== undefined || b.flag !== undefined || b.requirements !== undefined, "Nothing to change");
export type AllianceSettingsRequest = z.input<typeof allianceSettingsSchema>;
export type AllianceSettingsInput = z.output<typeof allianceSettingsSchema>;

/** POST /alliance/invitations {targetCountryName, message} (spec: name non-empty after trim, message <= 200) */
export const inviteSchema = z.object({
  targetCountryName: nameText(z.string({ error: "Target country name is required" }), "Target country name").min(1, "Target country name is required").max(60, "No country has so long a name"),
  message: messageSchema,
});
export type InviteRequest = z.input<typeof inviteSchema>;

/** POST /alliance/join {allianceId, message}: an application. */
export const joinAllianceSchema = z.object({ allianceId: idSchema, message: messageSchema });
export type JoinAllianceRequest = z.input<typeof joinAllianceSchema>;

/** POST /alliance/kick, /alliance/promote, /alliance/demote {countryId} */
export const allianceTargetSchema = z.object({ countryId: idSchema });

/** POST /alliance/bonuses/purchase {bonusId} */
export const bonusPurchaseSchema = z.object({ bonusId: lineText(z.string({ error: "Unknown bonus" }), "Bonus").min(1, "Unknown bonus").max(40, "Unknown bonus") });

/** GET /alliance/list?page=&limit=&search= (spec: page 1 and limit 20 by default) */
export const allianceListQuerySchema = z.object({
  page: pageSchema,
  limit: limitSchema(ALLIANCE_LIST_DEFAULT_LIMIT, ALLIANCE_LIST_MAX_LIMIT),
  search: lineText(z.string(), "Search").trim().max(ALLIANCE_NAME_MAX_LENGTH, "Search is too long").default(""),
});

/** GET /rankings/alliances?limit= (spec: default 100) */
export const allianceRankingsQuerySchema = z.object({ limit: limitSchema(RANKINGS_DEFAULT_LIMIT, RANKINGS_MAX_LIMIT) });

/** Path ids: /alliance/{id}, /alliance/status/{countryId}, /alliance/invitations/{id}/... */
export const allianceIdParamsSchema = z.object({ id: idParamSchema });
export const allianceStatusParamsSchema = z.object({ countryId: idParamSchema });

// --- answers -------------------------------------------------------------------------------

/** The spec's alliance, as GET /alliance/{id} and the list answer it. */
export interface AllianceJson {
  id: number;
  tag: string;
  name: string;
  description: string;
  flag: AllianceFlagJson;
  /** by total networth, 1 first */
  rank: number;
  memberCount: number;
  maxMembers: number;
  totalNetworth: number;
  averageNetworth: number;
  bonusPoints: number;
  stats: {
    totalLand: number;
    /** members' troops, jets, tanks and turrets together: members only, null for others */
    totalMilitary: number | null;
    /** battles won by the members (as the season counts wars) */
    warsWon: number;
    warsLost: number;
    /** war declarations in force by or against members */
    activeWars: number;
  };
  requirements: AllianceRequirements;
  /** ISO */
  createdAt: string;
}

/** The spec's alliance member. */
export interface AllianceMemberJson {
  /** the country id as a string */
  id: string;
  countryId: number;
  countryName: string;
  playerName: string;
  governmentType: string;
  role: AllianceRole;
  networth: number;
  landAcres: number;
  /** ISO */
  joinedAt: string;
  /** ISO */
  lastActive: string;
  isOnline: boolean;
  contributions: { bonusPoints: number; militarySupport: number; resourcesShared: number };
  permissions: { canInvite: boolean; canKick: boolean; canManageBonuses: boolean; canViewFinances: boolean };
}

/** Finances (owner and managers: canViewFinances): where the points came from and went. */
export interface AllianceFinancesJson {
  pointsEarned: number;
  pointsSpent: number;
  bonusPoints: number;
  /** the latest ledger entries, newest first */
  recent: Array<{ source: string; countryName: string; points: number; at: string }>;
}

/** data of GET /alliance/status/{countryId}: the country's alliance, role, rights and members. */
export interface AllianceStatusJson {
  alliance: AllianceJson | null;
  role: AllianceRole | null;
  permissions: AlliancePermissions;
  members: AllianceMemberJson[];
  finances: AllianceFinancesJson | null;
  /** the alliance's bonus effects in force now */
  effects: AllianceEffects;
}

/** The spec's invitation; the own-side view adds allianceName. */
export interface InvitationJson {
  id: number;
  allianceId: number;
  allianceName: string;
  allianceTag: string;
  targetCountryId: number;
  targetCountryName: string;
  invitedBy: string;
  invitedById: number | null;
  sentAt: string;
  expiresAt: string;
  message: string;
  status: string;
}

/** data of GET /alliance/invitations: received (pending, for the caller) and, for leaders, sent. */
export interface InvitationsJson {
  received: InvitationJson[];
  sent: InvitationJson[];
}

/** The spec's application. */
export interface ApplicationJson {
  id: number;
  allianceId: number;
  allianceName: string;
  applicantId: number;
  applicantName: string;
  applicantNetworth: number;
  applicantLand: number;
  applicantGovernment: string;
  appliedAt: string;
  expiresAt: string;
  message: string;
  status: string;
  meetRequirements: boolean;
}

/** data of GET /alliance/applications: the alliance's pending ones (leaders) and the caller's own. */
export interface ApplicationsJson {
  received: ApplicationJson[];
  mine: ApplicationJson[];
}

/** A bonus of the catalogue with the alliance's level, as the Bonuses tab lists it. */
export interface AllianceBonusJson {
  id: string;
  name: string;
  description: string;
  category: AllianceBonusCategory;
  baseCost: number;
  maxLevel: number;
  currentLevel: number;
  /** percent */
  costIncrease: number;
  /** cost of the next purchase; null at the maximum level */
  nextCost: number | null;
  effectsPerLevel: Partial<AllianceEffects>;
  isPermanent: boolean;
  /** hours */
  duration: number;
  /** hours */
  cooldown: number;
  /** ISO, a running temporary bonus's end */
  expiresAt: string | null;
  /** ISO, when a temporary bonus may be bought again */
  cooldownUntil: string | null;
}

/** The spec's purchased bonus. */
export interface PurchasedBonusJson {
  id: number;
  bonusId: string;
  level: number;
  purchasedAt: string;
  expiresAt: string | null;
  purchasedBy: string;
  isActive: boolean;
}

/** data of GET /alliance/bonuses */
export interface AllianceBonusesJson {
  points: number;
  bonuses: AllianceBonusJson[];
  purchases: PurchasedBonusJson[];
  earning: ReadonlyArray<{ id: string; label: string; points: string }>;
  effects: AllianceEffects;
}

/** The spec's alliance ranking row (GET /rankings/alliances). */
export interface AllianceRankingRowJson {
  rank: number;
  allianceId: number;
  allianceName: string;
  allianceTag: string;
  memberCount: number;
  warsWon: number;
  totalNetworth: number;
  averageNetworth: number;
  bonusPoints: number;
  trend: "up" | "down" | "same";
  change: number;
}

/** The spec's operation participant. */
export interface OperationParticipantJson {
  countryId: number;
  countryName: string;
  role: string;
  status: ParticipantStatus;
  joinedAt: string | null;
  contribution: { troops: number; jets: number; tanks: number; turrets: number; totalForce: number };
  isCommander: boolean;
}

/** The spec's warfare operation, with its readiness. */
export interface OperationJson {
  id: number;
  allianceId: number;
  name: string;
  description: string;
  operationType: OperationType;
  targetId: number | null;
  targetName: string;
  targetAlliance: string;
  initiatorId: number | null;
  initiatorName: string;
  status: OperationStatus;
  scheduledFor: string;
  participants: OperationParticipantJson[];
  requirements: { minParticipants: number; maxParticipants: number; minTotalForce: number };
  rewards: { bonusPoints: number; militarySupport: number; experienceGain: number };
  createdAt: string;
  readiness: string;
  /** what the launch did: one line per attack or commitment */
  outcome: OperationOutcomeJson | null;
}

export interface OperationOutcomeJson {
  summary: string;
  lines: string[];
  /** battle report ids of the coordinated strike */
  battleReportIds: number[];
}

/** The spec's defense response. */
export interface DefenseResponseJson {
  responderId: number;
  responderName: string;
  responseType: DefenseResponseType;
  responseAt: string;
  commitment: { troops: number; jets: number; tanks: number };
  commitmentExpiresAt: string | null;
}

/** The spec's defense request. */
export interface DefenseRequestJson {
  id: number;
  allianceId: number;
  requesterId: number;
  requesterName: string;
  attackerId: number | null;
  attackerName: string;
  attackType: string;
  requestedAt: string;
  expiresAt: string;
  urgency: DefenseUrgency;
  supportNeeded: { military: boolean; intelligence: boolean; resources: boolean };
  message: string;
  responses: DefenseResponseJson[];
}
