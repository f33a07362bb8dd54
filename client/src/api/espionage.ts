import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import type { KnownIntelligenceResponse, IntelligenceReportJson, IntelligenceReportsResponse, IntelligenceStatusJson, MissionRequest, MissionResponse, ReportSort, SpyExecuteRequest } from "@game/schema/api";
import type { IntelType } from "@game/schema/rules";
import { apiRequest } from "./http";
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
    const q = targetCountryId ? `?targetCountryId=${targetCountryId}` : "";
    return (await apiRequest<{ status: IntelligenceStatusJson }>("GET", `/intelligence/status/${countryId}${q}`, { fallback: ESPIONAGE_FALLBACK.status })).status;
  },
  execute(body: SpyExecuteRequest): Promise<MissionResponse> {
    return apiRequest<MissionResponse>("POST", "/spy/execute", { fallback: ESPIONAGE_FALLBACK.execute, body });
  },
  mission(body: MissionRequest): Promise<MissionResponse> {
    return apiRequest<MissionResponse>("POST", "/intelligence/missions", { fallback: ESPIONAGE_FALLBACK.execute, body });
  },
  reports(f: ReportsFilter): Promise<IntelligenceReportsResponse> {
    const params = new URLSearchParams({ type: f.type, sort: f.sort, page: String(f.page), limit: String(f.limit) });
    if (f.search.trim()) params.set("search", f.search.trim());
    return apiRequest<IntelligenceReportsResponse>("GET", `/intelligence/reports?${params}`, { fallback: ESPIONAGE_FALLBACK.reports });
  },
  async report(id: number): Promise<IntelligenceReportJson> {
    return (await apiRequest<{ report: IntelligenceReportJson }>("GET", `/intelligence/reports/${id}`, { fallback: ESPIONAGE_FALLBACK.report })).report;
  },
  async share(id: number): Promise<IntelligenceReportJson> {
    return (await apiRequest<{ report: IntelligenceReportJson }>("POST", `/intelligence/reports/${id}/share`, { fallback: ESPIONAGE_FALLBACK.share, body: {} })).report;
  },
  async shared(): Promise<IntelligenceReportJson[]> {
    return (await apiRequest<{ reports: IntelligenceReportJson[] }>("GET", "/intelligence/shared", { fallback: ESPIONAGE_FALLBACK.shared })).reports;
  },
  async known(): Promise<KnownIntelligenceResponse["known"]> {
    return (await apiRequest<KnownIntelligenceResponse>("GET", "/intelligence/known", { fallback: "Failed to get intelligence" })).known;
  },
  train(countryId: number, quantity: number) {
    return apiRequest<{ trained: number; spies: number; turnsSpent: number; cost: number }>("POST", "/spy/train", { fallback: ESPIONAGE_FALLBACK.train, body: { countryId, quantity } });
  },
  privacy(countryId: number, allowSpyOperations: boolean) {
    return apiRequest<{ allowSpyOperations: boolean }>("POST", "/intelligence/privacy", { fallback: ESPIONAGE_FALLBACK.privacy, body: { countryId, allowSpyOperations } });
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
