import { Router } from "express";
import type { ServiceContext } from "../services/context.js";
import { seasonScoresQuerySchema } from "@game/schema/api";
import type { SeasonProgressResponse } from "@game/schema/api";
import { archivedSeasonScores, currentSeason, seasonHistory, seasonProgress, seasonScores, toSeasonJson } from "../services/season.js";
import { authenticate, ownCountry, parse, route } from "./handler.js";

/** /season/current, /season/scores[?season=], /season/history, /season/progress */
export function seasonRoutes(ctx: ServiceContext): Router {
  const router = Router();

  router.get(
    "/season/current",
    route("Failed to get season data", async (req) => {
      await authenticate(ctx, req);
      return { data: toSeasonJson(await currentSeason(ctx)) };
    }),
  );

  router.get(
    "/season/scores",
    route("Failed to get season scores", async (req) => {
      await authenticate(ctx, req);
      const { season, limit } = parse(seasonScoresQuerySchema, req.query);
      // ?season={id}: that season's archived final scores (current or past)
      if (season !== undefined) return { data: await archivedSeasonScores(ctx, season, limit) };
      return { data: await seasonScores(ctx) };
    }),
  );

  router.get(
    "/season/history",
    route("Failed to get season data", async (req) => {
      await authenticate(ctx, req);
      return { data: await seasonHistory(ctx) };
    }),
  );

  router.get(
    "/season/progress",
    route("Failed to get the season's progress", async (req) => {
      const { country } = await ownCountry(ctx, req);
      return (await seasonProgress(ctx, country.id)) satisfies SeasonProgressResponse;
    }),
  );

  return router;
}
