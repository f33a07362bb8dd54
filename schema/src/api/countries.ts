import { z } from "zod";
import { idParamSchema, limitSchema, offsetSchema } from "./common.js";
import type { OwnCountryJson, PublicCountryJson } from "./countryFields.js";
import { ownCountryJsonSchema, publicCountryJsonSchema } from "./countryViews.js";
import { int } from "./rulesJson.js";

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
export const countryResponseSchema = z.union([z.object({ country: ownCountryJsonSchema, message: z.literal("Own country") }), z.object({ country: publicCountryJsonSchema, message: z.literal("Public view") })]);
export type CountryResponse = z.infer<typeof countryResponseSchema>;

/**
 * A country as the target lists read it (spec: the target fields): the public view plus the
 * name of its alliance (null without one). protection_status, is_ai and last_active are public
 * fields already.
 */
export const listedCountryJsonSchema = z.intersection(publicCountryJsonSchema, z.object({ alliance_name: z.string().nullable() }));
export type ListedCountryJson = z.infer<typeof listedCountryJsonSchema>;

/** GET /countries (and /countries/ai): one page of public views by networth. */
export const countryListResponseSchema = z.object({
  countries: z.array(listedCountryJsonSchema),
  /** countries in the whole list */
  total: int,
  /** the caller's own country (GET /countries only) */
  ownCountryId: int.nullable().optional(),
});
export type CountryListResponse = z.infer<typeof countryListResponseSchema>;
