import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import type { KnownIntelligenceResponse, IntelligenceReportJson, IntelligenceReportsResponse, IntelligenceStatusJson, MissionRequest, MissionResponse, ReportSort, SpyExecuteRequest } from "@game/schema/api";
import type { IntelType } from "@game/schema/rules";
import { routes } from "@game/schema/routes";
import { callRoute } from "./http";
import { queryKeys } from "./queries";

/**
 * Espionage calls (REST) and their react-query hooks: the spec's POST /spy/execute, the
 * Intelligence Center's missions, status, reports, sharing, training and privacy.
 */
export const ESPIONAGE_FALLBACK = {
  execute: "Operation failed",
  status: "Failed to get intelligence status",
  reports: "Failed to get intelligence reports",
  report: "Failed to get intelligence report",
  share: "Failed to share intelligence",
  shared: "Failed to get shared intelligence",
  train: "Failed to train spies",
  privacy: "Failed to update privacy settings",
} as const;

export const espionageKeys = {
  all: ["espionage"] as const,
  status: (id: number, target: number | null) => ["espionage", "status", id, target] as const,
  reports: (q: ReportsFilter) => ["espionage", "reports", q] as const,
  report: (id: number) => ["espionage", "report", id] as const,
  shared: ["espionage", "shared"] as const,
  known: ["espionage", "known"] as const,
};

export interface ReportsFilter {
  search: string;
  type: "all" | IntelType;
  sort: ReportSort;
  page: number;
  limit: number;
}

export const espionageApi = {
  async status(countryId: number, targetCountryId: number | null): Promise<IntelligenceStatusJson> {
    return (await callRoute(routes.intelligenceStatus, { params: { countryId }, query: { targetCountryId: targetCountryId ?? undefined } })).status;
  },
  execute(body: SpyExecuteRequest): Promise<MissionResponse> {
    return callRoute(routes.spyExecute, body);
  },
  mission(body: MissionRequest): Promise<MissionResponse> {
    return callRoute(routes.mission, body);
  },
  reports(f: ReportsFilter): Promise<IntelligenceReportsResponse> {
    return callRoute(routes.intelligenceReports, { query: { type: f.type, sort: f.sort, page: f.page, limit: f.limit, search: f.search.trim() || undefined } });
  },
  async report(id: number): Promise<IntelligenceReportJson> {
    return (await callRoute(routes.intelligenceReport, { params: { id } })).report;
  },
  async share(id: number): Promise<IntelligenceReportJson> {
    return (await callRoute(routes.shareReport, { params: { id } })).report;
  },
  async shared(): Promise<IntelligenceReportJson[]> {
    return (await callRoute(routes.sharedIntelligence)).reports;
  },
  async known(): Promise<KnownIntelligenceResponse["known"]> {
    return (await callRoute(routes.knownIntelligence)).known;
  },
  train(countryId: number, quantity: number) {
    return callRoute(routes.spyTrain, { countryId, quantity });
  },
  privacy(countryId: number, allowSpyOperations: boolean) {
    return callRoute(routes.intelligencePrivacy, { countryId, allowSpyOperations });
  },
};

export function useIntelligenceStatus(countryId: number | null | undefined, targetCountryId: number | null = null) {
  return useQuery({
    queryKey: espionageKeys.status(countryId ?? 0, targetCountryId),
    queryFn: () => espionageApi.status(countryId!, targetCountryId),
    enabled: typeof countryId === "number" && countryId > 0,
    placeholderData: keepPreviousData,
  });
}

export function useIntelligenceReports(filter: ReportsFilter, enabled = true) {
  return useQuery({ queryKey: espionageKeys.reports(filter), queryFn: () => espionageApi.reports(filter), enabled, placeholderData: keepPreviousData });
}

export function useSharedIntelligence(enabled = true) {
  return useQuery({ queryKey: espionageKeys.shared, queryFn: () => espionageApi.shared(), enabled });
}

/** What the player knows of each target's forces (military's target analysis). */
export function useKnownIntelligence(enabled = true) {
  return useQuery({ queryKey: espionageKeys.known, queryFn: () => espionageApi.known(), enabled, staleTime: 30_000 });
}

/** Refreshes what an operation changes: the espionage queries and the own country (spies, turns). */
export function useEspionageRefresh(countryId: number | null | undefined) {
  const queryClient = useQueryClient();
  return useCallback(() => {
    void queryClient.invalidateQueries({ queryKey: espionageKeys.all });
    if (countryId) void queryClient.invalidateQueries({ queryKey: queryKeys.country(countryId) });
  }, [queryClient, countryId]);
}

/** An operation of either centre, refreshing afterwards. */
export function useSpyAction<A, R>(countryId: number | null | undefined, fn: (arg: A) => Promise<R>) {
  const refresh = useEspionageRefresh(countryId);
  return useMutation({ mutationFn: fn, onSettled: refresh });
}
