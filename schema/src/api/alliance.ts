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
  ALLIANCE_BONUS_CATEGORIES,
  DEFENSE_RESPONSE_TYPES,
  DEFENSE_URGENCIES,
  OPERATION_STATUSES,
  OPERATION_TYPES,
  PARTICIPANT_STATUSES,
  type AllianceEffects,
  type AlliancePermissions,
  type AllianceRequirements,
} from "../rules/alliance.js";
import type { AllianceRole } from "../rules/chat.js";
import { num } from "./rulesJson.js";
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
  targetCountryName: nameText(z.string({ error: "Target country name is required" }), "Target country name")
    .min(1, "Target country name is required")
    .max(60, "No country has so long a name"),
  message: messageSchema,
});
export type InviteRequest = z.input<typeof inviteSchema>;

/** POST /alliance/join {allianceId, message}: an application. */
export const joinAllianceSchema = z.object({ allianceId: idSchema, message: messageSchema });
export type JoinAllianceRequest = z.input<typeof joinAllianceSchema>;

/** POST /alliance/kick, /alliance/promote, /alliance/demote {countryId} */
export const allianceTargetSchema = z.object({ countryId: idSchema });

/** POST /alliance/bonuses/purchase {bonusId} */
export const bonusPurchaseSchema = z.object({
  bonusId: lineText(z.string({ error: "Unknown bonus" }), "Bonus")
    .min(1, "Unknown bonus")
    .max(40, "Unknown bonus"),
});

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

const allianceRoleSchema = z.enum(["owner", "manager", "member"]) satisfies z.ZodType<AllianceRole>;
const allianceRequirementsJsonSchema = z.object({ minNetworth: num, minLand: num, acceptApplications: z.boolean() }) satisfies z.ZodType<AllianceRequirements>;
const alliancePermissionsSchema = z.object({
  canInvite: z.boolean(),
  canKick: z.boolean(),
  canManageBonuses: z.boolean(),
  canViewFinances: z.boolean(),
  canManageApplications: z.boolean(),
  canCancelInvitations: z.boolean(),
  canPromote: z.boolean(),
  canCoordinateWarfare: z.boolean(),
  canEditSettings: z.boolean(),
  canUsePrivateChannels: z.boolean(),
}) satisfies z.ZodType<AlliancePermissions>;
const allianceEffectsSchema = z.object({ attackPct: num, defensePct: num, marketFeeReductionPct: num, researchPct: num, spySuccessPct: num, incomePct: num }) satisfies z.ZodType<AllianceEffects>;

/** The spec's alliance, as GET /alliance/{id} and the list answer it. */
export const allianceJsonSchema = z.object({
  id: num,
  tag: z.string(),
  name: z.string(),
  description: z.string(),
  flag: allianceFlagSchema,
  /** by total networth, 1 first */
  rank: num,
  memberCount: num,
  maxMembers: num,
  totalNetworth: num,
  averageNetworth: num,
  bonusPoints: num,
  stats: z.object({
    totalLand: num,
    /** members' troops, jets, tanks and turrets together: members only, null for others */
    totalMilitary: num.nullable(),
    /** battles won by the members (as the season counts wars) */
    warsWon: num,
    warsLost: num,
    /** war declarations in force by or against members */
    activeWars: num,
  }),
  requirements: allianceRequirementsJsonSchema,
  /** ISO */
  createdAt: z.string(),
});
export type AllianceJson = z.infer<typeof allianceJsonSchema>;

/** The spec's alliance member. */
export const allianceMemberJsonSchema = z.object({
  /** the country id as a string */
  id: z.string(),
  countryId: num,
  countryName: z.string(),
  playerName: z.string(),
  governmentType: z.string(),
  role: allianceRoleSchema,
  networth: num,
  landAcres: num,
  /** ISO */
  joinedAt: z.string(),
  /** ISO */
  lastActive: z.string(),
  isOnline: z.boolean(),
  contributions: z.object({ bonusPoints: num, militarySupport: num, resourcesShared: num }),
  permissions: z.object({ canInvite: z.boolean(), canKick: z.boolean(), canManageBonuses: z.boolean(), canViewFinances: z.boolean() }),
});
export type AllianceMemberJson = z.infer<typeof allianceMemberJsonSchema>;

/** Finances (owner and managers: canViewFinances): where the points came from and went. */
export const allianceFinancesJsonSchema = z.object({
  pointsEarned: num,
  pointsSpent: num,
  bonusPoints: num,
  /** the latest ledger entries, newest first */
  recent: z.array(z.object({ source: z.string(), countryName: z.string(), points: num, at: z.string() })),
});
export type AllianceFinancesJson = z.infer<typeof allianceFinancesJsonSchema>;

/** data of GET /alliance/status/{countryId}: the country's alliance, role, rights and members. */
export const allianceStatusJsonSchema = z.object({
  alliance: allianceJsonSchema.nullable(),
  role: allianceRoleSchema.nullable(),
  permissions: alliancePermissionsSchema,
  members: z.array(allianceMemberJsonSchema),
  finances: allianceFinancesJsonSchema.nullable(),
  /** the alliance's bonus effects in force now */
  effects: allianceEffectsSchema,
});
export type AllianceStatusJson = z.infer<typeof allianceStatusJsonSchema>;

/** The spec's invitation; the own-side view adds allianceName. */
export const invitationJsonSchema = z.object({
  id: num,
  allianceId: num,
  allianceName: z.string(),
  allianceTag: z.string(),
  targetCountryId: num,
  targetCountryName: z.string(),
  invitedBy: z.string(),
  invitedById: num.nullable(),
  sentAt: z.string(),
  expiresAt: z.string(),
  message: z.string(),
  status: z.string(),
});
export type InvitationJson = z.infer<typeof invitationJsonSchema>;

/** data of GET /alliance/invitations: received (pending, for the caller) and, for leaders, sent. */
export const invitationsJsonSchema = z.object({
  received: z.array(invitationJsonSchema),
  sent: z.array(invitationJsonSchema),
});
export type InvitationsJson = z.infer<typeof invitationsJsonSchema>;

/** The spec's application. */
export const applicationJsonSchema = z.object({
  id: num,
  allianceId: num,
  allianceName: z.string(),
  applicantId: num,
  applicantName: z.string(),
  applicantNetworth: num,
  applicantLand: num,
  applicantGovernment: z.string(),
  appliedAt: z.string(),
  expiresAt: z.string(),
  message: z.string(),
  status: z.string(),
  meetRequirements: z.boolean(),
});
export type ApplicationJson = z.infer<typeof applicationJsonSchema>;

/** data of GET /alliance/applications: the alliance's pending ones (leaders) and the caller's own. */
export const applicationsJsonSchema = z.object({
  received: z.array(applicationJsonSchema),
  mine: z.array(applicationJsonSchema),
});
export type ApplicationsJson = z.infer<typeof applicationsJsonSchema>;

/** A bonus of the catalogue with the alliance's level, as the Bonuses tab lists it. */
export const allianceBonusJsonSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  category: z.enum(ALLIANCE_BONUS_CATEGORIES),
  baseCost: num,
  maxLevel: num,
  currentLevel: num,
  /** percent */
  costIncrease: num,
  /** cost of the next purchase; null at the maximum level */
  nextCost: num.nullable(),
  effectsPerLevel: allianceEffectsSchema.partial(),
  isPermanent: z.boolean(),
  /** hours */
  duration: num,
  /** hours */
  cooldown: num,
  /** ISO, a running temporary bonus's end */
  expiresAt: z.string().nullable(),
  /** ISO, when a temporary bonus may be bought again */
  cooldownUntil: z.string().nullable(),
});
export type AllianceBonusJson = z.infer<typeof allianceBonusJsonSchema>;

/** The spec's purchased bonus. */
export const purchasedBonusJsonSchema = z.object({
  id: num,
  bonusId: z.string(),
  level: num,
  purchasedAt: z.string(),
  expiresAt: z.string().nullable(),
  purchasedBy: z.string(),
  isActive: z.boolean(),
});
export type PurchasedBonusJson = z.infer<typeof purchasedBonusJsonSchema>;

/** data of GET /alliance/bonuses */
export const allianceBonusesJsonSchema = z.object({
  points: num,
  bonuses: z.array(allianceBonusJsonSchema),
  purchases: z.array(purchasedBonusJsonSchema),
  earning: z.array(z.object({ id: z.string(), label: z.string(), points: z.string() })).readonly(),
  effects: allianceEffectsSchema,
});
export type AllianceBonusesJson = z.infer<typeof allianceBonusesJsonSchema>;

/** The spec's alliance ranking row (GET /rankings/alliances). */
export const allianceRankingRowJsonSchema = z.object({
  rank: num,
  allianceId: num,
  allianceName: z.string(),
  allianceTag: z.string(),
  memberCount: num,
  warsWon: num,
  totalNetworth: num,
  averageNetworth: num,
  bonusPoints: num,
  trend: z.enum(["up", "down", "same"]),
  change: num,
});
export type AllianceRankingRowJson = z.infer<typeof allianceRankingRowJsonSchema>;

/** The spec's operation participant. */
export const operationParticipantJsonSchema = z.object({
  countryId: num,
  countryName: z.string(),
  role: z.string(),
  status: z.enum(PARTICIPANT_STATUSES),
  joinedAt: z.string().nullable(),
  contribution: z.object({ troops: num, jets: num, tanks: num, turrets: num, totalForce: num }),
  isCommander: z.boolean(),
});
export type OperationParticipantJson = z.infer<typeof operationParticipantJsonSchema>;

export const operationOutcomeJsonSchema = z.object({
  summary: z.string(),
  lines: z.array(z.string()),
  /** battle report ids of the coordinated strike */
  battleReportIds: z.array(num),
});
export type OperationOutcomeJson = z.infer<typeof operationOutcomeJsonSchema>;

/** The spec's warfare operation, with its readiness. */
export const operationJsonSchema = z.object({
  id: num,
  allianceId: num,
  name: z.string(),
  description: z.string(),
  operationType: z.enum(OPERATION_TYPES),
  targetId: num.nullable(),
  targetName: z.string(),
  targetAlliance: z.string(),
  initiatorId: num.nullable(),
  initiatorName: z.string(),
  status: z.enum(OPERATION_STATUSES),
  scheduledFor: z.string(),
  participants: z.array(operationParticipantJsonSchema),
  requirements: z.object({ minParticipants: num, maxParticipants: num, minTotalForce: num }),
  rewards: z.object({ bonusPoints: num, militarySupport: num, experienceGain: num }),
  createdAt: z.string(),
  readiness: z.string(),
  /** what the launch did: one line per attack or commitment */
  outcome: operationOutcomeJsonSchema.nullable(),
});
export type OperationJson = z.infer<typeof operationJsonSchema>;

/** The spec's defense response. */
export const defenseResponseJsonSchema = z.object({
  responderId: num,
  responderName: z.string(),
  responseType: z.enum(DEFENSE_RESPONSE_TYPES),
  responseAt: z.string(),
  commitment: z.object({ troops: num, jets: num, tanks: num }),
  commitmentExpiresAt: z.string().nullable(),
});
export type DefenseResponseJson = z.infer<typeof defenseResponseJsonSchema>;

/** The spec's defense request. */
export const defenseRequestJsonSchema = z.object({
  id: num,
  allianceId: num,
  requesterId: num,
  requesterName: z.string(),
  attackerId: num.nullable(),
  attackerName: z.string(),
  attackType: z.string(),
  requestedAt: z.string(),
  expiresAt: z.string(),
  urgency: z.enum(DEFENSE_URGENCIES),
  supportNeeded: z.object({ military: z.boolean(), intelligence: z.boolean(), resources: z.boolean() }),
  message: z.string(),
  responses: z.array(defenseResponseJsonSchema),
});
export type DefenseRequestJson = z.infer<typeof defenseRequestJsonSchema>;
