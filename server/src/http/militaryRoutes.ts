import type { z } from "zod";
import { routes, type RouteEntry } from "@game/schema/routes";
import { allianceSupportOffers, battleReplayFor, battleReportFor, battleReportsOf, cancelStrike, launchAttack, launchResponse, previewAttackFor, strikesOf, validateAttackTurns } from "../services/combat.js";
import { brigadeAction, brigadesOf, buyMissiles, changeGdi, militaryStatusOf, setDefense, setDeployment } from "../services/military.js";
import { declareWar, endWar, warsOf } from "../services/war.js";
import type { ServiceContext } from "../services/context.js";
import { authenticate, authorizeCountry, authorizeCountryId, ownCountry } from "./handler.js";
import type { ApiPipeline, RouteHandler } from "./pipeline.js";

/**
 * Military, attack, battle report and war routes: authorize, call the service, answer.
 * Every route that names a country answers 403 unless it is the caller's own.
 */
export function militaryRoutes(ctx: ServiceContext, api: ApiPipeline): void {
  /** A POST naming the caller's country in body.countryId. */
  const countryPost = <E extends RouteEntry<"POST", string, undefined, undefined, z.ZodType<{ countryId: number }>>>(entry: E, act: (userId: number, body: z.output<E["body"]>) => ReturnType<RouteHandler<E>>) =>
    api.handle(entry, async (call) => {
      const claims = await authorizeCountryId(ctx, call, call.body.countryId);
      return act(claims.userId, call.body as z.output<E["body"]>);
    });

  // --- military ----------------------------------------------------------------------------

  api.handle(routes.militaryStatus, async (call) => {
    const { country } = await authorizeCountry(ctx, call, call.params.countryId);
    return { status: await militaryStatusOf(ctx, country) };
  });

  api.handle(routes.brigades, async (call) => {
    const claims = await authorizeCountryId(ctx, call, call.params.countryId);
    return brigadesOf(ctx, claims, call.params.countryId);
  });

  countryPost(routes.useBrigade, (userId, b) => brigadeAction(ctx, userId, b.countryId, b.brigadeId, "use"));
  countryPost(routes.recoverReadiness, (userId, b) => brigadeAction(ctx, userId, b.countryId, b.brigadeId, "recover"));
  countryPost(routes.reduceReadiness, (userId, b) => brigadeAction(ctx, userId, b.countryId, b.brigadeId, "reduce"));
  countryPost(routes.deployment, (userId, { countryId, ...deployment }) => setDeployment(ctx, userId, countryId, deployment));
  countryPost(routes.defense, (userId, b) => setDefense(ctx, userId, b.countryId, { alertLevel: b.alertLevel, allocation: b.allocation }));
  countryPost(routes.buyMissiles, (userId, b) => buyMissiles(ctx, userId, b.countryId, b.quantity));
  countryPost(routes.gdiJoin, (userId, b) => changeGdi(ctx, userId, b.countryId, true));
  countryPost(routes.gdiLeave, (userId, b) => changeGdi(ctx, userId, b.countryId, false));

  // --- attacks -----------------------------------------------------------------------------

  api.handle(routes.validateAttackTurns, async (call) => {
    const { country } = await authorizeCountry(ctx, call, call.body.countryId);
    return validateAttackTurns(ctx, country, call.body.attackType);
  });

  api.handle(routes.attackPreview, async (call) => {
    const { country } = await authorizeCountry(ctx, call, call.body.countryId);
    return previewAttackFor(ctx, country, call.body);
  });

  // A hot route: a war is many launches a minute.
  api.handle(routes.attackLaunch, async (call) => {
    const claims = await authorizeCountryId(ctx, call, call.body.countryId);
    return launchResponse(await launchAttack(ctx, { userId: claims.userId, countryId: call.body.countryId }, call.body));
  });

  api.handle(routes.cancelStrike, async (call) => {
    const { country } = await ownCountry(ctx, call);
    return { strike: await cancelStrike(ctx, country.id, call.body.strikeId) };
  });

  api.handle(routes.strikes, async (call) => {
    const { country } = await ownCountry(ctx, call);
    return { strikes: await strikesOf(ctx, country.id) };
  });

  api.handle(routes.attackAllies, async (call) => {
    const { country } = await authorizeCountry(ctx, call, call.params.countryId);
    return allianceSupportOffers(ctx, country, call.query.targetCountryId);
  });

  // --- battle reports ----------------------------------------------------------------------

  api.handle(routes.battleReports, async (call) => {
    const q = call.query;
    const { country } = await ownCountry(ctx, call);
    const outcome = q.outcome === "attacker_victory" || q.outcome === "defender_victory" ? q.outcome : undefined;
    const result = q.outcome === "victory" || q.outcome === "defeat" ? q.outcome : undefined;
    return battleReportsOf(ctx, country.id, { attackType: q.attackType, outcome, result, role: q.role, limit: q.limit, offset: q.offset });
  });

  api.handle(routes.battleReport, async (call) => {
    const { country } = await ownCountry(ctx, call);
    return { report: await battleReportFor(ctx, country.id, call.params.id) };
  });

  api.handle(routes.battleReplay, async (call) => {
    const { country } = await ownCountry(ctx, call);
    return { replay: await battleReplayFor(ctx, country.id, call.params.id) };
  });

  // --- war ---------------------------------------------------------------------------------

  api.handle(routes.declareWar, async (call) => {
    const { claims, country } = await ownCountry(ctx, call);
    return declareWar(ctx, claims.userId, country.id, call.body.targetCountryId);
  });

  api.handle(routes.warDeclarations, async (call) => {
    return { declarations: await warsOf(ctx, await authenticate(ctx, call)) };
  });

  api.handle(routes.endWar, async (call) => {
    const { claims, country } = await ownCountry(ctx, call);
    return endWar(ctx, claims.userId, country.id, call.body.declarationId);
  });
}
