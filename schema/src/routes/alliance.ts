import { z } from "zod";
import {
  allianceIdParamsSchema,
  allianceListQuerySchema,
  allianceRankingsQuerySchema,
  allianceSettingsSchema,
  allianceStatusParamsSchema,
  allianceTargetSchema,
  bonusPurchaseSchema,
  candidatesQuerySchema,
  createAllianceSchema,
  diplomacyCountryParamsSchema,
  diplomacyIdParamsSchema,
  idParamSchema,
  inviteSchema,
  joinAllianceSchema,
  proposalSchema,
  allianceBonusesJsonSchema,
  allianceJsonSchema,
  allianceMemberJsonSchema,
  allianceRankingRowJsonSchema,
  allianceStatusJsonSchema,
  applicationsJsonSchema,
  defenseRequestJsonSchema,
  diplomaticRelationsJsonSchema,
  invitationsJsonSchema,
  operationJsonSchema,
  operationOutcomeJsonSchema,
  partnerCandidateJsonSchema,
  proposalResultJsonSchema,
} from "../api/index.js";
import { planOperationSchema, requestDefenseSchema, respondDefenseSchema, respondOperationSchema } from "../messages/alliance.js";
import { num } from "../api/rulesJson.js";
import { dataAnswer, defineRoute, envelope, type RouteAuth } from "./route.js";

const tag = "Alliances";
const auth: RouteAuth = "user";
const operationParams = z.object({ id: idParamSchema });
const MEMBER_REFUSALS = ["alliance/not_member", "alliance/not_manager", "alliance/owner_only"];

/** What an invitation or an application answer names: the invitation or application, or the alliance joined. */
const invitationAnswer = envelope({ invitationId: num });
const applicationAnswer = envelope({ applicationId: num });
const operationAnswer = envelope({ operationId: num });
const defenseRequestAnswer = envelope({ requestId: num });

/** A POST on the caller's alliance with an id in the path and no body. */
const onId = <const Path extends string, R extends z.ZodType>(path: Path, summary: string, fallback: string, response: R, refusals: string[]) =>
  defineRoute({ method: "POST", path, tag, summary, fallback, auth, params: allianceIdParamsSchema, response, refusals });

/** A GET of the caller's alliance whose answer is `{ data }`. */
const allianceRead = <const Path extends string, D extends z.ZodType>(path: Path, summary: string, fallback: string, data: D, refusals: string[] = []) =>
  defineRoute({ method: "GET", path, tag, summary, fallback, auth, response: dataAnswer(data), refusals });

/** An action on a joint operation named in the path. */
const onOperation = <const Path extends string, B extends z.ZodType | undefined, R extends z.ZodType>(path: Path, summary: string, fallback: string, body: B, response: R, refusals: string[]) =>
  defineRoute({ method: "POST", path, tag, summary, fallback, auth, params: operationParams, body, response, refusals });

/** kick, promote, demote: a member by country id. */
const memberAction = (name: "kick" | "promote" | "demote", summary: string) =>
  defineRoute({
    method: "POST",
    path: `/alliance/${name}`,
    tag,
    summary,
    fallback: `Failed to ${name} member`,
    auth,
    body: allianceTargetSchema,
    response: name === "kick" ? envelope({ countryId: num }) : envelope({ countryId: num, role: z.enum(["owner", "manager", "member"]) }),
    refusals: [...MEMBER_REFUSALS, "alliance/kick_owner", "alliance/kick_self", "alliance/already_manager", "alliance/managers_full"],
  });

export const allianceRoutes = {
  allianceList: defineRoute({
    method: "GET",
    path: "/alliance/list",
    tag,
    summary: "One page of alliances, searched by name or tag",
    fallback: "Failed to get alliances list",
    auth,
    query: allianceListQuerySchema,
    response: envelope({ data: z.array(allianceJsonSchema), total: num, page: num, limit: num }),
  }),
  allianceInvitations: allianceRead("/alliance/invitations", "Invitations the caller received and, as a manager, sent", "Failed to get invitations", invitationsJsonSchema),
  allianceApplications: allianceRead("/alliance/applications", "Applications the caller sent and, as a manager, received", "Failed to get applications", applicationsJsonSchema),
  allianceBonuses: allianceRead("/alliance/bonuses", "The alliance's bonuses, bought and for sale", "Failed to get alliance bonuses", allianceBonusesJsonSchema, ["alliance/not_member"]),
  allianceOperations: allianceRead("/alliance/operations", "The alliance's joint operations", "Failed to get operations", z.array(operationJsonSchema), ["alliance/not_member"]),
  allianceDefenseRequests: allianceRead("/alliance/defense-requests", "The alliance's open defense requests", "Failed to get defense requests", z.array(defenseRequestJsonSchema), ["alliance/not_member"]),
  allianceStatus: defineRoute({
    method: "GET",
    path: "/alliance/status/:countryId",
    tag,
    summary: "The own country's alliance, membership and finances",
    fallback: "Failed to get alliance status",
    auth,
    params: allianceStatusParamsSchema,
    response: dataAnswer(allianceStatusJsonSchema),
    refusals: ["auth/forbidden"],
  }),
  alliance: defineRoute({
    method: "GET",
    path: "/alliance/:id",
    tag,
    summary: "An alliance and its members",
    fallback: "Failed to get alliance data",
    auth,
    params: allianceIdParamsSchema,
    response: envelope({ data: allianceJsonSchema, members: z.array(allianceMemberJsonSchema) }),
    refusals: ["alliance/not_found"],
  }),
  createAlliance: defineRoute({
    method: "POST",
    path: "/alliance/create",
    tag,
    summary: "Found an alliance",
    fallback: "Alliance creation failed",
    auth,
    body: createAllianceSchema,
    response: envelope({ allianceId: num, data: allianceStatusJsonSchema }),
    status: 201,
    refusals: ["alliance/already_member", "alliance/name_taken", "alliance/tag_taken"],
  }),
  leaveAlliance: defineRoute({
    method: "POST",
    path: "/alliance/leave",
    tag,
    summary: "Leave the alliance",
    fallback: "Alliance leave failed",
    auth,
    response: envelope({ allianceId: num, disbanded: z.boolean() }),
    refusals: ["alliance/not_member"],
  }),
  joinAlliance: defineRoute({
    method: "POST",
    path: "/alliance/join",
    tag,
    summary: "Apply to an alliance",
    fallback: "Alliance join failed",
    auth,
    body: joinAllianceSchema,
    response: envelope({ applicationId: num, meetRequirements: z.boolean() }),
    status: 201,
    refusals: ["alliance/not_found", "alliance/already_member", "alliance/already_applied", "alliance/closed_applications", "alliance/full"],
  }),
  invite: defineRoute({
    method: "POST",
    path: "/alliance/invitations",
    tag,
    summary: "Invite a country to the alliance",
    fallback: "Failed to send invitation",
    auth,
    body: inviteSchema,
    response: invitationAnswer,
    status: 201,
    refusals: [...MEMBER_REFUSALS, "alliance/unknown_country", "alliance/target_in_alliance", "alliance/already_invited", "alliance/full"],
  }),
  acceptInvitation: onId("/alliance/invitations/:id/accept", "Accept an invitation", "Failed to accept invitation", envelope({ allianceId: num }), [
    "alliance/invitation_not_found",
    "alliance/invitation_closed",
    "alliance/already_member",
    "alliance/full",
  ]),
  declineInvitation: onId("/alliance/invitations/:id/decline", "Decline an invitation", "Failed to decline invitation", envelope({ allianceId: num }), ["alliance/invitation_not_found", "alliance/invitation_closed"]),
  cancelInvitation: onId("/alliance/invitations/:id/cancel", "Withdraw a sent invitation", "Failed to cancel invitation", invitationAnswer, ["alliance/invitation_not_found", "alliance/invitation_closed", "alliance/not_manager"]),
  acceptApplication: onId("/alliance/applications/:id/accept", "Accept an application", "Failed to accept application", applicationAnswer, [
    "alliance/application_not_found",
    "alliance/application_closed",
    "alliance/not_manager",
    "alliance/full",
  ]),
  rejectApplication: onId("/alliance/applications/:id/reject", "Reject an application", "Failed to reject application", applicationAnswer, ["alliance/application_not_found", "alliance/application_closed", "alliance/not_manager"]),
  kickMember: memberAction("kick", "Remove a member from the alliance"),
  promoteMember: memberAction("promote", "Make a member a manager"),
  demoteMember: memberAction("demote", "Make a manager a member"),
  purchaseBonus: defineRoute({
    method: "POST",
    path: "/alliance/bonuses/purchase",
    tag,
    summary: "Buy an alliance bonus from the treasury",
    fallback: "Failed to purchase bonus",
    auth,
    body: bonusPurchaseSchema,
    response: envelope({ data: z.object({ bonusId: z.string(), level: num, cost: num, expiresAt: z.string().nullable(), points: num }) }),
    refusals: [...MEMBER_REFUSALS, "alliance/bonus_cooldown", "alliance/max_level"],
  }),
  allianceSettings: defineRoute({
    method: "POST",
    path: "/alliance/settings",
    tag,
    summary: "Change the alliance's settings",
    fallback: "Failed to update alliance",
    auth,
    body: allianceSettingsSchema,
    response: envelope({ allianceId: num }),
    refusals: MEMBER_REFUSALS,
  }),
  planOperation: defineRoute({
    method: "POST",
    path: "/alliance/operations",
    tag,
    summary: "Plan a joint operation",
    fallback: "Failed to plan operation",
    auth,
    body: planOperationSchema,
    response: operationAnswer,
    status: 201,
    refusals: MEMBER_REFUSALS,
  }),
  respondOperation: onOperation(
    "/alliance/operations/:id/respond",
    "Join or decline a joint operation",
    "Failed to respond to operation",
    respondOperationSchema.omit({ operationId: true }),
    envelope({ operationId: num, readiness: z.string() }),
    ["alliance/not_member"],
  ),
  launchOperation: onOperation("/alliance/operations/:id/launch", "Launch a joint operation", "Failed to launch operation", undefined, envelope({ operationId: num, outcome: operationOutcomeJsonSchema }), MEMBER_REFUSALS),
  cancelOperation: onOperation("/alliance/operations/:id/cancel", "Cancel a joint operation", "Failed to cancel operation", undefined, operationAnswer, MEMBER_REFUSALS),
  requestDefense: defineRoute({
    method: "POST",
    path: "/alliance/defense-requests",
    tag,
    summary: "Ask the alliance for defense",
    fallback: "Failed to request defense",
    auth,
    body: requestDefenseSchema,
    response: defenseRequestAnswer,
    status: 201,
    refusals: ["alliance/not_member"],
  }),
  respondDefense: defineRoute({
    method: "POST",
    path: "/alliance/defense-requests/:id/respond",
    tag,
    summary: "Answer a defense request",
    fallback: "Failed to respond to defense request",
    auth,
    params: operationParams,
    body: respondDefenseSchema.omit({ requestId: true }),
    response: defenseRequestAnswer,
    refusals: ["alliance/not_member"],
  }),
  allianceRankings: defineRoute({
    method: "GET",
    path: "/rankings/alliances",
    tag,
    summary: "Alliances by score",
    fallback: "Failed to get alliance rankings",
    auth,
    query: allianceRankingsQuerySchema,
    response: dataAnswer(z.array(allianceRankingRowJsonSchema)),
  }),
};

const diplomacyTag = "Diplomacy";
const onProposal = (answer: "accept" | "reject") =>
  defineRoute({
    method: "POST",
    path: `/diplomacy/proposals/:id/${answer}`,
    tag: diplomacyTag,
    summary: answer === "accept" ? "Accept a treaty proposal" : "Reject a treaty proposal",
    fallback: `Failed to ${answer} proposal`,
    auth,
    params: diplomacyIdParamsSchema,
    response: dataAnswer(proposalResultJsonSchema),
    refusals: ["diplomacy/proposal_not_found", "diplomacy/not_pending", "diplomacy/not_party", "diplomacy/conflict"],
  });

export const diplomacyRoutes = {
  diplomaticRelations: defineRoute({
    method: "GET",
    path: "/diplomatic-relations/:countryId",
    tag: diplomacyTag,
    summary: "The own country's treaties and proposals",
    fallback: "Failed to get diplomatic relations",
    auth,
    params: diplomacyCountryParamsSchema,
    response: dataAnswer(diplomaticRelationsJsonSchema),
    refusals: ["auth/forbidden"],
  }),
  partnerCandidates: defineRoute({
    method: "GET",
    path: "/diplomacy/candidates",
    tag: diplomacyTag,
    summary: "Countries or alliances a treaty could be proposed to",
    fallback: "Failed to get partner candidates",
    auth,
    query: candidatesQuerySchema,
    response: dataAnswer(z.array(partnerCandidateJsonSchema)),
  }),
  propose: defineRoute({
    method: "POST",
    path: "/diplomacy/proposals",
    tag: diplomacyTag,
    summary: "Propose a treaty",
    fallback: "Failed to send proposal",
    auth,
    body: proposalSchema,
    response: dataAnswer(proposalResultJsonSchema),
    status: 201,
    refusals: ["diplomacy/self", "diplomacy/exists", "diplomacy/pending", "diplomacy/conflict", "diplomacy/not_holder"],
  }),
  acceptProposal: onProposal("accept"),
  rejectProposal: onProposal("reject"),
  withdrawProposal: defineRoute({
    method: "POST",
    path: "/diplomacy/proposals/:id/cancel",
    tag: diplomacyTag,
    summary: "Withdraw an own proposal",
    fallback: "Failed to withdraw proposal",
    auth,
    params: diplomacyIdParamsSchema,
    response: envelope({ proposalId: num }),
    refusals: ["diplomacy/proposal_not_found", "diplomacy/not_pending", "diplomacy/not_party"],
  }),
  cancelRelation: defineRoute({
    method: "POST",
    path: "/diplomacy/relations/:id/cancel",
    tag: diplomacyTag,
    summary: "Cancel a treaty",
    fallback: "Failed to cancel relation",
    auth,
    params: diplomacyIdParamsSchema,
    response: envelope({ relationId: num }),
    refusals: ["diplomacy/relation_not_found", "diplomacy/not_active", "diplomacy/not_party", "diplomacy/cancel_locked"],
  }),
};
