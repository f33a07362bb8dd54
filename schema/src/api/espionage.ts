import { z } from "zod";
import type { KnownIntelligence } from "../rules/combat.js";
import { UNIT_TYPES } from "../rules/country.js";
import { INTEL_TYPES, MAX_TRAINING_ORDER, MISSION_TYPE_IDS, SPY_OPERATION_IDS, type Intelligence } from "../rules/espionage.js";
import { idSchema, limitSchema, pageSchema } from "./common.js";
import { buildingTypeJsonSchema, num } from "./rulesJson.js";
import { lineText } from "./text.js";

/**
 * Espionage calls: POST /spy/execute (the spec's call), POST /intelligence/missions, GET
 * /intelligence/status/{countryId}, GET /intelligence/reports, GET /intelligence/reports/{id},
 * POST /intelligence/reports/{id}/share, GET /intelligence/shared, POST /spy/train,
 * POST /intelligence/privacy.
 */

const spies = (field: string) =>
  z
    .number({ error: `${field} must be a whole number` })
    .int(`${field} must be a whole number`)
    .min(1, `${field} must be at least 1`)
    .max(1_000_000_000, `${field} is out of range`);

export const spyExecuteRequestSchema = z.object({
  operationType: z.enum(SPY_OPERATION_IDS, { error: "Unknown operation type" }),
  targetCountryId: idSchema,
  spiesUsed: spies("spiesUsed"),
});
export type SpyExecuteRequest = z.infer<typeof spyExecuteRequestSchema>;

export const missionRequestSchema = z.object({
  type: z.enum(MISSION_TYPE_IDS, { error: "Unknown mission type" }),
  targetCountryId: idSchema,
  spiesUsed: spies("spiesUsed"),
});
export type MissionRequest = z.infer<typeof missionRequestSchema>;

export const spyTrainRequestSchema = z.object({
  countryId: idSchema,
  quantity: z.number({ error: "quantity must be a whole number" }).int("quantity must be a whole number").min(1, "Quantity must be at least 1").max(MAX_TRAINING_ORDER, `Quantity must be at most ${MAX_TRAINING_ORDER}`),
});

export const privacyRequestSchema = z.object({ countryId: idSchema, allowSpyOperations: z.boolean({ error: "allowSpyOperations must be true or false" }) });

export const REPORT_SORTS = ["date", "target", "confidence"] as const;
export type ReportSort = (typeof REPORT_SORTS)[number];

export const reportsQuerySchema = z.object({
  search: lineText(z.string({ error: "search must be text" }).max(100, "search is too long"), "search").optional(),
  type: z.enum(["all", ...INTEL_TYPES], { error: "type must be all, general, alliance, market or military" }).default("all"),
  sort: z.enum(REPORT_SORTS, { error: "sort must be date, target or confidence" }).default("date"),
  page: pageSchema,
  limit: limitSchema(20, 100),
});
export type ReportsQuery = z.input<typeof reportsQuerySchema>;

export const statusQuerySchema = z.object({
  targetCountryId: z
    .union(
      [
        z
          .string()
          .regex(/^[0-9]{1,16}$/)
          .transform(Number),
        z.number(),
      ],
      { error: "Invalid id" },
    )
    .pipe(idSchema)
    .optional(),
});

const operationTypeSchema = z.enum([...SPY_OPERATION_IDS, ...MISSION_TYPE_IDS]);
const missionTypeSchema = z.enum(MISSION_TYPE_IDS);
const intelConfidenceSchema = z.enum(["verified", "high", "medium", "low"]);
const unitEstimatesSchema = z.record(z.enum(UNIT_TYPES), num);

/** What a report found (the rules' Intelligence): one of the four kinds, or a sabotage's damage. */
export const intelligenceSchema = z.union([
  z.object({
    general: z.object({
      population: num,
      happiness: num,
      governmentStability: num,
      landAcres: num,
      estimatedNetworth: num,
      recentEvents: z.array(z.string()),
      economicStatus: z.enum(["prosperous", "stable", "struggling"]),
      lastActive: num,
    }),
  }),
  z.object({
    alliance: z.object({
      allianceName: z.string().nullable(),
      allianceTag: z.string().nullable(),
      allianceRank: num.nullable(),
      memberCount: num,
      diplomaticRelations: z.array(z.object({ type: z.string(), partner: z.string() })),
      recentAllianceActivity: z.array(z.string()),
      allianceReputation: num,
      knownAllies: z.array(z.string()),
      knownEnemies: z.array(z.string()),
    }),
  }),
  z.object({
    market: z.object({
      recentPurchases: num,
      recentSales: num,
      standingOrders: num,
      marketActivity: z.enum(["high", "moderate", "low", "none"]),
      tradingPatterns: z.array(z.string()),
      cashFlow: num,
      resourceSurplus: z.array(z.string()),
      resourceNeeds: z.array(z.string()),
    }),
  }),
  z.object({
    military: z.object({
      estimatedUnits: unitEstimatesSchema,
      militaryReadiness: num,
      recentCombat: num,
      defenseStatus: z.string(),
      militaryTech: num,
      warCapability: z.enum(["high", "moderate", "low"]),
      vulnerabilities: z.array(z.string()),
      strengths: z.array(z.string()),
      technology: z.record(z.string(), num).optional(),
    }),
  }),
  z.object({ sabotage: z.object({ building: buildingTypeJsonSchema.nullable(), buildingsDestroyed: num, oilDestroyed: num }) }),
]) satisfies z.ZodType<Intelligence>;

/** What the caller knows of a country's forces (the rules' KnownIntelligence). */
export const knownIntelligenceSchema = z.object({
  estimatedUnits: unitEstimatesSchema,
  confidence: intelConfidenceSchema,
  gatheredAt: num,
  militaryTech: num.optional(),
}) satisfies z.ZodType<KnownIntelligence>;

/** A spy mission (spec: id, operationType, target, spiesUsed, status, times, successChance, results). */
export const spyMissionJsonSchema = z.object({
  id: num,
  centre: z.enum(["spy_center", "intelligence_center"]),
  operationType: operationTypeSchema,
  /** null: a former country (its account was deleted); targetCountryName keeps its name */
  targetCountryId: num.nullable(),
  targetCountryName: z.string(),
  spiesUsed: num,
  status: z.enum(["completed", "failed"]),
  startTime: num,
  completionTime: num,
  /** percent */
  successChance: num,
  results: z.object({ success: z.boolean(), spiesLost: num, spiesCaught: num, detected: z.boolean(), intelGathered: z.boolean() }),
  turnsSpent: num,
  reportId: num.nullable(),
});
export type SpyMissionJson = z.infer<typeof spyMissionJsonSchema>;

/** An intelligence report (spec fields; intelligence null when the operation failed). */
export const intelligenceReportJsonSchema = z.object({
  id: num,
  operationType: operationTypeSchema,
  intelType: missionTypeSchema,
  /** null: a former country (its account was deleted); targetCountryName keeps its name */
  targetCountryId: num.nullable(),
  targetCountryName: z.string(),
  targetGovernment: z.string(),
  spiesUsed: num,
  success: z.boolean(),
  operationDate: num,
  intelligence: intelligenceSchema.nullable(),
  spiesLost: num,
  detected: z.boolean(),
  confidenceLevel: intelConfidenceSchema.nullable(),
  expiresAt: num,
  expired: z.boolean(),
  tags: z.array(z.string()),
  seed: num,
  ownerCountryId: num,
  ownerName: z.string(),
  /** the viewer's own report */
  isOwn: z.boolean(),
  sharedWithAlliance: z.boolean(),
});
export type IntelligenceReportJson = z.infer<typeof intelligenceReportJsonSchema>;

/** The answer of both execute calls. */
export const missionResponseSchema = z.object({
  mission: spyMissionJsonSchema,
  report: intelligenceReportJsonSchema,
  /** 'Mission Successful' or 'Mission Failed' */
  message: z.string(),
  /** 'Operation detected by enemy intelligence', 'Spies lost: N' */
  details: z.array(z.string()),
});
export type MissionResponse = z.infer<typeof missionResponseSchema>;

export const intelligenceStatusJsonSchema = z.object({
  countryId: num,
  dailyLimit: num,
  operationsUsed: num,
  operationsRemaining: num,
  /** epoch ms of the next midnight UTC */
  resetAt: num,
  usedByKind: z.record(z.string(), num),
  /** per Intelligence Center type: ms left, 0 when ready */
  cooldowns: z.record(missionTypeSchema, num),
  /** epoch ms of the latest mission of each type (the cooldown rule's input, as the server reads it) */
  lastMissionAt: z.partialRecord(missionTypeSchema, num),
  availableSpies: num,
  land: num,
  /** spies per acre, 5 decimals */
  spiesPerAcre: num,
  spyCapacity: num,
  spyTech: num,
  governmentType: z.string(),
  governmentMultiplier: num,
  governmentBonus: num,
  inAlliance: z.boolean(),
  /** alliance Intelligence Network and intelligence treaty, percent of the chance */
  spySuccessBonusPct: num,
  /** success preview per type/operation (percent), against the target if given */
  successPreview: z.object({
    missions: z.record(missionTypeSchema, num),
    operations: z.record(z.enum(SPY_OPERATION_IDS), num),
    basis: z.enum(["intelligence", "estimate"]),
    targetCountryId: num.nullable(),
    /** the target as the preview counts it (a report's spies, else parity): what the screen recomputes the chance with */
    target: z.object({ spies: num, land: num }),
    /** the counter-intelligence factor assumed for the target, percent */
    spyDefensePct: num,
  }),
  turns: num,
  trainingCost: num,
  spiesPerTurn: num,
  allowSpyOperations: z.boolean(),
  recentMissions: z.array(spyMissionJsonSchema),
});
export type IntelligenceStatusJson = z.infer<typeof intelligenceStatusJsonSchema>;

export const intelligenceReportsResponseSchema = z.object({
  reports: z.array(intelligenceReportJsonSchema),
  total: num,
  page: num,
  limit: num,
});
export type IntelligenceReportsResponse = z.infer<typeof intelligenceReportsResponseSchema>;

/** GET /intelligence/known: target id -> what the caller knows of its forces (fresh military reports it can read). */
export const knownIntelligenceResponseSchema = z.object({
  known: z.record(z.string().regex(/^[0-9]+$/), knownIntelligenceSchema),
});
export type KnownIntelligenceResponse = z.infer<typeof knownIntelligenceResponseSchema>;
