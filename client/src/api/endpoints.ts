import type {
  AuthResponse,
  BuildingProductionJson,
  ConstructResponse,
  CountryListResponse,
  CountryResponse,
  ExploreResponse,
  PublicCountryJson,
  RegisterRequest,
  TurnHistoryResponse,
  TurnResultJson,
  UserJson,
  UserResponse,
} from "@game/schema/api";
import { toTurnResultJson } from "@game/schema/api";
import { STARTING_RESOURCES, type BuildingType, type ProductionPerTurn } from "@game/schema/rules";
import { routes } from "@game/schema/routes";
import { ApiError, callRoute } from "./http";
import { mapCountry, type Country } from "./country";

/** The spec's fallback messages (document 1, section 8), one per call. */
export const FALLBACK = {
  login: "Login failed",
  register: "Registration failed",
  logout: "Logout failed",
  me: "Failed to get user data",
  country: "Failed to get country data",
  countries: "Failed to get rankings",
  explore: "Exploration failed",
  construct: "Building construction failed",
  buildingCosts: "Failed to get building costs",
  buildingProduction: "Failed to get building production data",
  productionStatus: "Failed to get production status",
  turnHistory: "Failed to get turn history",
  chatChannels: "Failed to get chat channels",
  chatMessages: "Failed to get chat messages",
  onlineUsers: "Failed to get online users",
  sendChat: "Failed to send chat message",
  rankings: "Failed to get rankings",
  season: "Failed to get season data",
} as const;

/** 'Invalid response format' when no country object is returned (spec). */
export const INVALID_RESPONSE_FORMAT = "Invalid response format";
/** Country data load time-out (spec: 10 s) and its message. */
export const COUNTRY_LOAD_TIMEOUT_MS = 10_000;
export const COUNTRY_TIMEOUT_MESSAGE = "Country data fetch timeout";

/**
 * Starting resources sent with registration (spec: fixed table). The server ignores them and
 * uses the same shared table; sending them keeps the spec's payload shape.
 */
export const REGISTRATION_STARTING_RESOURCES = STARTING_RESOURCES;

/** A login or registration: the token and the user (AuthResponse without its envelope). */
export type AuthResult = Omit<AuthResponse, "success">;

/** What the registration form collects; the rest of RegisterRequest is filled in here. */
export type RegisterInput = Pick<RegisterRequest, "email" | "username" | "password" | "countryName">;

/** A turn result as the server sent it, or kept in history before a field existed. */
export function readTurnResult(raw: unknown): TurnResultJson {
  return toTurnResultJson(raw, Date.now());
}

export const api = {
  /** Calls any catalogue entry: `api.call(routes.explore, { countryId, turnsToSpend })`. */
  call: callRoute,

  async login(email: string, password: string): Promise<AuthResult> {
    const res = await callRoute(routes.login, { email, password });
    return { token: res.token, user: res.user };
  },

  async register(input: RegisterInput): Promise<AuthResult> {
    const res = await callRoute(
      routes.register,
      {
        email: input.email,
        username: input.username,
        password: input.password,
        countryName: input.countryName,
        governmentType: "monarchy",
        startingResources: REGISTRATION_STARTING_RESOURCES,
      } satisfies RegisterRequest,
    );
    return { token: res.token, user: res.user };
  },

  async logout(): Promise<void> {
    await callRoute(routes.logout);
  },

  /** Records on the server that the tutorial was finished or skipped. */
  async completeTutorial(): Promise<UserJson> {
    const res = await callRoute(routes.tutorialComplete);
    return res.user;
  },

  async me(signal?: AbortSignal): Promise<UserJson> {
    const res: Partial<UserResponse> = await callRoute(routes.me, undefined, { signal });
    if (!res.user) throw new ApiError(FALLBACK.me, 200, routes.me.path);
    return res.user;
  },

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
    const results = await Promise.all(
      entries.map(([buildingType, quantity]) =>
        callRoute(routes.construct, { countryId, buildingType: buildingType as BuildingType, quantity }),
      ),
    );
    return outcome(results[results.length - 1] ?? {});
  },

  async buildingProduction(countryId: number): Promise<BuildingProductionJson> {
    const res = await callRoute(routes.buildingProduction, { params: { countryId } });
    return res.data;
  },

  async productionStatus(countryId: number): Promise<ProductionPerTurn> {
    const res = await callRoute(routes.productionStatus, { params: { countryId } });
    return res.productionPerTurn;
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
