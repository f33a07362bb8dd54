import { Router } from "express";
import { z } from "zod";
import {
  changeGovernmentRequestSchema,
  type BuildingProductionJson,
  type ConstructResponse,
  type ExploreResponse,
  type ProductionStatusResponse,
  type TurnHistoryResponse,
  constructBatchRequestSchema,
  constructRequestSchema,
  consumeTurnsRequestSchema,
  convertStoredTurnsRequestSchema,
  exploreRequestSchema,
  idParamSchema,
  limitSchema,
  processProductionRequestSchema,
  researchAllocateRequestSchema,
  researchGenerateRequestSchema,
  unitAllocationRequestSchema,
} from "@game/schema/api";
import {
  computeBuildingCosts,
  computeBuildingProductionRates,
  computeGovernmentChangeCost,
  computeProductionPerTurn,
  computeResearchStatus,
  BUILDING_TYPES,
  GOVERNMENT_LIST,
  type CountryState,
} from "@game/schema/rules";
import { countryState, turnHistory } from "../services/countries.js";
import {
  allocateResearch,
  changeGovernment,
  constructBuildings,
  convertStoredTurns,
  exploreLand,
  generateResearch,
  processProduction,
  setUnitAllocation,
  type ActionResult,
} from "../services/economy.js";
import type { ServiceContext } from "../services/context.js";
import type { DirectRoutes } from "./directRoutes.js";
import { authenticate, authorizeCountry, authorizeCountryId, ownCountry, parse, route } from "./handler.js";

const countryParams = z.object({ countryId: idParamSchema });
const historyQuery = z.object({ limit: limitSchema(20, 100) });

/**
 * Turn-spending actions and the economy's read models. Every action route names the country
 * it acts on; authorizeCountry answers 403 unless it is the caller's own, and the service
 * checks ownership again under the row lock.
 */
export function economyRoutes(ctx: ServiceContext, direct: DirectRoutes): Router {
  const router = Router();

  // --- actions ---------------------------------------------------------------------------

  /**
   * POST path: parses the body with `schema`, answers 403 unless body.countryId is the
   * caller's own country, then runs the action as the caller. On the direct path: these are
   * what a player sends most.
   */
  const countryAction = <S extends z.ZodType<{ countryId: number }>>(
    path: string,
    fallback: string,
    schema: S,
    act: (userId: number, body: z.output<S>) => Promise<object>,
  ) =>
    direct.post(router, path, fallback, async (call) => {
      const body = parse(schema, call.body);
      const claims = await authorizeCountryId(ctx, call, body.countryId);
      return act(claims.userId, body);
    });

  /** What every turn-spending answer carries besides its own fields. */
  const spent = (turnsUsed: number, result: ActionResult<unknown>) => ({
    turnsUsed,
    production: result.turnResult!.economicEffects,
    turnResult: result.turnResult!,
    country: result.country,
  });

  countryAction("/exploration/explore", "Exploration failed", exploreRequestSchema, async (userId, body) => {
    const result = await exploreLand(ctx, userId, body.countryId, body.turnsToSpend);
    return { ...spent(body.turnsToSpend, result), ...result.extra } satisfies ExploreResponse;
  });

  countryAction("/turns/consume", "Exploration failed", consumeTurnsRequestSchema, async (userId, body) => {
    const result =
      body.actionType === "exploration"
        ? await exploreLand(ctx, userId, body.countryId, body.quantity)
        : await processProduction(ctx, userId, body.countryId, body.quantity, body.actionType);
    return { ...spent(body.quantity, result), ...(result.extra ?? {}) };
  });

  countryAction("/buildings/construct", "Building construction failed", constructRequestSchema, async (userId, body) => {
    const result = await constructBuildings(ctx, userId, body.countryId, { [body.buildingType]: body.quantity });
    return { ...result.extra, turnResult: result.turnResult!, country: result.country } satisfies ConstructResponse;
  });

  countryAction("/buildings/construct-batch", "Building construction failed", constructBatchRequestSchema, async (userId, body) => {
    const result = await constructBuildings(ctx, userId, body.countryId, body.orders);
    return { ...result.extra, turnResult: result.turnResult!, country: result.country } satisfies ConstructResponse;
  });

  countryAction("/production/process", "Failed to process production", processProductionRequestSchema, async (userId, body) =>
    spent(body.turnsToProcess, await processProduction(ctx, userId, body.countryId, body.turnsToProcess)),
  );

  countryAction("/production/allocation", "Failed to update production allocation", unitAllocationRequestSchema, async (userId, body) => {
    const { countryId, ...allocation } = body;
    const result = await setUnitAllocation(ctx, userId, countryId, allocation as Parameters<typeof setUnitAllocation>[3]);
    return { allocation: result.country.unit_allocation, country: result.country };
  });

  countryAction("/research/generate", "Research generation failed", researchGenerateRequestSchema, async (userId, body) => {
    const result = await generateResearch(ctx, userId, body.countryId);
    return {
      data: { pointsGenerated: result.turnResult!.researchPointsGained, researchPoints: Number(result.country.research_points) },
      turnResult: result.turnResult,
      country: result.country,
    };
  });

  countryAction("/research/allocate", "Research allocation failed", researchAllocateRequestSchema, async (userId, body) => {
    const result = await allocateResearch(ctx, userId, body.countryId, body.allocations);
    return { data: { results: result.extra.results }, turnResult: result.turnResult, country: result.country };
  });

  countryAction("/turns/convert-stored", "Failed to convert stored turns", convertStoredTurnsRequestSchema, async (userId, body) => {
    const result = await convertStoredTurns(ctx, userId, body.countryId, body.quantity);
    return { turns: result.country.turns, storedTurns: result.country.stored_turns, country: result.country };
  });

  // The spec's change-government payload names no country: it is the caller's own.
  router.post(
    "/country/change-government",
    route("Failed to change government", async (req) => {
      const body = parse(changeGovernmentRequestSchema, req.body);
      const { claims, country } = await ownCountry(ctx, req);
      const result = await changeGovernment(ctx, claims.userId, country.id, body.governmentType);
      return { cost: result.extra.cost, turnResult: result.turnResult, country: result.country };
    }),
  );

  // --- read models (own country only: they reveal private numbers) --------------------

  /** GET path/:countryId answering `read(state)` of the caller's own country (403 otherwise). */
  const ownCountryRead = (path: string, fallback: string, read: (state: CountryState) => object) =>
    router.get(
      `${path}/:countryId`,
      route(fallback, async (req) => {
        const { countryId } = parse(countryParams, req.params);
        const { country } = await authorizeCountry(ctx, req, countryId);
        return read(countryState(country));
      }),
    );

  ownCountryRead("/buildings/costs", "Failed to get building costs", (state) => ({ data: computeBuildingCosts(state) }));
  ownCountryRead("/buildings/production", "Failed to get building production data", (state) => ({
    data: {
      productionRates: computeBuildingProductionRates(state),
      currentBuildings: Object.fromEntries(BUILDING_TYPES.map((t) => [t, state.buildings[t]])) as BuildingProductionJson["currentBuildings"],
    } satisfies BuildingProductionJson,
  }));
  ownCountryRead("/production/status", "Failed to get production status", (state) => ({
    productionPerTurn: computeProductionPerTurn(state),
    allocation: state.unitAllocation,
  }) satisfies ProductionStatusResponse);
  ownCountryRead("/research/status", "Failed to get research status", (state) => ({ data: computeResearchStatus(state) }));

  router.get(
    "/governments",
    route("Failed to get government data", async (req) => {
      const { country } = await ownCountry(ctx, req);
      return {
        data: {
          current: country.government_type,
          governments: GOVERNMENT_LIST,
          changeCost: computeGovernmentChangeCost({
            hasUsedFreeGovernmentChange: country.has_used_free_government_change,
            governmentChangeCount: country.government_change_count,
          }),
        },
      };
    }),
  );

  router.get(
    "/turns/history",
    route("Failed to get turn history", async (req) => {
      await authenticate(ctx, req);
      const { limit } = parse(historyQuery, req.query);
      const { country } = await ownCountry(ctx, req);
      return { data: await turnHistory(ctx, country.id, limit) } satisfies TurnHistoryResponse;
    }),
  );

  return router;
}
