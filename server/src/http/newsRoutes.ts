import { routes } from "@game/schema/routes";
import type { ServiceContext } from "../services/context.js";
import { awaySummary, listNews, markAllRead, markNewsRead } from "../services/news.js";
import type { ApiPipeline } from "./pipeline.js";

/** /news, /news/away-summary, /news/{id}/read, /news/read-all */
export function newsRoutes(ctx: ServiceContext, api: ApiPipeline): void {
  api.handle(routes.news, async (call) => listNews(ctx, call.claims!.userId, call.query));
  api.handle(routes.awaySummary, async (call) => awaySummary(ctx, call.claims!.userId, new Date(call.query.since)));
  // A fixed path: the pipeline matches it before the pattern /news/:id/read.
  api.handle(routes.readAllNews, async (call) => markAllRead(ctx, call.claims!.userId));
  api.handle(routes.readNews, async (call) => markNewsRead(ctx, call.claims!.userId, call.params.id));
}
