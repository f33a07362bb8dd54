import type { OwnCountryJson, PublicCountryJson } from "@game/schema/api";
import type { BuildingCounts, CountryState, GovernmentType, TechLevels } from "@game/schema/rules";
import { TECHNOLOGY_IDS, isGovernmentType } from "@game/schema/rules";

/** The client's country model (spec document 1, section 3). Every number is an integer. */
export interface Country {
  id: number;
  name: string;
  governmentType: GovernmentType;
  hasUsedFreeGovernmentChange: boolean;
  governmentChangeCount: number;
  cash: number;
  networth: number;
  /** server field `turns` */
  turnNumber: number;
  turnsAvailable: number;
  storedTurns: number;
  /** server field `land` */
  landAcres: number;
  isEliminated: boolean;
  victories: number;
  defeats: number;
  totalBattles: number;
  totalLandCaptured: number;
  combatEfficiency: number;
  warExpenses: number;
  isAI: boolean;
  allianceId: number | null;
  /** server field `gdi_protection` */
  isGDIMember: boolean;
  missiles: number;
  food: number;
  oil: number;
  population: number;
  troops: number;
  tanks: number;
  jets: number;
  turrets: number;
  spies: number;
  farms: number;
  /** server field `residential_areas` */
  residentialZones: number;
  industrialComplexes: number;
  researchLabs: number;
  constructionSites: number;
  militaryBases: number;
  oilRigs: number;
  enterpriseZones: number;
  agriculturalTech: number;
  businessTech: number;
  militaryTech: number;
  industrialTech: number;
  spyTech: number;
  /** every research category's level (the five above included) */
  techLevels: TechLevels;
  researchPoints: number;
  unitAllocation: { troops: number; jets: number; turrets: number; tanks: number };
  lastActive: string | null;
  createdAt: string | null;
}

/** Parses a numeric string or number to an integer; anything else is 0 (spec: default 0). */
export function toInt(value: unknown): number {
  if (typeof value === "number") return Number.isFinite(value) ? Math.trunc(value) : 0;
  if (typeof value === "string" && value.trim() !== "") {
    const n = Number.parseInt(value, 10);
    return Number.isFinite(n) ? n : 0;
  }
  return 0;
}

/**
 * The one mapping from the server's country JSON (schema/src/api/countries.ts) to the client's
 * Country. The own view has every field; from a public view the private numbers read as 0.
 */
export function mapCountry(country: OwnCountryJson | PublicCountryJson): Country {
  const json: Partial<OwnCountryJson> = country;
  const turns = toInt(json.turns);
  const allocation: Partial<OwnCountryJson["unit_allocation"]> = json.unit_allocation ?? {};
  return {
    id: toInt(country.id),
    name: String(country.name ?? ""),
    governmentType: isGovernmentType(country.government_type) ? country.government_type : "republic",
    hasUsedFreeGovernmentChange: Boolean(json.has_used_free_government_change),
    governmentChangeCount: toInt(json.government_change_count),
    cash: toInt(json.cash),
    networth: toInt(json.networth),
    turnNumber: turns,
    turnsAvailable: turns,
    storedTurns: toInt(json.stored_turns),
    landAcres: toInt(json.land),
    isEliminated: Boolean(json.is_eliminated),
    victories: toInt(json.victories),
    defeats: toInt(json.defeats),
    totalBattles: toInt(json.total_battles),
    totalLandCaptured: toInt(json.total_land_captured),
    combatEfficiency: toInt(json.combat_efficiency),
    warExpenses: toInt(json.war_expenses),
    isAI: Boolean(json.is_ai),
    allianceId: json.alliance_id ?? null,
    isGDIMember: Boolean(json.gdi_protection),
    missiles: toInt(json.missiles),
    food: toInt(json.food),
    oil: toInt(json.oil),
    population: toInt(json.population),
    troops: toInt(json.troops),
    tanks: toInt(json.tanks),
    jets: toInt(json.jets),
    turrets: toInt(json.turrets),
    spies: toInt(json.spies),
    farms: toInt(json.farms),
    residentialZones: toInt(json.residential_areas),
    industrialComplexes: toInt(json.industrial_complexes),
    researchLabs: toInt(json.research_labs),
    constructionSites: toInt(json.construction_sites),
    militaryBases: toInt(json.military_bases),
    oilRigs: toInt(json.oil_rigs),
    enterpriseZones: toInt(json.enterprise_zones),
    agriculturalTech: toInt(json.agricultural_tech),
    businessTech: toInt(json.business_tech),
    militaryTech: toInt(json.military_tech),
    industrialTech: toInt(json.industrial_tech),
    spyTech: toInt(json.spy_tech),
    techLevels: Object.fromEntries(TECHNOLOGY_IDS.map((id) => [id, toInt(json[`${id}_tech`])])) as TechLevels,
    researchPoints: toInt(json.research_points),
    unitAllocation: {
      troops: toInt(allocation.troops),
      jets: toInt(allocation.jets),
      turrets: toInt(allocation.turrets),
      tanks: toInt(allocation.tanks),
    },
    lastActive: json.last_active ?? null,
    createdAt: json.created_at ?? null,
  };
}

/** The owned buildings in the shared rules' shape. */
export function buildingCounts(country: Country): BuildingCounts {
  return {
    enterprise_zones: country.enterpriseZones,
    residences: country.residentialZones,
    industrial_complexes: country.industrialComplexes,
    military_bases: country.militaryBases,
    research_labs: country.researchLabs,
    farms: country.farms,
    oil_rigs: country.oilRigs,
    construction_sites: country.constructionSites,
  };
}

/** The one mapping from the client's Country to the shared rules' CountryState. */
export function toCountryState(country: Country): CountryState {
  return {
    governmentType: country.governmentType,
    cash: country.cash,
    food: country.food,
    oil: country.oil,
    land: country.landAcres,
    population: country.population,
    troops: country.troops,
    jets: country.jets,
    turrets: country.turrets,
    tanks: country.tanks,
    spies: country.spies,
    missiles: country.missiles,
    turns: country.turnsAvailable,
    storedTurns: country.storedTurns,
    buildings: buildingCounts(country),
    tech: { ...country.techLevels },
    researchPoints: country.researchPoints,
    unitAllocation: { ...country.unitAllocation },
  };
}
