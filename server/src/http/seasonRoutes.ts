import { routes } from "@game/schema/routes";
import type { ServiceContext } from "../services/context.js";
import { archivedSeasonScores, currentSeason, seasonHistory, seasonProgress, seasonScores, toSeasonJson } from "../services/season.js";
import { ownCountry } from "./handler.js";
import type { ApiPipeline } from "./pipeline.js";

/** /season/current, /season/scores[?season=], /season/history, /season/progress */
export function seasonRoutes(ctx: ServiceContext, api: ApiPipeline): void {
  api.handle(routes.currentSeason, async () => ({ data: toSeasonJson(await currentSeason(ctx)) }));

  api.handle(routes.seasonScores, async (call) => {
    const { season, limit } = call.query;
    // ?season={id}: that season's archived final scores (current or past)
    if (season !== undefined) return { data: await archivedSeasonScores(ctx, season, limit) };
    return { data: await seasonScores(ctx) };
  });

  api.handle(routes.seasonHistory, async () => ({ data: await seasonHistory(ctx) }));

  api.handle(routes.seasonProgress, async (call) => {
    const { country } = await ownCountry(ctx, call);
    return seasonProgress(ctx, country.id);
  });
}
