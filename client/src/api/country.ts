import type { OwnCountryJson, PublicCountryJson } from "@game/schema/api";
import { COUNTRY_FIELDS, NULLABLE_COUNTRY_COLUMNS } from "@game/schema/api/countryFields";
import type { BuildingCounts, CountryState, GovernmentType, TechLevels } from "@game/schema/rules";
import { TECHNOLOGY_IDS, isGovernmentType } from "@game/schema/rules";

/**
 * The client's names of the server fields whose name is not the camelCase of the column
 * (spec document 1, section 3); every other field is its column in camelCase
 * (`industrial_complexes` -> `industrialComplexes`).
 */
const CLIENT_NAMES = {
  turns: "turnNumber",
  land: "landAcres",
  gdi_protection: "isGDIMember",
  residential_areas: "residentialZones",
  is_ai: "isAI",
} as const;

type ShownField = Extract<(typeof COUNTRY_FIELDS)[number], { view: "public" | "own" }>;
type Camel<S extends string> = S extends `${infer Head}_${infer Tail}` ? `${Head}${Capitalize<Camel<Tail>>}` : S;
type ClientName<K extends string> = K extends keyof typeof CLIENT_NAMES ? (typeof CLIENT_NAMES)[K] : Camel<K>;
type ClientValue<F extends ShownField> = F["key"] extends (typeof NULLABLE_COUNTRY_COLUMNS)[number]
  ? number | null
  : F["format"] extends "numeric" | "int"
    ? number
    : F["format"] extends "bool"
      ? boolean
      : F["format"] extends "government"
        ? GovernmentType
        : F["format"] extends "time"
          ? string | null
          : string;

/**
 * The client's country model (spec document 1, section 3), derived from COUNTRY_FIELDS: one
 * property per field of the public and own views, named as above. Every number is an integer.
 * A new country field is still one line in COUNTRY_FIELDS.
 */
export type Country = { [F in ShownField as ClientName<F["key"]>]: ClientValue<F> } & {
  /** the same as turnNumber (server field `turns`) */
  turnsAvailable: number;
  /** every research category's level (the `*_tech` fields) */
  techLevels: TechLevels;
  unitAllocation: { troops: number; jets: number; turrets: number; tanks: number };
};

/** Parses a numeric string or number to an integer; anything else is 0 (spec: default 0). */
export function toInt(value: unknown): number {
  if (typeof value === "number") return Number.isFinite(value) ? Math.trunc(value) : 0;
  if (typeof value === "string" && value.trim() !== "") {
    const n = Number.parseInt(value, 10);
    return Number.isFinite(n) ? n : 0;
  }
  return 0;
}

/** The client's name of a country field (see CLIENT_NAMES). */
export function clientFieldName(key: string): string {
  return (CLIENT_NAMES as Record<string, string>)[key] ?? key.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());
}

const NULLABLE: readonly string[] = NULLABLE_COUNTRY_COLUMNS;

/** One field's value as the client keeps it; what is missing reads as its default (0, false, "", null). */
function clientValue(format: ShownField["format"], key: string, raw: unknown): unknown {
  if (NULLABLE.includes(key)) return raw === null || raw === undefined ? null : toInt(raw);
  switch (format) {
    case "numeric":
    case "int":
      return toInt(raw);
    case "bool":
      return Boolean(raw);
    case "government":
      return isGovernmentType(raw) ? raw : "republic";
    case "time":
      return typeof raw === "string" ? raw : null;
    case "text":
      return typeof raw === "string" ? raw : String(raw ?? "");
  }
}

/**
 * The one mapping from the server's country JSON (schema/src/api/countryFields.ts) to the
 * client's Country, field by field from COUNTRY_FIELDS. The own view has every field; from a
 * public view the private numbers read as 0.
 */
export function mapCountry(country: OwnCountryJson | PublicCountryJson): Country {
  const json = country as Partial<Record<string, unknown>> & Partial<OwnCountryJson>;
  const mapped: Record<string, unknown> = {};
  for (const field of COUNTRY_FIELDS) {
    if (field.view === "internal") continue;
    mapped[clientFieldName(field.key)] = clientValue(field.format, field.key, json[field.key]);
  }
  const allocation: Partial<OwnCountryJson["unit_allocation"]> = json.unit_allocation ?? {};
  mapped.turnsAvailable = mapped.turnNumber;
  mapped.techLevels = Object.fromEntries(TECHNOLOGY_IDS.map((id) => [id, toInt(json[`${id}_tech`])]));
  mapped.unitAllocation = {
    troops: toInt(allocation.troops),
    jets: toInt(allocation.jets),
    turrets: toInt(allocation.turrets),
    tanks: toInt(allocation.tanks),
  };
  return mapped as Country;
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
