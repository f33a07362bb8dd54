import { routes } from "@game/schema/routes";
import type { ServiceContext } from "../services/context.js";
import { intelligenceBriefs } from "../services/countries.js";
import { readCountryOptions, writeCountryOptions } from "../services/manage.js";
import { ownCountry } from "./handler.js";
import type { ApiPipeline } from "./pipeline.js";
import { tooManyRequests } from "../errors.js";

/**
 * Country management: the Manage view's Settings options of the caller's own country
 * (GET/PUT /manage/options). Government change and stored-turn conversion are economy routes.
 */
export function manageRoutes(ctx: ServiceContext, api: ApiPipeline): void {
  const limiter = ctx.limiter.define({ name: "manage_options", points: 30, durationSeconds: 60 });

  api.handle(routes.countryOptions, async (call) => {
    const { country } = await ownCountry(ctx, call);
    return { options: await readCountryOptions(ctx, country.id) };
  });

  api.handle(routes.saveCountryOptions, async (call) => {
    const { claims, country } = await ownCountry(ctx, call);
    const refused = await limiter.tryTake(String(claims.userId));
    if (refused) throw tooManyRequests("Too many changes, please wait a minute", "manage/rate_limited", refused.retryAfterSeconds);
    return { options: await writeCountryOptions(ctx, country.id, call.body) };
  });

  // Intelligence briefs of the caller's own country (News and Intelligence > Intelligence Briefs).
  api.handle(routes.intelligenceBriefs, async (call) => {
    const { country } = await ownCountry(ctx, call);
    return { briefs: await intelligenceBriefs(ctx, country, new Date()) };
  });
}
