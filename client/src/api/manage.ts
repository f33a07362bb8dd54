import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import type { TurnResultJson } from "@game/schema/api";
import type { CountryOptions, GovernmentType, ResearchStatus } from "@game/schema/rules";
import { routes, type GovernmentsJson } from "@game/schema/routes";
import { callRoute } from "./http";
import { mapCountry, type Country } from "./country";
import { queryKeys } from "./queries";

/** The spec's fallback messages of these calls. */
export const MANAGE_FALLBACK = {
  researchStatus: "Failed to get research status",
  allocate: "Research allocation failed",
  governments: "Failed to get government data",
  changeGovernment: "Failed to change government",
  options: "Failed to get country options",
  saveOptions: "Failed to save country options",
  convert: "Failed to convert stored turns",
  construct: "Building construction failed",
} as const;

export const manageKeys = {
  research: (id: number) => ["research-status", id] as const,
  governments: ["governments"] as const,
  options: ["country-options"] as const,
};

/** data of GET /governments. */
export type GovernmentsData = GovernmentsJson;

/** What a country-changing call answers, mapped. */
export interface CountryOutcome {
  country: Country;
  turnResult: TurnResultJson | null;
}

export const manageApi = {
  async researchStatus(countryId: number): Promise<ResearchStatus> {
    return (await callRoute(routes.researchStatus, { params: { countryId } })).data;
  },
  async allocate(countryId: number, allocations: Record<string, number>): Promise<CountryOutcome> {
    const res = await callRoute(routes.researchAllocate, { countryId, allocations });
    return { country: mapCountry(res.country), turnResult: res.turnResult ?? null };
  },
  async governments(): Promise<GovernmentsData> {
    return (await callRoute(routes.governments)).data;
  },
  async changeGovernment(governmentType: GovernmentType): Promise<CountryOutcome> {
    const res = await callRoute(routes.changeGovernment, { governmentType });
    return { country: mapCountry(res.country), turnResult: res.turnResult ?? null };
  },
  async options(): Promise<CountryOptions> {
    return (await callRoute(routes.countryOptions)).options;
  },
  async saveOptions(options: CountryOptions): Promise<CountryOptions> {
    return (await callRoute(routes.saveCountryOptions, options)).options;
  },
  async convertStoredTurns(countryId: number, quantity: number): Promise<CountryOutcome> {
    const res = await callRoute(routes.convertStoredTurns, { countryId, quantity });
    return { country: mapCountry(res.country), turnResult: null };
  },
};

export function useResearchStatus(countryId: number | null | undefined) {
  return useQuery({
    queryKey: manageKeys.research(countryId ?? 0),
    queryFn: () => manageApi.researchStatus(countryId!),
    enabled: typeof countryId === "number" && countryId > 0,
  });
}

export function useGovernments(enabled = true) {
  return useQuery({ queryKey: manageKeys.governments, queryFn: () => manageApi.governments(), enabled });
}

export function useCountryOptions() {
  return useQuery({ queryKey: manageKeys.options, queryFn: () => manageApi.options() });
}

/** Stores a changed country in the cache and refreshes what depends on it. */
export function useApplyCountry(): (country: Country) => void {
  const queryClient = useQueryClient();
  return useCallback(
    (country: Country) => {
      queryClient.setQueryData(queryKeys.country(country.id), country);
      void queryClient.invalidateQueries({ queryKey: manageKeys.research(country.id) });
      void queryClient.invalidateQueries({ queryKey: manageKeys.governments });
      void queryClient.invalidateQueries({ queryKey: queryKeys.turnHistory });
      void queryClient.invalidateQueries({ queryKey: queryKeys.productionStatus(country.id) });
    },
    [queryClient],
  );
}
