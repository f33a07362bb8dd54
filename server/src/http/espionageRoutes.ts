import { routes } from "@game/schema/routes";
import { executeSpyOperation, intelligenceStatus, knownIntelligenceOf, launchMission, reportFor, reportsOf, setPrivacy, shareReport, sharedReportsOf, trainSpies } from "../services/espionage.js";
import type { ServiceContext } from "../services/context.js";
import { authenticate, authorizeCountryId, ownCountry, ownCountryClaims } from "./handler.js";
import type { ApiPipeline } from "./pipeline.js";

/**
 * Espionage: the spec's POST /spy/execute, and the calls the Intelligence Center and Reports
 * screens need in the same style. Every call acts for the caller's own country (403 otherwise).
 */
export function espionageRoutes(ctx: ServiceContext, api: ApiPipeline): void {
  // A hot route, with the other actions players repeat.
  api.handle(routes.spyExecute, async (call) => {
    const claims = await ownCountryClaims(ctx, call);
    return executeSpyOperation(ctx, claims.userId, claims.countryId, call.body);
  });

  api.handle(routes.mission, async (call) => {
    const claims = await ownCountryClaims(ctx, call);
    return launchMission(ctx, claims.userId, claims.countryId, call.body);
  });

  api.handle(routes.intelligenceStatus, async (call) => {
    const claims = await authorizeCountryId(ctx, call, call.params.countryId);
    return { status: await intelligenceStatus(ctx, claims, call.params.countryId, call.query.targetCountryId) };
  });

  api.handle(routes.intelligenceReports, async (call) => {
    const { country } = await ownCountry(ctx, call);
    return reportsOf(ctx, country.id, call.query);
  });

  api.handle(routes.intelligenceReport, async (call) => {
    const { country } = await ownCountry(ctx, call);
    return { report: await reportFor(ctx, country, call.params.id) };
  });

  api.handle(routes.shareReport, async (call) => {
    const { claims, country } = await ownCountry(ctx, call);
    return shareReport(ctx, claims.userId, country.id, call.params.id);
  });

  api.handle(routes.knownIntelligence, async (call) => {
    return { known: await knownIntelligenceOf(ctx, await authenticate(ctx, call), new Date()) };
  });

  api.handle(routes.sharedIntelligence, async (call) => {
    const { country } = await ownCountry(ctx, call);
    return sharedReportsOf(ctx, country);
  });

  api.handle(routes.intelligencePrivacy, async (call) => {
    const claims = await authorizeCountryId(ctx, call, call.body.countryId);
    return setPrivacy(ctx, claims.userId, call.body.countryId, call.body.allowSpyOperations);
  });

  api.handle(routes.spyTrain, async (call) => {
    const claims = await authorizeCountryId(ctx, call, call.body.countryId);
    return trainSpies(ctx, claims.userId, call.body.countryId, call.body.quantity);
  });
}
