import { z } from "zod";
import { BUILDING_TYPES, GOVERNMENT_TYPES, TECHNOLOGY_IDS, type BuildingCounts, type TechLevels, type UnitAllocation } from "../rules/country.js";
import type { BonusPurchase } from "../rules/alliance.js";
import type { BuildingCategory, BuildingCostRow } from "../rules/buildings.js";
import type { MarketFeeInputs } from "../rules/market.js";
import type { ProductionPerTurn } from "../rules/economy.js";
import type { GovernmentDefinition } from "../rules/governments.js";
import type { ResearchStatus, TechnologyStatus } from "../rules/research.js";
import type { GovernmentChangeCost } from "../rules/turns.js";

/**
 * Answer schemas of the rules' own result types (the rules have no zod): each is checked
 * against its rules type at compile time (`satisfies z.ZodType<T>`, so a field the rules add
 * or rename breaks the build here), and the catalogue's answers reuse them.
 */

/** a JSON number (the answers' counts, dollars and percentages) */
export const num = z.number();
/** an integer (ids, counts of things) */
export const int = z.number().int();
/** an ISO 8601 time */
export const isoTime = z.string();

export const governmentTypeSchema = z.enum(GOVERNMENT_TYPES);
export const buildingTypeJsonSchema = z.enum(BUILDING_TYPES);
export const technologyIdSchema = z.enum(TECHNOLOGY_IDS);

/** A number per building type (every type present). */
export const buildingCountsSchema = z.record(buildingTypeJsonSchema, num) satisfies z.ZodType<BuildingCounts>;
/** A number per technology (every category present). */
export const techLevelsSchema = z.record(technologyIdSchema, num) satisfies z.ZodType<TechLevels>;

export const unitAllocationSchema = z.object({ troops: num, jets: num, turrets: num, tanks: num }) satisfies z.ZodType<UnitAllocation>;

export const productionPerTurnSchema = z.object({
  cash: num,
  food: num,
  oil: num,
  troops: num,
  jets: num,
  tanks: num,
  turrets: num,
}) satisfies z.ZodType<ProductionPerTurn>;

const BUILDING_CATEGORIES = ["Commercial", "Residential", "Industrial", "Military", "Research", "Food Production", "Infrastructure"] as const satisfies readonly BuildingCategory[];

export const buildingCostRowSchema = z.object({
  id: buildingTypeJsonSchema,
  name: z.string(),
  category: z.enum(BUILDING_CATEGORIES),
  cost: num,
  land: num,
  turns: num,
  maintenance: num,
  owned: num,
}) satisfies z.ZodType<BuildingCostRow>;

/** data of GET /buildings/costs/{countryId} (computeBuildingCosts). */
export const buildingCostsJsonSchema = z.object({
  buildings: z.array(buildingCostRowSchema),
  buildingsPerTurn: num,
  freeLand: num,
  landUsed: num,
});

export const governmentDefinitionSchema = z.object({
  id: governmentTypeSchema,
  name: z.string(),
  description: z.string(),
  taxPct: num,
  researchPct: num,
  populationGrowthPct: num,
  militaryUpkeepPct: num,
  buildingMaintenancePct: num,
  unitProductionPct: num,
  foodProductionPct: num,
  oilProductionPct: num,
  buildingsPerTurnPct: num,
  constructionCostPct: num,
  explorationAcresPct: num,
  explorationCostPct: num,
  spyPct: num,
  strengthPct: num,
  militaryPurchaseCostPct: num,
  techBonuses: z.record(technologyIdSchema, num),
  bonusText: z.array(z.string()).readonly(),
}) satisfies z.ZodType<GovernmentDefinition>;

export const governmentChangeCostSchema = z.object({ free: z.boolean(), cash: num, turns: num }) satisfies z.ZodType<GovernmentChangeCost>;

export const technologyStatusSchema = z.object({
  id: technologyIdSchema,
  name: z.string(),
  level: num,
  maxLevel: num,
  state: z.enum(["maxed", "available", "locked"]),
  prerequisites: z.array(technologyIdSchema).readonly(),
  effects: z.array(z.string()).readonly(),
  cost: num.nullable(),
  turns: num.nullable(),
  governmentMultiplier: num,
}) satisfies z.ZodType<TechnologyStatus>;

export const researchStatusSchema = z.object({
  currentResearchPoints: num,
  pointsPerTurn: num,
  researchLabs: num,
  technologyLevels: techLevelsSchema,
  productionBonuses: z.record(technologyIdSchema, num),
  researchEfficiency: z.record(technologyIdSchema, num),
  technologies: z.array(technologyStatusSchema),
}) satisfies z.ZodType<ResearchStatus>;

/** An alliance bonus bought (what the fee and income rules read). */
export const bonusPurchaseJsonSchema = z.object({ bonusId: z.string(), level: num, purchasedAt: num, expiresAt: num.nullable() }) satisfies z.ZodType<BonusPurchase>;

/** The seller's half of a public trade's fee inputs (`computeMarketFeeModifiers`). */
export const marketFeeInputsSchema = z.object({ sellerDiscountPurchases: z.array(bonusPurchaseJsonSchema).readonly(), tradeAgreement: z.boolean() }) satisfies z.ZodType<MarketFeeInputs>;
