import { z } from "zod";
import { PROPOSAL_MESSAGE_MAX_LENGTH, PROPOSAL_STATUSES, RELATION_STATUSES, RELATION_TYPES, type RelationTypeDefinition } from "../rules/diplomacy.js";
import { idParamSchema, idSchema, limitSchema } from "./common.js";
import { num } from "./rulesJson.js";
import { lineText, plainText } from "./text.js";

/*
 * Diplomacy over REST (spec: GET /diplomatic-relations/{countryId}; the proposal, answer and
 * cancel calls the sample-data screen needed).
 */

/** POST /diplomacy/proposals {toCountryId, relationType, message} */
export const proposalSchema = z.object({
  toCountryId: idSchema,
  relationType: z.enum(RELATION_TYPES, { error: "Unknown relation type" }),
  message: plainText(z.string({ error: "Message must be text" }), "Message")
    .trim()
    .max(PROPOSAL_MESSAGE_MAX_LENGTH, `Message must be at most ${PROPOSAL_MESSAGE_MAX_LENGTH} characters`)
    .default(""),
});
export type ProposalRequest = z.input<typeof proposalSchema>;

export const diplomacyIdParamsSchema = z.object({ id: idParamSchema });
export const diplomacyCountryParamsSchema = z.object({ countryId: idParamSchema });

/** GET /diplomacy/candidates?search=&limit= */
export const candidatesQuerySchema = z.object({
  search: lineText(z.string(), "Search").trim().max(60, "Search is too long").default(""),
  limit: limitSchema(20, 50),
});

const relationTypeSchema = z.enum(RELATION_TYPES);
const relationTypeDefinitionSchema = z.object({
  id: relationTypeSchema,
  name: z.string(),
  description: z.string(),
  benefits: z.array(z.string()),
  drawbacks: z.array(z.string()),
  dailyCost: num,
  duration: z.literal("permanent"),
  cooldownHours: num,
  requiresMutual: z.boolean(),
  conflictsWith: z.array(relationTypeSchema),
  effects: z.object({ defensePct: num, attackPct: num, spySuccessPct: num, researchPct: num, techTransferPct: num, marketFeeReductionPts: num, tradeVolumePct: num }).partial(),
}) satisfies z.ZodType<RelationTypeDefinition>;

/** The spec's active relation, seen from one party. */
export const activeRelationJsonSchema = z.object({
  id: num,
  relationType: relationTypeSchema,
  partnerId: num,
  partnerName: z.string(),
  partnerGovernment: z.string(),
  establishedAt: z.string(),
  canCancelAfter: z.string(),
  dailyCost: num,
  totalPaid: num,
  status: z.enum(RELATION_STATUSES),
  benefits: z.object({ combatBonus: num, marketFeeReduction: num, spyBonus: num, tradeBonus: num, techSharing: num }),
  lastActivity: z.string(),
  /** whether this side pays the daily cost (a one-sided agreement is paid by its holder) */
  pays: z.boolean(),
  /** whether this side may cancel it (a party to a mutual relation, or the holder) */
  canCancel: z.boolean(),
});
export type ActiveRelationJson = z.infer<typeof activeRelationJsonSchema>;

/** The spec's proposal. */
export const proposalJsonSchema = z.object({
  id: num,
  fromCountryId: num,
  fromCountryName: z.string(),
  toCountryId: num,
  toCountryName: z.string(),
  relationType: relationTypeSchema,
  proposedAt: z.string(),
  expiresAt: z.string(),
  message: z.string(),
  status: z.enum(PROPOSAL_STATUSES),
});
export type ProposalJson = z.infer<typeof proposalJsonSchema>;

/** data of GET /diplomatic-relations/{countryId} */
export const diplomaticRelationsJsonSchema = z.object({
  active: z.array(activeRelationJsonSchema),
  incoming: z.array(proposalJsonSchema),
  outgoing: z.array(proposalJsonSchema),
  /** dollars per day (spec: the sum of the active relations' daily costs the country pays) */
  dailyTotal: num,
  relationTypes: z.array(relationTypeDefinitionSchema).readonly(),
});
export type DiplomaticRelationsJson = z.infer<typeof diplomaticRelationsJsonSchema>;

/** The spec's partner candidate. */
export const partnerCandidateJsonSchema = z.object({
  id: num,
  name: z.string(),
  government: z.string(),
  networth: num,
  trustRating: num,
  allianceName: z.string(),
  /** sectors: bands of 10 ranks between the two countries */
  distance: num,
});
export type PartnerCandidateJson = z.infer<typeof partnerCandidateJsonSchema>;

/** What a proposal did: a pending proposal, or (mutual or one-sided) an established relation. */
export const proposalResultJsonSchema = z.object({
  proposal: proposalJsonSchema.nullable(),
  relation: activeRelationJsonSchema.nullable(),
});
export type ProposalResultJson = z.infer<typeof proposalResultJsonSchema>;
