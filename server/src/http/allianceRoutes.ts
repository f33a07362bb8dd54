import { routes } from "@game/schema/routes";
import type { ServiceContext } from "../services/context.js";
import { forbidden } from "../errors.js";
import {
  allianceBonuses,
  allianceRankings,
  allianceStatus,
  answerApplication,
  answerInvitation,
  applyToAlliance,
  cancelInvitation,
  createAlliance,
  demoteMember,
  getAlliance,
  inviteToAlliance,
  kickMember,
  leaveAlliance,
  listAlliances,
  listApplications,
  listInvitations,
  promoteMember,
  purchaseBonus,
  updateAllianceSettings,
} from "../services/alliances.js";
import { allianceDefenseRequests, allianceOperations, cancelOperation, launchOperation, planOperation, requestDefense, respondDefense, respondOperation } from "../services/allianceWarfare.js";
import { authorizeCountryId, ownCountry, type ApiCall } from "./handler.js";
import type { ApiPipeline } from "./pipeline.js";

/**
 * The alliance calls of the spec (GET /alliance/{id}, /alliance/status/{countryId},
 * /alliance/list, POST /alliance/create, /join, /leave; GET /rankings/alliances) and the ones
 * its sample-data screens needed (invitations, applications, kick, promote, demote, bonuses,
 * settings, and warfare for clients without the live room). Thin: parse, authenticate, call
 * the service, answer.
 */
export function allianceRoutes(ctx: ServiceContext, api: ApiPipeline): void {
  /** The caller's alliance for warfare calls; 403 outside one. */
  const ownAllianceId = async (call: Pick<ApiCall, "headers" | "claims">): Promise<{ userId: number; allianceId: number }> => {
    const { claims, country } = await ownCountry(ctx, call);
    if (country.alliance_id === null) throw forbidden("You are not in an alliance", "alliance/not_member");
    return { userId: claims.userId, allianceId: country.alliance_id };
  };

  api.handle(routes.allianceList, async (call) => listAlliances(ctx, call.query));
  api.handle(routes.allianceInvitations, async (call) => ({ data: await listInvitations(ctx, call.claims!.userId) }));
  api.handle(routes.allianceApplications, async (call) => ({ data: await listApplications(ctx, call.claims!) }));
  api.handle(routes.allianceBonuses, async (call) => ({ data: await allianceBonuses(ctx, call.claims!.userId) }));

  api.handle(routes.allianceOperations, async (call) => {
    const { allianceId } = await ownAllianceId(call);
    return { data: await allianceOperations(ctx, allianceId) };
  });

  api.handle(routes.allianceDefenseRequests, async (call) => {
    const { allianceId } = await ownAllianceId(call);
    return { data: await allianceDefenseRequests(ctx, allianceId, new Date()) };
  });

  api.handle(routes.allianceStatus, async (call) => {
    const claims = await authorizeCountryId(ctx, call, call.params.countryId);
    return { data: await allianceStatus(ctx, claims, call.params.countryId) };
  });

  api.handle(routes.alliance, async (call) => getAlliance(ctx, call.claims!.userId, call.params.id));

  api.handle(routes.createAlliance, async (call) => {
    const claims = call.claims!;
    const { allianceId } = await createAlliance(ctx, claims.userId, call.body);
    return { allianceId, data: await allianceStatus(ctx, claims, claims.countryId!) };
  });

  api.handle(routes.leaveAlliance, async (call) => leaveAlliance(ctx, call.claims!.userId));
  api.handle(routes.joinAlliance, async (call) => applyToAlliance(ctx, call.claims!.userId, call.body));
  api.handle(routes.invite, async (call) => inviteToAlliance(ctx, call.claims!.userId, call.body));

  for (const [entry, answer] of [
    [routes.acceptInvitation, "accept"],
    [routes.declineInvitation, "decline"],
  ] as const) {
    api.handle(entry, async (call) => answerInvitation(ctx, call.claims!.userId, call.params.id, answer));
  }
  api.handle(routes.cancelInvitation, async (call) => cancelInvitation(ctx, call.claims!.userId, call.params.id));
  for (const [entry, answer] of [
    [routes.acceptApplication, "accept"],
    [routes.rejectApplication, "reject"],
  ] as const) {
    api.handle(entry, async (call) => answerApplication(ctx, call.claims!.userId, call.params.id, answer));
  }

  for (const [entry, act] of [
    [routes.kickMember, kickMember],
    [routes.promoteMember, promoteMember],
    [routes.demoteMember, demoteMember],
  ] as const) {
    api.handle(entry, async (call) => act(ctx, call.claims!.userId, call.body.countryId));
  }

  api.handle(routes.purchaseBonus, async (call) => ({ data: await purchaseBonus(ctx, call.claims!.userId, call.body.bonusId) }));
  api.handle(routes.allianceSettings, async (call) => updateAllianceSettings(ctx, call.claims!.userId, call.body));

  // Warfare, the same service functions as the alliance room's messages.
  api.handle(routes.planOperation, async (call) => {
    const { userId, allianceId } = await ownAllianceId(call);
    return planOperation(ctx, userId, allianceId, call.body);
  });

  api.handle(routes.respondOperation, async (call) => {
    const { userId, allianceId } = await ownAllianceId(call);
    return respondOperation(ctx, userId, allianceId, { ...call.body, operationId: call.params.id });
  });

  api.handle(routes.launchOperation, async (call) => {
    const { userId, allianceId } = await ownAllianceId(call);
    return launchOperation(ctx, userId, allianceId, call.params.id);
  });

  api.handle(routes.cancelOperation, async (call) => {
    const { userId, allianceId } = await ownAllianceId(call);
    return cancelOperation(ctx, userId, allianceId, call.params.id);
  });

  api.handle(routes.requestDefense, async (call) => {
    const { userId, allianceId } = await ownAllianceId(call);
    return requestDefense(ctx, userId, allianceId, call.body);
  });

  api.handle(routes.respondDefense, async (call) => {
    const { userId, allianceId } = await ownAllianceId(call);
    return respondDefense(ctx, userId, allianceId, { ...call.body, requestId: call.params.id });
  });

  api.handle(routes.allianceRankings, async (call) => ({ data: await allianceRankings(ctx, call.query.limit) }));
}
