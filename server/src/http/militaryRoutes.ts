import { Router } from "express";
import { z } from "zod";
import {
  alliesQuerySchema,
  attackLaunchRequestSchema,
  attackPreviewRequestSchema,
  battleReportParamsSchema,
  battleReportQuerySchema,
  brigadeActionRequestSchema,
  buyMissilesRequestSchema,
  cancelStrikeRequestSchema,
  declareWarRequestSchema,
  defenseRequestSchema,
  deploymentRequestSchema,
  endWarRequestSchema,
  gdiRequestSchema,
  militaryCountryParamsSchema,
  validateTurnsRequestSchema,
  type AttackPreviewResponse,
  type BattleReplayResponse,
  type BattleReportResponse,
  type BattleReportsResponse,
  type BrigadesResponse,
  type MilitaryStatusResponse,
  type StrikesResponse,
  type WarDeclarationsResponse,
} from "@game/schema/api";
import {
  allianceSupportOffers,
  battleReplayFor,
  battleReportFor,
  battleReportsOf,
  cancelStrike,
  launchAttack,
  launchResponse,
  previewAttackFor,
  strikesOf,
  validateAttackTurns,
} from "../services/combat.js";
import { brigadeAction, brigadesOf, buyMissiles, changeGdi, militaryStatusOf, setDefense, setDeployment } from "../services/military.js";
import { declareWar, endWar, warsOf } from "../services/war.js";
import type { ServiceContext } from "../services/context.js";
import { authorizeCountry, ownCountry, parse, route } from "./handler.js";
import type { DirectRoutes } from "./directRoutes.js";

const countryParams = militaryCountryParamsSchema;

/**
 * Military, attack, battle report and war routes: parse, authorize, call the service, answer.
 * Every route that names a country answers 403 unless it is the caller's own.
 */
export function militaryRoutes(ctx: ServiceContext, direct: DirectRoutes): Router {
  const router = Router();

  /** A POST naming the caller's country in body.countryId. */
  const countryPost = <S extends z.ZodType<{ countryId: number }>>(path: string, fallback: string, schema: S, act: (userId: number, body: z.output<S>) => Promise<object>) =>
    router.post(
      path,
      route(fallback, async (req) => {
        const body = parse(schema, req.body);
        const { claims } = await authorizeCountry(ctx, req, body.countryId);
        return act(claims.userId, body);
      }),
    );

  // --- military ----------------------------------------------------------------------------

  router.get(
    "/military/status/:countryId",
    route("Failed to get military status", async (req) => {
      const { countryId } = parse(countryParams, req.params);
      const { country } = await authorizeCountry(ctx, req, countryId);
      return { status: await militaryStatusOf(ctx, country) } satisfies MilitaryStatusResponse;
    }),
  );

  router.get(
    "/military/brigades/:countryId",
    route("Failed to get brigade status", async (req) => {
      const { countryId } = parse(countryParams, req.params);
      const { country } = await authorizeCountry(ctx, req, countryId);
      return (await brigadesOf(ctx, country)) satisfies BrigadesResponse;
    }),
  );

  countryPost("/military/use-brigade", "Failed to use brigade", brigadeActionRequestSchema, (userId, b) => brigadeAction(ctx, userId, b.countryId, b.brigadeId, "use"));
  countryPost("/military/recover-readiness", "Failed to recover readiness", brigadeActionRequestSchema, (userId, b) => brigadeAction(ctx, userId, b.countryId, b.brigadeId, "recover"));
  countryPost("/military/reduce-readiness", "Failed to reduce readiness", brigadeActionRequestSchema, (userId, b) => brigadeAction(ctx, userId, b.countryId, b.brigadeId, "reduce"));
  countryPost("/military/deployment", "Failed to update deployment", deploymentRequestSchema, (userId, { countryId, ...deployment }) => setDeployment(ctx, userId, countryId, deployment));
  countryPost("/military/defense", "Failed to update defense configuration", defenseRequestSchema, (userId, b) =>
    setDefense(ctx, userId, b.countryId, { alertLevel: b.alertLevel, allocation: b.allocation }),
  );
  countryPost("/military/missiles/buy", "Failed to buy missiles", buyMissilesRequestSchema, (userId, b) => buyMissiles(ctx, userId, b.countryId, b.quantity));
  countryPost("/military/gdi/join", "Failed to join the GDI", gdiRequestSchema, (userId, b) => changeGdi(ctx, userId, b.countryId, true));
  countryPost("/military/gdi/leave", "Failed to leave the GDI", gdiRequestSchema, (userId, b) => changeGdi(ctx, userId, b.countryId, false));

  // --- attacks -----------------------------------------------------------------------------

  router.post(
    "/attack/validate-turns",
    route("Attack failed", async (req) => {
      const body = parse(validateTurnsRequestSchema, req.body);
      const { country } = await authorizeCountry(ctx, req, body.countryId);
      return validateAttackTurns(ctx, country, body.attackType);
    }),
  );

  router.post(
    "/attack/preview",
    route("Attack failed", async (req) => {
      const body = parse(attackPreviewRequestSchema, req.body);
      const { country } = await authorizeCountry(ctx, req, body.countryId);
      return (await previewAttackFor(ctx, country, body)) satisfies AttackPreviewResponse;
    }),
  );

  // On the direct path: a war is many launches a minute.
  direct.post(router, "/attack/launch", "Attack failed", async (call) => {
    const body = parse(attackLaunchRequestSchema, call.body);
    const { claims } = await authorizeCountry(ctx, call, body.countryId);
    return launchResponse(await launchAttack(ctx, { userId: claims.userId, countryId: body.countryId }, body));
  });

  router.post(
    "/attack/cancel",
    route("Failed to cancel the strike", async (req) => {
      const body = parse(cancelStrikeRequestSchema, req.body);
      const { country } = await ownCountry(ctx, req);
      return { strike: await cancelStrike(ctx, country.id, body.strikeId) };
    }),
  );

  router.get(
    "/attack/strikes",
    route("Failed to get strikes", async (req) => {
      const { country } = await ownCountry(ctx, req);
      return { strikes: await strikesOf(ctx, country.id) } satisfies StrikesResponse;
    }),
  );

  router.get(
    "/attack/allies/:countryId",
    route("Failed to get alliance support", async (req) => {
      const { countryId } = parse(countryParams, req.params);
      const { targetCountryId } = parse(alliesQuerySchema, req.query);
      const { country } = await authorizeCountry(ctx, req, countryId);
      return allianceSupportOffers(ctx, country, targetCountryId);
    }),
  );

  // --- battle reports ----------------------------------------------------------------------

  router.get(
    "/battle-reports",
    route("Failed to get battle reports", async (req) => {
      const q = parse(battleReportQuerySchema, req.query);
      const { country } = await ownCountry(ctx, req);
      const outcome = q.outcome === "attacker_victory" || q.outcome === "defender_victory" ? q.outcome : undefined;
      const result = q.outcome === "victory" || q.outcome === "defeat" ? q.outcome : undefined;
      return (await battleReportsOf(ctx, country.id, { attackType: q.attackType, outcome, result, role: q.role, limit: q.limit, offset: q.offset })) satisfies BattleReportsResponse;
    }),
  );

  router.get(
    "/battle-reports/:id",
    route("Failed to get battle report", async (req) => {
      const { id } = parse(battleReportParamsSchema, req.params);
      const { country } = await ownCountry(ctx, req);
      return { report: await battleReportFor(ctx, country.id, id) } satisfies BattleReportResponse;
    }),
  );

  router.get(
    "/battle-reports/:id/replay",
    route("Failed to replay the battle", async (req) => {
      const { id } = parse(battleReportParamsSchema, req.params);
      const { country } = await ownCountry(ctx, req);
      return { replay: await battleReplayFor(ctx, country.id, id) } satisfies BattleReplayResponse;
    }),
  );

  // --- war ---------------------------------------------------------------------------------

  router.post(
    "/war/declare",
    route("Failed to declare war", async (req) => {
      const body = parse(declareWarRequestSchema, req.body);
      const { claims, country } = await ownCountry(ctx, req);
      return declareWar(ctx, claims.userId, country.id, body.targetCountryId);
    }),
  );

  router.get(
    "/war/declarations",
    route("Failed to get war declarations", async (req) => {
      const { country } = await ownCountry(ctx, req);
      return { declarations: await warsOf(ctx, country.id) } satisfies WarDeclarationsResponse;
    }),
  );

  router.post(
    "/war/end",
    route("Failed to end the war", async (req) => {
      const body = parse(endWarRequestSchema, req.body);
      const { claims, country } = await ownCountry(ctx, req);
      return endWar(ctx, claims.userId, country.id, body.declarationId);
    }),
  );

  return router;
}
