import { useQuery } from "@tanstack/react-query";
import type { AwaySummaryResponse, NewsListResponse, NewsReadResponse } from "@game/schema/api";
import type { NewsCategory, NewsType } from "@game/schema/rules";
import { apiRequest } from "./http";

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
  awaySummary(since: Date): Promise<AwaySummaryResponse> {
    return apiRequest<AwaySummaryResponse>("GET", `/news/away-summary?since=${encodeURIComponent(since.toISOString())}`, { fallback: NEWS_FALLBACK.away });
  },
  async list(f: NewsFilter): Promise<Omit<NewsListResponse, "success">> {
    const q = new URLSearchParams({ category: f.category, type: f.type, page: String(f.page), limit: String(f.limit) });
    return apiRequest<NewsListResponse>("GET", `/news?${q}`, { fallback: NEWS_FALLBACK.list });
  },
  async read(id: string): Promise<number> {
    return (await apiRequest<NewsReadResponse>("POST", `/news/${encodeURIComponent(id)}/read`, { fallback: NEWS_FALLBACK.read })).unreadCount;
  },
  async readAll(): Promise<number> {
    return (await apiRequest<NewsReadResponse>("POST", "/news/read-all", { fallback: NEWS_FALLBACK.read })).unreadCount;
  },
};

export function useNewsList(filter: NewsFilter, enabled = true) {
  return useQuery({ queryKey: newsKeys.list(filter), queryFn: () => newsApi.list(filter), enabled, staleTime: 10_000 });
}
