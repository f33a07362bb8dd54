import { useEffect, useRef } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useSeason } from "../realtime/hooks";
import type {
  AchievementsJson,
  AdminLogEntryJson,
  AdminMeJson,
  AdminUserJson,
  AiCountryJson,
  ArchivedSeasonJson,
  GameSettings,
  MetricRankingJson,
  OwnCountryJson,
  PastSeasonJson,
  SettingsJson,
} from "@game/schema/api";
import type { RankingMetricId, RankingPeriod } from "@game/schema/rules";
import { apiRequest } from "./http";

/** Settings, rankings by metric, seasons' history and administration calls. */
export const shellKeys = {
  settings: ["settings"] as const,
  metric: (metric: RankingMetricId, period: RankingPeriod, playersOnly = false) => ["rankings", metric, period, playersOnly ? "players" : "all"] as const,
  achievements: ["rankings", "achievements"] as const,
  seasonHistory: ["season", "history"] as const,
  seasonScores: (id: number) => ["season", "scores", id] as const,
  adminMe: ["admin", "me"] as const,
  adminUsers: (search: string) => ["admin", "users", search] as const,
  adminLog: ["admin", "log"] as const,
};

type Data<T> = { data: T };

export const shellApi = {
  async settings(): Promise<SettingsJson> {
    return (await apiRequest<Data<SettingsJson>>("GET", "/settings", { fallback: "Failed to get settings" })).data;
  },
  async saveSettings(settings: GameSettings): Promise<SettingsJson> {
    return (await apiRequest<Data<SettingsJson>>("PUT", "/settings", { fallback: "Settings save failed", body: settings })).data;
  },
  async metricRanking(metric: RankingMetricId, period: RankingPeriod, limit = 100, playersOnly = false): Promise<MetricRankingJson> {
    const q = new URLSearchParams({ period, limit: String(limit), ...(playersOnly ? { playersOnly: "true" } : {}) });
    return (await apiRequest<Data<MetricRankingJson>>("GET", `/rankings/${metric}?${q}`, { fallback: "Failed to get rankings" })).data;
  },
  async achievements(): Promise<AchievementsJson> {
    return (await apiRequest<Data<AchievementsJson>>("GET", "/rankings/achievements", { fallback: "Failed to get rankings" })).data;
  },
  async seasonHistory(): Promise<PastSeasonJson[]> {
    return (await apiRequest<Data<PastSeasonJson[]>>("GET", "/season/history", { fallback: "Failed to get season data" })).data;
  },
  async seasonScores(id: number): Promise<ArchivedSeasonJson> {
    return (await apiRequest<Data<ArchivedSeasonJson>>("GET", `/season/scores?season=${id}&limit=20`, { fallback: "Failed to get season scores" })).data;
  },
  async adminMe(): Promise<AdminMeJson> {
    return (await apiRequest<Data<AdminMeJson>>("GET", "/admin/me", { fallback: "Failed to get admin status" })).data;
  },
  async adminUsers(search: string): Promise<AdminUserJson[]> {
    return (await apiRequest<Data<AdminUserJson[]>>("GET", `/admin/users?search=${encodeURIComponent(search)}`, { fallback: "Failed to get players" })).data;
  },
  async adminLog(): Promise<AdminLogEntryJson[]> {
    return (await apiRequest<Data<AdminLogEntryJson[]>>("GET", "/admin/log", { fallback: "Failed to get the admin log" })).data;
  },
  async adminCountry(id: number): Promise<{ country: OwnCountryJson; user: AdminUserJson | null }> {
    return (await apiRequest<Data<{ country: OwnCountryJson; user: AdminUserJson | null }>>("GET", `/admin/countries/${id}`, { fallback: "Failed to get country data" })).data;
  },
  async suspend(userId: number, reason: string): Promise<AdminUserJson> {
    return (await apiRequest<Data<AdminUserJson>>("POST", `/admin/users/${userId}/suspend`, { fallback: "Suspension failed", body: { reason } })).data;
  },
  async unsuspend(userId: number): Promise<AdminUserJson> {
    return (await apiRequest<Data<AdminUserJson>>("POST", `/admin/users/${userId}/unsuspend`, { fallback: "Unsuspension failed", body: {} })).data;
  },
  async announce(message: string): Promise<void> {
    await apiRequest<Data<{ id: string }>>("POST", "/admin/announcements", { fallback: "Announcement failed", body: { message } });
  },
  async endSeason(startNext: boolean): Promise<{ ended: string; started: string | null }> {
    return (await apiRequest<Data<{ ended: string; started: string | null }>>("POST", "/admin/season/end", { fallback: "Ending the season failed", body: { startNext } })).data;
  },
  async aiCountries(): Promise<AiCountryJson[]> {
    return (await apiRequest<Data<AiCountryJson[]>>("GET", "/admin/ai", { fallback: "Failed to get AI countries" })).data;
  },
  async pauseAi(countryId: number, paused: boolean): Promise<AiCountryJson> {
    return (await apiRequest<Data<AiCountryJson>>("POST", `/admin/ai/${countryId}/pause`, { fallback: "Pausing the AI country failed", body: { paused } })).data;
  },
  async startSeason(): Promise<{ started: string }> {
    return (await apiRequest<Data<{ started: string }>>("POST", "/admin/season/start", { fallback: "Starting a season failed", body: {} })).data;
  },
};

export function useSettings() {
  return useQuery({ queryKey: shellKeys.settings, queryFn: shellApi.settings, staleTime: 60_000 });
}

/** Whether the signed-in user is an administrator (the server decides; the menu entry follows). */
export function useIsAdmin(): boolean {
  const q = useQuery({ queryKey: shellKeys.adminMe, queryFn: shellApi.adminMe, staleTime: 5 * 60_000, retry: false });
  return q.data?.isAdmin ?? false;
}

/**
 * A new season resets every country: when the room's season changes name (after it was
 * known), every cached REST answer is refetched (the country, its buildings, rankings...).
 */
export function useSeasonResetRefetch(): void {
  const queryClient = useQueryClient();
  const name = useSeason()?.name ?? "";
  const last = useRef("");
  useEffect(() => {
    if (!name) return;
    if (last.current && last.current !== name) void queryClient.invalidateQueries();
    last.current = name;
  }, [name, queryClient]);
}
