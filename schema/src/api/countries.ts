import { z } from "zod";
import { idParamSchema, limitSchema, offsetSchema } from "./common.js";
import type { OwnCountryJson, PublicCountryJson } from "./countryFields.js";

export type { OwnCountryJson, PublicCountryJson };

/** GET /api/countries?limit=&offset= */
export const countryListQuerySchema = z.object({
  limit: limitSchema(100, 500),
  offset: offsetSchema,
});

export const countryIdParamsSchema = z.object({ id: idParamSchema });

// PublicCountryJson and OwnCountryJson are derived from the one description of the country,
// COUNTRY_FIELDS (countryFields.ts).

/** GET /country/{id} and /countries/{id}: the owner gets the own view, anyone else the public one. */
export type CountryResponse =
  | { country: OwnCountryJson; message: "Own country" }
  | { country: PublicCountryJson; message: "Public view" };

/**
 * A country as the target lists read it (spec: the target fields): the public view plus the
 * name of its alliance (null without one). protection_status, is_ai and last_active are public
 * fields already.
 */
export type ListedCountryJson = PublicCountryJson & { alliance_name: string | null };

/** GET /countries (and /countries/ai): one page of public views by networth. */
export interface CountryListResponse {
  countries: ListedCountryJson[];
  /** countries in the whole list */
  total: number;
  /** the caller's own country (GET /countries only) */
  ownCountryId?: number | null;
}
