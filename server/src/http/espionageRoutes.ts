import { Router } from "express";
import { z } from "zod";
import {
  idParamSchema,
  missionRequestSchema,
  privacyRequestSchema,
  reportsQuerySchema,
  spyExecuteRequestSchema,
  spyTrainRequestSchema,
  statusQuerySchema,
  type IntelligenceReportsResponse,
  type KnownIntelligenceResponse,
} from "@game/schema/api";
import { executeSpyOperation, intelligenceStatus, knownIntelligenceOf, launchMission, reportFor, reportsOf, setPrivacy, shareReport, sharedReportsOf, trainSpies } from "../services/espionage.js";
import type { ServiceContext } from "../services/context.js";
import { authorizeCountry, ownCountry, parse, route } from "./handler.js";
import type { DirectRoutes } from "./directRoutes.js";

const countryParams = z.object({ countryId: idParamSchema });
const idParams = z.object({ id: idParamSchema });

/**
 * Espionage: the spec's POST /spy/execute, and the calls the Intelligence Center and Reports
 * screens need in the same style. Every call acts for the caller's own country (403 otherwise).
 */
export function espionageRoutes(ctx: ServiceContext, direct: DirectRoutes): Router {
  const router = Router();

  // On the direct path, with the other actions players repeat.
  direct.post(router, "/spy/execute", "Operation failed", async (call) => {
    const body = parse(spyExecuteRequestSchema, call.body);
    const { claims, country } = await ownCountry(ctx, call);
    return executeSpyOperation(ctx, claims.userId, country.id, body);
  });

  router.post(
    "/intelligence/missions",
    route("Operation failed", async (req) => {
      const body = parse(missionRequestSchema, req.body);
      const { claims, country } = await ownCountry(ctx, req);
      return launchMission(ctx, claims.userId, country.id, body);
    }),
  );

  router.get(
    "/intelligence/status/:countryId",
    route("Failed to get intelligence status", async (req) => {
      const { countryId } = parse(countryParams, req.params);
      const { targetCountryId } = parse(statusQuerySchema, req.query);
      const { country } = await authorizeCountry(ctx, req, countryId);
      return { status: await intelligenceStatus(ctx, country, targetCountryId) };
    }),
  );

  router.get(
    "/intelligence/reports",
    route("Failed to get intelligence reports", async (req) => {
      const q = parse(reportsQuerySchema, req.query);
      const { country } = await ownCountry(ctx, req);
      return (await reportsOf(ctx, country.id, q)) satisfies IntelligenceReportsResponse;
    }),
  );

  router.get(
    "/intelligence/reports/:id",
    route("Failed to get intelligence report", async (req) => {
      const { id } = parse(idParams, req.params);
      const { country } = await ownCountry(ctx, req);
      return { report: await reportFor(ctx, country, id) };
    }),
  );

  router.post(
    "/intelligence/reports/:id/share",
    route("Failed to share intelligence", async (req) => {
      const { id } = parse(idParams, req.params);
      const { claims, country } = await ownCountry(ctx, req);
      return shareReport(ctx, claims.userId, country.id, id);
    }),
  );

  router.get(
    "/intelligence/known",
    route("Failed to get intelligence", async (req) => {
      const { country } = await ownCountry(ctx, req);
      return { known: await knownIntelligenceOf(ctx, country, new Date()) } satisfies KnownIntelligenceResponse;
    }),
  );

  router.get(
    "/intelligence/shared",
    route("Failed to get shared intelligence", async (req) => {
      const { country } = await ownCountry(ctx, req);
      return sharedReportsOf(ctx, country);
    }),
  );

  router.post(
    "/intelligence/privacy",
    route("Failed to update privacy settings", async (req) => {
      const body = parse(privacyRequestSchema, req.body);
      const { claims } = await authorizeCountry(ctx, req, body.countryId);
      return setPrivacy(ctx, claims.userId, body.countryId, body.allowSpyOperations);
    }),
  );

  router.post(
    "/spy/train",
    route("Failed to train spies", async (req) => {
      const body = parse(spyTrainRequestSchema, req.body);
      const { claims } = await authorizeCountry(ctx, req, body.countryId);
      return trainSpies(ctx, claims.userId, body.countryId, body.quantity);
    }),
  );

  return router;
}
