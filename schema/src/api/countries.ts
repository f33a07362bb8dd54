import { z } from "zod";
import type { GovernmentType, TechnologyId } from "../rules/country.js";
import { idSchema, limitSchema, offsetSchema } from "./common.js";

/** GET /api/countries?limit=&offset= */
export const countryListQuerySchema = z.object({
  limit: limitSchema(100, 500),
  offset: offsetSchema,
});

export const countryIdParamsSchema = z.object({ id: idSchema });

/**
 * What anybody may see of a country (GET /countries, another player's GET /country/{id}):
 * identity, government, size and record. Never cash, food, oil, population, units or spies.
 * Big numbers travel as numeric strings (bigint columns).
 */
export interface PublicCountryJson {
  id: number;
  name: string;
  government_type: GovernmentType;
  /** numeric string */
  networth: string;
  /** acres, numeric string */
  land: string;
  is_ai: boolean;
  is_eliminated: boolean;
  alliance_id: number | null;
  gdi_protection: boolean;
  protection_status: "gdi_protected" | "unprotected";
  victories: number;
  defeats: number;
  total_battles: number;
  /** ISO time */
  last_active: string;
  /** ISO time */
  created_at: string;
}

/** The level column of every research category: military_tech, medical_tech, ... */
export type TechColumnJson = Record<`${TechnologyId}_tech`, number>;

/**
 * Everything the owner sees of their own country (their GET /country/{id}, and the `country`
 * of every action's answer). Field names are the spec's server fields (government_type, turns,
 * land, residential_areas, gdi_protection); resources and units are numeric strings.
 */
export interface OwnCountryJson extends PublicCountryJson, TechColumnJson {
  has_used_free_government_change: boolean;
  government_change_count: number;
  /** dollars, numeric string */
  cash: string;
  turns: number;
  stored_turns: number;
  /** bushels, numeric string */
  food: string;
  /** barrels, numeric string */
  oil: string;
  population: string;
  troops: string;
  jets: string;
  turrets: string;
  tanks: string;
  spies: string;
  missiles: string;
  farms: number;
  residential_areas: number;
  industrial_complexes: number;
  research_labs: number;
  construction_sites: number;
  military_bases: number;
  oil_rigs: number;
  enterprise_zones: number;
  /** numeric string */
  research_points: string;
  /** percent of unit production per unit type */
  unit_allocation: { troops: number; jets: number; turrets: number; tanks: number };
  /** acres, numeric string */
  total_land_captured: string;
  combat_efficiency: number;
  /** dollars, numeric string */
  war_expenses: string;
  tutorial_completed: boolean;
}

/** GET /country/{id} and /countries/{id}: the owner gets the own view, anyone else the public one. */
export type CountryResponse =
  | { country: OwnCountryJson; message: "Own country" }
  | { country: PublicCountryJson; message: "Public view" };

/** GET /countries (and /countries/ai): one page of public views by networth. */
export interface CountryListResponse {
  countries: PublicCountryJson[];
  /** countries in the whole list */
  total: number;
  /** the caller's own country (GET /countries only) */
  ownCountryId?: number | null;
}
