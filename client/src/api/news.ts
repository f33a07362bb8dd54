import { useQuery } from "@tanstack/react-query";
import type { AwaySummaryResponse, NewsListResponse } from "@game/schema/api";
import type { NewsCategory, NewsType } from "@game/schema/rules";
import { routes } from "@game/schema/routes";
import { callRoute } from "./http";

/** The news calls' fallback messages. */
export const NEWS_FALLBACK = { list: "Failed to get news", read: "Failed to mark news read", away: "Failed to get the away summary" } as const;

export interface NewsFilter {
  category: NewsCategory | "all";
  type: NewsType | "all";
  page: number;
  limit: number;
}

export const newsKeys = {
  all: ["news"] as const,
  list: (f: NewsFilter) => ["news", f.category, f.type, f.page, f.limit] as const,
};

export const newsApi = {
  /** What happened since `since` (the last visit): GET /news/away-summary. */
  awaySummary(since: Date): Promise<Omit<AwaySummaryResponse, "success">> {
    return callRoute(routes.awaySummary, { query: { since: since.toISOString() } });
  },
  async list(f: NewsFilter): Promise<Omit<NewsListResponse, "success">> {
    return callRoute(routes.news, { query: { category: f.category, type: f.type, page: f.page, limit: f.limit } });
  },
  async read(id: string): Promise<number> {
    return (await callRoute(routes.readNews, { params: { id } })).unreadCount;
  },
  async readAll(): Promise<number> {
    return (await callRoute(routes.readAllNews)).unreadCount;
  },
};

export function useNewsList(filter: NewsFilter, enabled = true) {
  return useQuery({ queryKey: newsKeys.list(filter), queryFn: () => newsApi.list(filter), enabled, staleTime: 10_000 });
}
