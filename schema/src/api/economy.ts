import { z } from "zod";
import { BUILDING_TYPES, GOVERNMENT_TYPES, type EconomyBonuses } from "../rules/country.js";
import { PRODUCTION_PRESET_IDS } from "../rules/military.js";
import type { EconomicEffects, computeBuildingProductionRates } from "../rules/economy.js";
import { idSchema } from "./common.js";
import { ownCountryJsonSchema } from "./countryViews.js";
import { ACTION_RESULT_ICONS, ECONOMIC_EFFECT_KEYS, type ActionResultJson, type ResearchResultJson, type TurnResultJson } from "./turnResult.js";
import { buildingCountsSchema, buildingTypeJsonSchema, int, isoTime, num, productionPerTurnSchema, unitAllocationSchema } from "./rulesJson.js";

export * from "./turnResult.js";

/** A whole number field: the rules then check its range and answer with the spec's message. */
function wholeNumber(field: string) {
  return z
    .number({ error: `${field} must be a whole number` })
    .int(`${field} must be a whole number`)
    .min(-1_000_000_000, `${field} is out of range`)
    .max(1_000_000_000, `${field} is out of range`);
}

/** POST /api/exploration/explore */
export const exploreRequestSchema = z.object({
  countryId: idSchema,
  turnsToSpend: wholeNumber("turnsToSpend"),
});

/** Actions POST /api/turns/consume can spend turns on. */
export const TURN_ACTION_TYPES = ["exploration", "production", "research"] as const;
export type TurnActionType = (typeof TURN_ACTION_TYPES)[number];

/** POST /api/turns/consume */
export const consumeTurnsRequestSchema = z.object({
  countryId: idSchema,
  quantity: wholeNumber("quantity"),
  actionType: z.enum(TURN_ACTION_TYPES, { error: `actionType must be one of ${TURN_ACTION_TYPES.join(", ")}` }),
});

const buildingTypeSchema = z.enum(BUILDING_TYPES, { error: "Unknown building type" });

/** POST /api/buildings/construct: one type per call, as the spec's client sends. */
export const constructRequestSchema = z.object({
  countryId: idSchema,
  buildingType: buildingTypeSchema,
  quantity: wholeNumber("quantity"),
});

/** POST /api/buildings/construct-batch: the whole order at once, all or nothing. */
export const constructBatchRequestSchema = z.object({
  countryId: idSchema,
  orders: z.partialRecord(buildingTypeSchema, wholeNumber("quantity"), { error: "orders must map building types to quantities" }),
});

/** POST /api/production/process */
export const processProductionRequestSchema = z.object({
  countryId: idSchema,
  turnsToProcess: wholeNumber("turnsToProcess"),
});

const percent = (field: string) =>
  z
    .number({ error: `${field} must be a whole percentage` })
    .int(`${field} must be a whole percentage`)
    .min(0, `${field} must be between 0 and 100`)
    .max(100, `${field} must be between 0 and 100`);

/** POST /api/production/allocation: explicit percentages or one of the five presets. */
export const unitAllocationRequestSchema = z.union(
  [
    z.object({ countryId: idSchema, preset: z.enum(PRODUCTION_PRESET_IDS as [string, ...string[]], { error: "Unknown preset" }) }),
    z.object({
      countryId: idSchema,
      troops: percent("troops"),
      jets: percent("jets"),
      turrets: percent("turrets"),
      tanks: percent("tanks"),
    }),
  ],
  { error: "Send a preset or the four percentages troops, jets, turrets and tanks" },
);

/** POST /api/research/generate */
export const researchGenerateRequestSchema = z.object({ countryId: idSchema });

/** POST /api/research/allocate: technology id -> points. */
export const researchAllocateRequestSchema = z.object({
  countryId: idSchema,
  allocations: z.record(z.string().max(40), wholeNumber("points"), { error: "allocations must map technology ids to points" }),
});

/** POST /api/country/change-government */
export const changeGovernmentRequestSchema = z.object({
  governmentType: z.enum(GOVERNMENT_TYPES, { error: "Unknown government type" }),
});

/** POST /api/turns/convert-stored */
export const convertStoredTurnsRequestSchema = z.object({
  countryId: idSchema,
  quantity: wholeNumber("quantity"),
});

/** One line of a turn result's ACTION RESULTS section. */
export const actionResultJsonSchema = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  icon: z.enum(ACTION_RESULT_ICONS),
  details: z.array(z.string()),
}) satisfies z.ZodType<ActionResultJson>;

/** One line of RESEARCH PROGRESS. */
export const researchResultJsonSchema = z.object({
  id: z.string(),
  researchType: z.string(),
  pointsGained: num,
  description: z.string(),
  levelUp: z.boolean(),
}) satisfies z.ZodType<ResearchResultJson>;

/** The spec's economicEffects (every field defaults to 0). */
export const economicEffectsJsonSchema = z.object(Object.fromEntries(ECONOMIC_EFFECT_KEYS.map((key) => [key, num])) as Record<(typeof ECONOMIC_EFFECT_KEYS)[number], typeof num>) satisfies z.ZodType<
  Pick<EconomicEffects, (typeof ECONOMIC_EFFECT_KEYS)[number]>
>;

/** The turn result of the spec, answered by every turn-spending action and kept in history. */
export const turnResultJsonSchema = z
  .object({
    id: z.string(),
    timestamp: isoTime,
    actionType: z.string(),
    turnsConsumed: num,
    turnsRemaining: num,
    actionResults: z.array(actionResultJsonSchema),
    economicEffects: economicEffectsJsonSchema,
    researchResults: z.array(researchResultJsonSchema),
    researchPointsGained: num,
    militaryProduced: z.object({ troops: num, jets: num, tanks: num, turrets: num }),
  })
  .meta({ id: "TurnResult" }) satisfies z.ZodType<TurnResultJson>;

/** What every turn-spending action answers besides its own fields. */
export const turnActionResponseSchema = z.object({
  turnResult: turnResultJsonSchema,
  /** the country after the action */
  country: ownCountryJsonSchema,
});
export type TurnActionResponse = z.infer<typeof turnActionResponseSchema>;

/** POST /exploration/explore and /turns/consume (exploration). */
export const exploreResponseSchema = turnActionResponseSchema.extend({
  turnsUsed: int,
  /** the turn result's economic effects */
  production: economicEffectsJsonSchema,
  acresGained: num,
  /** dollars */
  totalCost: num,
  /** percent */
  efficiency: num,
});
export type ExploreResponse = z.infer<typeof exploreResponseSchema>;

/** POST /buildings/construct and /buildings/construct-batch. */
export const constructResponseSchema = turnActionResponseSchema.extend({
  buildingsBuilt: num,
  buildingTypes: z.array(buildingTypeJsonSchema),
  /** dollars */
  totalCost: num,
  /** acres */
  landUsed: num,
});
export type ConstructResponse = z.infer<typeof constructResponseSchema>;

/** data of GET /buildings/production/{countryId}. */
export const buildingProductionJsonSchema = z.object({
  productionRates: z.object({ population: z.object({ total: num }), food: z.object({ total: num }), oil: z.object({ total: num }) }) satisfies z.ZodType<ReturnType<typeof computeBuildingProductionRates>>,
  currentBuildings: buildingCountsSchema,
});
export type BuildingProductionJson = z.infer<typeof buildingProductionJsonSchema>;

/** GET /production/status/{countryId}. */
export const productionStatusResponseSchema = z.object({
  /** per turn at the country's size now, with `bonuses` applied */
  productionPerTurn: productionPerTurnSchema,
  allocation: unitAllocationSchema,
  /** the alliance and treaty bonuses in force now, as a spent turn applies them (the client's income previews add them to its country) */
  bonuses: z.object({ researchPct: num, incomePct: num }) satisfies z.ZodType<EconomyBonuses>,
});
export type ProductionStatusResponse = z.infer<typeof productionStatusResponseSchema>;

/** GET /turns/history: newest first. */
export const turnHistoryResponseSchema = z.object({ data: z.array(turnResultJsonSchema) });
export type TurnHistoryResponse = z.infer<typeof turnHistoryResponseSchema>;
