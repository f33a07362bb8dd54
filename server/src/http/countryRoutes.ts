import { Router } from "express";
import { countryIdParamsSchema, countryListQuerySchema, type CountryListResponse, type CountryResponse, type ListedCountryJson } from "@game/schema/api";
import { findCountryById, listCountries, toOwnCountryJson, toPublicCountryJson, type CountryRow } from "../db/countries.js";
import { allianceLabels } from "../db/alliances.js";
import { notFound } from "../errors.js";
import type { ServiceContext } from "../services/context.js";
import { authenticate, parse, route, type ApiHandler } from "./handler.js";
import type { DirectRoutes } from "./directRoutes.js";

/** /country/{id}, /countries/{id}, /countries, /countries/ai */
export function countryRoutes(ctx: ServiceContext, direct: DirectRoutes): Router {
  const router = Router();

  /** Public views for the target lists, with each country's alliance name. */
  const listed = async (rows: CountryRow[]): Promise<ListedCountryJson[]> => {
    const now = Date.now();
    const ids = [...new Set(rows.map((r) => r.alliance_id).filter((id): id is number => id !== null))];
    const labels = ids.length ? await allianceLabels(ctx.db, ids) : new Map();
    return rows.map((row) => ({ ...toPublicCountryJson(row, now), alliance_name: row.alliance_id === null ? null : (labels.get(row.alliance_id)?.name ?? null) }));
  };

  /** The owner sees everything; anyone else sees public fields only. On the direct path. */
  const showCountry: ApiHandler = async (call) => {
    const claims = await authenticate(ctx, call);
    const { id } = parse(countryIdParamsSchema, call.params);
    const country = await findCountryById(ctx.db, id);
    if (!country) throw notFound("Country not found", "country/not_found");
    const answer: CountryResponse =
      country.user_id === claims.userId
        ? { country: toOwnCountryJson(country), message: "Own country" }
        : { country: toPublicCountryJson(country), message: "Public view" };
    return answer;
  };

  // /countries/ai must be declared before /countries/:id so "ai" is not read as an id.
  router.get(
    "/countries/ai",
    route("Failed to get AI countries", async (req) => {
      await authenticate(ctx, req);
      const { limit, offset } = parse(countryListQuerySchema, req.query);
      const { rows, total } = await listCountries(ctx.db, { limit, offset, aiOnly: true });
      return { countries: await listed(rows), total } satisfies CountryListResponse;
    }),
  );
  direct.get(router, "/country/:id", "Failed to get country data", showCountry);
  direct.get(router, "/countries/:id", "Failed to get country data", showCountry);

  router.get(
    "/countries",
    route("Failed to get countries", async (req) => {
      const claims = await authenticate(ctx, req);
      const { limit, offset } = parse(countryListQuerySchema, req.query);
      const { rows, total } = await listCountries(ctx.db, { limit, offset });
      return { countries: await listed(rows), total, ownCountryId: claims.countryId } satisfies CountryListResponse;
    }),
  );

  return router;
}
