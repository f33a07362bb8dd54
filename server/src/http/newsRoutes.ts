import { Router } from "express";
import { awaySummaryQuerySchema, newsIdParamsSchema, newsQuerySchema, type AwaySummaryResponse, type NewsListResponse, type NewsReadResponse } from "@game/schema/api";
import type { ServiceContext } from "../services/context.js";
import { awaySummary, listNews, markAllRead, markNewsRead } from "../services/news.js";
import { authenticate, parse, route } from "./handler.js";

/** /news, /news/away-summary, /news/{id}/read, /news/read-all */
export function newsRoutes(ctx: ServiceContext): Router {
  const router = Router();

  router.get(
    "/news",
    route("Failed to get news", async (req) => {
      const claims = await authenticate(ctx, req);
      return (await listNews(ctx, claims.userId, parse(newsQuerySchema, req.query))) satisfies Omit<NewsListResponse, "success">;
    }),
  );

  router.get(
    "/news/away-summary",
    route("Failed to get the away summary", async (req) => {
      const claims = await authenticate(ctx, req);
      const { since } = parse(awaySummaryQuerySchema, req.query);
      return (await awaySummary(ctx, claims.userId, new Date(since))) satisfies AwaySummaryResponse;
    }),
  );

  // Declared before /news/:id/read so "read-all" is never read as an id.
  router.post(
    "/news/read-all",
    route("Failed to mark news read", async (req) => {
      const claims = await authenticate(ctx, req);
      return (await markAllRead(ctx, claims.userId)) satisfies NewsReadResponse;
    }),
  );

  router.post(
    "/news/:id/read",
    route("Failed to mark news read", async (req) => {
      const claims = await authenticate(ctx, req);
      const { id } = parse(newsIdParamsSchema, req.params);
      return (await markNewsRead(ctx, claims.userId, id)) satisfies NewsReadResponse;
    }),
  );

  return router;
}
