import type { ListedCountryJson } from "@game/schema/api";
import { routes } from "@game/schema/routes";
import { findCountryById, listCountries, toOwnCountryJson, toPublicCountryJson, type CountryRow } from "../db/countries.js";
import { allianceLabels } from "../db/alliances.js";
import { notFound } from "../errors.js";
import type { ServiceContext } from "../services/context.js";
import type { ApiPipeline } from "./pipeline.js";
import type { TokenClaims } from "../auth/tokens.js";

/** /country/{id}, /countries/{id}, /countries, /countries/ai */
export function countryRoutes(ctx: ServiceContext, api: ApiPipeline): void {
  /** Public views for the target lists, with each country's alliance name. */
  const listed = async (rows: CountryRow[]): Promise<ListedCountryJson[]> => {
    const now = Date.now();
    const ids = [...new Set(rows.map((r) => r.alliance_id).filter((id): id is number => id !== null))];
    const labels = ids.length ? await allianceLabels(ctx.db, ids) : new Map();
    return rows.map((row) => ({ ...toPublicCountryJson(row, now), alliance_name: row.alliance_id === null ? null : (labels.get(row.alliance_id)?.name ?? null) }));
  };

  /** The owner sees everything; anyone else sees public fields only. A hot route. */
  const showCountry = async (id: number, claims: TokenClaims) => {
    const country = await findCountryById(ctx.db, id);
    if (!country) throw notFound("Country not found", "country/not_found");
    return country.user_id === claims.userId
      ? { country: toOwnCountryJson(country), message: "Own country" as const }
      : { country: toPublicCountryJson(country), message: "Public view" as const };
  };

  // /countries/ai is a fixed path: the pipeline matches it before the pattern /countries/:id.
  api.handle(routes.aiCountries, async (call) => {
    const { rows, total } = await listCountries(ctx.db, { ...call.query, aiOnly: true });
    return { countries: await listed(rows), total };
  });
  api.handle(routes.country, (call) => showCountry(call.params.id, call.claims!));
  api.handle(routes.countryById, (call) => showCountry(call.params.id, call.claims!));

  api.handle(routes.countries, async (call) => {
    const { rows, total } = await listCountries(ctx.db, call.query);
    return { countries: await listed(rows), total, ownCountryId: call.claims!.countryId };
  });
}
