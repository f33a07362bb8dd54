import type { EconomicEffects } from "../rules/economy.js";

/*
 * A turn result read without zod (economy.ts has its schema): the game reads every
 * turn-spending action's answer with toTurnResultJson, and importing economy.ts would build
 * every economy schema and load zod with the game's start (issue 30, docs/performance.md).
 */

/** Icons of a turn result's action lines (the client maps each to a glyph). */
export const ACTION_RESULT_ICONS = ["checkmark", "trending-down", "zap", "trending-up"] as const;
export type ActionResultIcon = (typeof ACTION_RESULT_ICONS)[number];

/** The spec's economicEffects fields, in its order: those fields of the rules' effects. */
export const ECONOMIC_EFFECT_KEYS = [
  "taxRevenue",
  "expenses",
  "netCashChange",
  "foodProduced",
  "foodConsumed",
  "netFoodChange",
  "oilProduced",
  "oilConsumed",
  "netOilChange",
  "populationChange",
  "maintenanceCosts",
  "productionBonus",
] as const satisfies readonly (keyof EconomicEffects)[];

/*
 * A turn result's types, written out so this module needs nothing of economy.ts (whose schemas
 * are checked against them with `satisfies`; economy.test.ts checks the other direction).
 */
/** One line of a turn result's ACTION RESULTS section. */
export interface ActionResultJson {
  id: string;
  title: string;
  description: string;
  icon: ActionResultIcon;
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
/** The spec's economicEffects (every field defaults to 0). */
export type EconomicEffectsJson = Record<(typeof ECONOMIC_EFFECT_KEYS)[number], number>;
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

/** A finite number from a number or a numeric string; anything else is 0 (the spec's default). */
function numberOr0(value: unknown): number {
  const n = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
  return typeof n === "number" && Number.isFinite(n) ? n : 0;
}

/**
 * Reads a turn result as TurnResultJson whatever its age: every economic effect and count
 * defaults to 0 (spec), lists to empty, an unknown icon to "checkmark". Results kept in
 * history before a field existed (militaryProduced, researchPointsGained) read as zeros.
 * `now` (epoch ms) stands in for a missing id and timestamp.
 */
export function toTurnResultJson(raw: unknown, now: number): TurnResultJson {
  const r = (raw ?? {}) as Record<string, unknown>;
  const effects = (r.economicEffects ?? {}) as Record<string, unknown>;
  const military = (r.militaryProduced ?? {}) as Record<string, unknown>;
  const list = (v: unknown): Record<string, unknown>[] => (Array.isArray(v) ? v.map((x) => (x ?? {}) as Record<string, unknown>) : []);
  return {
    id: String(r.id ?? now),
    timestamp: String(r.timestamp ?? new Date(now).toISOString()),
    actionType: String(r.actionType ?? ""),
    turnsConsumed: numberOr0(r.turnsConsumed),
    turnsRemaining: numberOr0(r.turnsRemaining),
    actionResults: list(r.actionResults).map((a, i) => ({
      id: String(a.id ?? i),
      title: String(a.title ?? ""),
      description: String(a.description ?? ""),
      icon: (ACTION_RESULT_ICONS as readonly unknown[]).includes(a.icon) ? (a.icon as ActionResultIcon) : "checkmark",
      details: Array.isArray(a.details) ? a.details.map(String) : [],
    })),
    economicEffects: Object.fromEntries(ECONOMIC_EFFECT_KEYS.map((k) => [k, numberOr0(effects[k])])) as EconomicEffectsJson,
    researchResults: list(r.researchResults).map((x, i) => ({
      id: String(x.id ?? i),
      researchType: String(x.researchType ?? ""),
      pointsGained: numberOr0(x.pointsGained),
      description: String(x.description ?? ""),
      levelUp: Boolean(x.levelUp),
    })),
    researchPointsGained: numberOr0(r.researchPointsGained),
    militaryProduced: { troops: numberOr0(military.troops), jets: numberOr0(military.jets), tanks: numberOr0(military.tanks), turrets: numberOr0(military.turrets) },
  };
}
