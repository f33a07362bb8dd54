import { Router, type Request } from "express";
import {
  allianceIdParamsSchema,
  allianceListQuerySchema,
  allianceRankingsQuerySchema,
  allianceSettingsSchema,
  allianceStatusParamsSchema,
  allianceTargetSchema,
  bonusPurchaseSchema,
  createAllianceSchema,
  inviteSchema,
  joinAllianceSchema,
} from "@game/schema/api";
import { planOperationSchema, requestDefenseSchema, respondDefenseSchema, respondOperationSchema } from "@game/schema/messages";
import { z } from "zod";
import { idParamSchema } from "@game/schema/api";
import type { ServiceContext } from "../services/context.js";
import { countryOfUser } from "../services/countries.js";
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
import { authenticate, authorizeCountry, ownCountry, parse, route } from "./handler.js";

const operationParams = z.object({ id: idParamSchema });

/**
 * The alliance calls of the spec (GET /alliance/{id}, /alliance/status/{countryId},
 * /alliance/list, POST /alliance/create, /join, /leave; GET /rankings/alliances) and the ones
 * its sample-data screens needed (invitations, applications, kick, promote, demote, bonuses,
 * settings, and warfare for clients without the live room). Thin: parse, authenticate, call
 * the service, answer.
 */
export function allianceRoutes(ctx: ServiceContext): Router {
  const router = Router();

  /** The caller's alliance for warfare calls; 403 outside one. */
  const ownAllianceId = async (req: Request): Promise<{ userId: number; allianceId: number }> => {
    const { claims, country } = await ownCountry(ctx, req);
    if (country.alliance_id === null) throw forbidden("You are not in an alliance", "alliance/not_member");
    return { userId: claims.userId, allianceId: country.alliance_id };
  };

  router.get(
    "/alliance/list",
    route("Failed to get alliances list", async (req) => {
      await authenticate(ctx, req);
      return listAlliances(ctx, parse(allianceListQuerySchema, req.query));
    }),
  );

  router.get(
    "/alliance/invitations",
    route("Failed to get invitations", async (req) => {
      const claims = await authenticate(ctx, req);
      return { data: await listInvitations(ctx, claims.userId) };
    }),
  );

  router.get(
    "/alliance/applications",
    route("Failed to get applications", async (req) => {
      const claims = await authenticate(ctx, req);
      return { data: await listApplications(ctx, claims.userId) };
    }),
  );

  router.get(
    "/alliance/bonuses",
    route("Failed to get alliance bonuses", async (req) => {
      const claims = await authenticate(ctx, req);
      return { data: await allianceBonuses(ctx, claims.userId) };
    }),
  );

  router.get(
    "/alliance/operations",
    route("Failed to get operations", async (req) => {
      const { allianceId } = await ownAllianceId(req);
      return { data: await allianceOperations(ctx, allianceId) };
    }),
  );

  router.get(
    "/alliance/defense-requests",
    route("Failed to get defense requests", async (req) => {
      const { allianceId } = await ownAllianceId(req);
      return { data: await allianceDefenseRequests(ctx, allianceId, new Date()) };
    }),
  );

  router.get(
    "/alliance/status/:countryId",
    route("Failed to get alliance status", async (req) => {
      const { countryId } = parse(allianceStatusParamsSchema, req.params);
      const { country } = await authorizeCountry(ctx, req, countryId);
      return { data: await allianceStatus(ctx, country) };
    }),
  );

  router.get(
    "/alliance/:id",
    route("Failed to get alliance data", async (req) => {
      const claims = await authenticate(ctx, req);
      const { id } = parse(allianceIdParamsSchema, req.params);
      return getAlliance(ctx, claims.userId, id);
    }),
  );

  router.post(
    "/alliance/create",
    route("Alliance creation failed", async (req, res) => {
      const body = parse(createAllianceSchema, req.body);
      const claims = await authenticate(ctx, req);
      const { allianceId } = await createAlliance(ctx, claims.userId, body);
      res.status(201);
      return { allianceId, data: await allianceStatus(ctx, (await countryOfUser(ctx, claims.userId))!) };
    }),
  );

  router.post(
    "/alliance/leave",
    route("Alliance leave failed", async (req) => {
      const claims = await authenticate(ctx, req);
      return leaveAlliance(ctx, claims.userId);
    }),
  );

  router.post(
    "/alliance/join",
    route("Alliance join failed", async (req, res) => {
      const body = parse(joinAllianceSchema, req.body);
      const claims = await authenticate(ctx, req);
      res.status(201);
      return applyToAlliance(ctx, claims.userId, body);
    }),
  );

  router.post(
    "/alliance/invitations",
    route("Failed to send invitation", async (req, res) => {
      const body = parse(inviteSchema, req.body);
      const claims = await authenticate(ctx, req);
      res.status(201);
      return inviteToAlliance(ctx, claims.userId, body);
    }),
  );

  for (const answer of ["accept", "decline"] as const) {
    router.post(
      `/alliance/invitations/:id/${answer}`,
      route(`Failed to ${answer} invitation`, async (req) => {
        const { id } = parse(allianceIdParamsSchema, req.params);
        const claims = await authenticate(ctx, req);
        return answerInvitation(ctx, claims.userId, id, answer);
      }),
    );
  }

  router.post(
    "/alliance/invitations/:id/cancel",
    route("Failed to cancel invitation", async (req) => {
      const { id } = parse(allianceIdParamsSchema, req.params);
      const claims = await authenticate(ctx, req);
      return cancelInvitation(ctx, claims.userId, id);
    }),
  );

  for (const answer of ["accept", "reject"] as const) {
    router.post(
      `/alliance/applications/:id/${answer}`,
      route(`Failed to ${answer} application`, async (req) => {
        const { id } = parse(allianceIdParamsSchema, req.params);
        const claims = await authenticate(ctx, req);
        return answerApplication(ctx, claims.userId, id, answer);
      }),
    );
  }

  const memberActions = { kick: kickMember, promote: promoteMember, demote: demoteMember } as const;
  for (const [name, act] of Object.entries(memberActions)) {
    router.post(
      `/alliance/${name}`,
      route(`Failed to ${name} member`, async (req) => {
        const { countryId } = parse(allianceTargetSchema, req.body);
        const claims = await authenticate(ctx, req);
        return act(ctx, claims.userId, countryId);
      }),
    );
  }

  router.post(
    "/alliance/bonuses/purchase",
    route("Failed to purchase bonus", async (req) => {
      const { bonusId } = parse(bonusPurchaseSchema, req.body);
      const claims = await authenticate(ctx, req);
      return { data: await purchaseBonus(ctx, claims.userId, bonusId) };
    }),
  );

  router.post(
    "/alliance/settings",
    route("Failed to update alliance", async (req) => {
      const body = parse(allianceSettingsSchema, req.body);
      const claims = await authenticate(ctx, req);
      return updateAllianceSettings(ctx, claims.userId, body);
    }),
  );

  // Warfare, the same service functions as the alliance room's messages.
  router.post(
    "/alliance/operations",
    route("Failed to plan operation", async (req, res) => {
      const body = parse(planOperationSchema, req.body);
      const { userId, allianceId } = await ownAllianceId(req);
      res.status(201);
      return planOperation(ctx, userId, allianceId, body);
    }),
  );

  router.post(
    "/alliance/operations/:id/respond",
    route("Failed to respond to operation", async (req) => {
      const { id } = parse(operationParams, req.params);
      const body = parse(respondOperationSchema, { ...req.body, operationId: id });
      const { userId, allianceId } = await ownAllianceId(req);
      return respondOperation(ctx, userId, allianceId, body);
    }),
  );

  router.post(
    "/alliance/operations/:id/launch",
    route("Failed to launch operation", async (req) => {
      const { id: operationId } = parse(operationParams, req.params);
      const { userId, allianceId } = await ownAllianceId(req);
      return launchOperation(ctx, userId, allianceId, operationId);
    }),
  );

  router.post(
    "/alliance/operations/:id/cancel",
    route("Failed to cancel operation", async (req) => {
      const { id: operationId } = parse(operationParams, req.params);
      const { userId, allianceId } = await ownAllianceId(req);
      return cancelOperation(ctx, userId, allianceId, operationId);
    }),
  );

  router.post(
    "/alliance/defense-requests",
    route("Failed to request defense", async (req, res) => {
      const body = parse(requestDefenseSchema, req.body);
      const { userId, allianceId } = await ownAllianceId(req);
      res.status(201);
      return requestDefense(ctx, userId, allianceId, body);
    }),
  );

  router.post(
    "/alliance/defense-requests/:id/respond",
    route("Failed to respond to defense request", async (req) => {
      const { id } = parse(operationParams, req.params);
      const body = parse(respondDefenseSchema, { ...req.body, requestId: id });
      const { userId, allianceId } = await ownAllianceId(req);
      return respondDefense(ctx, userId, allianceId, body);
    }),
  );

  router.get(
    "/rankings/alliances",
    route("Failed to get alliance rankings", async (req) => {
      await authenticate(ctx, req);
      const { limit } = parse(allianceRankingsQuerySchema, req.query);
      return { data: await allianceRankings(ctx, limit) };
    }),
  );

  return router;
}
