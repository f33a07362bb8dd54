import { METRIC_RANKING_ROUTES, routes } from "@game/schema/routes";
import { achievementsOverview, metricRanking } from "../services/rankings.js";
import type { ServiceContext } from "../services/context.js";
import { networthRankingsWithOwn, toRankingJson } from "../services/world.js";
import type { ApiPipeline } from "./pipeline.js";

/** /rankings/networth?limit=[&period=][&playersOnly=true], /rankings/{land,military,population,wars_won}?period=&limit=[&playersOnly=true], /rankings/achievements */
export function rankingRoutes(ctx: ServiceContext, api: ApiPipeline): void {
  api.handle(routes.networthRankings, async (call) => {
    const claims = call.claims!;
    const onlyPlayers = call.query.playersOnly === "true";
    // ?period= asks for the metric ranking with the change over the period (as the other metrics answer)
    if (call.query.period !== undefined) return { data: await metricRanking(ctx, "networth", call.query.period, call.query.limit, claims.countryId, onlyPlayers) };
    // Spec: the current country is appended if it is missing from the list.
    const rows = await networthRankingsWithOwn(ctx, call.query.limit, onlyPlayers, claims.countryId);
    return { data: rows.map(toRankingJson) };
  });

  // The other four metrics: one explicit path each, so /rankings/alliances stays the alliances'.
  for (const metric of ["land", "military", "population", "wars_won"] as const) {
    api.handle(METRIC_RANKING_ROUTES[metric], async (call) => ({ data: await metricRanking(ctx, metric, call.query.period, call.query.limit, call.claims!.countryId, call.query.playersOnly === "true") }));
  }

  api.handle(routes.achievements, async (call) => ({ data: await achievementsOverview(ctx, call.claims!.countryId) }));
}
