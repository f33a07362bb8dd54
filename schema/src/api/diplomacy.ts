import { z } from "zod";
import {
  PROPOSAL_MESSAGE_MAX_LENGTH,
  RELATION_TYPES,
  type ProposalStatus,
  type RelationStatus,
  type RelationType,
  type RelationTypeDefinition,
} from "../rules/diplomacy.js";
import { idParamSchema, idSchema, limitSchema } from "./common.js";
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

/** The spec's active relation, seen from one party. */
export interface ActiveRelationJson {
  id: number;
  relationType: RelationType;
  partnerId: number;
  partnerName: string;
  partnerGovernment: string;
  establishedAt: string;
  canCancelAfter: string;
  dailyCost: number;
  totalPaid: number;
  status: RelationStatus;
  benefits: { combatBonus: number; marketFeeReduction: number; spyBonus: number; tradeBonus: number; techSharing: number };
  lastActivity: string;
  /** whether this side pays the daily cost (a one-sided agreement is paid by its holder) */
  pays: boolean;
  /** whether this side may cancel it (a party to a mutual relation, or the holder) */
  canCancel: boolean;
}

/** The spec's proposal. */
export interface ProposalJson {
  id: number;
  fromCountryId: number;
  fromCountryName: string;
  toCountryId: number;
  toCountryName: string;
  relationType: RelationType;
  proposedAt: string;
  expiresAt: string;
  message: string;
  status: ProposalStatus;
}

/** data of GET /diplomatic-relations/{countryId} */
export interface DiplomaticRelationsJson {
  active: ActiveRelationJson[];
  incoming: ProposalJson[];
  outgoing: ProposalJson[];
  /** dollars per day (spec: the sum of the active relations' daily costs the country pays) */
  dailyTotal: number;
  relationTypes: readonly RelationTypeDefinition[];
}

/** The spec's partner candidate. */
export interface PartnerCandidateJson {
  id: number;
  name: string;
  government: string;
  networth: number;
  trustRating: number;
  allianceName: string;
  /** sectors: bands of 10 ranks between the two countries */
  distance: number;
}

/** What a proposal did: a pending proposal, or (mutual or one-sided) an established relation. */
export interface ProposalResultJson {
  proposal: ProposalJson | null;
  relation: ActiveRelationJson | null;
}
