import { Router } from "express";
import { z } from "zod";
import {
  changeGovernmentRequestSchema,
  constructBatchRequestSchema,
  constructRequestSchema,
  consumeTurnsRequestSchema,
  convertStoredTurnsRequestSchema,
  exploreRequestSchema,
  idSchema,
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
import { rowToState } from "../db/countries.js";
import { listTurnResults } from "../db/turnResults.js";
import {
  allocateResearch,
  changeGovernment,
  constructBuildings,
  convertStoredTurns,
  exploreLand,
  generateResearch,
  processProduction,
  setUnitAllocation,
} from "../services/economy.js";
import type { ServiceContext } from "../services/context.js";
import { authenticate, authorizeCountry, ownCountry, parse, route } from "./handler.js";

const countryParams = z.object({ countryId: idSchema });
const historyQuery = z.object({ limit: limitSchema(20, 100) });

/**
 * Turn-spending actions and the economy's read models. Every action route names the country
 * it acts on; authorizeCountry answers 403 unless it is the caller's own, and the service
 * checks ownership again under the row lock.
 */
export function economyRoutes(ctx: ServiceContext): Router {
  const router = Router();

  // --- actions ---------------------------------------------------------------------------

  router.post(
    "/exploration/explore",
    route("Exploration failed", async (req) => {
      const body = parse(exploreRequestSchema, req.body);
      const { claims } = await authorizeCountry(ctx, req, body.countryId);
      const result = await exploreLand(ctx, claims.userId, body.countryId, body.turnsToSpend);
      return { turnsUsed: body.turnsToSpend, production: result.turnResult!.economicEffects, ...result.extra, turnResult: result.turnResult, country: result.country };
    }),
  );

  router.post(
    "/turns/consume",
    route("Exploration failed", async (req) => {
      const body = parse(consumeTurnsRequestSchema, req.body);
      const { claims } = await authorizeCountry(ctx, req, body.countryId);
      const result =
        body.actionType === "exploration"
          ? await exploreLand(ctx, claims.userId, body.countryId, body.quantity)
          : await processProduction(ctx, claims.userId, body.countryId, body.quantity, body.actionType);
      return { turnsUsed: body.quantity, production: result.turnResult!.economicEffects, ...(result.extra ?? {}), turnResult: result.turnResult, country: result.country };
    }),
  );

  router.post(
    "/buildings/construct",
    route("Building construction failed", async (req) => {
      const body = parse(constructRequestSchema, req.body);
      const { claims } = await authorizeCountry(ctx, req, body.countryId);
      const result = await constructBuildings(ctx, claims.userId, body.countryId, { [body.buildingType]: body.quantity });
      return { ...result.extra, turnResult: result.turnResult, country: result.country };
    }),
  );

  router.post(
    "/buildings/construct-batch",
    route("Building construction failed", async (req) => {
      const body = parse(constructBatchRequestSchema, req.body);
      const { claims } = await authorizeCountry(ctx, req, body.countryId);
      const result = await constructBuildings(ctx, claims.userId, body.countryId, body.orders);
      return { ...result.extra, turnResult: result.turnResult, country: result.country };
    }),
  );

  router.post(
    "/production/process",
    route("Failed to process production", async (req) => {
      const body = parse(processProductionRequestSchema, req.body);
      const { claims } = await authorizeCountry(ctx, req, body.countryId);
      const result = await processProduction(ctx, claims.userId, body.countryId, body.turnsToProcess);
      return { turnsUsed: body.turnsToProcess, production: result.turnResult!.economicEffects, turnResult: result.turnResult, country: result.country };
    }),
  );

  router.post(
    "/production/allocation",
    route("Failed to update production allocation", async (req) => {
      const body = parse(unitAllocationRequestSchema, req.body);
      const { claims } = await authorizeCountry(ctx, req, body.countryId);
      const { countryId, ...allocation } = body;
      const result = await setUnitAllocation(ctx, claims.userId, countryId, allocation as Parameters<typeof setUnitAllocation>[3]);
      return { allocation: result.country.unit_allocation, country: result.country };
    }),
  );

  router.post(
    "/research/generate",
    route("Research generation failed", async (req) => {
      const body = parse(researchGenerateRequestSchema, req.body);
      const { claims } = await authorizeCountry(ctx, req, body.countryId);
      const result = await generateResearch(ctx, claims.userId, body.countryId);
      return { data: { pointsGenerated: result.turnResult!.researchPointsGained, researchPoints: Number(result.country.research_points) }, turnResult: result.turnResult, country: result.country };
    }),
  );

  router.post(
    "/research/allocate",
    route("Research allocation failed", async (req) => {
      const body = parse(researchAllocateRequestSchema, req.body);
      const { claims } = await authorizeCountry(ctx, req, body.countryId);
      const result = await allocateResearch(ctx, claims.userId, body.countryId, body.allocations);
      return { data: { results: result.extra.results }, turnResult: result.turnResult, country: result.country };
    }),
  );

  router.post(
    "/country/change-government",
    route("Failed to change government", async (req) => {
      const body = parse(changeGovernmentRequestSchema, req.body);
      const { claims, country } = await ownCountry(ctx, req);
      const result = await changeGovernment(ctx, claims.userId, country.id, body.governmentType);
      return { cost: result.extra.cost, turnResult: result.turnResult, country: result.country };
    }),
  );

  router.post(
    "/turns/convert-stored",
    route("Failed to convert stored turns", async (req) => {
      const body = parse(convertStoredTurnsRequestSchema, req.body);
      const { claims } = await authorizeCountry(ctx, req, body.countryId);
      const result = await convertStoredTurns(ctx, claims.userId, body.countryId, body.quantity);
      return { turns: result.country.turns, storedTurns: result.country.stored_turns, country: result.country };
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
        return read(rowToState(country));
      }),
    );

  ownCountryRead("/buildings/costs", "Failed to get building costs", (state) => ({ data: computeBuildingCosts(state) }));
  ownCountryRead("/buildings/production", "Failed to get building production data", (state) => ({
    data: {
      productionRates: computeBuildingProductionRates(state),
      currentBuildings: Object.fromEntries(BUILDING_TYPES.map((t) => [t, state.buildings[t]])),
    },
  }));
  ownCountryRead("/production/status", "Failed to get production status", (state) => ({
    productionPerTurn: computeProductionPerTurn(state),
    allocation: state.unitAllocation,
  }));
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
      return { data: await listTurnResults(ctx.db, country.id, limit) };
    }),
  );

  return router;
}
