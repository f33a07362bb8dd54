import { z } from "zod";
import { GOVERNMENT_TYPES } from "../rules/country.js";
import { COUNTRY_FIELDS, NULLABLE_COUNTRY_COLUMNS, type CountryField, type CountryFieldView, type OwnCountryJson, type PublicCountryJson } from "./countryFields.js";

/**
 * The two JSON views of the country as zod schemas, derived from COUNTRY_FIELDS like their
 * types: the REST catalogue's answers that carry a country check it with these, and the
 * OpenAPI document describes it from them. A new country field is still one line there.
 */

const PROTECTION_STATUSES = ["unprotected", "gdi_protected", "new_player_protection"] as const;

function fieldSchema(field: CountryField): z.ZodType {
  const base = {
    numeric: () => z.string().regex(/^-?\d+$/),
    int: () => z.number().int(),
    bool: () => z.boolean(),
    text: () => z.string(),
    government: () => z.enum(GOVERNMENT_TYPES),
    time: () => z.string(),
  }[field.format]();
  return (NULLABLE_COUNTRY_COLUMNS as readonly string[]).includes(field.key) ? base.nullable() : base;
}

function viewShape(views: readonly CountryFieldView[]): Record<string, z.ZodType> {
  return Object.fromEntries(COUNTRY_FIELDS.filter((field) => views.includes(field.view)).map((field) => [field.key, fieldSchema(field)]));
}

/** What anybody may see of a country (PublicCountryJson). */
export const publicCountryJsonSchema = z.object({ ...viewShape(["public"]), protection_status: z.enum(PROTECTION_STATUSES) }).meta({ id: "PublicCountry" }) as unknown as z.ZodType<PublicCountryJson>;

/** Everything the owner sees of their own country (OwnCountryJson). */
export const ownCountryJsonSchema = z
  .object({
    ...viewShape(["public", "own"]),
    protection_status: z.enum(PROTECTION_STATUSES),
    unit_allocation: z.object({ troops: z.number(), jets: z.number(), turrets: z.number(), tanks: z.number() }),
  })
  .meta({ id: "OwnCountry" }) as unknown as z.ZodType<OwnCountryJson>;
