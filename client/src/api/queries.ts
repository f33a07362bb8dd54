import { useQuery } from "@tanstack/react-query";
import { api } from "./endpoints";
import type { EconomyBonuses } from "@game/schema/rules";
import { queryKeys } from "./queryClient";

export { createQueryClient, queryKeys } from "./queryClient";

export function useCountryQuery(countryId: number | null | undefined) {
  return useQuery({
    queryKey: queryKeys.country(countryId ?? 0),
    queryFn: ({ signal }) => api.country(countryId!, signal),
    enabled: typeof countryId === "number" && countryId > 0,
  });
}

const productionStatusQuery = (countryId: number | null | undefined) => ({
  queryKey: queryKeys.productionStatus(countryId ?? 0),
  queryFn: () => api.productionStatus(countryId!),
  enabled: typeof countryId === "number" && countryId > 0,
});

/** GET /production/status's production per turn (bonuses in force included). */
export function useProductionStatus(countryId: number | null | undefined) {
  return useQuery({ ...productionStatusQuery(countryId), select: (answer) => answer.productionPerTurn });
}

/**
 * The alliance and treaty bonuses in force for the own country, from the same answer (one
 * request): what the economy turn adds to taxes and research, for the previews to add too.
 * Undefined until it loads (and on an answer without them).
 */
export function useEconomyBonuses(countryId: number | null | undefined): EconomyBonuses | undefined {
  return useQuery({ ...productionStatusQuery(countryId), select: (answer) => answer.bonuses }).data ?? undefined;
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
