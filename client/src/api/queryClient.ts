import { QueryClient } from "@tanstack/react-query";
import { ApiError } from "./http";

// The query client and the keys, apart from the game's queries (queries.ts) so the sign-in
// page loads neither the game's calls nor the rules they map with.

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
