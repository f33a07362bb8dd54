import { useEffect, useRef } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useSeason } from "../realtime/hooks";
import type { AchievementsJson, AdminLogEntryJson, AdminMeJson, AdminUserJson, AiCountryJson, ArchivedSeasonJson, GameSettings, MetricRankingJson, OwnCountryJson, PastSeasonJson, SettingsJson } from "@game/schema/api";
import type { RankingMetricId, RankingPeriod } from "@game/schema/rules";
import { METRIC_RANKING_ROUTES, routes } from "@game/schema/routes";
import { callRoute } from "./http";

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

export const shellApi = {
  async settings(): Promise<SettingsJson> {
    return (await callRoute(routes.settings)).data;
  },
  async saveSettings(settings: GameSettings): Promise<SettingsJson> {
    return (await callRoute(routes.saveSettings, settings)).data;
  },
  async metricRanking(metric: RankingMetricId, period: RankingPeriod, limit = 100, playersOnly = false): Promise<MetricRankingJson> {
    // with a period every metric, networth too, answers the metric ranking
    return (await callRoute(METRIC_RANKING_ROUTES[metric], { query: { period, limit, playersOnly: playersOnly ? "true" : "false" } })).data as MetricRankingJson;
  },
  async achievements(): Promise<AchievementsJson> {
    return (await callRoute(routes.achievements)).data;
  },
  async seasonHistory(): Promise<PastSeasonJson[]> {
    return (await callRoute(routes.seasonHistory)).data;
  },
  async seasonScores(id: number): Promise<ArchivedSeasonJson> {
    return (await callRoute(routes.seasonScores, { query: { season: id, limit: 20 } })).data as ArchivedSeasonJson;
  },
  async adminMe(): Promise<AdminMeJson> {
    return (await callRoute(routes.adminMe)).data;
  },
  async adminUsers(search: string): Promise<AdminUserJson[]> {
    return (await callRoute(routes.adminUsers, { query: { search } })).data;
  },
  async adminLog(): Promise<AdminLogEntryJson[]> {
    return (await callRoute(routes.adminLog)).data;
  },
  async adminCountry(id: number): Promise<{ country: OwnCountryJson; user: AdminUserJson | null }> {
    return (await callRoute(routes.adminCountry, { params: { id } })).data;
  },
  async suspend(userId: number, reason: string): Promise<AdminUserJson> {
    return (await callRoute(routes.suspendUser, { params: { id: userId }, body: { reason } })).data;
  },
  async unsuspend(userId: number): Promise<AdminUserJson> {
    return (await callRoute(routes.unsuspendUser, { params: { id: userId } })).data;
  },
  async announce(message: string): Promise<void> {
    await callRoute(routes.announce, { message });
  },
  /**
   * Ends the season that is current when the administrator confirms, by id: a second click, or a
   * season the tick has already rolled over, answers 409 instead of ending the next season.
   */
  async endSeason(startNext: boolean): Promise<{ ended: string; started: string | null }> {
    const current = (await callRoute(routes.currentSeason)).data;
    return (await callRoute(routes.endSeason, { startNext, seasonId: current.id })).data;
  },
  async aiCountries(): Promise<AiCountryJson[]> {
    return (await callRoute(routes.adminAi)).data;
  },
  async pauseAi(countryId: number, paused: boolean): Promise<AiCountryJson> {
    return (await callRoute(routes.pauseAi, { params: { id: countryId }, body: { paused } })).data;
  },
  async startSeason(): Promise<{ started: string }> {
    return (await callRoute(routes.startSeason)).data;
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
