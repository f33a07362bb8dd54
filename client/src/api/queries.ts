import { useQuery } from "@tanstack/react-query";
import { api } from "./endpoints";
import { queryKeys } from "./queryClient";

export { createQueryClient, queryKeys } from "./queryClient";

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
