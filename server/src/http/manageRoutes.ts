import { Router } from "express";
import { countryOptionsRequestSchema, type CountryOptionsResponse, type IntelligenceBriefsResponse } from "@game/schema/api";
import { intelligenceBriefs } from "../services/countries.js";
import type { ServiceContext } from "../services/context.js";
import { readCountryOptions, writeCountryOptions } from "../services/manage.js";
import { ownCountry, parse, route } from "./handler.js";
import { tooManyRequests } from "../errors.js";

/**
 * Country management: the Manage view's Settings options of the caller's own country
 * (GET/PUT /manage/options). Government change and stored-turn conversion are economy routes.
 */
export function manageRoutes(ctx: ServiceContext): Router {
  const router = Router();
  const limiter = ctx.limiter.define({ name: "manage_options", points: 30, durationSeconds: 60 });

  router.get(
    "/manage/options",
    route("Failed to get country options", async (req) => {
      const { country } = await ownCountry(ctx, req);
      return { options: await readCountryOptions(ctx, country.id) } satisfies Omit<CountryOptionsResponse, "success">;
    }),
  );

  router.put(
    "/manage/options",
    route("Failed to save country options", async (req) => {
      const body = parse(countryOptionsRequestSchema, req.body);
      const { claims, country } = await ownCountry(ctx, req);
      const refused = await limiter.tryTake(String(claims.userId));
      if (refused) throw tooManyRequests("Too many changes, please wait a minute", "manage/rate_limited", refused.retryAfterSeconds);
      return { options: await writeCountryOptions(ctx, country.id, body) } satisfies Omit<CountryOptionsResponse, "success">;
    }),
  );

  // Intelligence briefs of the caller's own country (News and Intelligence > Intelligence Briefs).
  router.get(
    "/news/briefs",
    route("Failed to get intelligence briefs", async (req) => {
      const { country } = await ownCountry(ctx, req);
      return { briefs: await intelligenceBriefs(ctx, country, new Date()) } satisfies Omit<IntelligenceBriefsResponse, "success">;
    }),
  );

  return router;
}
