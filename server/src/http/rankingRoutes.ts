import { Router } from "express";
import { rankingsQuerySchema } from "@game/schema/api";
import type { ServiceContext } from "../services/context.js";
import { findCountryByUserId } from "../db/countries.js";
import { loadRankingOf, loadRankings, toRankingJson } from "../services/world.js";
import { authenticate, parse, route } from "./handler.js";

/** /rankings/networth?limit= */
export function rankingRoutes(ctx: ServiceContext): Router {
  const router = Router();

  router.get(
    "/rankings/networth",
    route("Failed to get rankings", async (req) => {
      const claims = await authenticate(ctx, req);
      const { limit } = parse(rankingsQuerySchema, req.query);
      const rows = await loadRankings(ctx, limit);
      // Spec: the current country is appended if it is missing from the list.
      const own = await findCountryByUserId(ctx.db, claims.userId);
      if (own && !rows.some((r) => r.countryId === own.id)) {
        const ownRow = await loadRankingOf(ctx, own.id);
        if (ownRow) rows.push(ownRow);
      }
      return { data: rows.map(toRankingJson) };
    }),
  );

  return router;
}
