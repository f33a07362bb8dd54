import type { BuildingProductionJson, ConstructResponse, CountryListResponse, CountryResponse, ExploreResponse, PublicCountryJson, TurnHistoryResponse, TurnResultJson } from "@game/schema/api";
import { toTurnResultJson } from "@game/schema/api/turnResult";
import type { BuildingType, EconomyBonuses, ProductionPerTurn } from "@game/schema/rules";
import { routes } from "@game/schema/routes";
import { ApiError, callRoute } from "./http";
import { mapCountry, type Country } from "./country";
import { authApi, FALLBACK } from "./auth";

export { FALLBACK, REGISTRATION_STARTING_RESOURCES, type AuthResult, type RegisterInput } from "./auth";

/** 'Invalid response format' when no country object is returned (spec). */
export const INVALID_RESPONSE_FORMAT = "Invalid response format";
/** Country data load time-out (spec: 10 s) and its message. */
export const COUNTRY_LOAD_TIMEOUT_MS = 10_000;
export const COUNTRY_TIMEOUT_MESSAGE = "Country data fetch timeout";

/** A turn result as the server sent it, or kept in history before a field existed. */
export function readTurnResult(raw: unknown): TurnResultJson {
  return toTurnResultJson(raw, Date.now());
}

export const api = {
  /** Calls any catalogue entry: `api.call(routes.explore, { countryId, turnsToSpend })`. */
  call: callRoute,

  ...authApi,

  /** GET /country/:id, abandoned after 10 s with 'Country data fetch timeout'. */
  async country(id: number, signal?: AbortSignal): Promise<Country> {
    let res: Partial<CountryResponse>;
    try {
      res = await callRoute(routes.country, { params: { id } }, { timeoutMs: COUNTRY_LOAD_TIMEOUT_MS, signal });
    } catch (err) {
      if (err instanceof ApiError && err.status === 0 && /timed out/.test(err.message)) {
        throw new ApiError(COUNTRY_TIMEOUT_MESSAGE, 0, err.path);
      }
      throw err;
    }
    if (!res.country || typeof res.country !== "object") throw new ApiError(INVALID_RESPONSE_FORMAT, 200, routes.country.path);
    return mapCountry(res.country);
  },

  async countries(limit = 100, offset = 0): Promise<{ countries: PublicCountryJson[]; total: number }> {
    const res: Partial<CountryListResponse> = await callRoute(routes.countries, { query: { limit, offset } }, { fallback: FALLBACK.countries });
    return { countries: res.countries ?? [], total: res.total ?? res.countries?.length ?? 0 };
  },

  /** POST /exploration/explore {countryId, turnsToSpend} */
  async explore(countryId: number, turnsToSpend: number): Promise<ActionOutcome> {
    const res = await callRoute(routes.explore, { countryId, turnsToSpend });
    return outcome(res);
  },

  /**
   * Constructs every ordered type in one all-or-nothing call (POST /buildings/construct-batch).
   * If that route is missing (404), falls back to the spec's one POST /buildings/construct per
   * type, all in parallel, all of which must succeed.
   */
  async construct(countryId: number, orders: Record<string, number>): Promise<ActionOutcome> {
    try {
      const res = await callRoute(routes.constructBatch, { countryId, orders });
      return outcome(res);
    } catch (err) {
      if (!(err instanceof ApiError) || err.status !== 404 || !/Unknown API route/.test(err.message)) throw err;
    }
    const entries = Object.entries(orders).filter(([, q]) => q > 0);
    const results = await Promise.all(entries.map(([buildingType, quantity]) => callRoute(routes.construct, { countryId, buildingType: buildingType as BuildingType, quantity })));
    return outcome(results[results.length - 1] ?? {});
  },

  async buildingProduction(countryId: number): Promise<BuildingProductionJson> {
    const res = await callRoute(routes.buildingProduction, { params: { countryId } });
    return res.data;
  },

  /** Production per turn and the outside bonuses in force (alliance, treaties) that the income previews add. */
  async productionStatus(countryId: number): Promise<{ productionPerTurn: ProductionPerTurn; bonuses: EconomyBonuses }> {
    const res = await callRoute(routes.productionStatus, { params: { countryId } });
    return { productionPerTurn: res.productionPerTurn, bonuses: res.bonuses };
  },

  async turnHistory(): Promise<TurnResultJson[]> {
    const res: Partial<TurnHistoryResponse> = await callRoute(routes.turnHistory, {});
    return (res.data ?? []).map(readTurnResult);
  },
};

/** What an economy action returns to the screen. */
export interface ActionOutcome {
  turnResult: TurnResultJson | null;
  /** the fresh country, when the answer carries it */
  country: Country | null;
}

function outcome(res: Partial<ExploreResponse | ConstructResponse>): ActionOutcome {
  return {
    turnResult: res.turnResult ? readTurnResult(res.turnResult) : null,
    country: res.country ? mapCountry(res.country) : null,
  };
}
