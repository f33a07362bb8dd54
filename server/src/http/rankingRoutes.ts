import { Router } from "express";
import { metricRankingQuerySchema, rankingsQuerySchema } from "@game/schema/api";
import { RANKING_METRIC_IDS } from "@game/schema/rules";
import { achievementsOverview, metricRanking } from "../services/rankings.js";
import type { ServiceContext } from "../services/context.js";
import { countryOfUser } from "../services/countries.js";
import { loadRankingOf, loadRankings, toRankingJson } from "../services/world.js";
import { authenticate, parse, route } from "./handler.js";

/** /rankings/networth?limit=[&period=][&playersOnly=true], /rankings/{land,military,population,wars_won}?period=&limit=[&playersOnly=true], /rankings/achievements */
export function rankingRoutes(ctx: ServiceContext): Router {
  const router = Router();

  router.get(
    "/rankings/networth",
    route("Failed to get rankings", async (req) => {
      const claims = await authenticate(ctx, req);
      // ?period= asks for the metric ranking with the change over the period (as the other metrics answer)
      if (req.query.period !== undefined) {
        const { period, limit, playersOnly } = parse(metricRankingQuerySchema, req.query);
        return { data: await metricRanking(ctx, "networth", period, limit, claims.countryId, playersOnly === "true") };
      }
      const { limit, playersOnly } = parse(rankingsQuerySchema, req.query);
      const onlyPlayers = playersOnly === "true";
      const rows = await loadRankings(ctx, limit, onlyPlayers);
      // Spec: the current country is appended if it is missing from the list.
      const own = await countryOfUser(ctx, claims.userId);
      if (own && !rows.some((r) => r.countryId === own.id)) {
        const ownRow = await loadRankingOf(ctx, own.id, onlyPlayers);
        if (ownRow) rows.push(ownRow);
      }
      return { data: rows.map(toRankingJson) };
    }),
  );

  // The other four metrics: one explicit path each, so /rankings/alliances stays the alliances'.
  for (const metric of RANKING_METRIC_IDS.filter((m) => m !== "networth")) {
    router.get(
      `/rankings/${metric}`,
      route("Failed to get rankings", async (req) => {
        const claims = await authenticate(ctx, req);
        const { period, limit, playersOnly } = parse(metricRankingQuerySchema, req.query);
        return { data: await metricRanking(ctx, metric, period, limit, claims.countryId, playersOnly === "true") };
      }),
    );
  }

  router.get(
    "/rankings/achievements",
    route("Failed to get rankings", async (req) => {
      const claims = await authenticate(ctx, req);
      return { data: await achievementsOverview(ctx, claims.countryId) };
    }),
  );

  return router;
}
