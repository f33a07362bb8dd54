import { QueryClient, useQuery } from "@tanstack/react-query";
import { ApiError } from "./http";
import { api } from "./endpoints";

/** Query keys, in one place so mutations know what to refresh. */
export const queryKeys = {
  me: ["me"] as const,
  country: (id: number) => ["country", id] as const,
  countries: ["countries"] as const,
  productionStatus: (id: number) => ["production-status", id] as const,
  buildingProduction: (id: number) => ["building-production", id] as const,
  turnHistory: ["turn-history"] as const,
};

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        // a 401/403/404 will not get better by asking again
        retry: (count, error) => !(error instanceof ApiError && error.status >= 400 && error.status < 500) && count < 2,
        staleTime: 15_000,
        refetchOnWindowFocus: false,
      },
    },
  });
}

export function useCountryQuery(countryId: number | null | undefined) {
  return useQuery({
    queryKey: queryKeys.country(countryId ?? 0),
    queryFn: ({ signal }) => api.country(countryId!, signal),
    enabled: typeof countryId === "number" && countryId > 0,
  });
}

export function useProductionStatus(countryId: number | null | undefined) {
  return useQuery({
    queryKey: queryKeys.productionStatus(countryId ?? 0),
    queryFn: () => api.productionStatus(countryId!),
    enabled: typeof countryId === "number" && countryId > 0,
  });
}

export function useBuildingProduction(countryId: number | null | undefined) {
  return useQuery({
    queryKey: queryKeys.buildingProduction(countryId ?? 0),
    queryFn: () => api.buildingProduction(countryId!),
    enabled: typeof countryId === "number" && countryId > 0,
  });
}

export function useTurnHistory(enabled = true) {
  return useQuery({ queryKey: queryKeys.turnHistory, queryFn: () => api.turnHistory(), enabled });
}

export function useCountriesList(enabled = true) {
  return useQuery({ queryKey: queryKeys.countries, queryFn: () => api.countries(100, 0), enabled, staleTime: 60_000 });
}
