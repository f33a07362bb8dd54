import crypto from "node:crypto";
import { ECONOMIC_EFFECT_KEYS, type ActionResultJson, type EconomicEffectsJson, type ResearchResultJson, type TurnResultJson } from "@game/schema/api";
import type { EconomicEffects, ResearchResult } from "@game/schema/rules";
import { TECHNOLOGIES, plural } from "@game/schema/rules";

const fmt = (n: number) => n.toLocaleString("en-US");

/** The spec's economicEffects fields (ECONOMIC_EFFECT_KEYS, shared with the client) of the rules' effects. */
export function toEconomicEffectsJson(e: EconomicEffects): EconomicEffectsJson {
  return Object.fromEntries(ECONOMIC_EFFECT_KEYS.map((key) => [key, e[key]])) as EconomicEffectsJson;
}

/** Warnings the economy raised while the turns ran (bankruptcy, famine, fuel shortage). */
export function economyWarnings(e: EconomicEffects): ActionResultJson[] {
  const warnings: ActionResultJson[] = [];
  if (e.bankruptTurns > 0) {
    warnings.push({
      id: "bankruptcy",
      title: "Treasury Empty",
      description: `Cash ran out in ${plural(e.bankruptTurns, "turn")}; $${fmt(e.unpaidExpenses)} of expenses went unpaid and unpaid units deserted.`,
      icon: "trending-down",
      details: Object.entries(e.unitsLost)
        .filter(([, n]) => n > 0)
        .map(([unit, n]) => `${fmt(n)} ${unit} lost`),
    });
  }
  if (e.starvingTurns > 0) {
    warnings.push({ id: "famine", title: "Famine", description: `Food ran out in ${plural(e.starvingTurns, "turn")}; people and troops starved.`, icon: "trending-down", details: [] });
  }
  if (e.oilShortageTurns > 0) {
    warnings.push({ id: "oil-shortage", title: "Oil Shortage", description: `Oil ran out in ${plural(e.oilShortageTurns, "turn")}; vehicle production stalled.`, icon: "trending-down", details: [] });
  }
  const produced = e.militaryProduced;
  if (produced.troops + produced.jets + produced.tanks + produced.turrets > 0) {
    warnings.push({
      id: "military-produced",
      title: "Military Produced",
      description: "Industrial complexes delivered new units.",
      icon: "zap",
      details: Object.entries(produced)
        .filter(([, n]) => n > 0)
        .map(([unit, n]) => `${fmt(n)} ${unit}`),
    });
  }
  return warnings;
}

export function toResearchResultsJson(results: ResearchResult[]): ResearchResultJson[] {
  return results.map((r) => ({
    id: crypto.randomUUID(),
    researchType: r.researchType,
    pointsGained: r.pointsGained,
    description: r.description,
    levelUp: r.levelUp,
  }));
}

/** Research points produced by labs during the turns, shown as RESEARCH PROGRESS. */
export function researchPointsResult(pointsGained: number): ResearchResultJson[] {
  if (pointsGained <= 0) return [];
  return [{ id: crypto.randomUUID(), researchType: "research_points", pointsGained, description: `Research labs produced ${fmt(pointsGained)} research points.`, levelUp: false }];
}

/** Assembles the spec's turn result. */
export function buildTurnResult(input: { actionType: string; turnsConsumed: number; turnsRemaining: number; actionResults: ActionResultJson[]; effects: EconomicEffects; researchResults?: ResearchResultJson[] }): TurnResultJson {
  return {
    id: crypto.randomUUID(),
    timestamp: new Date().toISOString(),
    actionType: input.actionType,
    turnsConsumed: input.turnsConsumed,
    turnsRemaining: input.turnsRemaining,
    actionResults: [...input.actionResults, ...economyWarnings(input.effects)],
    economicEffects: toEconomicEffectsJson(input.effects),
    researchResults: [...(input.researchResults ?? []), ...researchPointsResult(input.effects.researchPointsGained)],
    researchPointsGained: input.effects.researchPointsGained,
    militaryProduced: { ...input.effects.militaryProduced },
  };
}

export const technologyName = (id: string) => TECHNOLOGIES[id as keyof typeof TECHNOLOGIES]?.name ?? id;
