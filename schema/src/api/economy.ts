import { z } from "zod";
import { BUILDING_TYPES, GOVERNMENT_TYPES } from "../rules/country.js";
import { PRODUCTION_PRESET_IDS } from "../rules/military.js";
import type { EconomicEffects } from "../rules/economy.js";
import { idSchema } from "./common.js";

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

const percent = (field: string) => z.number({ error: `${field} must be a whole percentage` }).int(`${field} must be a whole percentage`).min(0, `${field} must be between 0 and 100`).max(100, `${field} must be between 0 and 100`);

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
export interface ActionResultJson {
  id: string;
  title: string;
  description: string;
  icon: "checkmark" | "trending-down" | "zap" | "trending-up";
  details: string[];
}

/** One line of RESEARCH PROGRESS. */
export interface ResearchResultJson {
  id: string;
  researchType: string;
  pointsGained: number;
  description: string;
  levelUp: boolean;
}

/** The spec's economicEffects (every field defaults to 0): those fields of the rules' effects. */
export type EconomicEffectsJson = Pick<
  EconomicEffects,
  | "taxRevenue"
  | "expenses"
  | "netCashChange"
  | "foodProduced"
  | "foodConsumed"
  | "netFoodChange"
  | "oilProduced"
  | "oilConsumed"
  | "netOilChange"
  | "populationChange"
  | "maintenanceCosts"
  | "productionBonus"
>;

/** The turn result of the spec, answered by every turn-spending action and kept in history. */
export interface TurnResultJson {
  id: string;
  timestamp: string;
  actionType: string;
  turnsConsumed: number;
  turnsRemaining: number;
  actionResults: ActionResultJson[];
  economicEffects: EconomicEffectsJson;
  researchResults: ResearchResultJson[];
  researchPointsGained: number;
  militaryProduced: { troops: number; jets: number; tanks: number; turrets: number };
}
