import { z } from "zod";
import type { IntelConfidence, KnownIntelligence } from "../rules/combat.js";
import { INTEL_TYPES, MAX_TRAINING_ORDER, MISSION_TYPE_IDS, SPY_OPERATION_IDS, type Intelligence, type IntelType, type MissionTypeId, type SpyOperationId } from "../rules/espionage.js";
import { idSchema, limitSchema, pageSchema } from "./common.js";
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
  quantity: z
    .number({ error: "quantity must be a whole number" })
    .int("quantity must be a whole number")
    .min(1, "Quantity must be at least 1")
    .max(MAX_TRAINING_ORDER, `Quantity must be at most ${MAX_TRAINING_ORDER}`),
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

export const statusQuerySchema = z.object({ targetCountryId: z.union([z.string().regex(/^[0-9]{1,16}$/).transform(Number), z.number()], { error: "Invalid id" }).pipe(idSchema).optional() });

/** A spy mission (spec: id, operationType, target, spiesUsed, status, times, successChance, results). */
export interface SpyMissionJson {
  id: number;
  centre: "spy_center" | "intelligence_center";
  operationType: SpyOperationId | MissionTypeId;
  /** null: a former country (its account was deleted); targetCountryName keeps its name */
  targetCountryId: number | null;
  targetCountryName: string;
  spiesUsed: number;
  status: "completed" | "failed";
  startTime: number;
  completionTime: number;
  /** percent */
  successChance: number;
  results: { success: boolean; spiesLost: number; spiesCaught: number; detected: boolean; intelGathered: boolean };
  turnsSpent: number;
  reportId: number | null;
}

/** An intelligence report (spec fields; intelligence null when the operation failed). */
export interface IntelligenceReportJson {
  id: number;
  operationType: SpyOperationId | MissionTypeId;
  intelType: IntelType;
  /** null: a former country (its account was deleted); targetCountryName keeps its name */
  targetCountryId: number | null;
  targetCountryName: string;
  targetGovernment: string;
  spiesUsed: number;
  success: boolean;
  operationDate: number;
  intelligence: Intelligence | null;
  spiesLost: number;
  detected: boolean;
  confidenceLevel: IntelConfidence | null;
  expiresAt: number;
  expired: boolean;
  tags: string[];
  seed: number;
  ownerCountryId: number;
  ownerName: string;
  /** the viewer's own report */
  isOwn: boolean;
  sharedWithAlliance: boolean;
}

/** The answer of both execute calls. */
export interface MissionResponse {
  mission: SpyMissionJson;
  report: IntelligenceReportJson;
  /** 'Mission Successful' or 'Mission Failed' */
  message: string;
  /** 'Operation detected by enemy intelligence', 'Spies lost: N' */
  details: string[];
}

export interface IntelligenceStatusJson {
  countryId: number;
  dailyLimit: number;
  operationsUsed: number;
  operationsRemaining: number;
  /** epoch ms of the next midnight UTC */
  resetAt: number;
  usedByKind: Record<string, number>;
  /** per Intelligence Center type: ms left, 0 when ready */
  cooldowns: Record<MissionTypeId, number>;
  /** epoch ms of the latest mission of each type (the cooldown rule's input, as the server reads it) */
  lastMissionAt: Partial<Record<MissionTypeId, number>>;
  availableSpies: number;
  land: number;
  /** spies per acre, 5 decimals */
  spiesPerAcre: number;
  spyCapacity: number;
  spyTech: number;
  governmentType: string;
  governmentMultiplier: number;
  governmentBonus: number;
  inAlliance: boolean;
  /** alliance Intelligence Network and intelligence treaty, percent of the chance */
  spySuccessBonusPct: number;
  /** success preview per type/operation (percent), against the target if given */
  successPreview: {
    missions: Record<MissionTypeId, number>;
    operations: Record<SpyOperationId, number>;
    basis: "intelligence" | "estimate";
    targetCountryId: number | null;
    /** the target as the preview counts it (a report's spies, else parity): what the screen recomputes the chance with */
    target: { spies: number; land: number };
    /** the counter-intelligence factor assumed for the target, percent */
    spyDefensePct: number;
  };
  turns: number;
  trainingCost: number;
  spiesPerTurn: number;
  allowSpyOperations: boolean;
  recentMissions: SpyMissionJson[];
}

export interface IntelligenceReportsResponse {
  reports: IntelligenceReportJson[];
  total: number;
  page: number;
  limit: number;
}

/** GET /intelligence/known: target id -> what the caller knows of its forces (fresh military reports it can read). */
export interface KnownIntelligenceResponse {
  known: Record<number, KnownIntelligence>;
}
