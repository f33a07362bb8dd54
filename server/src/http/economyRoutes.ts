import type { z } from "zod";
import type { BuildingProductionJson } from "@game/schema/api";
import { routes, type RouteEntry } from "@game/schema/routes";
import { computeBuildingCosts, computeBuildingProductionRates, computeGovernmentChangeCost, computeProductionPerTurn, computeResearchStatus, BUILDING_TYPES, GOVERNMENT_LIST, type CountryState } from "@game/schema/rules";
import { countryState, turnHistory } from "../services/countries.js";
import { allocateResearch, changeGovernment, constructBuildings, convertStoredTurns, exploreLand, generateResearch, processProduction, setUnitAllocation, type ActionResult } from "../services/economy.js";
import type { ServiceContext } from "../services/context.js";
import { readEconomyBonuses } from "../services/allianceEffects.js";
import type { ApiPipeline, RouteHandler } from "./pipeline.js";
import { authorizeCountry, authorizeCountryId, ownCountry } from "./handler.js";

/**
 * Turn-spending actions and the economy's read models. Every action route names the country
 * it acts on; authorizeCountryId answers 403 unless it is the caller's own, and the service
 * checks ownership again under the row lock.
 */
export function economyRoutes(ctx: ServiceContext, api: ApiPipeline): void {
  // --- actions ---------------------------------------------------------------------------

  /** An action on body.countryId: 403 unless it is the caller's own country, then `act` as the caller. */
  const countryAction = <E extends RouteEntry<"POST", string, undefined, undefined, z.ZodType<{ countryId: number }>>>(entry: E, act: (userId: number, body: z.output<E["body"]>) => ReturnType<RouteHandler<E>>) =>
    api.handle(entry, async (call) => {
      const claims = await authorizeCountryId(ctx, call, call.body.countryId);
      return act(claims.userId, call.body as z.output<E["body"]>);
    });

  /** What every turn-spending answer carries besides its own fields. */
  const spent = (turnsUsed: number, result: ActionResult<unknown>) => ({
    turnsUsed,
    production: result.turnResult!.economicEffects,
    turnResult: result.turnResult!,
    country: result.country,
  });

  countryAction(routes.explore, async (userId, body) => {
    const result = await exploreLand(ctx, userId, body.countryId, body.turnsToSpend);
    return { ...spent(body.turnsToSpend, result), ...result.extra };
  });

  countryAction(routes.consumeTurns, async (userId, body) => {
    const result = body.actionType === "exploration" ? await exploreLand(ctx, userId, body.countryId, body.quantity) : await processProduction(ctx, userId, body.countryId, body.quantity, body.actionType);
    return { ...spent(body.quantity, result), ...(result.extra ?? {}) };
  });

  countryAction(routes.construct, async (userId, body) => {
    const result = await constructBuildings(ctx, userId, body.countryId, { [body.buildingType]: body.quantity });
    return { ...result.extra, turnResult: result.turnResult!, country: result.country };
  });

  countryAction(routes.constructBatch, async (userId, body) => {
    const result = await constructBuildings(ctx, userId, body.countryId, body.orders);
    return { ...result.extra, turnResult: result.turnResult!, country: result.country };
  });

  countryAction(routes.processProduction, async (userId, body) => spent(body.turnsToProcess, await processProduction(ctx, userId, body.countryId, body.turnsToProcess)));

  countryAction(routes.productionAllocation, async (userId, body) => {
    const { countryId, ...allocation } = body;
    const result = await setUnitAllocation(ctx, userId, countryId, allocation as Parameters<typeof setUnitAllocation>[3]);
    return { allocation: result.country.unit_allocation, country: result.country };
  });

  countryAction(routes.researchGenerate, async (userId, body) => {
    const result = await generateResearch(ctx, userId, body.countryId);
    return {
      data: { pointsGenerated: result.turnResult!.researchPointsGained, researchPoints: Number(result.country.research_points) },
      turnResult: result.turnResult!,
      country: result.country,
    };
  });

  countryAction(routes.researchAllocate, async (userId, body) => {
    const result = await allocateResearch(ctx, userId, body.countryId, body.allocations);
    return { data: { results: result.extra.results }, turnResult: result.turnResult, country: result.country };
  });

  countryAction(routes.convertStoredTurns, async (userId, body) => {
    const result = await convertStoredTurns(ctx, userId, body.countryId, body.quantity);
    return { turns: result.country.turns, storedTurns: result.country.stored_turns, country: result.country };
  });

  // The spec's change-government payload names no country: it is the caller's own.
  api.handle(routes.changeGovernment, async (call) => {
    const { claims, country } = await ownCountry(ctx, call);
    const result = await changeGovernment(ctx, claims.userId, country.id, call.body.governmentType);
    return { cost: result.extra.cost, turnResult: result.turnResult, country: result.country };
  });

  // --- read models (own country only: they reveal private numbers) --------------------

  /** An own-country read: `read(state)` of the caller's own country (403 otherwise). */
  const ownCountryRead = <E extends RouteEntry<"GET", string, z.ZodType<{ countryId: number }>, undefined, undefined>>(entry: E, read: (state: CountryState) => Awaited<ReturnType<RouteHandler<E>>>) =>
    api.handle(entry, async (call) => {
      const { country } = await authorizeCountry(ctx, call, call.params.countryId);
      return read(countryState(country));
    });

  ownCountryRead(routes.buildingCosts, (state) => ({ data: computeBuildingCosts(state) }));
  ownCountryRead(routes.buildingProduction, (state) => ({
    data: {
      productionRates: computeBuildingProductionRates(state),
      currentBuildings: Object.fromEntries(BUILDING_TYPES.map((t) => [t, state.buildings[t]])) as BuildingProductionJson["currentBuildings"],
    },
  }));
  // Production and research per turn count the alliance and treaty bonuses in force, as a
  // spent turn does; the production answer also carries them for the client's previews.
  api.handle(routes.productionStatus, async (call) => {
    const { country } = await authorizeCountry(ctx, call, call.params.countryId);
    const bonuses = await readEconomyBonuses(ctx.db, country.id, ctx.clock.now());
    const state = { ...countryState(country), bonuses };
    return { productionPerTurn: computeProductionPerTurn(state), allocation: state.unitAllocation, bonuses };
  });
  api.handle(routes.researchStatus, async (call) => {
    const { country } = await authorizeCountry(ctx, call, call.params.countryId);
    return { data: computeResearchStatus({ ...countryState(country), bonuses: await readEconomyBonuses(ctx.db, country.id, ctx.clock.now()) }) };
  });

  api.handle(routes.governments, async (call) => {
    const { country } = await ownCountry(ctx, call);
    return {
      data: {
        current: country.government_type,
        governments: [...GOVERNMENT_LIST],
        changeCost: computeGovernmentChangeCost({
          hasUsedFreeGovernmentChange: country.has_used_free_government_change,
          governmentChangeCount: country.government_change_count,
        }),
      },
    };
  });

  api.handle(routes.turnHistory, async (call) => {
    const { country } = await ownCountry(ctx, call);
    return { data: await turnHistory(ctx, country.id, call.query.limit) };
  });
}
