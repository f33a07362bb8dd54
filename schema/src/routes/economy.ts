import { z } from "zod";
import {
  changeGovernmentRequestSchema,
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
  buildingProductionJsonSchema,
  constructResponseSchema,
  exploreResponseSchema,
  ownCountryJsonSchema,
  productionStatusResponseSchema,
  turnHistoryResponseSchema,
  turnResultJsonSchema,
} from "../api/index.js";
import { buildingCostsJsonSchema, governmentChangeCostSchema, governmentDefinitionSchema, governmentTypeSchema, int, num, researchStatusSchema, technologyIdSchema, unitAllocationSchema } from "../api/rulesJson.js";
import type { ResearchResult } from "../rules/index.js";
import { answer, dataAnswer, defineRoute, envelope } from "./route.js";

/** `/:countryId` of the own-country read models. */
export const countryIdParams = z.object({ countryId: idParamSchema });
const historyQuery = z.object({ limit: limitSchema(20, 100) });

const tag = "Economy";
const TURN_REFUSALS = ["auth/forbidden", "turns/invalid_turns", "country/not_found"] as const;

/**
 * What an exploration or a production run spends and answers (production/process, turns/consume):
 * the exploration's own fields only when it explored.
 */
export const turnSpentResponseSchema = exploreResponseSchema.partial({ acresGained: true, totalCost: true, efficiency: true });
export type TurnSpentResponse = z.infer<typeof turnSpentResponseSchema>;

/** data of GET /governments. */
export const governmentsJsonSchema = z.object({
  current: governmentTypeSchema,
  governments: z.array(governmentDefinitionSchema),
  changeCost: governmentChangeCostSchema,
});
export type GovernmentsJson = z.infer<typeof governmentsJsonSchema>;

/** One technology's outcome of POST /research/allocate (the rules' ResearchResult). */
const researchAllocationResultSchema = z.object({
  researchType: technologyIdSchema,
  pointsGained: num,
  previousLevel: num,
  currentLevel: num,
  levelUp: z.boolean(),
  progressPercent: num,
  description: z.string(),
}) satisfies z.ZodType<ResearchResult>;

/** A read model of the caller's own country: GET `path` with `/:countryId`, 403 for another's. */
const ownCountryRead = <const Path extends string, R extends z.ZodType>(path: Path, summary: string, fallback: string, response: R) =>
  defineRoute({ method: "GET", path, tag, summary, fallback, auth: "user", params: countryIdParams, response, refusals: ["auth/forbidden"] });

export const economyRoutes = {
  explore: defineRoute({
    method: "POST",
    path: "/exploration/explore",
    tag,
    summary: "Spend turns exploring new land",
    fallback: "Exploration failed",
    auth: "user",
    body: exploreRequestSchema,
    response: answer(exploreResponseSchema),
    refusals: [...TURN_REFUSALS, "exploration/insufficient_funds", "exploration/no_turns", "exploration/invalid_turns"],
    hot: true,
  }),
  consumeTurns: defineRoute({
    method: "POST",
    path: "/turns/consume",
    tag,
    summary: "Spend turns on exploration, production or research",
    fallback: "Exploration failed",
    auth: "user",
    body: consumeTurnsRequestSchema,
    response: answer(turnSpentResponseSchema),
    refusals: [...TURN_REFUSALS, "exploration/insufficient_funds", "turns/no_turns"],
    hot: true,
  }),
  construct: defineRoute({
    method: "POST",
    path: "/buildings/construct",
    tag,
    summary: "Construct buildings of one type",
    fallback: "Building construction failed",
    auth: "user",
    body: constructRequestSchema,
    response: answer(constructResponseSchema),
    refusals: TURN_REFUSALS,
    hot: true,
  }),
  constructBatch: defineRoute({
    method: "POST",
    path: "/buildings/construct-batch",
    tag,
    summary: "Construct buildings of several types at once, all or nothing",
    fallback: "Building construction failed",
    auth: "user",
    body: constructBatchRequestSchema,
    response: answer(constructResponseSchema),
    refusals: TURN_REFUSALS,
    hot: true,
  }),
  processProduction: defineRoute({
    method: "POST",
    path: "/production/process",
    tag,
    summary: "Spend turns producing",
    fallback: "Failed to process production",
    auth: "user",
    body: processProductionRequestSchema,
    response: answer(turnSpentResponseSchema),
    refusals: [...TURN_REFUSALS, "production/invalid_turns", "production/unused_capacity"],
    hot: true,
  }),
  productionAllocation: defineRoute({
    method: "POST",
    path: "/production/allocation",
    tag,
    summary: "Set how military production is split between unit types",
    fallback: "Failed to update production allocation",
    auth: "user",
    body: unitAllocationRequestSchema,
    response: envelope({ allocation: unitAllocationSchema, country: ownCountryJsonSchema }),
    refusals: ["auth/forbidden", "production/invalid_percentage", "production/over_allocated"],
    hot: true,
  }),
  researchGenerate: defineRoute({
    method: "POST",
    path: "/research/generate",
    tag,
    summary: "Spend a turn generating research points",
    fallback: "Research generation failed",
    auth: "user",
    body: researchGenerateRequestSchema,
    response: envelope({ data: z.object({ pointsGenerated: num, researchPoints: num }), turnResult: turnResultJsonSchema, country: ownCountryJsonSchema }),
    refusals: [...TURN_REFUSALS, "research/no_labs"],
    hot: true,
  }),
  researchAllocate: defineRoute({
    method: "POST",
    path: "/research/allocate",
    tag,
    summary: "Spend research points on technologies",
    fallback: "Research allocation failed",
    auth: "user",
    body: researchAllocateRequestSchema,
    response: envelope({ data: z.object({ results: z.array(researchAllocationResultSchema) }), turnResult: turnResultJsonSchema.optional(), country: ownCountryJsonSchema }),
    refusals: ["auth/forbidden", "research/insufficient_points", "research/prerequisites_unmet", "research/max_level", "research/unknown_technology", "research/nothing_allocated", "research/invalid_points"],
    hot: true,
  }),
  convertStoredTurns: defineRoute({
    method: "POST",
    path: "/turns/convert-stored",
    tag,
    summary: "Turn stored turns into playable turns",
    fallback: "Failed to convert stored turns",
    auth: "user",
    body: convertStoredTurnsRequestSchema,
    response: envelope({ turns: int, storedTurns: int, country: ownCountryJsonSchema }),
    refusals: ["auth/forbidden", "turns/insufficient_stored_turns", "turns/exceeds_max_turns", "turns/invalid_quantity"],
  }),
  changeGovernment: defineRoute({
    method: "POST",
    path: "/country/change-government",
    tag,
    summary: "Change the own country's government",
    fallback: "Failed to change government",
    auth: "user",
    body: changeGovernmentRequestSchema,
    response: envelope({ cost: governmentChangeCostSchema, turnResult: turnResultJsonSchema.optional(), country: ownCountryJsonSchema }),
    refusals: ["country/none", "government/unknown_government", "government/same_government", "government/insufficient_turns", "government/insufficient_funds"],
  }),
  buildingCosts: ownCountryRead("/buildings/costs/:countryId", "What each building costs the own country now", "Failed to get building costs", dataAnswer(buildingCostsJsonSchema)),
  buildingProduction: ownCountryRead("/buildings/production/:countryId", "What the own country's buildings produce", "Failed to get building production data", dataAnswer(buildingProductionJsonSchema)),
  productionStatus: ownCountryRead("/production/status/:countryId", "The own country's production per turn and unit allocation", "Failed to get production status", answer(productionStatusResponseSchema)),
  researchStatus: ownCountryRead("/research/status/:countryId", "The own country's research levels and points", "Failed to get research status", dataAnswer(researchStatusSchema)),
  governments: defineRoute({
    method: "GET",
    path: "/governments",
    tag,
    summary: "The governments and what changing to one costs the own country",
    fallback: "Failed to get government data",
    auth: "user",
    response: dataAnswer(governmentsJsonSchema),
    refusals: ["country/none"],
  }),
  turnHistory: defineRoute({
    method: "GET",
    path: "/turns/history",
    tag,
    summary: "The own country's latest turn results, newest first",
    fallback: "Failed to get turn history",
    auth: "user",
    query: historyQuery,
    response: answer(turnHistoryResponseSchema),
    refusals: ["country/none"],
  }),
};
