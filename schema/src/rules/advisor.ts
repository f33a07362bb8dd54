import type { BuildingType, CountryState, GovernmentType, TechnologyId } from "./country.js";
import { GOVERNMENT_TYPES } from "./country.js";
import { GOVERNMENTS } from "./governments.js";
import { computeCashFlowPerTurn, computeProductionPerTurn } from "./economy.js";
import { computeBuildingMaintenance, computeFreeLand, computeMaxBuildable } from "./buildings.js";
import { computeMilitaryUpkeep } from "./military.js";
import { MAX_TURNS } from "./turns.js";
import { TECHNOLOGIES, computeResearchPointsPerTurn } from "./research.js";
import { TOTAL_MAX_TECH_LEVELS, cheapestAffordableTechnology, computeCountryStatistics } from "./manage.js";

/**
 * The Strategic Advisor (spec document 3, "Strategic Advisor"): recommendations, situation
 * analysis and the government advisor, computed from the country's real numbers. Pure: the
 * client shows them and the server tests them; every threshold is in docs/rules.md, "Advisor".
 */

export type AdvisorPriority = "high" | "medium" | "low";
export const ADVISOR_PRIORITY_ORDER: Readonly<Record<AdvisorPriority, number>> = { high: 0, medium: 1, low: 2 };

/** Food lasting fewer turns than this is a high-priority problem (turns). */
export const ADVISOR_URGENT_TURNS = 12;
/** Food or cash lasting fewer turns than this is worth a recommendation at all (turns). */
export const ADVISOR_WATCH_TURNS = 48;
/** Forces per acre below which the military is weak (units per acre). */
export const ADVISOR_WEAK_FORCES_PER_ACRE = 2;
/** Forces per acre below which the military is critically weak (units per acre). */
export const ADVISOR_CRITICAL_FORCES_PER_ACRE = 0.5;
/** Forces per acre at or above which the military is strong (units per acre). */
export const ADVISOR_STRONG_FORCES_PER_ACRE = 5;
/** Unbuilt land share above which building is recommended (percent of land). */
export const ADVISOR_FREE_LAND_PCT = 20;

/** What EXECUTE does: performs an action, or opens a view with the action prefilled. */
export type AdvisorAction =
  { kind: "build"; building: BuildingType; quantity: number } | { kind: "research"; technology: TechnologyId; points: number } | { kind: "convert_turns"; quantity: number } | { kind: "navigate"; view: string; intent?: string };

export interface Recommendation {
  id: string;
  title: string;
  description: string;
  priority: AdvisorPriority;
  action: AdvisorAction;
  /** the EXECUTE button's label */
  actionLabel: string;
}

/** The country's context beyond its state: alliance membership. */
export interface AdvisorContext {
  allianceId: number | null;
  /** the country's declared wars' cost per turn (0 when at peace) */
  warCostPerTurn?: number;
}

const fmt = (n: number) => Math.round(n).toLocaleString("en-US");
const plural = (n: number, one: string, many = `${one}s`) => `${fmt(n)} ${n === 1 ? one : many}`;

/** Turns a stock lasts at a net loss per turn (Infinity when it does not fall). */
export function turnsLeft(stock: number, netPerTurn: number): number {
  if (netPerTurn >= 0) return Infinity;
  return Math.floor(Math.max(0, stock) / -netPerTurn);
}

/** Recommendations from the country's state, most urgent first (ties in the order built). */
export function computeRecommendations(country: CountryState, context: AdvisorContext): Recommendation[] {
  const list: Recommendation[] = [];
  const flow = computeProductionPerTurn(country);
  const stats = computeCountryStatistics(country);

  // food
  const foodTurns = turnsLeft(country.food, flow.food);
  if (foodTurns < ADVISOR_WATCH_TURNS) {
    const perFarm = Math.max(1, computeProductionPerTurn({ ...country, buildings: { ...country.buildings, farms: country.buildings.farms + 1 } }).food - flow.food);
    const wanted = Math.ceil(-flow.food / perFarm);
    const buildable = Math.min(wanted, computeMaxBuildable(country, {}, "farms"));
    list.push({
      id: "food",
      title: "Expand food production",
      description: `Food falls by ${fmt(-flow.food)} bushels per turn and lasts ${plural(foodTurns, "more turn")}. ${plural(wanted, "farm")} would cover the loss.`,
      priority: foodTurns < ADVISOR_URGENT_TURNS ? "high" : "medium",
      ...(buildable > 0
        ? { action: { kind: "build", building: "farms", quantity: buildable }, actionLabel: `BUILD ${plural(buildable, "FARM").toUpperCase()}` }
        : { action: { kind: "navigate", view: "market", intent: "store" }, actionLabel: "BUY FOOD" }),
    });
  }

  // cash, war costs included
  const cash = computeCashFlowPerTurn(country, context.warCostPerTurn ?? 0).net;
  const cashTurns = turnsLeft(country.cash, cash);
  if (cashTurns < ADVISOR_WATCH_TURNS) {
    const buildable = Math.min(5, computeMaxBuildable(country, {}, "enterprise_zones"));
    list.push({
      id: "cash",
      title: "Stop the cash drain",
      description: `Expenses exceed income by $${fmt(-cash)} per turn${(context.warCostPerTurn ?? 0) > 0 ? `, wars included ($${fmt(context.warCostPerTurn!)})` : ""}; the treasury lasts ${plural(cashTurns, "more turn")}.`,
      priority: cashTurns < ADVISOR_URGENT_TURNS ? "high" : "medium",
      ...(buildable > 0
        ? { action: { kind: "build", building: "enterprise_zones", quantity: buildable }, actionLabel: `BUILD ${plural(buildable, "ENTERPRISE ZONE").toUpperCase()}` }
        : { action: { kind: "navigate", view: "military", intent: "production" }, actionLabel: "REVIEW MILITARY" }),
    });
  }

  // turns at the cap
  if (country.turns >= MAX_TURNS) {
    list.push({
      id: "turns",
      title: "Use your turns",
      description: `Turns are at the ${MAX_TURNS} cap: every new turn goes to storage. Spend some exploring or building.`,
      priority: "high",
      action: { kind: "navigate", view: "explore" },
      actionLabel: "EXPLORE",
    });
  } else if (country.storedTurns > 0) {
    const quantity = Math.min(country.storedTurns, MAX_TURNS - country.turns);
    list.push({
      id: "stored-turns",
      title: "Convert stored turns",
      description: `${plural(country.storedTurns, "stored turn")} wait in reserve; ${plural(quantity, "turn")} fit under the ${MAX_TURNS} cap.`,
      priority: "medium",
      action: { kind: "convert_turns", quantity },
      actionLabel: `CONVERT ${quantity}`,
    });
  }

  // military readiness
  if (stats.militaryLandRatio < ADVISOR_WEAK_FORCES_PER_ACRE) {
    list.push({
      id: "military",
      title: "Increase military readiness",
      description: `${fmt(stats.totalForces)} units defend ${plural(country.land, "acre")} (${stats.militaryLandRatio.toFixed(2)} per acre; ${ADVISOR_WEAK_FORCES_PER_ACRE} or more is advised).`,
      priority: stats.militaryLandRatio < ADVISOR_CRITICAL_FORCES_PER_ACRE ? "high" : "medium",
      action: { kind: "navigate", view: "market", intent: "store" },
      actionLabel: "BUY TROOPS",
    });
  }

  // research
  const tech = cheapestAffordableTechnology(country);
  if (tech) {
    list.push({
      id: "research",
      title: "Advance technology research",
      description: `${fmt(country.researchPoints)} research points are unspent: ${TECHNOLOGIES[tech.id].name} level ${country.tech[tech.id] + 1} costs ${fmt(tech.cost)}.`,
      priority: "medium",
      action: { kind: "research", technology: tech.id, points: tech.cost },
      actionLabel: `RESEARCH ${TECHNOLOGIES[tech.id].name.toUpperCase()}`,
    });
  } else if (country.buildings.research_labs === 0) {
    const buildable = Math.min(1, computeMaxBuildable(country, {}, "research_labs"));
    list.push({
      id: "research",
      title: "Advance technology research",
      description: "Without research labs no research points are made; each lab yields 100 points per turn.",
      priority: "low",
      ...(buildable > 0 ? { action: { kind: "build", building: "research_labs", quantity: 1 }, actionLabel: "BUILD A RESEARCH LAB" } : { action: { kind: "navigate", view: "build" }, actionLabel: "OPEN BUILD" }),
    });
  }

  // free land
  const free = computeFreeLand(country);
  if (country.land > 0 && free * 100 > country.land * ADVISOR_FREE_LAND_PCT) {
    list.push({
      id: "land",
      title: "Build on free land",
      description: `${plural(free, "acre")} of ${fmt(country.land)} are unbuilt.`,
      priority: "low",
      action: { kind: "navigate", view: "build" },
      actionLabel: "OPEN BUILD",
    });
  }

  // alliance
  if (context.allianceId === null) {
    list.push({
      id: "alliance",
      title: "Alliance opportunities",
      description: "You belong to no alliance: members share bonuses, defend each other and trade privately.",
      priority: "low",
      action: { kind: "navigate", view: "alliances" },
      actionLabel: "FIND AN ALLIANCE",
    });
  }

  return list
    .map((r, i) => ({ r, i }))
    .sort((a, b) => ADVISOR_PRIORITY_ORDER[a.r.priority] - ADVISOR_PRIORITY_ORDER[b.r.priority] || a.i - b.i)
    .map(({ r }) => r);
}

// ---------------------------------------------------------------------------------------
// Situation analysis

export type SituationLevel = "good" | "fair" | "poor";

export interface SituationEntry {
  id: "military" | "economic" | "research" | "territorial" | "food";
  title: string;
  level: SituationLevel;
  /** the label computed from the numbers ("Strong", "Declining", ...) */
  label: string;
  figures: { label: string; value: string }[];
}

/** The situation analysis: military, economic, research, territorial and food, labelled from real numbers. */
export function computeSituation(country: CountryState, warCostPerTurn = 0): SituationEntry[] {
  const flow = computeProductionPerTurn(country);
  const cash = computeCashFlowPerTurn(country, warCostPerTurn).net;
  const stats = computeCountryStatistics(country);
  const free = computeFreeLand(country);
  const foodTurns = turnsLeft(country.food, flow.food);
  const researchPct = Math.round((stats.totalTechLevels * 100) / TOTAL_MAX_TECH_LEVELS);
  const pointsPerTurn = computeResearchPointsPerTurn(country);
  const ratio = stats.militaryLandRatio;
  return [
    {
      id: "military",
      title: "Military",
      level: ratio >= ADVISOR_STRONG_FORCES_PER_ACRE ? "good" : ratio >= ADVISOR_WEAK_FORCES_PER_ACRE ? "fair" : "poor",
      label: ratio >= ADVISOR_STRONG_FORCES_PER_ACRE ? "Strong" : ratio >= ADVISOR_WEAK_FORCES_PER_ACRE ? "Adequate" : "Weak",
      figures: [
        { label: "Forces (troops + jets + tanks + turrets)", value: fmt(stats.totalForces) },
        { label: "Per acre", value: ratio.toFixed(2) },
      ],
    },
    {
      id: "economic",
      title: "Economic",
      level: cash > 0 ? "good" : cash === 0 ? "fair" : "poor",
      label: cash > 0 ? "Growing" : cash === 0 ? "Stable" : "Declining",
      figures: [
        { label: "Treasury", value: `$${fmt(country.cash)}` },
        { label: "Networth", value: fmt(stats.networth) },
        { label: "Net cash per turn", value: `${cash < 0 ? "-" : "+"}$${fmt(Math.abs(cash))}` },
        ...(warCostPerTurn > 0 ? [{ label: "Wars per turn", value: `-$${fmt(warCostPerTurn)}` }] : []),
      ],
    },
    {
      id: "research",
      title: "Research",
      level: pointsPerTurn === 0 ? "poor" : researchPct >= 25 ? "good" : "fair",
      label: pointsPerTurn === 0 ? "No labs" : researchPct >= 25 ? "Advanced" : "Developing",
      figures: [
        { label: "Tech levels (all eleven)", value: `${fmt(stats.totalTechLevels)} of ${fmt(TOTAL_MAX_TECH_LEVELS)}` },
        { label: "Points per turn", value: fmt(pointsPerTurn) },
        { label: "Unspent points", value: fmt(country.researchPoints) },
      ],
    },
    {
      id: "territorial",
      title: "Territorial",
      level: free * 100 > country.land * ADVISOR_FREE_LAND_PCT ? "fair" : "good",
      label: free * 100 > country.land * ADVISOR_FREE_LAND_PCT ? "Underbuilt" : "Built up",
      figures: [
        { label: "Land", value: `${fmt(country.land)} acres` },
        { label: "Free land", value: `${fmt(free)} acres` },
      ],
    },
    {
      id: "food",
      title: "Food",
      level: foodTurns < ADVISOR_URGENT_TURNS ? "poor" : foodTurns < ADVISOR_WATCH_TURNS ? "fair" : "good",
      label: foodTurns === Infinity ? "Surplus" : foodTurns < ADVISOR_URGENT_TURNS ? "Famine ahead" : `Lasts ${plural(foodTurns, "turn")}`,
      figures: [
        { label: "Food", value: `${fmt(country.food)} bushels` },
        { label: "Net per turn", value: `${flow.food < 0 ? "-" : "+"}${fmt(Math.abs(flow.food))}` },
      ],
    },
  ];
}

// ---------------------------------------------------------------------------------------
// Government advisor

export interface GovernmentFit {
  government: GovernmentType;
  /** the fit score (higher fits better; 0 = no better than neutral) */
  score: number;
  /** the bonuses that counted most for this country, as the player reads them */
  reasons: string[];
}

/**
 * How well each government fits the country: the sum over its bonuses of (percent - 100),
 * sign-adjusted so a saving counts as a gain, times a weight from the country (docs/rules.md,
 * "Government advisor"): tax weighs by cash income, research by labs, military bonuses by
 * forces per acre and complexes, construction by free land, maintenance by buildings, food
 * and oil by their shortfalls. Sorted best first.
 */
export function computeGovernmentFit(country: CountryState): GovernmentFit[] {
  const flow = computeProductionPerTurn(country);
  const stats = computeCountryStatistics(country);
  const free = computeFreeLand(country);
  const built = country.land - free;
  const clamp = (x: number) => Math.max(0, Math.min(2, x));
  const upkeep = computeMilitaryUpkeep(country);
  const maintenance = computeBuildingMaintenance(country.buildings, country.governmentType);
  const weights = {
    tax: 1,
    research: country.buildings.research_labs > 0 ? clamp((country.buildings.research_labs / Math.max(1, built)) * 10) + 0.3 : 0.1,
    military: clamp(stats.militaryLandRatio / ADVISOR_STRONG_FORCES_PER_ACRE) + 0.2,
    production: country.buildings.industrial_complexes > 0 ? clamp((country.buildings.industrial_complexes / Math.max(1, built)) * 10) + 0.2 : 0,
    upkeep: upkeep > 0 ? clamp(upkeep / Math.max(1, upkeep + maintenance)) + 0.2 : 0,
    maintenance: maintenance > 0 ? clamp(maintenance / Math.max(1, upkeep + maintenance)) + 0.2 : 0,
    construction: country.land > 0 ? clamp((free / country.land) * 2) + 0.2 : 0.2,
    exploration: 0.4,
    food: flow.food < 0 ? 1.5 : 0.3,
    oil: flow.oil < 0 ? 1.2 : 0.2,
    population: 0.5,
  };
  return GOVERNMENT_TYPES.map((id) => {
    const g = GOVERNMENTS[id];
    const parts: { text: string; value: number }[] = [
      { text: "tax", value: (g.taxPct - 100) * weights.tax },
      { text: "research", value: (g.researchPct - 100) * weights.research },
      { text: "military strength", value: ((g.strengthPct - 100) / 5) * weights.military },
      { text: "unit production", value: (g.unitProductionPct - 100) * weights.production },
      { text: "military upkeep", value: (100 - g.militaryUpkeepPct) * weights.upkeep },
      { text: "building maintenance", value: (100 - g.buildingMaintenancePct) * weights.maintenance },
      { text: "construction", value: (100 - g.constructionCostPct + (g.buildingsPerTurnPct - 100) / 2) * weights.construction },
      { text: "exploration", value: (g.explorationAcresPct - 100 + (100 - g.explorationCostPct)) * weights.exploration },
      { text: "food", value: (g.foodProductionPct - 100) * weights.food },
      { text: "oil", value: ((g.oilProductionPct - 100) / 3) * weights.oil },
      { text: "population growth", value: (g.populationGrowthPct - 100) * weights.population },
    ];
    const score = Math.round(parts.reduce((s, p) => s + p.value, 0));
    const reasons = parts
      .filter((p) => Math.abs(p.value) >= 1)
      .sort((a, b) => Math.abs(b.value) - Math.abs(a.value))
      .slice(0, 3)
      .map((p) => `${p.value > 0 ? "+" : "-"} ${p.text}`);
    return { government: id, score, reasons };
  }).sort((a, b) => b.score - a.score || GOVERNMENT_TYPES.indexOf(a.government) - GOVERNMENT_TYPES.indexOf(b.government));
}
