/** Response shapes of the REST calls the client makes (server contract). */

import type { ActionResultJson, EconomicEffectsJson, ResearchResultJson, TurnResultJson, UserJson } from "@game/schema/api";

/** The user as /auth/login, /auth/register and /user/me answer it (the shared contract). */
export type { UserJson };

/** The user as the client keeps it (spec: User as mapped by the client). */
export interface User {
  id: number;
  username: string;
  email: string;
  /** true when the country has an id */
  hasCountry: boolean;
  countryId: number | null;
  countryName: string | null;
  government: string | null;
  createdAt: string | null;
  lastLogin: string | null;
  /** always true */
  isActive: true;
  /** false until the tutorial was finished or skipped, kept on the server */
  tutorialCompleted: boolean;
}

export function mapUser(json: UserJson): User {
  const countryId = json.country?.id ?? json.countryId ?? null;
  return {
    id: json.id,
    username: json.username,
    email: json.email,
    hasCountry: countryId !== null && countryId !== undefined,
    countryId,
    countryName: json.country?.name ?? json.countryName ?? null,
    government: json.country?.government ?? json.government ?? null,
    createdAt: json.createdAt ?? null,
    lastLogin: json.lastLogin ?? null,
    isActive: true,
    // absent only from servers older than the field: treat as done rather than replay the tutorial
    tutorialCompleted: json.tutorialCompleted ?? true,
  };
}

export type ActionIcon = ActionResultJson["icon"];
export type ActionResult = ActionResultJson;
export type EconomicEffects = EconomicEffectsJson;
export type ResearchResult = ResearchResultJson;
/** A turn result as the client keeps it: the server's, with militaryProduced optional for old records. */
export type TurnResult = Omit<TurnResultJson, "militaryProduced" | "researchPointsGained"> & {
  militaryProduced?: TurnResultJson["militaryProduced"];
  researchPointsGained?: number;
};

const EFFECT_KEYS: (keyof EconomicEffects)[] = [
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
];

function num(value: unknown): number {
  const n = typeof value === "string" ? Number(value) : value;
  return typeof n === "number" && Number.isFinite(n) ? n : 0;
}

/** Normalises a turn result from the server: every economic effect defaults to 0 (spec). */
export function normalizeTurnResult(raw: unknown): TurnResult {
  const r = (raw ?? {}) as Partial<TurnResult> & Record<string, unknown>;
  const effectsRaw = (r.economicEffects ?? {}) as Record<string, unknown>;
  const economicEffects = Object.fromEntries(EFFECT_KEYS.map((k) => [k, num(effectsRaw[k])])) as unknown as EconomicEffects;
  const military = r.militaryProduced as Record<string, unknown> | undefined;
  return {
    id: String(r.id ?? `${Date.now()}`),
    timestamp: String(r.timestamp ?? new Date().toISOString()),
    actionType: String(r.actionType ?? ""),
    turnsConsumed: num(r.turnsConsumed),
    turnsRemaining: num(r.turnsRemaining),
    actionResults: Array.isArray(r.actionResults)
      ? r.actionResults.map((a, i) => ({
          id: String(a?.id ?? i),
          title: String(a?.title ?? ""),
          description: String(a?.description ?? ""),
          icon: (["checkmark", "trending-down", "zap", "trending-up"].includes(a?.icon) ? a.icon : "checkmark") as ActionIcon,
          details: Array.isArray(a?.details) ? a.details.map(String) : [],
        }))
      : [],
    economicEffects,
    researchResults: Array.isArray(r.researchResults)
      ? r.researchResults.map((x, i) => ({
          id: String(x?.id ?? i),
          researchType: String(x?.researchType ?? ""),
          pointsGained: num(x?.pointsGained),
          description: String(x?.description ?? ""),
          levelUp: Boolean(x?.levelUp),
        }))
      : [],
    militaryProduced: military
      ? { troops: num(military.troops), jets: num(military.jets), tanks: num(military.tanks), turrets: num(military.turrets) }
      : undefined,
  };
}

/** GET /production/status/:countryId: the rules' net flows of one turn. */
export type { ProductionPerTurn } from "@game/schema/rules";

/** GET /buildings/production/:countryId -> data */
export interface BuildingProduction {
  productionRates: { population?: { total?: number }; food?: { total?: number }; oil?: { total?: number } };
  currentBuildings: Record<string, number>;
}

/** A row of GET /countries (public fields). */
export interface PublicCountry {
  id: number;
  name: string;
  government_type: string;
  networth: string | number;
  land: string | number;
  is_ai: boolean;
  alliance_id: number | null;
  victories: number;
  defeats: number;
  last_active: string;
}
