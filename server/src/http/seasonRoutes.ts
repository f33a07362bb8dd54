import { Router } from "express";
import type { ServiceContext } from "../services/context.js";
import { currentSeason, seasonScores, toSeasonJson } from "../services/season.js";
import { authenticate, route } from "./handler.js";

/** /season/current, /season/scores */
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
      return { data: await seasonScores(ctx) };
    }),
  );

  return router;
}
