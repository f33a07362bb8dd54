import { Router } from "express";
import { countryIdParamsSchema, countryListQuerySchema, type CountryListResponse } from "@game/schema/api";
import { countryView, listedCountries } from "../services/countries.js";
import type { ServiceContext } from "../services/context.js";
import { authenticate, parse, route, type ApiHandler } from "./handler.js";
import type { DirectRoutes } from "./directRoutes.js";

/** /country/{id}, /countries/{id}, /countries, /countries/ai */
export function countryRoutes(ctx: ServiceContext, direct: DirectRoutes): Router {
  const router = Router();

  /** The owner sees everything; anyone else sees public fields only. On the direct path. */
  const showCountry: ApiHandler = async (call) => {
    const claims = await authenticate(ctx, call);
    const { id } = parse(countryIdParamsSchema, call.params);
    return countryView(ctx, id, claims.userId);
  };

  // /countries/ai must be declared before /countries/:id so "ai" is not read as an id.
  router.get(
    "/countries/ai",
    route("Failed to get AI countries", async (req) => {
      await authenticate(ctx, req);
      const { limit, offset } = parse(countryListQuerySchema, req.query);
      return (await listedCountries(ctx, { limit, offset, aiOnly: true })) satisfies CountryListResponse;
    }),
  );
  direct.get(router, "/country/:id", "Failed to get country data", showCountry);
  direct.get(router, "/countries/:id", "Failed to get country data", showCountry);

  router.get(
    "/countries",
    route("Failed to get countries", async (req) => {
      const claims = await authenticate(ctx, req);
      const { limit, offset } = parse(countryListQuerySchema, req.query);
      return { ...(await listedCountries(ctx, { limit, offset })), ownCountryId: claims.countryId } satisfies CountryListResponse;
    }),
  );

  return router;
}
